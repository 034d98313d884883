#!/usr/bin/env bash
# Hostile input through real pipes (not a file on standard input): a 100 MB line, a stream cut
# in the middle, an empty pipe, an endless stream cut by --max-memory, and a reader of our output
# that goes away. Each case asserts the exit status, the diagnostic's code, and a ceiling on the
# peak RSS of the calltree process (GNU time). The file cases are in tests/unit/hostile_test.cc.
set -uo pipefail
bin=$1
corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {  # expect DESCRIPTION EXPECTED_RC ACTUAL_RC
  if [ "$2" != "$3" ]; then echo "FAIL: $1: exit $3, expected $2"; fail=1; else echo "ok: $1"; fi
}
has() {  # has DESCRIPTION FILE PATTERN
  if grep -qE -- "$3" "$2"; then echo "ok: $1"; else echo "FAIL: $1: no /$3/ in:"; head -5 "$2"; fail=1; fi
}
# Peak RSS ceilings are for a release build; ASan (shadow, redzones, a 256 MB quarantine) gets
# three times as much plus 400 MB.
asan=0
grep -q __asan_init "$bin" 2>/dev/null && asan=1
ceiling_kb() { if [ $asan = 1 ]; then echo $(( ($1 * 3 + 400) * 1024 )); else echo $(( $1 * 1024 )); fi; }
rss_below() {  # rss_below DESCRIPTION TIME_FILE MB
  local rss
  rss=$(tail -1 "$2")
  if [ -n "$rss" ] && [ "$rss" -le "$(ceiling_kb "$3")" ]; then
    echo "ok: $1: peak RSS $((rss / 1024)) MB"
  else
    echo "FAIL: $1: peak RSS ${rss:-?} KB, ceiling $(ceiling_kb "$3") KB"; fail=1
  fi
}
run() {  # run TIME_FILE ARGS... (stdin from the pipe)
  local t=$1; shift
  /usr/bin/time -f %M -o "$t" "$bin" "$@"
}

# A 100 MB line through a pipe: gathered up to the 64 MiB line limit, then skipped to its end.
{ printf 'events: Ir\nfl=a.c\nfn=main\n1 5\nfn='; head -c $((100 << 20)) /dev/zero | tr '\0' x
  printf '\n2 7\n'; } | run "$tmp/t1" check - >"$tmp/out" 2>"$tmp/err"
expect "100 MB line through a pipe" 1 $?
has "100 MB line: line-too-long" "$tmp/err" '\[line-too-long\]'
has "100 MB line: the lines around it are read" "$tmp/out" 'totals Ir=12; .*1 of 6 lines skipped'
rss_below "100 MB line" "$tmp/t1" 200

# A gzip stream cut in the middle, through a pipe.
f=$corpus/vg-ls-R-nocompress.callgrind
gzip -c "$f" | head -c 30000 | run "$tmp/t2" check - >"$tmp/out" 2>"$tmp/err"
expect "gzip cut in a pipe" 1 $?
has "gzip cut: truncated-input" "$tmp/err" '\[truncated-input\]'
has "gzip cut: what came before is read" "$tmp/out" '[1-9][0-9]* functions, [1-9][0-9]* calls.*reading stopped early'
rss_below "gzip cut" "$tmp/t2" 40

# An empty pipe.
: | run "$tmp/t3" check - >"$tmp/out" 2>"$tmp/err"
expect "empty pipe" 1 $?
has "empty pipe: no-events" "$tmp/err" '\[no-events\]'

# An endless stream of new function names: --max-memory stops it (the reader's name limit).

python3 -c '
import sys
w = sys.stdout.write
w("events: Ir\nfl=a.c\n")
i = 0
try:
    while True:
        w("fn=function_%d_%s\n1 1\n" % (i, "x" * 100)); i += 1
except BrokenPipeError:
    pass
' 2>/dev/null | run "$tmp/t4" check --max-memory=16M - >"$tmp/out" 2>"$tmp/err"
expect "endless names, --max-memory=16M" 1 $?
has "endless names: limit-exceeded" "$tmp/err" '\[limit-exceeded\]'
rss_below "endless names" "$tmp/t4" 60

# The same stream into annotate. With --auto=no the report's tables are summed with no model
# (annotate_direct), which stops keeping records once they and the names would pass 64 MiB;
# with --raw too, into the model, whose builder stops at 64 MiB. The report's own tables come
# on top, so the ceiling is about 3x that.
for extra in "" "--raw"; do
python3 -c '
import sys
w = sys.stdout.write
w("events: Ir\nfl=a.c\n")
try:
    for i in range(3000000):
        w("fn=function_%d\n%d 1\n" % (i, i))
except BrokenPipeError:
    pass
' 2>/dev/null | run "$tmp/t5" annotate --max-memory=64M --auto=no $extra - >"$tmp/out" 2>"$tmp/err"
expect "3 M functions into annotate $extra, --max-memory=64M (an error)" 1 $?
has "annotate $extra: says it had errors" "$tmp/err" 'errors'
rss_below "3 M functions into annotate $extra" "$tmp/t5" 250
done

# A reader of our output that goes away: a broken pipe is success, not a crash.
"$bin" annotate --auto=no "$corpus/vg-gxx-small-default.cc1plus.callgrind" 2>"$tmp/err" | head -c 100 >/dev/null
rc=${PIPESTATUS[0]}
expect "annotate into a closed pipe" 0 "$rc"

exit $fail
