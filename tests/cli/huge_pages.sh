#!/usr/bin/env bash
# Large blocks ask for transparent huge pages (cli/huge_pages.cc), and nothing else changes.
#
# `export --to=json` and `merge` (models of 20 MB and more) on the corpus's largest profile,
# under strace: by default the process asks madvise(MADV_HUGEPAGE) for at least one block,
# every range it asks for is 2 MB-aligned at both ends, and with CALLTREE_HUGE_PAGES=0 it asks
# for none; the outputs are the same bytes either way. `export --to=json` into a file (the
# streaming path: cli/huge_pages.h) asks for none, and writes those bytes too. (Not under the
# sanitizers, whose operator new is their own: make test-sanitize leaves this test out.)
set -uo pipefail
bin=$1
corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
command -v strace >/dev/null || { echo "huge_pages: strace is missing (scripts/install-deps.sh)"; exit 1; }
gzip -dc "$corpus/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz" >"$tmp/big.callgrind"

run() {  # run NAME HUGE_PAGES ARGS...: the command's stdout to NAME.out, its madvise calls to NAME.trace
  local name=$1 hp=$2
  shift 2
  CALLTREE_HUGE_PAGES=$hp strace -f -qq -e trace=madvise -o "$tmp/$name.trace" "$bin" "$@" >"$tmp/$name.out" \
    || { echo "FAIL: $* (CALLTREE_HUGE_PAGES=$hp) exited $?"; fail=1; }
}
for c in json merge; do
  if [ $c = json ]; then args=(export --to=json "$tmp/big.callgrind" -o -); else args=(merge "$tmp/big.callgrind" -o -); fi
  run "$c-on" 1 "${args[@]}"
  run "$c-off" 0 "${args[@]}"
  cmp -s "$tmp/$c-on.out" "$tmp/$c-off.out" || { echo "FAIL: $c: the output depends on CALLTREE_HUGE_PAGES"; fail=1; }
  asked=$(grep -c 'MADV_HUGEPAGE' "$tmp/$c-on.trace")
  [ "$asked" -ge 1 ] || { echo "FAIL: $c: no madvise(MADV_HUGEPAGE) by default"; fail=1; }
  [ "$(grep -c 'MADV_HUGEPAGE' "$tmp/$c-off.trace")" -eq 0 ] || { echo "FAIL: $c: madvise(MADV_HUGEPAGE) with CALLTREE_HUGE_PAGES=0"; fail=1; }
  # madvise(0x7f..., LENGTH, MADV_HUGEPAGE): both ends on a 2 MB boundary.
  while read -r addr len; do
    if (( addr % 2097152 != 0 || len % 2097152 != 0 || len == 0 )); then
      echo "FAIL: $c: madvise($addr, $len) is not 2 MB-aligned"
      fail=1
    fi
  done < <(sed -n 's/.*madvise(\(0x[0-9a-f]*\), \([0-9]*\), MADV_HUGEPAGE).*/\1 \2/p' "$tmp/$c-on.trace")
  echo "$c: $asked blocks on huge pages"
done
CALLTREE_HUGE_PAGES=1 strace -f -qq -e trace=madvise -o "$tmp/json-file.trace" "$bin" export --to=json \
  "$tmp/big.callgrind" -o "$tmp/json-file.out" || { echo "FAIL: export --to=json -o FILE exited $?"; fail=1; }
cmp -s "$tmp/json-file.out" "$tmp/json-on.out" || { echo "FAIL: json into a file is not json to stdout"; fail=1; }
[ "$(grep -c 'MADV_HUGEPAGE' "$tmp/json-file.trace")" -eq 0 ] \
  || { echo "FAIL: export --to=json into a file asked for huge pages"; fail=1; }
[ $fail -eq 0 ] && echo "huge pages: asked for by default, aligned, off with CALLTREE_HUGE_PAGES=0 and for json streamed to a file, same outputs"
exit $fail
