#!/usr/bin/env bash
# compare.sh BINARY [FILE...] — calltree side by side with its peers, on the same files, in one run.
#
# For every file it runs, with the file in the page cache (read once before the runs):
#   plain files:  calltree check, calltree annotate --auto=no and --auto=yes (the default),
#                 callgrind_annotate --auto=no, wc -l, and parse_floor with one thread and two
#                 (bench/parse_floor.cc: the least a reading must do, as one tight loop; from
#                 the bench build beside the binary, `make bench`; rows left out without it),
#                 and with --simd=avx2 and --simd=avx512 where the CPU has them (runs of cost
#                 lines read from SIMD masks, 64 bytes at a time)
#   .gz (magic):  calltree check, calltree annotate --auto=no and --auto=yes, gzip -dc
#   .zst (magic): calltree check, calltree annotate --auto=no and --auto=yes, zstd -dc
# and prints one Markdown table: tool, file, size (on disk), seconds (best of $REPS wall-clock
# runs), MB/s (uncompressed bytes / seconds, MB = 10^6 bytes), peak RSS (the largest of the
# runs, from /usr/bin/time), ratio (seconds / seconds of the file's baseline: `wc -l` for plain
# files, `gzip -dc` for gzip, `zstd -dc` for zstd; the issue's targets are ratios to these),
# and a note (exit status other than 0, skipped runs).
#
# Without FILE arguments it uses the standard set, making what is missing under $DATA
# (default bench/data, git-ignored): the corpus's 24 MB instr-level file unpacked (+ .gz, .zst),
# the real ~250 MB file of bench/make-real-profile.sh (+ .gz, .zst; run that script first, it
# takes minutes), and a ~1 GB synthetic file made from the real one by `gen_profile repeat`
# (+ .zst; + .gz with GZ_1G=1).
#
# Environment: REPS (default 5; the machine is shared and noisy), DATA, CALLTREE_FLAGS (extra flags for both calltree runs,
# e.g. --threads=1), ANNOTATE_MAX_MB (default 300: callgrind_annotate is skipped on bigger files,
# it takes minutes; CG_ANNOTATE=always runs it anyway), CG_ANNOTATE=never skips it everywhere.
set -uo pipefail

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: bench/compare.sh CALLTREE-BINARY [FILE...]" >&2
  exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)
DATA=${DATA:-$here/data}
REPS=${REPS:-5}
ANNOTATE_MAX_MB=${ANNOTATE_MAX_MB:-300}
CG_ANNOTATE=${CG_ANNOTATE:-auto}
CORPUS=${CALLTREE_CORPUS_DIR:-$(cd "$here/.." && pwd)/tests/corpus}
read -r -a extra <<< "${CALLTREE_FLAGS:-}"
mkdir -p "$DATA"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

log() { echo "compare: $*" >&2; }

# Every run writes its output to /dev/null (null_device.sh).
# shellcheck source=bench/null_device.sh
. "$here/null_device.sh"
require_null_device compare

# The generator: from the bench build next to the binary, else built here with a bare c++.
gen=""
for g in "$(dirname "$bin")/bench/gen_profile" "$DATA/gen_profile"; do
  [ -x "$g" ] && gen=$g && break
done
if [ -z "$gen" ] || [ "$here/gen_profile.cc" -nt "$gen" ]; then
  log "building gen_profile"
  c++ -O2 -std=c++20 -o "$DATA/gen_profile" "$here/gen_profile.cc" || exit 2
  gen=$DATA/gen_profile
fi

