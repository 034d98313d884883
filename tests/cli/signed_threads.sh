#!/usr/bin/env bash
# Signed costs on the parallel reader (docs/format.md, "Signed costs"): a file of differences
# of a few MB, bigger than many of the reader's 128 KiB chunks, whose first MB holds no negative
# number (so the chunks read on other threads meet the file's first negatives), read with
# --threads=1 and --threads=2. Every total is the signed sum this script computes itself (a
# thread summing unsigned would hold a negative addend at 2^64-1), and check, annotate
# (text and --json) print the same with one thread and two, and merge with an unsigned file
# gives the signed sums with either.
# Usage: bash signed_threads.sh CALLTREE [CORPUS_DIR]
set -u
ct=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
exec /usr/bin/python3 - "$ct" <<'EOF'
import json, random, re, subprocess, sys

ct = sys.argv[1]
failed = []

def fail(msg):
    print("FAIL:", msg)
    failed.append(msg)

def run(*args, code=0):
    r = subprocess.run([ct, *args], capture_output=True, text=True)
    if r.returncode != code:
        fail("calltree %s exited %d (want %d): %s" % (" ".join(args), r.returncode, code, r.stderr[-2000:]))
    return r

# A cg_diff-like file: 3 events, 400 functions in 40 files, about 4 MB of cost lines; the
# first ~1 MB positive only, then changes of either sign.
rng = random.Random(50)
events = ["Ir", "Dr", "Dw"]
totals = [0, 0, 0]
self_of = {}
lines = ["desc: Files compared:   old; new", "cmd:  ./old; ./new", "events: " + " ".join(events)]
size = 0
fn = 0
while size < 4_000_000:
    fl = "src/file%d.c" % (fn % 40)
    name = "func_%d" % fn
    fn += 1
    block = ["fl=" + fl, "fn=" + name]
    for ln in range(1, 200):
        if size < 1_000_000:
            costs = [rng.randint(0, 5000) for _ in events]
        else:
            costs = [rng.randint(-9000, 4000) for _ in events]
        block.append("%d %s" % (ln, " ".join(str(c) for c in costs)))
        for i, c in enumerate(costs):
            totals[i] += c
        s = self_of.setdefault(name, [0, 0, 0])
        for i, c in enumerate(costs):
            s[i] += c
    text = "\n".join(block)
    size += len(text) + 1
    lines.extend(block)
lines.append("summary: " + " ".join(str(t) for t in totals))
with open("big.cgdiff", "w") as f:
    f.write("\n".join(lines) + "\n")
if not all(t < 0 for t in totals):
    fail("the generated file's totals are not negative: %s" % totals)

want = " ".join("%s=%d" % (e, t) for e, t in zip(events, totals))
for t in ("1", "2"):
    out = run("check", "--threads=" + t, "big.cgdiff").stdout
    if want not in out:
        fail("check --threads=%s: want %s in:\n%s" % (t, want, out[-1500:]))

# annotate --json: the program totals and every function's self cost, exact and signed.
by_threads = {}
for t in ("1", "2"):
    j = json.loads(run("annotate", "--json", "--threads=" + t, "--threshold=100", "big.cgdiff").stdout)
    tot = j["totals"]
    got = [tot[e] if isinstance(tot, dict) else tot[i] for i, e in enumerate(events)]
    if got != totals:
        fail("annotate --json --threads=%s: totals %s, want %s" % (t, got, totals))
    by_threads[t] = j
    text = run("annotate", "--threads=" + t, "--threshold=100", "big.cgdiff").stdout
    by_threads["text" + t] = text
    if "18446744" in text or "{:,}".format(totals[0]) not in text:
        fail("annotate --threads=%s: no %s, or a wrapped number:\n%s" % (t, "{:,}".format(totals[0]), text[:1500]))
if by_threads["1"] != by_threads["2"]:
    fail("annotate --json differs between --threads=1 and --threads=2")
if by_threads["text1"] != by_threads["text2"]:
    fail("annotate differs between --threads=1 and --threads=2")
# Every function's self Ir in annotate's text, as summed here.
text = by_threads["text2"]
for name in ("func_0", "func_%d" % (fn // 2), "func_%d" % (fn - 1)):
    v = "{:,}".format(self_of[name][0])
    if not re.search(r"^\s*%s\b.*\b%s\b" % (re.escape(v), re.escape(name)), text, re.M):
        fail("annotate: %s's self Ir %s not on its row" % (name, v))

# convert (the streamed writer): the signed numbers as read, the signed summary.
run("convert", "big.cgdiff", "-o", "one.out")
one = open("one.out").read()
if "18446744" in one or ("summary: " + " ".join(str(t) for t in totals)) not in one:
    fail("convert wrote a wrapped negative number, or not the summary " + str(totals))

# merge (--threads=1 and 2): the signed file and an unsigned one: the merged profile's totals
# are the signed sums.
with open("small.out", "w") as f:
    f.write("events: Ir Dr Dw\nfl=a.c\nfn=small\n1 7 8 9\n")
for t in ("1", "2"):
    run("merge", "--threads=" + t, "big.cgdiff", "small.out", "-o", "m%s.out" % t)
    out = run("check", "m%s.out" % t).stdout
    w = " ".join("%s=%d" % (e, x + d) for e, x, d in zip(events, totals, (7, 8, 9)))
    if w not in out:
        fail("merge --threads=%s big.cgdiff small.out: want %s in:\n%s" % (t, w, out[-1500:]))

if failed:
    print("%d failures" % len(failed))
    sys.exit(1)
print("ok")
EOF
