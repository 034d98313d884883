#!/usr/bin/env bash
# check_perf_data.sh CALLTREE DIR — a perf.data file read through `perf script`
# (cli/perf_data_runner.cc): what calltree reads of it is what it reads of `perf script`'s text.
#
# perf/hot.c is built and recorded here (perf record -e cpu-clock -g: works without hardware
# counters, in a VM), then:
#  - `check --json` and `annotate --inclusive=yes` of the perf.data equal those of the text
#    `perf script --header -i` prints (the file's name aside), and `convert` writes the same file;
#  - the same bytes piped, and gzip'd, read the same (a temporary copy is given to perf);
#  - with perf not on the PATH: exit 1, a perf-data error that says so and what to do instead;
#  - a perf.data perf cannot read: exit 1, a perf-data error with perf's words, no output file.
set -uo pipefail
bin=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

gcc -O2 -g -fno-omit-frame-pointer -o "$tmp/hot" "$dir/perf/hot.c" || { echo "FAIL: gcc"; exit 1; }
if ! perf record -q -e cpu-clock -F 997 -g -o "$tmp/p.data" "$tmp/hot" 1 >/dev/null 2>"$tmp/rec.err"; then
  echo "FAIL: perf record"; cat "$tmp/rec.err"; exit 1
fi
perf script --header -i "$tmp/p.data" >"$tmp/p.txt" 2>/dev/null || { echo "FAIL: perf script"; exit 1; }
n=$(grep -c 'cpu-clock' "$tmp/p.txt")
[ "$n" -ge 20 ] || no "only $n samples in perf script's text"

# same OUT_A OUT_B WHAT: the two outputs the same once each file's name is taken out, and its
# size and compression (the perf.data's, not the text's).
plain() {
  sed -E "s|$tmp/p\.data[.a-z]*||g; s|$tmp/p\.txt||g; s|<stdin>||g; s|\"file\":\"[^\"]*\"|\"file\":\"\"|g;
          s|\"bytes\":[0-9]+|\"bytes\":0|g; s|\"compression\":\"[a-z]+\"|\"compression\":\"\"|g" "$1"
}
same() {
  if ! cmp -s <(plain "$1") <(plain "$2"); then
    no "$3: the perf.data reads otherwise than perf script's text"
    diff <(sed "s|$tmp/||g" "$1") <(sed "s|$tmp/||g" "$2") | head -10
  fi
}
"$bin" check --json "$tmp/p.txt" >"$tmp/t.check" || no "check of the text"
"$bin" check --json "$tmp/p.data" >"$tmp/d.check" || no "check of the perf.data"
same "$tmp/t.check" "$tmp/d.check" "check --json"
grep -q 'cpu-clock' "$tmp/d.check" || no "no cpu-clock event: $(head -c 300 "$tmp/d.check")"
"$bin" annotate --inclusive=yes "$tmp/p.txt" >"$tmp/t.ann" 2>&1 || no "annotate of the text"
"$bin" annotate --inclusive=yes "$tmp/p.data" >"$tmp/d.ann" 2>&1 || no "annotate of the perf.data"
same "$tmp/t.ann" "$tmp/d.ann" "annotate --inclusive=yes"
grep -q 'leaf_sqrt' "$tmp/d.ann" && grep -q 'leaf_mix' "$tmp/d.ann" || no "annotate shows none of hot.c's functions"
"$bin" convert "$tmp/p.txt" -o "$tmp/t.callgrind" && "$bin" convert "$tmp/p.data" -o "$tmp/d.callgrind" ||
  no "convert"
cmp -s "$tmp/t.callgrind" "$tmp/d.callgrind" || no "convert: other files"
# Piped, and gzip'd: perf reads a temporary copy.
"$bin" check --json - <"$tmp/p.data" >"$tmp/pipe.check" || no "check of the perf.data piped"
same "$tmp/t.check" "$tmp/pipe.check" "check --json, piped"
gzip -c "$tmp/p.data" >"$tmp/p.data.gz"
"$bin" check --json "$tmp/p.data.gz" >"$tmp/gz.check" || no "check of the perf.data gzip'd"
same "$tmp/t.check" "$tmp/gz.check" "check --json, gzip'd"
ls "${TMPDIR:-/tmp}"/calltree-perf-data-* >/dev/null 2>&1 && no "a temporary copy left behind"

# No perf on the PATH.
env PATH=/nonexistent "$bin" check "$tmp/p.data" >/dev/null 2>"$tmp/noperf.err"
rc=$?
[ $rc -eq 1 ] || no "without perf: exit $rc, not 1"
grep -q 'perf is not on the PATH.*\[perf-data\]' "$tmp/noperf.err" || no "without perf: $(cat "$tmp/noperf.err")"
grep -q 'perf script -i FILE > FILE.txt' "$tmp/noperf.err" || no "without perf, no word of what to do"
# A perf.data perf cannot read.
{ printf 'PERFILE2'; head -c 300 /dev/urandom; } >"$tmp/bad.data"
"$bin" convert "$tmp/bad.data" -o "$tmp/bad.callgrind" >/dev/null 2>"$tmp/bad.err"
rc=$?
[ $rc -eq 1 ] || no "a broken perf.data: exit $rc, not 1"
grep -q "perf script\` failed.*\[perf-data\]" "$tmp/bad.err" || no "a broken perf.data: $(cat "$tmp/bad.err")"
[ -e "$tmp/bad.callgrind" ] && no "a broken perf.data: an output file left"

echo "check_perf_data: $n samples; perf.data, piped and gzip'd read as perf script's text"
[ $fail = 0 ] && echo "check_perf_data: all passed" || echo "check_perf_data: FAILED"
exit $fail
