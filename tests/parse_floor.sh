#!/usr/bin/env bash
# parse_floor.sh PARSE_FLOOR CALLTREE CORPUS — bench/parse_floor reads every cost line.
#
# The floor is quoted against calltree's time (bench/compare.sh, docs/performance.md): a floor
# that stepped over lines it should read would be lower than it is. On the corpus's instr-level
# callgrind files (the shape of the benchmark files) its count of cost lines, with one thread
# and with two, must be calltree's cost lines + call lines (their cost lines) + jump lines
# (their source lines).
set -euo pipefail
floor=$1 calltree=$2 corpus=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gzip -dc "$corpus/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz" > "$tmp/big.callgrind"
fail=0
for f in "$tmp/big.callgrind" "$corpus/vg-python-work-instr-jumps.callgrind" \
         "$corpus/vg-phases-instr-jumps-nocompress-pos.callgrind" \
         "$corpus/vg-gxx-small-default.cc1plus.callgrind"; do
  want=$("$calltree" check --json "$f" |
         python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["cost_lines"]+j["call_lines"]+j["jump_lines"])')
  for t in 1 2; do
    got=$("$floor" --threads=$t "$f" | sed -n 's/.*lines: \([0-9]*\) cost lines.*/\1/p')
    if [ "$got" != "$want" ]; then
      echo "FAIL: $(basename "$f") --threads=$t: parse_floor read $got cost lines, calltree $want" >&2
      fail=1
    else
      echo "ok: $(basename "$f") --threads=$t: $got cost lines"
    fi
  done
done
exit $fail
