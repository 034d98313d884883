#!/usr/bin/env bash
# trend.sh BINARY [N] — docs/trend.md's figures: `calltree trend` on a folder of N profiles
# (default 1000), the first time (every file read, the index filled), the second time (every
# run from the index), and with --index=none (every file read, nothing kept), timed on this
# machine in one run.
#
# Inputs: N files cycling through the corpus's five per-thread callgrind files of one run
# (vg-threads-separate.t01..t05, 43-74 kB each, as bench/fleet.sh), modification times a
# second apart, oldest first: N runs of a CI job would give such a folder. Prints a Markdown
# table: what ran, wall seconds (best of --repeat, default 1), peak RSS (/usr/bin/time), and
# the first/second ratio; the index's size.
set -uo pipefail
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: bench/trend.sh CALLTREE-BINARY [N]" >&2
  exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
N=${2:-1000}
corpus=${CALLTREE_CORPUS_DIR:-$(cd "$here/.." && pwd)/tests/corpus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/runs"
srcs=("$corpus"/vg-threads-separate.t0*.callgrind)
base=$(( $(date +%s) - N - 10 ))
for ((i = 0; i < N; i++)); do
  f="$tmp/runs/run$(printf %05d "$i").callgrind"
  cp "${srcs[i % ${#srcs[@]}]}" "$f"
  touch -d "@$((base + i))" "$f"
done
in_bytes=$(du -cb "$tmp"/runs/*.callgrind | tail -1 | cut -f1)

# run NAME ARGS...: one timed run; prints "seconds rss_kb"
run() {
  /usr/bin/time -f '%e %M' -o "$tmp/time" "$bin" trend --json --threads=1 "$@" "$tmp/runs" >"$tmp/out.json" 2>"$tmp/err" \
    || { echo "trend $* failed: $(cat "$tmp/err")" >&2; exit 1; }
  cat "$tmp/time"
}
read -r first first_rss < <(run --index="$tmp/index.sqlite")
read -r second second_rss < <(run --index="$tmp/index.sqlite")
cp "$tmp/out.json" "$tmp/second.json"
read -r none none_rss < <(run --index=none)
cmp -s "$tmp/out.json" "$tmp/second.json" || { echo "the index answers differently" >&2; exit 1; }
index_bytes=$(du -cb "$tmp"/index.sqlite* | tail -1 | cut -f1)

echo "calltree trend on $N profiles ($((in_bytes / 1024 / 1024)) MiB), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo
echo "| run | wall s | peak RSS MiB |"
echo "|---|---:|---:|"
echo "| first (files read, index filled) | $first | $((first_rss / 1024)) |"
echo "| second (from the index) | $second | $((second_rss / 1024)) |"
echo "| --index=none (files read) | $none | $((none_rss / 1024)) |"
echo
awk -v a="$first" -v b="$second" -v c="$none" 'BEGIN { printf "first/second: %.1fx; none/second: %.1fx\n", a / b, c / b }'
echo "index: $((index_bytes / 1024)) KiB"