# compressed copies, made once
zcopy() {  # zcopy FILE: FILE.gz and FILE.zst beside it if missing
  [ -f "$1.zst" ] || { log "zstd -3 $1"; zstd -q -3 -k "$1" -o "$1.zst"; }
  if [ "${2:-gz}" = gz ] && [ ! -f "$1.gz" ]; then log "gzip -6 $1"; gzip -6 -k -n "$1"; fi
}

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  mid=$DATA/vg-gxx-big-instr-jumps.cc1plus.callgrind
  if [ ! -f "$mid" ]; then
    log "unpacking the corpus's 24 MB file"
    gzip -dc "$CORPUS/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz" > "$mid" || exit 2
  fi
  [ -f "$mid.zst" ] || zstd -q -3 -k "$mid" -o "$mid.zst"
  files+=("$mid" "$CORPUS/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz" "$mid.zst")
  real=$DATA/real-clang-big.callgrind
  if [ -f "$real" ]; then
    zcopy "$real"
    files+=("$real" "$real.gz" "$real.zst")
    big=$DATA/synth-1g.callgrind
    if [ ! -f "$big" ]; then
      size=$(stat -L -c %s "$real")
      times=$(( (1000000000 + size / 2) / size ))
      [ "$times" -ge 2 ] || times=2
      log "making $big: the real file's body x$times"
      "$gen" repeat --times="$times" "$real" > "$big" || exit 2
    fi
    if [ "${GZ_1G:-0}" = 1 ]; then zcopy "$big"; files+=("$big" "$big.gz" "$big.zst");
    else zcopy "$big" nogz; files+=("$big" "$big.zst"); fi
  else
    log "no $real: run bench/make-real-profile.sh first (skipping the 250 MB and 1 GB rows)"
  fi
fi

# The parse floor: from the bench build beside the binary (it links the library).
floor=""
[ -x "$(dirname "$bin")/bench/parse_floor" ] && floor=$(dirname "$bin")/bench/parse_floor
[ -n "$floor" ] || log "no $(dirname "$bin")/bench/parse_floor (make bench builds it): no floor rows"
simd_paths=()
if [ -n "$floor" ]; then
  # (An empty file: nothing is read, and the exit status says whether the CPU can.)
  for isa in avx2 avx512; do
    if "$floor" --simd="$isa" /dev/null > /dev/null 2>&1; then simd_paths+=("$isa");
    else log "parse_floor --simd=$isa: not on this CPU (no rows for it)"; fi
  done
fi

has_annotate=0
"$bin" annotate --help > /dev/null 2>&1 && has_annotate=1

kind_of() {
  case $(od -An -tx1 -N4 "$1" | tr -d ' \n') in
    1f8b*) echo gz ;;
    28b52ffd) echo zst ;;
    *) echo plain ;;
  esac
}

# run LABEL FILE USIZE BASE_SECONDS CMD... : best wall time of REPS runs, max RSS; prints a row
# and sets last_secs.
last_secs=""
rows=()
run() {
  local label=$1 file=$2 usize=$3 base=$4
  shift 4
  local reps=$REPS best="" rss=0 rc=0 note=""
  [ "$label" = callgrind_annotate ] && reps=1
  for ((i = 0; i < reps; i++)); do
    local t0 t1 r
    t0=$(date +%s%N)
    /usr/bin/time -f %M -o "$tmp/rss" "$@" > /dev/null 2> "$tmp/err"
    rc=$?
    t1=$(date +%s%N)
    local s=$(( t1 - t0 ))
    [ -z "$best" ] || [ "$s" -lt "$best" ] && best=$s
    r=$(tail -1 "$tmp/rss")
    [[ "$r" =~ ^[0-9]+$ ]] && [ "$r" -gt "$rss" ] && rss=$r
  done
  [ "$rc" -ne 0 ] && note="exit $rc"
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    note="$note: $(grep -v '^Command exited' "$tmp/err" | head -1 | cut -c1-60)"
  fi
  last_secs=$(awk -v ns="$best" 'BEGIN { printf "%.4f", ns / 1e9 }')
  row "$label" "$file" "$last_secs" "$usize" "$rss" "$base" "$note"
}

row() {  # row TOOL FILE SECONDS USIZE RSS_KB BASE NOTE
  local size
  size=$(stat -L -c %s "$2")
  rows+=("$(awk -v tool="$1" -v file="$(basename "$2")" -v s="$3" -v u="$4" -v rss="$5" \
      -v base="$6" -v note="$7" -v size="$size" 'BEGIN {
    secs = (s == "") ? "-" : sprintf("%.3f", s)
    mbs = (s == "" || s == 0) ? "-" : sprintf("%.0f", u / 1e6 / s)
    r = (rss == "" || rss == 0) ? "-" : sprintf("%.0f MB", rss / 1024)
    ratio = (s == "" || base == "" || base == 0) ? "-" : sprintf("%.2f", s / base)
    printf "| %s | %s | %.1f MB | %s | %s | %s | %s | %s |", tool, file, size / 1e6, secs, mbs, r,
           ratio, note }')")
  echo "${rows[-1]}" >&2
}

