#!/usr/bin/env bash
# pgo-train.sh BIN [CORPUS] — the training runs of a profile-guided build (`make release`).
#
# Runs an instrumented calltree (CALLTREE_PGO=generate) over the commands and inputs whose speed
# matters: check and annotate (one thread and two; summed and per line; plain, gzip and zstd
# input, mapped and piped), convert, diff and merge, on the bundled example, the golden files
# and, when CORPUS (default tests/corpus) is there, its profiles and its 24 MB instr-level
# one. What the runs print is thrown away; only the profiles they leave behind count. A file
# that is not there is skipped: a build trained on less is slower, never wrong.
set -euo pipefail
BIN=$1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${2:-$ROOT/tests/corpus}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Two runs at a time (PGO_TRAIN_JOBS, default the machine's cores): each run adds its counts to
# the profiles (GCC's runtime locks a profile file while it merges into it), so the runs'
# order and overlap change nothing but the time. IN=FILE: the run's standard input.
jobs_max=${PGO_TRAIN_JOBS:-$(nproc)}
running=0
run() {
  "$BIN" "$@" <"${IN:-/dev/null}" >/dev/null 2>&1 &
  running=$((running + 1))
  if [ "$running" -ge "$jobs_max" ]; then
    wait -n || true
    running=$((running - 1))
  fi
}

small=("$ROOT"/examples/*.callgrind "$ROOT"/tests/golden/*/*.callgrind)
if [ -d "$CORPUS" ]; then
  small+=("$CORPUS"/*.callgrind "$CORPUS"/*.cachegrind)
fi
for f in "${small[@]}"; do
  [ -f "$f" ] || continue
  run check --json "$f"
  run annotate "$f"
  run annotate --auto=no --inclusive=yes --tree=both "$f"
  run convert -o /dev/null "$f"
done

if big_gz=$(bash "$ROOT/scripts/corpus-big.sh" "$CORPUS" "$TMP"); then
  big=$TMP/big.callgrind
  for t in 1 2; do
    run check -q --threads=$t "$big"
    run annotate --auto=no --threads=$t "$big"
    run annotate --threads=$t "$big"
  done
  run check -q "$big.zst"
  run annotate --auto=no "$big.zst"
  run check -q "$big_gz"
  run annotate --auto=no "$big_gz"
  IN=$big run check -q -
  run annotate --auto=no --inclusive=yes --tree=both "$big"
  run convert -o /dev/null "$big"
  run diff "$big" "$big_gz"
  run merge "$big" "$big_gz" -o /dev/null
fi
wait
