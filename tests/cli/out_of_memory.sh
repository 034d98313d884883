#!/usr/bin/env bash
# Out of memory is an error, not a crash.
#
# Each command runs on the corpus's largest profile (unpacked: big enough for the parallel
# path's chunks; and as zstd, decoded on a thread of its own) under address-space limits
# (`ulimit -v`) from too small to read it to enough, with one thread and two. Every run must
# end with exit status 0, or 2 and "calltree: error: out of memory" on stderr, or 1 and the
# input's out-of-memory error where its decoder ran out (after what was read): never a signal
# (before, an allocation that failed on a worker thread, or on the reading thread while workers
# ran, ended the process with std::terminate). Some runs must run out and some must not, or the
# limits test nothing. (Not under AddressSanitizer, which reserves terabytes of address space:
# make test-sanitize leaves this test out.)
set -uo pipefail
bin=$1
corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../tools/out_of_memory.sh
. "$(dirname "$0")/../tools/out_of_memory.sh"

big_inputs "$corpus" "$tmp"

commands=(
  "check"
  "annotate --auto=no"
  "annotate --auto=no --inclusive=yes --tree=both"
  "annotate"
)
for f in "${inputs[@]}"; do
  for mb in 24 32 40 48 64 80 96 128 192; do
    for threads in 1 2; do
      for c in "${commands[@]}"; do
        # shellcheck disable=SC2086
        (ulimit -v $((mb * 1024)) && exec "$bin" $c --threads=$threads "$f") \
          >"$tmp/out" 2>"$tmp/err"
        ended_well $? "$tmp/err" "$c --threads=$threads $(basename "$f") under ${mb} MB"
      done
    done
    # convert streams with no model, on one thread.
    (ulimit -v $((mb * 1024)) && exec "$bin" convert -o "$tmp/converted" "$f") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ] && ! { [ $rc -le 2 ] && grep -q 'out of memory' "$tmp/err"; }; then
      echo "FAIL: convert $(basename "$f") under ${mb} MB: exit $rc"
      tail -3 "$tmp/err"
      fail=1
    fi
  done
done

verdict out_of_memory
