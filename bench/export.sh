#!/usr/bin/env bash
# export.sh BINARY [FILE] — `calltree export` to every format, timed against `calltree annotate
# --auto=no` on the same file, in one run.
#
# FILE defaults to bench/data/real-clang-big.callgrind (bench/make-real-profile.sh makes it,
# minutes), else the corpus's 24 MB instr-level profile unpacked by scripts/corpus-big.sh. The
# file is read once before the runs (page cache). Every run writes to a file in a temporary
# directory (svg/png: Graphviz's time included). Prints one Markdown table: what ran, seconds
# (best of $REPS wall-clock runs), CPU seconds (user + system, best of the runs: steadier than
# the wall clock on a shared machine), peak RSS (largest of the runs, /usr/bin/time), output
# size, and the ratios to annotate --auto=no's (the issue's target: each format within 2x).
# Then two floors of the machine, each timed the same way in the same run: for an output of
# that size, `dd` writing as many bytes (of zeros, 1 MB blocks, not fsync'd, as calltree does
# not fsync) into the same temporary directory; for the memory the export holds beyond
# annotate's (peak RSS minus annotate's), `dd` reading that many bytes of /dev/zero into one
# fresh buffer: the kernel's first touch of as much new memory, which on a virtual machine can
# cost as much as the reading itself. The last two columns are the export's ratios to
# "annotate + both floors": what reading the file as annotate does, holding the export's extra
# memory and writing its bytes would take at least (a 3.4 GB folded file is mostly kernel
# time, whatever writes it).
# Every run starts with no output of an earlier run on the disk or waiting to be written back
# (removed, then `sync`): the kernel writing back the last run's hundreds of MB would be timed
# with the next run (it made runs of one binary vary from 2 to 5 s here).
# Environment: REPS (default 3), FORMATS (default: every format but png), CALLTREE_FLAGS.
set -uo pipefail
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: bench/export.sh CALLTREE-BINARY [FILE]" >&2
  exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
# annotate's 28 MB report goes to /dev/null (null_device.sh).
# shellcheck source=bench/null_device.sh
. "$here/null_device.sh"
require_null_device export.sh
REPS=${REPS:-3}
FORMATS=${FORMATS:-pprof folded speedscope chrome dot flamegraph json svg}
read -r -a extra <<< "${CALLTREE_FLAGS:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
file=${2:-}
if [ -z "$file" ]; then
  if [ -f "$here/data/real-clang-big.callgrind" ]; then
    file=$here/data/real-clang-big.callgrind
  else
    corpus=${CALLTREE_CORPUS_DIR:-$(cd "$here/.." && pwd)/tests/corpus}
    bash "$here/../scripts/corpus-big.sh" "$corpus" "$tmp" >/dev/null || {
      echo "export.sh: no FILE, no bench/data/real-clang-big.callgrind, no corpus" >&2
      exit 2
    }
    file=$tmp/big.callgrind
  fi
fi
cat "$file" >/dev/null

# best seconds, best CPU seconds, max RSS (KB) of REPS runs of "$@"
measure() {
  local best="" cpu="" rss=0 i t u k m c
  for ((i = 0; i < REPS; i++)); do
    rm -f "$tmp"/out.* "$tmp/floor"
    sync
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || {
      echo "export.sh: failed: $* ($(tail -1 "$tmp/err"))" >&2
      echo "0 0 0"
      return
    }
    read -r t u k m <"$tmp/time"
    c=$(awk "BEGIN{print $u + $k}")
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    if [ -z "$cpu" ] || awk "BEGIN{exit !($c < $cpu)}"; then cpu=$c; fi
    [ "$m" -gt "$rss" ] && rss=$m
  done
  echo "$best $cpu $rss"
}

# a / b to two decimals, "-" when b is 0 (a run below /usr/bin/time's 10 ms)
ratio() { awk "BEGIN{if (($2) > 0) printf \"%.2f\", ($1) / ($2); else printf \"-\"}"; }

size=$(du -m "$file" | cut -f1)
echo "File: $file ($size MB), best of $REPS runs, $(nproc) cores"
echo
echo "| run | seconds | CPU seconds | peak RSS | output | ratio (wall) | ratio (CPU) |" \
  "write floor: seconds | memory floor: seconds | ratio to annotate + floors (wall) | (CPU) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
read -r base base_cpu base_rss < <(measure "$bin" annotate --auto=no "${extra[@]}" "$file")
printf '| annotate --auto=no | %s | %s | %d MB | | 1.00 | 1.00 | | | | |\n' "$base" "$base_cpu" \
  $((base_rss / 1024))
for f in $FORMATS; do
  out=$tmp/out.$f
  read -r t c rss < <(measure "$bin" export --to="$f" "${extra[@]}" "$file" -o "$out")
  bytes=$(stat -c %s "$out" 2>/dev/null || echo 0)
  # The write floor: as many bytes written by dd (whole MB, at least one).
  read -r ft fc _ < <(measure dd if=/dev/zero of="$tmp/floor" bs=1M \
    count=$(((bytes + 1048575) / 1048576 > 0 ? (bytes + 1048575) / 1048576 : 1)))
  # The memory floor: the peak RSS beyond annotate's, read into one fresh buffer (none if 0).
  mt=0 mc=0
  extra_mb=$(((rss - base_rss) / 1024))
  if [ "$extra_mb" -gt 0 ]; then
    read -r mt mc _ < <(measure dd if=/dev/zero of=/dev/null bs="${extra_mb}M" count=1 \
      iflag=fullblock)
  fi
  printf '| export --to=%s | %s | %s | %d MB | %.1f MB | %s | %s | %s | %s | %s | %s |\n' "$f" \
    "$t" "$c" $((rss / 1024)) "$(awk "BEGIN{print $bytes / 1e6}")" \
    "$(ratio "$t" "$base")" "$(ratio "$c" "$base_cpu")" "$ft" "$mt" \
    "$(ratio "$t" "$base + $ft + $mt")" "$(ratio "$c" "$base_cpu + $fc + $mc")"
done
