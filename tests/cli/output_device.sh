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
# through_fifo NAME ARGS...: `calltree ARGS -o FIFO` gives what `-o FILE` gives, and the FIFO
# stays. (A FIFO renamed over leaves its reader waiting: `timeout` ends it, and the test fails.)
through_fifo() {
  local name=$1
  shift
  "$bin" "$@" -o "$tmp/want.$name"
  rm -f "$tmp/pipe"
  mkfifo "$tmp/pipe"
  timeout 60 cat "$tmp/pipe" > "$tmp/got.$name" &
  local reader=$!
  "$bin" "$@" -o "$tmp/pipe" || { echo "FAIL: $name: -o FIFO failed" >&2; exit 1; }
  [ -p "$tmp/pipe" ] || { echo "FAIL: $name: the FIFO was replaced" >&2; exit 1; }
  wait "$reader" || { echo "FAIL: $name: the FIFO's reader got no end" >&2; exit 1; }
  [ -s "$tmp/want.$name" ] || { echo "FAIL: $name: empty output" >&2; exit 1; }
  cmp "$tmp/want.$name" "$tmp/got.$name" || { echo "FAIL: $name: the FIFO got other bytes" >&2; exit 1; }
  local left
  for left in "$tmp"/*tmp* "$tmp"/.*tmp*; do
    if [ -e "$left" ]; then
      echo "FAIL: $name: a temporary file was left: $left" >&2
      exit 1
    fi
  done
}
through_fifo folded export --to=folded "$in"
through_fifo convert convert "$in"
through_fifo merge merge "$in" "$in"
# A directory is refused, nothing renamed onto it.
if "$bin" export --to=folded "$in" -o "$tmp" 2>"$tmp/err"; then
  echo "FAIL: -o DIRECTORY succeeded" >&2
  exit 1
fi
grep -q "is a directory" "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
echo "ok"
