#!/usr/bin/env bash
# `calltree merge` checked against callgrind_annotate (valgrind 3.19) as the oracle:
#  * for corpus pairs, callgrind_annotate on merge(A, B) shows PROGRAM TOTALS = total(A) + total(B)
#    and, per function (file:function, its key there), the sum of A's and B's lines, event by event, with events
#    missing from one input counted as 0;
#  * the five per-thread files merge into one file whose totals are their sum;
#  * --parts=sum on the combined threads file gives the sum of its five parts' totals: lines, and
#    --parts=keep keeps five parts with the same totals, readable by calltree check and
#    callgrind_annotate;
#  * `calltree merge A -o A` (output = input) works, and errors exit 2.
# Usage: bash merge_annotate.sh CALLTREE CORPUS_DIR
set -u
ct=$(realpath "$1")
corpus=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
fail=0
say_fail() { echo "FAIL: $*"; fail=1; }

annotate() {  # FILE -> callgrind_annotate output listing every function, no percentages
  callgrind_annotate --auto=no --threshold=100 --show-percs=no "$1" 2>/dev/null
}

# Compares annotate outputs: merged == sum of inputs, PROGRAM TOTALS and per function.
check_sum() {  # MERGED INPUT...
  python3 - "$@" <<'EOF'
import sys
def parse(path):
    events, totals, funcs = None, None, {}
    section = 0
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("Events shown:"):
            events = line.split(":", 1)[1].split()
            continue
        if events is None or not line.strip() or line.startswith("-"):
            continue
        toks = line.split()
        n = len(events)
        if len(toks) <= n or not all(t == "." or t.replace(",", "").isdigit() for t in toks[:n]):
            continue
        vals = [0 if t == "." else int(t.replace(",", "")) for t in toks[:n]]
        # callgrind_annotate keys a function by file:function and prints the [object] of
        # whichever instance it met last, so the object is not part of the comparison.
        label = " ".join(toks[n:])
        if label.endswith("]") and " [" in label:
            label = label[:label.rindex(" [")]
        row = dict(zip(events, vals))
        if label.startswith("PROGRAM TOTALS"):
            totals = row
        else:
            acc = funcs.setdefault(label, {})
            for e, v in row.items():
                acc[e] = acc.get(e, 0) + v
    return events, totals, funcs
merged, inputs = parse(sys.argv[1]), [parse(p) for p in sys.argv[2:]]
ok = True
events = merged[0]
want_totals = {e: sum((i[1] or {}).get(e, 0) for i in inputs) for e in events}
if merged[1] != want_totals:
    print("PROGRAM TOTALS", merged[1], "expected", want_totals); ok = False
labels = set(merged[2])
for i in inputs: labels |= set(i[2])
bad = 0
for label in sorted(labels):
    want = {e: sum(i[2].get(label, {}).get(e, 0) for i in inputs) for e in events}
    got = {e: merged[2].get(label, {}).get(e, 0) for e in events}
    if want != got:
        bad += 1
        if bad <= 5: print("function", label, "merged", got, "expected", want)
if bad: ok = False
print("checked %d functions, %d events, totals %s" % (len(labels), len(events), merged[1]))
sys.exit(0 if ok else 1)
EOF
}

pair() {  # A B
  local a=$1 b=$2 out="merged-$1-$2"
  cp "$corpus/$a" "$corpus/$b" . 2>/dev/null
  "$ct" merge "$a" "$b" -o "$out" || { say_fail "merge $a $b exited $?"; return; }
  annotate "$a" >a.txt; annotate "$b" >b.txt
  annotate "$out" >m.txt || { say_fail "callgrind_annotate cannot read merge of $a $b"; return; }
  if check_sum m.txt a.txt b.txt; then echo "ok   merge $a + $b"; else say_fail "merge $a + $b"; fi
}

pair vg-threads-separate.t01.callgrind vg-threads-separate.t02.callgrind
pair vg-recurse-default.callgrind vg-recurse-noline.callgrind
pair vg-threads-collect-bus.callgrind vg-threads-separate.t03.callgrind      # Ir Ge + Ir
pair vg-perl-work-systime.callgrind vg-threads-collect-bus.callgrind         # Ir sysCount sysTime + Ir Ge
pair vg-phases-instr-jumps-nocompress-pos.callgrind vg-phases-toggle-collect.callgrind
pair vg-recurse-default.callgrind vg-recurse-default.callgrind               # A + A = 2A

