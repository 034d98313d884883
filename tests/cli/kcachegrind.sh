#!/usr/bin/env bash
# Every kind of file calltree writes loads in KCachegrind (the reference viewer) without a single
# "Loading FILE : LINE : message" problem: convert of every corpus file (names and positions
# compressed, and a few uncompressed) and of other profilers' files (tests/import), and merge
# outputs (threads summed, parts kept, mixed producers). A deliberately broken file must give problems, so a silent viewer cannot pass.
# KCachegrind is a GUI: it runs under xvfb and is stopped after a few seconds.
set -uo pipefail
bin=$1
corpus=$2
if ! command -v kcachegrind >/dev/null || ! command -v xvfb-run >/dev/null; then
  echo "kcachegrind.sh: kcachegrind or xvfb-run missing (scripts/install-deps.sh installs them)"
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

for f in "$corpus"/*.callgrind "$corpus"/*.cachegrind "$corpus"/*.callgrind.gz; do
  b=$(basename "$f" .gz)
  "$bin" convert "$f" -o "$tmp/$b.conv" 2>/dev/null || { echo "FAIL: convert $b"; fail=1; }
done
# Other profilers' files (tests/import: folded stacks, .cpuprofile, pprof, pstats, perf), the
# first three of each folder that read without an error, converted (tests/import/check_*.py
# have callgrind_annotate read every one), and a broken control file among them.
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir "$tmp/import"
for d in "$src"/tests/import/*/; do
  taken=0
  for f in "$d"*; do
    case $f in *.md | *.py | *.c | *.go | */CMakeLists.txt) continue ;; esac
    [ -f "$f" ] && [ $taken -lt 3 ] || continue
    "$bin" check -q "$f" >/dev/null 2>&1 || continue
    taken=$((taken + 1))
    b=$(basename "$d")-$(basename "$f")
    "$bin" convert "$f" -o "$tmp/import/$b.conv" 2>/dev/null || { echo "FAIL: convert $b"; fail=1; }
  done
done
printf 'events: Ir\nfn=(3)\n1 5 7\nxyz=1\n' >"$tmp/import/control.broken"
for b in vg-phases-instr-jumps-nocompress-pos.callgrind vg-python-work-instr-jumps.callgrind \
         xdebug-recursion.callgrind vg-threads-separate-combined.callgrind; do
  "$bin" convert --no-compress-names --no-compress-positions "$corpus/$b" -o "$tmp/$b.plain" ||
    { echo "FAIL: convert plain $b"; fail=1; }
done
"$bin" merge "$corpus"/vg-threads-separate.t0*.callgrind -o "$tmp/threads.merged" || fail=1
"$bin" merge --parts=keep "$corpus/vg-threads-separate-combined.callgrind" -o "$tmp/keep.merged" || fail=1
"$bin" merge "$corpus/xdebug-recursion.callgrind" "$corpus/vg-recurse-default.callgrind" \
  "$corpus/pyprof2calltree-work.callgrind" -o "$tmp/mixed.merged" || fail=1
printf 'events: Ir\nfn=(3)\n1 5 7\nxyz=1\n' >"$tmp/control.broken"

load() {  # load FILE SECONDS: KCachegrind's load problems for FILE into FILE.log
  # (xvfb-run -a takes the first free display: two starting at once may take the same one, and
  # one of them then fails to start; it is started again)
  for _ in 1 2 3; do
    timeout "$2" dbus-run-session -- xvfb-run -a kcachegrind "$1" >"$1.log" 2>&1
    grep -q 'Xvfb failed to start' "$1.log" || return 0
    sleep "0.$RANDOM"
  done
}
export -f load
# Each file in a KCachegrind of its own (given several files, it reads them as parts of one
# profile, whose commands differ), six at a time: a KCachegrind reads a small file in well under
# a second and then waits for its timeout, idle. The 24 MB one (2.5 s of CPU) beside them all.
load "$tmp/vg-gxx-big-instr-jumps.cc1plus.callgrind.conv" 40 &
big_pid=$!
printf "%s\n" "$tmp"/*.conv "$tmp"/*.plain "$tmp"/*.merged "$tmp/control.broken" "$tmp"/import/* |
  grep -v 'vg-gxx-big-instr-jumps.cc1plus.callgrind.conv$' | xargs -P 6 -I{} bash -c 'load {} 10'
wait "$big_pid"
if ! grep -q '^Loading .* : ' "$tmp/import/control.broken.log"; then
  echo "FAIL: KCachegrind printed nothing for the control file among the imported ones"
  fail=1
fi
n_import=$(find "$tmp/import" -name '*.conv' | wc -l)
[ "$n_import" -ge 12 ] || { echo "FAIL: only $n_import imported files converted"; fail=1; }

if grep -q '^Loading .* : ' "$tmp/control.broken.log"; then
  echo "ok: KCachegrind reports the broken control file"
else
  echo "FAIL: KCachegrind printed nothing for the broken control file (is it running?)"
  cat "$tmp/control.broken.log"
  fail=1
fi
n=0
for log in "$tmp"/*.conv.log "$tmp"/*.plain.log "$tmp"/*.merged.log "$tmp"/import/*.conv.log; do
  n=$((n + 1))
  if grep -q 'Xvfb failed to start' "$log"; then
    echo "FAIL: $(basename "$log" .log): KCachegrind did not start (no display)"
    fail=1
  elif grep -q '^Loading ' "$log"; then
    echo "FAIL: $(basename "$log" .log):"
    grep '^Loading ' "$log" | head -5
    fail=1
  fi
done
echo "kcachegrind.sh: $n files checked, and $n_import other profilers' files converted"
[ $fail = 0 ] && echo "kcachegrind.sh: all passed" || echo "kcachegrind.sh: FAILED"
exit $fail
