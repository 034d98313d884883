#!/usr/bin/env bash
# annotate_no_positions.sh — `annotate --auto=no` keeps no positions, `--auto=yes` keeps lines:
# both must give the same report apart from the annotated sources.
#
# With no source file to annotate, annotate builds its model with no position columns (one self
# row per function and source file, one call row per caller and callee) and skips its per-line
# tables. For every corpus file and several option sets, the --auto=no output must be exactly
# the --auto=yes output up to where the source sections begin (header, totals, function table,
# trees, "." columns), and the JSON must be the same apart from its "source" array.
set -u
# shellcheck source-path=SCRIPTDIR source=../tools/test_files.sh
. "$(dirname "$0")/../tools/test_files.sh"
CALLTREE=$(realpath "$1")
CORPUS=$(realpath "$2")
cd "$CORPUS" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

optsets=(
  ""
  "--inclusive=yes --tree=both"
  "--threshold=100 --tree=caller --show-percs=no"
  "--inclusive=yes --threshold=100 --tree=calling"
)
for f in *.callgrind *.cachegrind *.callgrind.gz; do
  small_enough "$f" || continue
  for opts in "${optsets[@]}"; do
    # shellcheck disable=SC2086
    "$CALLTREE" annotate --auto=no $opts "$f" >"$tmp/no" 2>"$tmp/no.err" || bad "$f $opts: exit status"
    # shellcheck disable=SC2086
    "$CALLTREE" annotate --auto=yes $opts "$f" >"$tmp/yes" 2>"$tmp/yes.err" ||
      bad "$f $opts: exit status (auto)"
    sed -i 's/^Auto-annotation:  on$/Auto-annotation:  off/' "$tmp/yes"
    n=$(wc -c <"$tmp/no")
    if [ "$n" -eq 0 ] || ! cmp -s -n "$n" "$tmp/no" "$tmp/yes"; then
      bad "$f $opts: --auto=no differs from the head of --auto=yes"
      diff "$tmp/no" <(head -c "$n" "$tmp/yes") | head -5
    else
      pass=$((pass + 1))
    fi
    cmp -s "$tmp/no.err" "$tmp/yes.err" || bad "$f $opts: stderr differs"
  done
  "$CALLTREE" annotate --auto=no --json "$f" >"$tmp/no.json" 2>/dev/null
  "$CALLTREE" annotate --auto=yes --json "$f" >"$tmp/yes.json" 2>/dev/null
  if python3 - "$tmp/no.json" "$tmp/yes.json" <<'EOF'; then
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["source"] == [], "source lines without annotation"
del a["source"], b["source"]
sys.exit(0 if a == b else 1)
EOF
    pass=$((pass + 1))
  else
    bad "$f: --json --auto=no differs from --auto=yes beyond \"source\""
  fi
done

echo "annotate_no_positions: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
