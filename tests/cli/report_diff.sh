#!/usr/bin/env bash
# `calltree report --html OLD NEW -o diff.html --fail-above=PCT[:EVENT]` (docs/serve.md,
# "calltree report --html"): the exit status is `calltree diff --fail-above`'s on the same
# pair (0 passed, 1 failed, the page written in both cases), the verdict in the page is diff's
# text; a bad option or event exits 2 and an unwritable -o exits 2, with no file (nor a
# temporary one) left. What the page shows is checked in Chromium (web/tests/
# browser_report_diff.test.mjs).
set -uo pipefail
bin=$1
corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {  # expect DESCRIPTION EXPECTED_RC ACTUAL_RC
  if [ "$2" != "$3" ]; then echo "FAIL: $1: exit $3, expected $2"; fail=1; else echo "ok: $1"; fi
}
has() {  # has DESCRIPTION FILE PATTERN
  if grep -qE -- "$3" "$2"; then echo "ok: $1"; else echo "FAIL: $1: no /$3/ in:"; head -c 600 "$2"; echo; fail=1; fi
}
none() {  # none DESCRIPTION: no file in $tmp/out (nor a temporary one)
  if [ -n "$(ls -A "$tmp/out")" ]; then echo "FAIL: $1: files left: $(ls -A "$tmp/out")"; fail=1; else echo "ok: $1"; fi
}
mkdir "$tmp/out"

old=$corpus/vg-recurse-default.callgrind
# NEW: OLD twice (every cost doubled: Ir +100.00%).
"$bin" merge "$old" "$old" -o "$tmp/twice.callgrind" 2>/dev/null
new=$tmp/twice.callgrind

