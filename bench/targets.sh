#!/usr/bin/env bash
# targets.sh BINARY FILE... — issue 43's ratios, every command of a file run in turn in one run.
#
# For each plain FILE, REPS rounds (default 5); in each round, one run of each of: the parse
# floor (bench/parse_floor from the bench build beside BINARY) scalar and with each SIMD path
# the CPU has (--simd=avx2, --simd=avx512), on one thread and two; `check`, `annotate
# --auto=no` and `annotate --auto=yes` on one thread and two. Alternating spreads a shared
# machine's load over every command alike. Prints, per file, a Markdown table: median, best and
# worst wall seconds of each command, and the ratios the targets are stated in, from medians:
# against the two-thread floor (the fastest of its paths), two threads against one, and
# --auto=yes against --auto=no. Then the load average and the CPU flags.
# Environment: REPS (default 5).
set -uo pipefail
if [ $# -lt 2 ] || [ ! -x "$1" ]; then
  echo "usage: bench/targets.sh CALLTREE-BINARY FILE..." >&2
  exit 2
fi
bin=$1
shift
floor=$(dirname "$bin")/bench/parse_floor
[ -x "$floor" ] || { echo "targets.sh: no $floor (make bench builds it)" >&2; exit 2; }
REPS=${REPS:-5}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/null_device.sh
. "$here/null_device.sh"
require_null_device targets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
paths=(scalar)
for isa in avx2 avx512; do "$floor" --simd=$isa /dev/null > /dev/null 2>&1 && paths+=("$isa"); done

for f in "$@"; do
  names=() cmds=()
  for p in "${paths[@]}"; do
    for t in 1 2; do
      a=""; [ "$p" = scalar ] || a="--simd=$p"
      names+=("floor $p t$t"); cmds+=("$floor $a --threads=$t")
    done
  done
  for t in 1 2; do
    names+=("check t$t" "annotate --auto=no t$t" "annotate --auto=yes t$t")
    cmds+=("$bin check --threads=$t" "$bin annotate --auto=no --threads=$t" "$bin annotate --auto=yes --threads=$t")
  done
  cat "$f" > /dev/null  # in the page cache
  : > "$tmp/times"
  load0=$(cut -d' ' -f1-3 /proc/loadavg)
  for ((r = 0; r < REPS; r++)); do
    for i in "${!cmds[@]}"; do
      t0=$(date +%s%N)
      # shellcheck disable=SC2086
      ${cmds[$i]} "$f" > /dev/null 2>&1
      t1=$(date +%s%N)
      echo "$i $(( (t1 - t0) / 1000 ))" >> "$tmp/times"
    done
  done
  load1=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "### $(basename "$f") ($(stat -L -c %s "$f" | awk '{printf "%.1f MB", $1 / 1e6}'), $REPS rounds; load average $load0 before, $load1 after)"
  echo
  echo "| command | median s | best s | worst s |"
  echo "|---|---:|---:|---:|"
  declare -A med=()
  for i in "${!cmds[@]}"; do
    read -r lo mid hi < <(awk -v i="$i" '$1 == i {print $2}' "$tmp/times" | sort -n |
      awk '{v[NR] = $1} END {printf "%.3f %.3f %.3f", v[1] / 1e6, v[int((NR + 1) / 2)] / 1e6, v[NR] / 1e6}')
    med["${names[$i]}"]=$mid
    echo "| ${names[$i]} | $mid | $lo | $hi |"
  done
  f2=""
  for p in "${paths[@]}"; do
    v=${med["floor $p t2"]}
    if [ -z "$f2" ] || awk -v a="$v" -v b="$f2" 'BEGIN {exit !(a < b)}'; then f2=$v; fp=$p; fi
  done
  r() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
  echo
  echo "Ratios of medians: two-thread floor $f2 s ($fp);" \
    "check t2 $(r "${med[check t2]}" "$f2")x, annotate --auto=no t2 $(r "${med[annotate --auto=no t2]}" "$f2")x the floor;" \
    "speed-up of two threads (t1 s / t2 s): floor $(r "${med[floor $fp t1]}" "${med[floor $fp t2]}"), check $(r "${med[check t1]}" "${med[check t2]}")," \
    "annotate --auto=no $(r "${med[annotate --auto=no t1]}" "${med[annotate --auto=no t2]}");" \
    "--auto=yes / --auto=no: t1 $(r "${med[annotate --auto=yes t1]}" "${med[annotate --auto=no t1]}"), t2 $(r "${med[annotate --auto=yes t2]}" "${med[annotate --auto=no t2]}")."
  echo
  unset med
done
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores;" \
  "flags: $(grep -m1 -o -w -E 'sse4_2|avx|avx2|bmi1|bmi2|lzcnt|abm|popcnt|avx512f|avx512bw|avx512vl' /proc/cpuinfo | sort -u | tr '\n' ' ')"