for f in "${files[@]}"; do
  if [ ! -f "$f" ]; then log "no such file: $f"; continue; fi
  kind=$(kind_of "$f")
  cat "$f" > /dev/null  # into the page cache
  case $kind in
    gz) usize=$(gzip -dc "$f" | wc -c) ;;
    zst) usize=$(zstd -dc "$f" | wc -c) ;;
    *) usize=$(stat -L -c %s "$f") ;;
  esac
  case $kind in
    plain) run "wc -l" "$f" "$usize" "" wc -l "$f" ;;
    gz) run "gzip -dc" "$f" "$usize" "" gzip -dc "$f" ;;
    zst) run "zstd -dc" "$f" "$usize" "" zstd -dc "$f" ;;
  esac
  base=$last_secs
  if [ "$kind" = plain ] && [ -n "$floor" ]; then
    run "parse floor" "$f" "$usize" "$base" "$floor" --threads=1 "$f"
    run "parse floor --threads=2" "$f" "$usize" "$base" "$floor" --threads=2 "$f"
    for isa in ${simd_paths[@]+"${simd_paths[@]}"}; do
      run "parse floor --simd=$isa" "$f" "$usize" "$base" "$floor" --simd="$isa" --threads=1 "$f"
      run "parse floor --simd=$isa --threads=2" "$f" "$usize" "$base" "$floor" --simd="$isa" \
        --threads=2 "$f"
    done
  fi
  run "calltree check" "$f" "$usize" "$base" "$bin" check "${extra[@]}" "$f"
  if [ $has_annotate = 1 ]; then
    run "calltree annotate" "$f" "$usize" "$base" "$bin" annotate --auto=no "${extra[@]}" "$f"
    # The default: source annotation (of the files found from here; none for the bench files).
    run "calltree annotate --auto=yes" "$f" "$usize" "$base" "$bin" annotate "${extra[@]}" "$f"
  else
    row "calltree annotate" "$f" "" "$usize" "" "" "no annotate subcommand in this binary"
  fi
  if [ "$kind" = plain ] && [ "$CG_ANNOTATE" != never ]; then
    if [ "$CG_ANNOTATE" = always ] || [ "$usize" -le $((ANNOTATE_MAX_MB * 1000000)) ]; then
      # From the file's directory with the bare name, as the corpus's reference outputs were made.
      run callgrind_annotate "$f" "$usize" "$base" bash -c 'cd "$1" && exec callgrind_annotate --auto=no "$2"' \
        _ "$(dirname "$f")" "$(basename "$f")"
    else
      row callgrind_annotate "$f" "" "$usize" "" "" \
        "skipped: over $ANNOTATE_MAX_MB MB, takes minutes (CG_ANNOTATE=always runs it)"
    fi
  fi
done

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
rev=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?')
echo "calltree $rev ($("$bin" --version 2>/dev/null | head -1)), $(nproc) cores ($cpu), $(date -u +%Y-%m-%d)."
# The flags the floor's paths and the reader's scanners may use: the table's machine.
echo "CPU flags: $(grep -m1 -o -w -E 'sse4_2|avx|avx2|bmi1|bmi2|lzcnt|abm|popcnt|avx512f|avx512bw|avx512vl' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "Best of $REPS runs (callgrind_annotate: 1), files in the page cache; MB = 10^6 bytes;"
echo "MB/s counts uncompressed bytes; ratio = seconds / the file's baseline (wc -l, gzip -dc, zstd -dc)."
[ -n "${CALLTREE_FLAGS:-}" ] && echo "calltree flags: $CALLTREE_FLAGS"
echo
echo "| tool | file | size | seconds | MB/s | peak RSS | ratio | note |"
echo "|---|---|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
