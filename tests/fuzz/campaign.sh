#!/usr/bin/env bash
# campaign.sh BUILD_DIR CPU_SECONDS [TARGET...] — a fuzzing campaign measured in CPU time: every
# target (or the ones named) runs, niced to FUZZ_NICE (default 19), until it has used
# CPU_SECONDS of CPU (user + system, all its threads: /proc/PID/stat), however long that takes
# on a busy machine, or until FUZZ_DEADLINE (a `date -d` time) if one is given. Each run is
# run.sh's (its inputs, its max_len, its dictionary; BUILD_DIR/fuzz/corpus-TARGET grows),
# FUZZ_JOBS targets at a time (default 1). Prints per target: CPU seconds, wall seconds,
# executions, executions per CPU second, coverage, new inputs, and the artifacts of any
# failure; exits 1 if any target failed.
# Logs in BUILD_DIR/fuzz/logs/campaign-TARGET.log.
set -uo pipefail
build=${1:?usage: campaign.sh BUILD_DIR CPU_SECONDS [TARGET...]}
cpu_limit=${2:?usage: campaign.sh BUILD_DIR CPU_SECONDS [TARGET...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd)
work="$build/fuzz"
mkdir -p "$work/artifacts" "$work/logs"
. "$here/targets.sh"
deadline=${FUZZ_DEADLINE:+$(date -d "$FUZZ_DEADLINE" +%s)}
ticks=$(getconf CLK_TCK)

targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(built_targets "$build")
make_seeds "$work"

# CPU seconds used so far by process PID (all its threads).
cpu_of() {
  awk -v t="$ticks" '{ sub(/^.*\) /, ""); print int(($12 + $13) / t) }' "/proc/$1/stat" 2>/dev/null
}

campaign_one() {
  local t=$1 log="$work/logs/campaign-$t.log" corpus="$work/corpus-$t"
  mkdir -p "$corpus"
  local start=$SECONDS
  # shellcheck disable=SC2046
  nice -n "${FUZZ_NICE:-19}" "$build/tests/fuzz/$t" -max_total_time=864000 \
    -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -malloc_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -max_len="$(max_len_of "$t")" -dict="$here/$(dict_of "$t")" \
    -artifact_prefix="$work/artifacts/$t-" -print_final_stats=1 -error_exitcode=77 \
    -timeout_exitcode=78 "$corpus" $(inputs_of "$t" "$work/seeds-3") >"$log" 2>&1 &
  local pid=$! used=0
  while kill -0 "$pid" 2>/dev/null; do
    used=$(cpu_of "$pid")
    used=${used:-$cpu_limit}
    if [ "$used" -ge "$cpu_limit" ] || { [ -n "$deadline" ] && [ "$(date +%s)" -ge "$deadline" ]; }; then
      kill -INT "$pid" 2>/dev/null
      break
    fi
    sleep 2
  done
  wait "$pid"
  local rc=$? execs cov
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  # (libFuzzer exits 72 when interrupted: the end of a campaign, not a failure.)
  if [ $rc -eq 0 ] || [ $rc -eq 72 ]; then
    printf 'campaign: %-16s ok  cpu %ds  wall %ds  %s executions  %s/cpu-s  coverage %s  corpus %s\n' \
      "$t" "$used" $((SECONDS - start)) "${execs:-?}" "$(( ${execs:-0} / (used > 0 ? used : 1) ))" \
      "${cov:-?}" "$(ls "$corpus" | wc -l)"
    return 0
  fi
  printf 'campaign: %-16s FAILED (exit %s) after cpu %ds, log %s\n' "$t" "$rc" "$used" "$log"
  grep -E '==ERROR|runtime error|fuzz invariant|Test unit written|SUMMARY' "$log" | head -20
  return 1
}

failed=0
jobs=${FUZZ_JOBS:-1}
pids=()
for t in "${targets[@]}"; do
  campaign_one "$t" & pids+=($!)
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 2; done
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done
exit $failed
