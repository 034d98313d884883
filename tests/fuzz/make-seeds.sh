#!/usr/bin/env bash
# make-seeds.sh OUT_DIR [CORPUS_DIR] — writes the fuzzers' seed inputs into OUT_DIR, one folder
# per kind of input: profile/ (fuzz_reader, fuzz_check, fuzz_profile, fuzz_roundtrip,
# fuzz_annotate), pair/ (fuzz_diff, fuzz_merge: two profiles cut at a line "@@@@"), http/
# (fuzz_serve_api: API targets and the bytes of connections) and import-FORMAT/ (each
# fuzz_import_FORMAT: the other profilers' files of tests/import, small ones whole, text ones
# also cut to their first 4 KB, pprof's decompressed).
#
# Seeds are small on purpose (libFuzzer mutates small inputs many times faster, and run.sh
# caps inputs at a few kilobytes): from every profile of the corpus (tests/corpus: every
# producer's dialect) its header with its first functions (~1.5 KB) and two ~700-byte windows
# from the middle, cut at line boundaries (windows lose their name definitions: good seeds for
# undefined ids); the first 2 KB of every input of tests/golden and tests/malformed; and a few
# seeds gzip/zstd/xz/bzip2-compressed, whole and cut in the middle, so the decoders are fuzzed
# as well. The committed corpus (tests/fuzz/corpus/TARGET) holds what fuzzing found from them.
set -euo pipefail
out=${1:?usage: make-seeds.sh OUT_DIR [CORPUS_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
corpus=${2:-${CALLTREE_CORPUS_DIR:-$repo/tests/corpus}}
mkdir -p "$out/profile" "$out/pair" "$out/http"

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
    cut_lines "$plain" 0 1500 > "$out/profile/corpus-$base-head"
    for k in 1 2; do
      off=$(( size * k / 3 ))
      cut_lines "$plain" "$off" 700 > "$out/profile/corpus-$base-mid$k"
    done
    n=$((n + 3))
  done
else
  echo "make-seeds: no corpus at $corpus (seeding from tests/ only)" >&2
fi

for f in "$repo"/tests/malformed/*.callgrind "$repo"/tests/golden/*/*.callgrind \
         "$repo"/tests/golden/*.callgrind "$repo"/examples/*.callgrind; do
  [ -f "$f" ] || continue
  rel=${f#"$repo"/tests/}
  rel=${rel#"$repo"/}
  head -c 2000 "$f" > "$out/profile/${rel//\//_}"
  n=$((n + 1))
done

# Compressed seeds: a few small texts in each format, whole and truncated at half their size.
i=0
for f in $(ls "$out/profile" | grep -E 'head$|\.callgrind$' | head -n 4); do
  for z in "gzip -c" "zstd -q -c" "xz -c" "bzip2 -c"; do
    name=$(echo "$z" | cut -d' ' -f1)
    $z < "$out/profile/$f" > "$out/profile/z$i-$name" 2>/dev/null || continue
    s=$(stat -c %s "$out/profile/z$i-$name")
    head -c $(( s / 2 )) "$out/profile/z$i-$name" > "$out/profile/z$i-$name-cut"
    n=$((n + 2))
  done
  i=$((i + 1))
done
# Pairs: a head and a window of the same profile, each head beside the next file's head, and
# each golden profile against itself.
prev=
for f in "$out"/profile/corpus-*-head; do
  base=${f%-head}
  { head -c 900 "$f"; printf '\n@@@@\n'; head -c 900 "$base-mid1"; } > "$out/pair/$(basename "$base")-mid"
  if [ -n "$prev" ]; then
    { head -c 900 "$prev"; printf '\n@@@@\n'; head -c 900 "$f"; } > "$out/pair/$(basename "$base")-prev"
  fi
  prev=$f
  n=$((n + 2))
done
for f in "$out"/profile/golden_*; do
  [ -f "$f" ] || continue
  { head -c 1000 "$f"; printf '\n@@@@\n'; head -c 1000 "$f"; } > "$out/pair/$(basename "$f")-self"
  n=$((n + 1))
done

# HTTP: the page's own API requests (as targets for the API, and as the bytes of one
# connection: several requests in a row, HEAD, a refused Host, a cookie, a bad escape, bytes
# past the bounds of the request line and the head, a body).
tok=0123456789abcdef0123456789abcdef
http() { printf '%b' "$2" > "$out/http/$1"; n=$((n + 1)); }
http api-functions "/api/v1/functions?sort=Ir&limit=5&token=$tok\n127.0.0.1:4242\n"
http api-profile "/api/v1/profile\nlocalhost:4242\ncalltree_token_4242=$tok"
http api-function "/api/v1/function/1?event=Ir&token=$tok\n[::1]:4242\n"
http api-graph "/api/v1/graph/1?up=2&down=2&max_nodes=10&token=$tok\n127.0.0.1:4242\n"
http api-flame "/api/v1/flame?max_frames=50&measure=self&token=$tok\n127.0.0.1:4242\n"
http api-source "/api/v1/source/0?token=$tok\n127.0.0.1:4242\n"
http api-asm "/api/v1/asm/1?token=$tok\n127.0.0.1:4242\n"
http api-page "/\nevil.example:4242\n"
h='Host: 127.0.0.1:4242\r\n'
http conn-one "GET /api/v1/profile?token=$tok HTTP/1.1\r\n${h}\r\n"
http conn-keepalive "GET /api/v1/functions?token=$tok&limit=3 HTTP/1.1\r\n${h}Accept-Encoding: gzip\r\n\r\nHEAD /api/v1/profile HTTP/1.1\r\n${h}Authorization: Bearer $tok\r\n\r\nGET /api/v1/flame?max_frames=9 HTTP/1.1\r\n${h}Cookie: calltree_token_4242=$tok\r\nConnection: close\r\n\r\n"
http conn-graph-then-bad "GET /api/v1/graph/2?up=1&token=$tok HTTP/1.1\r\n${h}\r\nGET /api/v1/%zz HTTP/1.1\r\n${h}\r\nGET / HTTP/1.1\r\nHost: evil:4242\r\n\r\n"
http conn-bad-bytes "GET /api/v1/functions?filter=a%00b\x01\xff&token=$tok HTTP/1.1\r\n${h}X-A: \x7f\x00\r\n\r\nGET /\x80 HTTP/1.0\n\n"
http conn-body "GET /api/v1/profile?token=$tok HTTP/1.1\r\n${h}Content-Length: 5\r\n\r\nGET /GET / HTTP/1.1\r\n${h}\r\n"
http conn-methods "POST /api/v1/profile HTTP/1.1\r\n${h}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nOPTIONS * HTTP/1.1\r\n\r\n"
http conn-long-line "GET /$(head -c 600 /dev/zero | tr '\0' a) HTTP/1.1\r\n${h}\r\n"
http conn-many-headers "GET / HTTP/1.1\r\n${h}$(for k in $(seq 20); do printf 'X-%s: v\\r\\n' "$k"; done)\r\n"
http conn-half "GET /api/v1/profile?token=$tok HTTP/1.1\r\n${h}\r\nGET /api/v1/functi"
# Other profilers' files (tests/import/FORMAT), for the importers' targets.
for kind in folded cpuprofile pprof pstats perf; do
  mkdir -p "$out/import-$kind"
  for f in "$repo/tests/import/$kind"/*; do
    case $f in *.md | *.py | *.c | *.go | */prog) continue ;; esac
    [ -f "$f" ] || continue
    b=$(basename "$f")
    if [[ "$f" == *.gz ]]; then
      gzip -dc "$f" >"$out/import-$kind/${b%.gz}"
      cp "$f" "$out/import-$kind/$b"
    elif [ "$(stat -c %s "$f")" -le 8192 ]; then
      cp "$f" "$out/import-$kind/$b"
    else
      head -c 4096 "$f" >"$out/import-$kind/$b-head"
    fi
    n=$((n + 1))
  done
done
echo "make-seeds: $n seeds in $out" >&2
