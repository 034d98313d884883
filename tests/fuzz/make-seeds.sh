#!/usr/bin/env bash
# make-seeds.sh OUT_DIR [CORPUS_DIR] — writes the fuzzers' seed inputs into OUT_DIR.
#
# Seeds are small on purpose (libFuzzer mutates small inputs many times faster): from every
# profile of the corpus (tests/corpus) its first ~6 KB and three ~3 KB windows from the middle, cut at
# line boundaries (windows lose their name definitions: good seeds for undefined ids); every
# input of tests/golden and tests/malformed; and a few seeds gzip/zstd/xz/bzip2-compressed,
# whole and cut in the middle, so the decoders are fuzzed as well.
set -euo pipefail
out=${1:?usage: make-seeds.sh OUT_DIR [CORPUS_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
corpus=${2:-${CALLTREE_CORPUS_DIR:-$repo/tests/corpus}}
mkdir -p "$out"

# cut FILE OFFSET BYTES: BYTES bytes from OFFSET, widened to whole lines.
cut_lines() {
  python3 - "$1" "$2" "$3" <<'PY'
import sys
path, off, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, 'rb') as f:
    f.seek(off)
    data = f.read(n + 4096)
if off > 0:
    data = data[data.find(b'\n') + 1:]
cut = data[:n]
end = cut.rfind(b'\n')
sys.stdout.buffer.write(cut[:end + 1] if end >= 0 else cut)
PY
}

n=0
if [ -d "$corpus" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  for f in "$corpus"/*.callgrind "$corpus"/*.cachegrind "$corpus"/*.callgrind.gz; do
    [ -f "$f" ] || continue
    base=$(basename "$f" .gz)
    plain="$f"
    if [[ "$f" == *.gz ]]; then
      gzip -dc "$f" > "$tmp/$base"
      plain="$tmp/$base"
    fi
    size=$(stat -c %s "$plain")
    cut_lines "$plain" 0 6000 > "$out/corpus-$base-head"
    for k in 1 2 3; do
      off=$(( size * k / 4 ))
      cut_lines "$plain" "$off" 3000 > "$out/corpus-$base-mid$k"
    done
    n=$((n + 4))
  done
else
  echo "make-seeds: no corpus at $corpus (seeding from tests/ only)" >&2
fi

for f in "$repo"/tests/malformed/*.callgrind "$repo"/tests/golden/*/*.callgrind \
         "$repo"/tests/golden/*.callgrind "$repo"/examples/*.callgrind; do
  [ -f "$f" ] || continue
  rel=${f#"$repo"/tests/}
  rel=${rel#"$repo"/}
  head -c 16000 "$f" > "$out/${rel//\//_}"
  n=$((n + 1))
done

# Compressed seeds: a few small texts in each format, whole and truncated at half their size.
i=0
for f in $(ls "$out" | grep -E 'head$|\.callgrind$' | head -n 4); do
  for z in "gzip -c" "zstd -q -c" "xz -c" "bzip2 -c"; do
    name=$(echo "$z" | cut -d' ' -f1)
    $z < "$out/$f" > "$out/z$i-$name" 2>/dev/null || continue
    s=$(stat -c %s "$out/z$i-$name")
    head -c $(( s / 2 )) "$out/z$i-$name" > "$out/z$i-$name-cut"
    n=$((n + 2))
  done
  i=$((i + 1))
done
echo "make-seeds: $n seeds in $out" >&2
