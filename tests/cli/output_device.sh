#!/usr/bin/env bash
# output_device.sh CALLTREE — `-o` naming a device or a FIFO writes into it and leaves it what
# it was (a temporary file renamed onto /dev/null would replace the device with a file; the
# FIFO stands for it here, so that a regression cannot break the machine's /dev/null).
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
in=$here/examples/recurse.callgrind
"$bin" export --to=folded "$in" -o "$tmp/want.folded"
mkfifo "$tmp/pipe"
cat "$tmp/pipe" > "$tmp/got.folded" &
reader=$!
"$bin" export --to=folded "$in" -o "$tmp/pipe"
wait "$reader"
[ -p "$tmp/pipe" ] || { echo "FAIL: the FIFO was replaced" >&2; exit 1; }
[ -s "$tmp/want.folded" ] || { echo "FAIL: empty export" >&2; exit 1; }
cmp "$tmp/want.folded" "$tmp/got.folded" || { echo "FAIL: the FIFO got other bytes" >&2; exit 1; }
# A directory is refused, nothing renamed onto it.
if "$bin" export --to=folded "$in" -o "$tmp" 2>"$tmp/err"; then
  echo "FAIL: -o DIRECTORY succeeded" >&2
  exit 1
fi
grep -q "is a directory" "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
echo "ok"
