#!/usr/bin/env bash
# ab.sh A B FILE [REPS] -- CMD... : the wall time of `A CMD... FILE` and `B CMD... FILE`, run
# alternately (A, B, A, B, ...) REPS times each (default 5), output to /dev/null; prints each
# binary's best, median and worst seconds and the ratio of the medians (B / A). Alternating
# spreads a shared machine's noise over both; the range says how noisy it was. For "within
# 5 % of the commit before": A the build before, B the build after.
set -uo pipefail
if [ $# -lt 5 ]; then
  echo "usage: bench/ab.sh A B FILE [REPS] -- CMD..." >&2
  exit 2
fi
a=$1 b=$2 file=$3
shift 3
reps=5
if [ "$1" != -- ]; then reps=$1; shift; fi
shift  # --
ta=() tb=()
secs() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" >/dev/null 2>&1
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
}
cat "$file" >/dev/null  # in the page cache
for ((i = 0; i < reps; i++)); do
  ta+=("$(secs "$a" "$@" "$file")")
  tb+=("$(secs "$b" "$@" "$file")")
done
stats() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {printf "%.3f %.3f %.3f", v[1] / 1000, v[int((NR + 1) / 2)] / 1000, v[NR] / 1000}'; }
read -r a_min a_med a_max <<<"$(stats "${ta[@]}")"
read -r b_min b_med b_max <<<"$(stats "${tb[@]}")"
echo "$* $(basename "$file"): A ${a_med}s [${a_min}-${a_max}], B ${b_med}s [${b_min}-${b_max}]," \
  "B/A $(awk -v x="$b_med" -v y="$a_med" 'BEGIN {printf "%.3f", x / y}')"
