#!/usr/bin/env bash
# run.sh BUILD_DIR SECONDS [TARGET...] — runs every libFuzzer target (or the ones named) for
# SECONDS each and fails on any crash, sanitizer report, leak, timeout or out-of-memory.
#
# Each target reads, as read-only corpora, its committed corpus (tests/fuzz/corpus/TARGET,
# minimised: merge.sh), its regression inputs (tests/fuzz/regressions/TARGET) and the seeds of
# its kind of input (make-seeds.sh: profile, pair or http), and writes what it finds into its
# own growing corpus, BUILD_DIR/fuzz/corpus-TARGET (merge.sh folds it into the committed one).
# Inputs are capped at the target's max_len below (a few kilobytes: every branch of the
# format is reached by inputs this small, and each execution is many times faster). A failing
# input is written to BUILD_DIR/fuzz/artifacts/ and its path printed; once fixed, keep it in
# tests/fuzz/regressions/TARGET/ (`make test` replays it: tests/fuzz/replay_main.cc).
# Environment: FUZZ_MAX_LEN (every target's cap, instead of its own), FUZZ_RSS_MB (default
# 2048), FUZZ_TIMEOUT (seconds per input, default 10), FUZZ_JOBS (targets run side by side,
# default 1), FUZZ_ARGS (more libFuzzer flags).
set -uo pipefail
build=${1:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd)
work="$build/fuzz"
mkdir -p "$work/artifacts" "$work/logs"
# The targets built, each one's kind of input (its seeds and dictionary), cap on an input's
# size, and the seeds.
. "$here/targets.sh"

targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(built_targets "$build")
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz: no targets in $build/tests/fuzz (configure with -DCALLTREE_FUZZ=ON)" >&2
  exit 2
fi

# Seeds are made once per build directory (make_seeds, targets.sh).
make_seeds "$work"


run_one() {
  local t=$1 corpus="$work/corpus-$1" log="$work/logs/$1.log"
  mkdir -p "$corpus"
  # A crash makes libFuzzer exit non-zero; -error_exitcode/-timeout_exitcode make sure of it.
  # shellcheck disable=SC2086
  nice "$build/tests/fuzz/$t" \
    -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -malloc_limit_mb="${FUZZ_RSS_MB:-2048}" -max_len="${FUZZ_MAX_LEN:-$(max_len_of "$t")}" \
    -dict="$here/$(dict_of "$t")" -artifact_prefix="$work/artifacts/$t-" \
    -print_final_stats=1 -error_exitcode=77 -timeout_exitcode=78 ${FUZZ_ARGS:-} \
    "$corpus" $(inputs_of "$t" "$work/seeds-3") >"$log" 2>&1
  local rc=$?
  local execs cov
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  if [ $rc -eq 0 ]; then
    printf 'fuzz: %-20s ok     %ss  %s executions (%s/s)  coverage %s  new inputs %s\n' "$t" \
      "$seconds" "${execs:-?}" "$(( ${execs:-0} / seconds ))" "${cov:-?}" "$(ls "$corpus" | wc -l)"
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
