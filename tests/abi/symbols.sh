#!/usr/bin/env bash
# symbols.sh — libcalltree.so exports the public API and nothing else: the dynamic symbols it
# defines (nm -D --defined-only, demangled, sorted) are exactly those of public_symbols.txt.
# A symbol exported and not listed is an internal one that leaked (a CALLTREE_API mark on
# something not in the API, or a class marked whole); one listed and not exported is a public
# declaration that lost its mark or its definition. Either is an ABI change.
# Usage: symbols.sh LIBCALLTREE_SO [LIST]
set -euo pipefail
so=$1
list=${2:-$(dirname "$0")/public_symbols.txt}
[[ -f $so ]] || { echo "symbols.sh: no library at $so" >&2; exit 1; }
actual=$(mktemp)
trap 'rm -f "$actual" "$actual.diff"' EXIT
# (The address and the type letter are left out: a list that holds names only does not change
# with the compiler's choice of a weak or a strong definition.)
nm -D --defined-only -C "$so" | sed -E 's/^[0-9a-fA-F]+ [A-Za-z] //' | LC_ALL=C sort -u >"$actual"
if ! diff -u "$list" "$actual" >/dev/null; then
  echo "libcalltree.so's exported symbols differ from $list"
  echo "(- listed, not exported; + exported, not listed):"
  diff -u "$list" "$actual" | sed -n '3,$p' | grep '^[-+]' >"$actual.diff" || true
  head -40 "$actual.diff"
  (($(wc -l <"$actual.diff") > 40)) && echo "... ($(wc -l <"$actual.diff") lines in all)"
  echo
  echo "A new public symbol is a deliberate edit of the list: mark the declaration CALLTREE_API"
  echo "(include/calltree/export.h), rebuild, and write the list anew with"
  echo "  nm -D --defined-only -C $so | sed -E 's/^[0-9a-fA-F]+ [A-Za-z] //' | LC_ALL=C sort -u > $list"
  echo "An internal symbol in the list (+) needs its mark taken off instead."
  exit 1
fi
echo "libcalltree.so exports the $(wc -l <"$actual") symbols of $(basename "$list")"
