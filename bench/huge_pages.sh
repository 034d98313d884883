#!/usr/bin/env bash
# huge_pages.sh BINARY [FILE] — what asking for transparent huge pages (cli/huge_pages.cc)
# gives, command by command: each run with CALLTREE_HUGE_PAGES=0 and with the default, in
# alternation, in one run.
#
# FILE defaults to bench/data/real-clang-big.callgrind (bench/make-real-profile.sh). Prints one
# Markdown table: the command, then for each setting the best wall and CPU (user + system)
# seconds of REPS runs, the minor page faults and peak RSS of the best run (/usr/bin/time), and
# the ratios on/off. The kernel's mode is printed first: with "never" the hint does nothing,
# with "always" every large enough region has huge pages anyway (Debian and Ubuntu: madvise).
# An output is removed and `sync`ed after each run. Environment: REPS (default 3).
set -uo pipefail
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: bench/huge_pages.sh CALLTREE-BINARY [FILE]" >&2
  exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
file=${2:-$here/data/real-clang-big.callgrind}
[ -f "$file" ] || { echo "huge_pages.sh: no $file (bench/make-real-profile.sh)" >&2; exit 2; }
REPS=${REPS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat "$file" >/dev/null
echo "File: $file ($(du -m "$file" | cut -f1) MB), best of $REPS runs, $(nproc) cores," \
  "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
echo
echo "| command | off: seconds | CPU seconds | faults | peak RSS | on: seconds | CPU seconds | faults | peak RSS | on/off (wall) | (CPU) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
commands=(
  "check FILE"
  "annotate --auto=no FILE"
  "annotate --inclusive=yes --tree=both FILE"
  "merge FILE -o OUT"
  "export --to=pprof FILE -o OUT"
  "export --to=folded FILE -o OUT"
  "export --to=json FILE -o OUT"
)
for c in "${commands[@]}"; do
  read -r -a args <<<"${c//FILE/$file}"
  args=("${args[@]//OUT/$tmp/out}")
  declare -A best=() cpu=() faults=() rss=()
  for ((i = 0; i < REPS; i++)); do
    for hp in 0 1; do
      CALLTREE_HUGE_PAGES=$hp /usr/bin/time -f "%e %U %S %R %M" -o "$tmp/time" "$bin" "${args[@]}" \
        >/dev/null 2>"$tmp/err" || { echo "huge_pages.sh: failed: $c ($(tail -1 "$tmp/err"))" >&2; exit 1; }
      read -r t u k f m <"$tmp/time"
      s=$(awk "BEGIN{print $u + $k}")
      if [ -z "${best[$hp]:-}" ] || awk "BEGIN{exit !($t < ${best[$hp]})}"; then
        best[$hp]=$t faults[$hp]=$f rss[$hp]=$m
      fi
      if [ -z "${cpu[$hp]:-}" ] || awk "BEGIN{exit !($s < ${cpu[$hp]})}"; then cpu[$hp]=$s; fi
      rm -f "$tmp/out"
      sync  # (no run pays for the writeback of the one before)
    done
  done
  printf '| %s | %s | %s | %d | %d MB | %s | %s | %d | %d MB | %.2f | %.2f |\n' "$c" \
    "${best[0]}" "${cpu[0]}" "${faults[0]}" $((rss[0] / 1024)) "${best[1]}" "${cpu[1]}" "${faults[1]}" \
    $((rss[1] / 1024)) "$(awk "BEGIN{print ${best[1]} / ${best[0]}}")" "$(awk "BEGIN{print ${cpu[1]} / ${cpu[0]}}")"
  unset best cpu faults rss
done
