#!/usr/bin/env bash
# fleet.sh BINARY [N] — docs/fleet.md's figures: N corpus-sized profiles (default 1000) reduced
# to one, two ways, timed on this machine in one run.
#
# Inputs: N files cycling through the corpus's five per-thread callgrind files of one run
# (vg-threads-separate.t01..t05, 43-74 kB each), as N runs of a CI job would give. Prints a
# Markdown table: what ran, wall seconds, peak RSS (/usr/bin/time), output size:
#   calltree merge of the N files (one model; memory follows the merged result),
#   calltree merge as a tree of reduces (groups of 32, then their results: the associative
#   reduce step a fleet would run on many machines), then export --to=pprof of the result,
#   calltree export --to=pprof of each file (one process per file), then go tool pprof -proto
#   merging the N exports (what a pprof-ingesting engine does).
set -uo pipefail
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: bench/fleet.sh CALLTREE-BINARY [N]" >&2
  exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
N=${2:-1000}
corpus=${CALLTREE_CORPUS_DIR:-$(cd "$here/.." && pwd)/tests/corpus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp GOCACHE=$tmp/gocache GOFLAGS= GOTOOLCHAIN=local PPROF_TMPDIR=$tmp
mkdir -p "$tmp/in" "$tmp/pb" "$tmp/level"
srcs=("$corpus"/vg-threads-separate.t0*.callgrind)
for ((i = 0; i < N; i++)); do
  cp "${srcs[i % ${#srcs[@]}]}" "$tmp/in/$(printf %05d "$i").callgrind"
done
in_bytes=$(du -cb "$tmp"/in/*.callgrind | tail -1 | cut -f1)
echo "N = $N inputs, $((in_bytes / 1000000)) MB in all, $(nproc) cores"
echo
echo "| step | seconds | peak RSS | output |"
echo "|---|---:|---:|---:|"
row() {  # label, output file, command...
  local label=$1 out=$2
  shift 2
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || {
    echo "fleet.sh: failed: $label: $(tail -2 "$tmp/err")" >&2
    return 1
  }
  read -r t m <"$tmp/time"
  printf '| %s | %s | %d MB | %s kB |\n' "$label" "$t" $((m / 1024)) \
    "$(($(stat -c %s "$out" 2>/dev/null || echo 0) / 1000))"
}
row "calltree merge, $N files at once" "$tmp/all.callgrind" \
  "$bin" merge "$tmp"/in/*.callgrind -o "$tmp/all.callgrind"
# The tree of reduces: groups of 32, then the group results (wall time summed by `bash -c`).
cat >"$tmp/reduce.sh" <<SH
set -e
ls "$tmp"/in/*.callgrind | split -l 32 - "$tmp/level/group."
for g in "$tmp"/level/group.*; do "$bin" merge \$(cat "\$g") -o "\$g.callgrind"; done
"$bin" merge "$tmp"/level/group.*.callgrind -o "$tmp/tree.callgrind"
SH
row "calltree merge as a tree (groups of 32, then the groups)" "$tmp/tree.callgrind" bash "$tmp/reduce.sh"
row "export --to=pprof of the merged file" "$tmp/all.pb.gz" \
  "$bin" export --to=pprof "$tmp/all.callgrind" -o "$tmp/all.pb.gz"
cat >"$tmp/each.sh" <<SH
set -e
for f in "$tmp"/in/*.callgrind; do "$bin" export --to=pprof "\$f" -o "$tmp/pb/\$(basename "\$f").pb.gz"; done
SH
row "export --to=pprof of each file" "$tmp/pb/00000.callgrind.pb.gz" bash "$tmp/each.sh"
row "go tool pprof -proto of the $N exports" "$tmp/pprof-all.pb.gz" \
  bash -c "go tool pprof -proto $tmp/pb/*.pb.gz > $tmp/pprof-all.pb.gz"
# The two reductions agree: the same file byte for byte (merge is associative:
# tests/cli/merge_associative.sh), so the same totals.
a=$("$bin" annotate --auto=no "$tmp/all.callgrind" | grep 'PROGRAM TOTALS')
b=$("$bin" annotate --auto=no "$tmp/tree.callgrind" | grep 'PROGRAM TOTALS')
echo
echo "merge at once: $a"
echo "merge as tree: $b"
[ "$a" = "$b" ] || { echo "fleet.sh: the two merges differ" >&2; exit 1; }
cmp "$tmp/all.callgrind" "$tmp/tree.callgrind" || { echo "fleet.sh: the two merges' bytes differ" >&2; exit 1; }
echo "merge at once and as a tree: the same $(stat -c %s "$tmp/all.callgrind") bytes"
