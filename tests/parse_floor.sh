#!/usr/bin/env bash
# parse_floor.sh PARSE_FLOOR CALLTREE CORPUS — bench/parse_floor reads every cost line.
#
# The floor is quoted against calltree's time (bench/compare.sh, docs/performance.md): a floor
# that stepped over lines it should read would be lower than it is. On the corpus's instr-level
# callgrind files (the shape of the benchmark files) its count of cost lines, with one thread
# and with two, must be calltree's cost lines + call lines (their cost lines) + jump lines
# (their source lines). With --simd=avx512 and --simd=avx2 (each where the CPU has it), on every
# corpus, golden and malformed input and on lines made to fall just outside what the SIMD windows
# take, its output (lines, cost lines, cost sum, key lines, names, check value) must be the
# floor's without it.
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

# The SIMD floors read what the scalar one reads.
paths=()
for isa in avx512 avx2; do
  if "$floor" --simd="$isa" "$tmp/big.callgrind" > /dev/null 2>&1; then paths+=("$isa");
  else echo "skipped: parse_floor --simd=$isa (not on this CPU)"; fi
done
[ ${#paths[@]} -gt 0 ] || exit $fail
here=$(cd "$(dirname "$0")" && pwd)
# Runs of `+D L C` lines (64 bytes and more of them) broken by each kind of line the windows
# leave to the per-line code: other line tokens, hex, a minus, a trailing space, tabs, CR, 16 and
# 20 digits, an empty line, an instr that goes past 2^64-1 (the run after 0xfffffffffffffff0).
edge=$tmp/edge.callgrind
RANDOM=17  # the same file every run
{
  printf 'events: Ir\npositions: instr line\nfn=(1) f\n0x10 0 1\n'
  for bad in '+3 7 1' '0x20 0 5' '-2 0 1' '+3 0 1 ' '+3\t0 1' '+3 0 1\r' '+3 * 1234567890123456' \
             '+3 0 12345678901234567890' '' '+18446744073709551615 0 1' '+3 00 1' '+3 +1 1' '* 0 9' \
             '+3 0' '+3 0 1 2' '+ 0 1' '+3  0 1' 'calls=1 0x30 0' '+3 0 999' \
             '0xfffffffffffffff0 0 1' '0x20 0 5'; do
    for i in $(seq 1 $((RANDOM % 9 + 1))); do  # a run of `+D 0 C` and `+D * C`
      line=0
      [ $((RANDOM % 2)) = 0 ] || line='*'
      printf '+%d %s %d\n' $((RANDOM % 12)) "$line" $((RANDOM % 2000))
    done
    printf '%b\ncalls=1 +1 0\n' "$bad"
  done
  # Line 7 (read line by line), then the windows' line 0 carried to the end, where the check
  # value takes it.
  printf '+3 7 1\n'
  for i in $(seq 1 200); do printf '+%d 0 %d\n' $((RANDOM % 120)) $((RANDOM * RANDOM)); done
  printf '+3 +1 1\n'
  for i in $(seq 1 20); do printf '+1 * 1\n'; done
} > "$edge"
inputs=("$tmp/big.callgrind" "$edge")
for f in "$corpus"/*; do
  [ -f "$f" ] || continue
  case $(od -An -tx1 -N2 "$f" | tr -d ' \n') in
    1f8b) gzip -dc "$f" > "$tmp/$(basename "$f" .gz)" && inputs+=("$tmp/$(basename "$f" .gz)") ;;
    *) [[ "$f" == *.txt || "$f" == *.sh || "$f" == *.md ]] || inputs+=("$f") ;;
  esac
done
for f in "$here"/golden/*/input.* "$here"/malformed/*.callgrind; do inputs+=("$f"); done
n=0
for f in "${inputs[@]}"; do
  [ -f "$f" ] || continue
  for t in 1 2; do
    want=$("$floor" --threads=$t "$f")
    for isa in "${paths[@]}"; do
      got=$("$floor" --simd="$isa" --threads=$t "$f")
      n=$((n + 1))
      if [ "$got" != "$want" ]; then
        echo "FAIL: --simd=$isa --threads=$t: $got" >&2
        echo "      without --simd:     $want" >&2
        fail=1
      fi
    done
  done
done
echo "ok: --simd=${paths[*]} read as without it: $n runs"
exit $fail
