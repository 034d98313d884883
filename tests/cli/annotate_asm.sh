#!/usr/bin/env bash
# `calltree annotate --asm` end to end, on profiles made here: tests/asm/hot.c (a hot loop
# with a conditional) built with gcc -O2 -g as a PIE and with -no-pie, calling mix() in a
# shared library (tests/asm/mix.c), run under callgrind --dump-instr=yes --collect-jumps=yes
# with a small iteration count (the PIE with cache and branch simulation too, so every event
# set is met). tests/asm/check_asm.py checks the JSON of both against objdump and the run
# (exactly objdump's instructions, costs summing to the self cost, the loop's jump counts);
# this script checks the text, the default choice of functions, a moved object
# (--object-root), a rebuilt (changed) program (the mismatch note and no numbers), a missing
# object, the usage errors, and serve's GET /api/v1/asm/ID (tests/asm/serve_asm.py).
set -uo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")/../asm" && pwd)
for tool in gcc valgrind objdump python3; do
  command -v $tool >/dev/null || { echo "annotate_asm.sh: $tool missing (scripts/install-deps.sh)"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

N=1237
gcc -O2 -g -fPIC -shared -o libmix.so "$here/mix.c" &&
  gcc -O2 -g -pie -fPIE -o hot_pie "$here/hot.c" -L. -lmix -Wl,-rpath,'$ORIGIN' &&
  gcc -O2 -g -no-pie -o hot_nopie "$here/hot.c" -L. -lmix -Wl,-rpath,'$ORIGIN' ||
  { echo "FAIL: gcc"; exit 1; }
vg() { valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes "$@" >/dev/null 2>&1; }
vg --cache-sim=yes --branch-sim=yes --callgrind-out-file=cg.pie ./hot_pie $N &&
  vg --callgrind-out-file=cg.nopie ./hot_nopie $N || { echo "FAIL: valgrind"; exit 1; }

# The JSON of both programs against objdump and the run.
for kind in pie nopie; do
  if "$bin" annotate --json --asm='^(hot_loop|mix)$' cg.$kind >$kind.json 2>$kind.err; then
    python3 "$here/check_asm.py" $kind.json $N objdump || fail=1
  else
    bad "annotate --json --asm cg.$kind: $(cat $kind.err)"
  fi
done
# serve's machine-code panel: GET /api/v1/asm/ID gives what annotate --json --asm gives.
python3 "$here/serve_asm.py" "$bin" cg.pie pie.json || fail=1

# The addresses as callgrind wrote them: the PIE's small (link-time), the other's at 0x400000.
python3 - pie.json nopie.json <<'EOF' && ok "PIE addresses below 0x10000, non-PIE above 0x400000" || fail=1
import json, sys
pie = {a["function"]: int(a["instructions"][0]["address"], 16) for a in json.load(open(sys.argv[1]))["asm"]}
nopie = {a["function"]: int(a["instructions"][0]["address"], 16) for a in json.load(open(sys.argv[2]))["asm"]}
sys.exit(0 if pie["hot_loop"] < 0x10000 <= 0x400000 <= nopie["hot_loop"] and pie["mix"] == nopie["mix"] else 1)
EOF

# The text: the events of cache and branch simulation, the loop's jump, hot marks, calls.
"$bin" annotate --asm='^(hot_loop|main)$' cg.pie >text.txt 2>text.err || bad "annotate --asm text"
grep -q '^Ir  *Dr  *Dw  *I1mr .*Bc  *Bcm  *Bi  *Bim *$' text.txt && ok "text: every event's column" ||
  bad "text: the event columns"
grep -Eq "\| jump [0-9,]+ of 1,237 \([0-9.]+% taken\) to [0-9a-f]+$" text.txt &&
  ok "text: the loop's conditional jump executed 1,237 times" || bad "text: the loop's jump"
grep -q '^ .*\* *[0-9a-f]*: ' text.txt && ok "text: hot instructions marked" || bad "text: hot marks"
grep -q '=> mix (123x) \[.*/libmix.so\]$' text.txt && ok "text: the call to mix, 123 times" ||
  bad "text: the call line"
grep -q -- "-- .*hot.c:[0-9]* --  *if (v\[i & 7\] > 3)$" text.txt && ok "text: source lines as headers" ||
  bad "text: source headers"
grep -q "Auto-annotated source" text.txt && bad "text: source annotated without --auto=yes" ||
  ok "text: no source annotation unless --auto=yes"

# --asm alone: the functions the report's table lists (hot_loop among them, and more).
"$bin" annotate --asm cg.nopie >default.txt 2>&1 || bad "annotate --asm (default choice)"
n=$(grep -c '^-- Machine code: ' default.txt)
rows=$(sed -n '/file:function$/,/^$/p' default.txt | grep -c '\[')
grep -q '^-- Machine code: hot_loop ' default.txt && [ "$n" -ge 3 ] &&
  ok "--asm alone: $n functions, of $rows table rows with an object" || bad "--asm alone ($n)"

# Objects moved since the run: --object-root OLD=NEW.
mkdir moved && cp hot_pie libmix.so moved/ && touch -r cg.pie moved/hot_pie moved/libmix.so
mv hot_pie hot_pie.orig
"$bin" annotate --json --asm='^(hot_loop|mix)$' --object-root "$tmp=$tmp/moved" cg.pie >moved.json 2>/dev/null &&
  python3 "$here/check_asm.py" moved.json $N objdump >/dev/null && grep -q '"object_path":"[^"]*/moved/hot_pie"' moved.json &&
  ok "--object-root: the moved objects annotated" || bad "--object-root"
# ... and without it the program is missing: a note, no numbers, exit 0.
"$bin" annotate --asm='^hot_loop$' cg.pie >missing.txt 2>missing.err &&
  grep -q "Not annotated: the object file $tmp/hot_pie is not found (--object-root OLD=NEW says where it moved)" missing.txt &&
  ok "a missing object: its note" || bad "missing object: $(grep -A1 'Machine code' missing.txt)"

# A rebuilt program (one statement more): the mismatch note instead of numbers.
mkdir rebuilt && gcc -O2 -g -DCHANGED -o rebuilt/hot_pie "$here/hot.c" -L. -lmix -Wl,-rpath,'$ORIGIN'
"$bin" annotate --asm='^hot_loop$' --object-root "$tmp/hot_pie=$tmp/rebuilt/hot_pie" cg.pie >rebuilt.txt 2>rebuilt.err
section=$(sed -n '/^-- Machine code: hot_loop/,$p' rebuilt.txt)
if grep -q "Not annotated: .*the object changed since the run" <<<"$section" &&
  ! grep -q '^ *[0-9,]\+ ' <<<"$section" && grep -q "1 of 1 functions not annotated" rebuilt.err; then
  ok "a rebuilt program: $(grep -o 'Not annotated: .*' <<<"$section" | cut -c1-110)..."
else
  bad "rebuilt program:"$'\n'"$section"
fi
"$bin" annotate --json --asm='^hot_loop$' --object-root "$tmp/hot_pie=$tmp/rebuilt/hot_pie" cg.pie 2>/dev/null |
  grep -q '"status":"mismatch"' && ok "a rebuilt program: JSON status mismatch" || bad "rebuilt JSON"
mv hot_pie.orig hot_pie

# Usage: no objdump to run (exit 2), stdin (read twice: exit 2), options without --asm.
"$bin" annotate --asm='^hot_loop$' --objdump=/nonexistent/objdump cg.pie >/dev/null 2>noobjdump.err
[ $? = 2 ] && grep -q "cannot run /nonexistent/objdump" noobjdump.err && ok "--objdump not runnable: exit 2" ||
  bad "--objdump not runnable"
"$bin" annotate --asm - <cg.pie >/dev/null 2>&1
[ $? = 2 ] && ok "--asm with stdin: exit 2" || bad "--asm with stdin"
"$bin" annotate --object-root a=b cg.pie >/dev/null 2>&1
[ $? = 2 ] && ok "--object-root without --asm: exit 2" || bad "--object-root without --asm"
"$bin" annotate --asm='(' cg.pie >/dev/null 2>&1
[ $? = 2 ] && ok "a bad regex: exit 2" || bad "a bad regex"

[ $fail = 0 ] && echo "annotate_asm.sh: all passed" || echo "annotate_asm.sh: FAILED"
exit $fail
