#!/usr/bin/env bash
# merge.sh BUILD_DIR [TARGET...] — folds what fuzzing found into the committed corpus: for each
# target (or the ones named), libFuzzer's -merge=1 keeps, of the committed corpus
# (tests/fuzz/corpus/TARGET), the growing one of run.sh (BUILD_DIR/fuzz/corpus-TARGET) and the
# seeds, a small set of inputs that reaches every edge any of them reaches (-use_counters=0:
# edges, not how often each is taken, which would keep four times the inputs), each cut to
# the target's max_len; that set replaces
# tests/fuzz/corpus/TARGET. (The regression inputs are kept apart, in tests/fuzz/regressions.)
# Inputs are named by their SHA-1 (libFuzzer's names).
set -euo pipefail
build=${1:?usage: merge.sh BUILD_DIR [TARGET...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd)
work="$build/fuzz"
. "$here/targets.sh"

targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(built_targets "$build")
make_seeds "$work"

for t in "${targets[@]}"; do
  out="$work/merged-$t"
  rm -rf "$out"
  mkdir -p "$out" "$work/corpus-$t"
  # (The first folder given is the one merged into; every other one is read.)
  nice "$build/tests/fuzz/$t" -merge=1 -use_counters=0 -max_len="$(max_len_of "$t")" \
    -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    "$out" "$work/corpus-$t" $(ls -d "$here/corpus/$t" 2>/dev/null) "$work/seeds-3/$(kind_of "$t")" >"$work/logs/merge-$t.log" 2>&1 || {
    echo "merge: $t failed, log $work/logs/merge-$t.log" >&2
    exit 1
  }
  rm -rf "$here/corpus/$t"
  mkdir -p "$here/corpus"
  mv "$out" "$here/corpus/$t"
  printf 'merge: %-16s %5d inputs, %4d KB\n' "$t" "$(ls "$here/corpus/$t" | wc -l)" \
    "$(( $(du -sb "$here/corpus/$t" | cut -f1) / 1024 ))"
done
