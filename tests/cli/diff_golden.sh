#!/usr/bin/env bash
# Golden tests of `calltree diff` (text and JSON) and of the files `calltree merge` writes for them.
#
# Each case is a folder tests/golden-diff/<case>/ with
#   cmd            the arguments after `calltree` (one line, shell words), run in a scratch
#                  folder that holds the corpus files (symlinked, so names are short and the
#                  output does not depend on where the corpus is) and the fixtures below;
#   expected       the expected standard output (text), or
#   expected.json  the expected standard output, compared after `python3 -m json.tool`;
#   status         the expected exit status (0 when absent);
#   stderr         if present, the expected standard error.
# Fixtures, made with `calltree merge`: aa.callgrind = vg-recurse-default twice;
# threads-merged.callgrind = the five vg-threads-separate.t0N files.
#
# Usage: bash diff_golden.sh CALLTREE CORPUS_DIR; CALLTREE_UPDATE_GOLDEN=1 rewrites the
# expected files from the current output (review the git diff before committing).
set -u
ct=$(realpath "$1")
corpus=$(realpath "$2")
cases=$(realpath "$(dirname "$0")/../golden-diff")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
for f in "$corpus"/*; do ln -s "$f" .; done
"$ct" merge vg-recurse-default.callgrind vg-recurse-default.callgrind -o aa.callgrind || exit 1
"$ct" merge vg-threads-separate.t0{1,2,3,4,5}.callgrind -o threads-merged.callgrind || exit 1

fail=0
for dir in "$cases"/*/; do
  name=$(basename "$dir")
  [ -f "$dir/cmd" ] || continue
  want_status=0
  [ -f "$dir/status" ] && want_status=$(cat "$dir/status")
  eval "set -- $(cat "$dir/cmd")"
  "$ct" "$@" >out.txt 2>err.txt
  status=$?
  if [ -f "$dir/expected.json" ]; then
    python3 -m json.tool out.txt >out.norm 2>&1 || { echo "FAIL $name: output is not JSON"; cat out.txt; fail=1; continue; }
    expected="$dir/expected.json"
  else
    cp out.txt out.norm
    expected="$dir/expected"
  fi
  if [ -n "${CALLTREE_UPDATE_GOLDEN:-}" ]; then
    cp out.norm "$expected"
    [ "$status" -ne 0 ] && echo "$status" >"$dir/status" || rm -f "$dir/status"
    [ -f "$dir/stderr" ] && cp err.txt "$dir/stderr"
    echo "updated $name"
    continue
  fi
  ok=1
  if [ "$status" != "$want_status" ]; then
    echo "FAIL $name: exit status $status, expected $want_status"; ok=0
  fi
  if ! diff -u "$expected" out.norm >diff.txt; then
    echo "FAIL $name: output differs"; head -60 diff.txt; ok=0
  fi
  if [ -f "$dir/stderr" ] && ! diff -u "$dir/stderr" err.txt >diff.txt; then
    echo "FAIL $name: stderr differs"; head -30 diff.txt; ok=0
  fi
  if [ $ok = 1 ]; then echo "ok   $name"; else fail=1; fi
done
exit $fail