# Five thread files into one.
threads=(vg-threads-separate.t0{1,2,3,4,5}.callgrind)
for t in "${threads[@]}"; do cp "$corpus/$t" .; done
"$ct" merge "${threads[@]}" -o threads.callgrind || say_fail "merge of the thread files"
for t in "${threads[@]}"; do annotate "$t" >"$t.txt"; done
annotate threads.callgrind >threads.txt
if check_sum threads.txt "${threads[@]/%/.txt}"; then echo "ok   five thread files"; else say_fail "five thread files"; fi
[ "$(grep -c '^totals:' threads.callgrind)" = 1 ] || say_fail "threads merge is not one part"

# The combined file's parts: sum and keep.
combined=vg-threads-separate-combined.callgrind
cp "$corpus/$combined" .
sum_of_parts=$(awk '/^totals:/ { s += $2 } END { print s }' "$combined")
"$ct" merge "$combined" --parts=sum -o summed.callgrind || say_fail "merge --parts=sum"
got=$(awk '/^totals:/ { print $2 }' summed.callgrind)
[ "$got" = "$sum_of_parts" ] || say_fail "--parts=sum totals: $got, expected $sum_of_parts"
program=$(annotate summed.callgrind | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
[ "$program" = "$sum_of_parts" ] || say_fail "--parts=sum: callgrind_annotate total $program, expected $sum_of_parts"
echo "ok   --parts=sum: $sum_of_parts"

"$ct" merge "$combined" --parts=keep -o kept.callgrind || say_fail "merge --parts=keep"
[ "$(grep '^totals:' kept.callgrind)" = "$(grep '^totals:' "$combined")" ] ||
  say_fail "--parts=keep: totals: lines differ from the input's"
[ "$(grep -c '^thread:' kept.callgrind)" = 5 ] || say_fail "--parts=keep: not five threads"
"$ct" check kept.callgrind >check.txt 2>&1 || { say_fail "calltree check on the kept parts"; cat check.txt; }
annotate kept.callgrind >/dev/null || say_fail "callgrind_annotate on the kept parts"
echo "ok   --parts=keep: $(grep -c '^totals:' kept.callgrind) parts"

# Output over an input; a missing input and bad usage exit 2 and write nothing.
cp "$corpus/vg-threads-separate.t05.callgrind" self.callgrind
before=$(awk '/^totals:/ { print $2 }' self.callgrind)
"$ct" merge self.callgrind self.callgrind -o self.callgrind || say_fail "merge into an input"
after=$(awk '/^totals:/ { print $2 }' self.callgrind)
[ "$after" = $((2 * before)) ] || say_fail "merge into an input: totals $after, expected $((2 * before))"
"$ct" merge self.callgrind no-such-file -o never.callgrind 2>/dev/null
[ $? = 2 ] || say_fail "missing input: exit status not 2"
[ -e never.callgrind ] && say_fail "missing input: an output was written"
: >empty.callgrind
"$ct" merge empty.callgrind -o never.callgrind 2>/dev/null
[ $? = 2 ] || say_fail "an input without data: exit status not 2"
[ -e never.callgrind ] && say_fail "an input without data: an output was written"
"$ct" merge self.callgrind 2>/dev/null
[ $? = 2 ] || say_fail "no -o: exit status not 2"
"$ct" merge self.callgrind --parts=some -o x 2>/dev/null
[ $? = 2 ] || say_fail "--parts=some: exit status not 2"
head -c 200000 "$corpus/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz" >cut.gz
"$ct" merge self.callgrind cut.gz -o never.callgrind 2>/dev/null
[ $? = 1 ] || say_fail "truncated input: exit status not 1"
[ -e never.callgrind ] && say_fail "truncated input: an output was written"
ls ./*.tmp.* >/dev/null 2>&1 && say_fail "a temporary file was left behind"
exit $fail