# The gate's three outcomes, each against calltree diff's on the same pair.
for case in "150 0" "50 1" "99.5:Ir 1" "100 0"; do
  set -- $case
  "$bin" diff --fail-above="$1" "$old" "$new" >"$tmp/diff.txt" 2>"$tmp/diff.err"
  want=$?
  expect "diff --fail-above=$1 (the reference)" "$2" "$want"
  "$bin" report --html --fail-above="$1" "$old" "$new" -o "$tmp/out/r.html" 2>"$tmp/err"
  expect "report --fail-above=$1: diff's status" "$want" $?
  [ -s "$tmp/out/r.html" ] && echo "ok: page written ($1)" || { echo "FAIL: no page ($1)"; fail=1; }
  # diff's gate heading and, on a failure, its FAILED line, are in the page's data.
  heading=$(grep '^Gate: ' "$tmp/diff.txt")
  has "the page says diff's heading ($1)" "$tmp/out/r.html" "\"heading\":\"${heading//(/\\(}\""
  if [ "$want" = 1 ]; then
    line=$(grep '^FAILED: ' "$tmp/diff.txt")
    line=${line//(/\\(}
    has "the page says diff's FAILED line ($1)" "$tmp/out/r.html" "\"line\":\"${line//+/\\+}\""
    has "stderr as diff's" "$tmp/err" "^calltree report: program total: Ir grew \+100.00% \(362,861,224 -> 725,722,448\), above"
  else
    has "the page says passed ($1)" "$tmp/out/r.html" '"line":"passed: PROGRAM TOTALS: Ir 362,861,224 -> 725,722,448 \(\+100.00%\)".*"passed":true'
  fi
  rm -f "$tmp/out/r.html"
done

# Without --fail-above: no gate, 0; the pair the other way round shrinks.
"$bin" report --html "$new" "$old" -o "$tmp/out/r.html" 2>"$tmp/err"
expect "report OLD NEW without a gate" 0 $?
has "no gate in the page" "$tmp/out/r.html" '"gate":null'
has "a diff page" "$tmp/out/r.html" '"mode":"diff"'
"$bin" report --html "$new" "$old" --fail-above=0 -o "$tmp/out/r.html" 2>"$tmp/err"
expect "a shrinking total passes --fail-above=0" 0 $?
rm -f "$tmp/out/r.html"

# Bad options: exit 2, no file.
for bad in "--fail-above=x" "--fail-above=-1" "--fail-above=5:Nope" "--fail-above=" "--event=Nope"; do
  "$bin" report --html "$bad" "$old" "$new" -o "$tmp/out/r.html" 2>"$tmp/err"
  expect "report $bad" 2 $?
  none "no file after $bad"
done
has "an unknown event says which are compared" "$tmp/err" "event 'Nope' is not compared \(compared: Ir\)"
# An event of one profile only: not compared, as calltree diff warns; not a gate's event.
sim=$corpus/vg-sqlite3-workload-cache-branch-sim.callgrind
"$bin" report --html --fail-above=5:Bc "$old" "$sim" -o "$tmp/out/r.html" 2>"$tmp/err"
expect "--fail-above on an event of NEW only" 2 $?
has "events not compared, as diff says" "$tmp/err" "^calltree report: warning: events not compared: Dr \(only in new\)"
has "Bc is not compared" "$tmp/err" "event 'Bc' is not compared \(compared: Ir\)"
"$bin" report --html --fail-above=5 "$old" -o "$tmp/out/r.html" 2>"$tmp/err"
expect "--fail-above with one profile" 2 $?
has "--fail-above needs two profiles" "$tmp/err" "needs two profiles"
"$bin" report --html "$old" "$new" "$old" -o "$tmp/out/r.html" 2>/dev/null
expect "three profiles" 2 $?
"$bin" report --html - "$new" -o "$tmp/out/r.html" <"$old" 2>/dev/null
expect "standard input as OLD" 2 $?
none "no file after the usage errors"
# An unwritable -o: exit 2 (a failing gate does not hide it), nothing written.
chmod a-w "$tmp/out"
if [ -w "$tmp/out" ]; then
  echo "skip: running as root, a read-only folder is writable"
else
  "$bin" report --html --fail-above=50 "$old" "$new" -o "$tmp/out/r.html" 2>"$tmp/err"
  expect "unwritable -o" 2 $?
  none "no file in the read-only folder"
fi
chmod u+w "$tmp/out"
# A folder as -o (root can write anywhere): the rename onto it fails, no temporary is left.
mkdir "$tmp/out/dir.html"
"$bin" report --html --fail-above=50 "$old" "$new" -o "$tmp/out/dir.html" 2>"$tmp/err"
expect "-o a folder" 2 $?
[ "$(ls -A "$tmp/out")" = dir.html ] && [ -z "$(ls -A "$tmp/out/dir.html")" ] && echo "ok: nothing written beside the folder" || { echo "FAIL: files left: $(ls -A "$tmp/out")"; fail=1; }
rmdir "$tmp/out/dir.html"
"$bin" report --html "$old" "$new" -o "$tmp/no-dir/r.html" 2>"$tmp/err"
expect "-o in a missing folder" 2 $?
[ -e "$tmp/no-dir" ] && { echo "FAIL: a folder was made"; fail=1; }
# A missing profile: 1 (as diff), no file.
"$bin" report --html "$tmp/none.callgrind" "$new" --fail-above=5 -o "$tmp/out/r.html" 2>/dev/null
expect "a missing OLD" 1 $?
none "no file for a missing profile"
# An input with errors: the page, and 1 as diff (an error-level line in NEW).
sed '0,/^fn=/s//fn=(999999999999999999999999)\nfn=/' "$old" >"$tmp/bad.callgrind"
"$bin" diff "$old" "$tmp/bad.callgrind" >/dev/null 2>&1
want=$?
"$bin" report --html "$old" "$tmp/bad.callgrind" -o "$tmp/out/r.html" 2>"$tmp/err"
expect "an input with errors: diff's status" "$want" $?
[ "$want" = 1 ] && [ -s "$tmp/out/r.html" ] && echo "ok: page of an input with errors" || { [ "$want" = 1 ] && { echo "FAIL: no page"; fail=1; }; }
exit $fail
