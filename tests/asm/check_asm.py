#!/usr/bin/env python3
"""check_asm.py JSON N OBJDUMP -- the checks of tests/cli/annotate_asm.sh on `calltree annotate
--json --asm='^(hot_loop|mix)$'` of a profile of tests/asm/hot.c run with argument N.

For hot_loop (in the program) and mix (in libmix.so), each must be annotated (status ok) and:
 * list exactly the instructions `objdump -d -w --disassemble=NAME OBJECT` lists (address
   and mnemonic, in order), an independent disassembly of the function's symbol;
 * have per-instruction self costs summing, for every event, to the self cost the annotate
   report gives the function (its `functions` table: another path through the profile);
 * show the loop's conditional jump with the counts the program's run must give: hot_loop's
   test of v[i & 7] > 3 executed N times and taken for 4 of every 8 i; mix's loop branch
   executed 4 times per call (N // 10 calls) and taken 3 of them.
Prints one line per check; exits 1 if any fails.
"""
import json
import subprocess
import sys

doc = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
objdump = sys.argv[3]
failed = False


def check(ok, what):
    global failed
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failed = True


v = [1, 5, 2, 7, 3, 9, 4, 0]
expect_jump = {
    "hot_loop": (n, sum(1 for i in range(n) if v[i & 7] > 3)),
    "mix": (4 * (n // 10), 3 * (n // 10)),
}
views = {a["function"]: a for a in doc.get("asm", [])}
check(sorted(views) == ["hot_loop", "mix"], "annotated: %s" % sorted(views))
for name, a in sorted(views.items()):
    check(a["status"] == "ok", "%s: status %s %s" % (name, a["status"], a["message"]))
    if a["status"] != "ok":
        continue
    out = subprocess.run([objdump, "-d", "-w", "--disassemble=" + name, a["object_path"]],
                         capture_output=True, text=True, check=True).stdout
    theirs = []
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) >= 3 and parts[0].strip().endswith(":"):
            theirs.append((int(parts[0].strip()[:-1], 16), parts[2].split()[0]))
    ours = [(int(i["address"], 16), i["mnemonic"]) for i in a["instructions"]]
    check(ours == theirs and len(ours) > 5,
          "%s: the %d instructions of objdump --disassemble=%s (%d listed)"
          % (name, len(theirs), name, len(ours)))
    fn = [f for f in doc["functions"] if f["name"] == name and f["object"] == a["object"]]
    check(len(fn) == 1, "%s: one row in the report's table" % name)
    for e in a["events"]:
        total = sum(i["self"][e] for i in a["instructions"])
        check(total == fn[0]["self"][e] == a["self"][e],
              "%s: %s per instruction sums to %d, the report's self cost %d"
              % (name, e, total, fn[0]["self"][e]))
    jumps = [j for i in a["instructions"] for j in i["jumps"] if j["conditional"]]
    want = expect_jump[name]
    check(any((j["executed"], j["followed"]) == want for j in jumps),
          "%s: a conditional jump executed %d times, taken %d (%s)"
          % (name, want[0], want[1], [(j["executed"], j["followed"]) for j in jumps]))
    inside = [(j["target"], a["instructions"][j["target_index"]]["address"])
              for i in a["instructions"] for j in i["jumps"] if j["target_index"] is not None]
    check(inside and all(t == at for t, at in inside),
          "%s: the %d jumps inside it point at their target instructions" % (name, len(inside)))
sys.exit(1 if failed else 0)
