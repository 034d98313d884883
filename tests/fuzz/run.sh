#!/usr/bin/env bash
# run.sh BUILD_DIR SECONDS [TARGET...] — runs every libFuzzer target (or the ones named) for
# SECONDS each and fails on any crash, sanitizer report, leak, timeout or out-of-memory.
#
# Each target keeps its own growing corpus in BUILD_DIR/fuzz/corpus-<target> and reads the
# seeds (make-seeds.sh) and the committed regression inputs in tests/fuzz/regressions/ as
# read-only corpora. A failing input is written to BUILD_DIR/fuzz/artifacts/ and its path
# printed; copy it into tests/fuzz/regressions/ (and add a unit test) once fixed.
# Environment: FUZZ_MAX_LEN (default 65536), FUZZ_RSS_MB (default 2048), FUZZ_TIMEOUT
# (seconds per input, default 10), FUZZ_JOBS (targets run side by side, default 1).
set -uo pipefail
build=${1:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd)
work="$build/fuzz"
mkdir -p "$work/artifacts" "$work/logs"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for t in "$build"/tests/fuzz/fuzz_*; do
    [ -x "$t" ] && [ -f "$t" ] && targets+=("$(basename "$t")")
  done
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz: no targets in $build/tests/fuzz (configure with -DCALLTREE_FUZZ=ON)" >&2
  exit 2
fi

# Seeds are made once per build directory; delete $work/seeds to remake them.
if [ ! -d "$work/seeds" ]; then
  bash "$here/make-seeds.sh" "$work/seeds.tmp" && mv "$work/seeds.tmp" "$work/seeds"
fi
regressions="$here/regressions"
mkdir -p "$regressions" 2>/dev/null || true

run_one() {
  local t=$1 corpus="$work/corpus-$1" log="$work/logs/$1.log"
  mkdir -p "$corpus"
  # A crash makes libFuzzer exit non-zero; -error_exitcode/-timeout_exitcode make sure of it.
  nice "$build/tests/fuzz/$t" \
    -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -malloc_limit_mb="${FUZZ_RSS_MB:-2048}" -max_len="${FUZZ_MAX_LEN:-65536}" \
    -dict="$here/callgrind.dict" -artifact_prefix="$work/artifacts/$t-" \
    -print_final_stats=1 -error_exitcode=77 -timeout_exitcode=78 \
    "$corpus" "$work/seeds" "$regressions" >"$log" 2>&1
  local rc=$?
  local execs cov
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  if [ $rc -eq 0 ]; then
    printf 'fuzz: %-20s ok     %ss  %s executions  coverage %s  corpus %s\n' "$t" "$seconds" \
      "${execs:-?}" "${cov:-?}" "$(ls "$corpus" | wc -l)"
  else
    printf 'fuzz: %-20s FAILED (exit %s), log %s\n' "$t" "$rc" "$log"
    grep -E '==ERROR|runtime error|fuzz invariant|Test unit written|SUMMARY' "$log" | head -20
  fi
  return $rc
}

failed=0
jobs=${FUZZ_JOBS:-1}
if [ "$jobs" -le 1 ]; then
  for t in "${targets[@]}"; do run_one "$t" || failed=1; done
else
  pids=()
  for t in "${targets[@]}"; do
    run_one "$t" & pids+=($!)
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
  done
  for p in "${pids[@]}"; do wait "$p" || failed=1; done
fi
exit $failed
