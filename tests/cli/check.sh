#!/usr/bin/env bash
# calltree check end to end: exit codes, the summary line, --json fields, stdin and compressed input.
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

f=$corpus/vg-recurse-default.callgrind
"$bin" check "$f" >"$tmp/out" 2>"$tmp/err"; expect "valid file" 0 $?
has "summary line" "$tmp/out" 'ok: 1 part, events Ir, [0-9]+ functions, [0-9]+ calls, totals Ir=362861224'

"$bin" check --json "$f" >"$tmp/json"; expect "json" 0 $?
python3 - "$tmp/json" <<'PY' || fail=1
import json, sys
d = json.loads(open(sys.argv[1]).read())
for k in ("file", "ok", "parts", "events", "totals", "functions", "calls", "diagnostics", "summary"):
    assert k in d, k
assert d["ok"] is True and d["parts"] == 1 and d["events"] == ["Ir"]
assert d["totals"] == {"Ir": 362861224}, d["totals"]
assert d["functions"] > 100 and d["calls"] > 100
print("ok: json fields")
PY

# stdin, gzip, zstd, xz, bzip2: same totals
for c in cat "gzip -c" "zstd -q -c" "xz -c" "bzip2 -c"; do
  $c "$f" | "$bin" check --json - >"$tmp/c.json"; rc=$?
  expect "stdin via $c" 0 $rc
  has "totals via $c" "$tmp/c.json" '"totals":\{"Ir":362861224\}'
done
gzip -c "$f" >"$tmp/x.gz"
"$bin" check --json "$tmp/x.gz" >"$tmp/gz.json"; expect "gzip file" 0 $?
has "compression named" "$tmp/gz.json" '"compression":"gzip"'

# several files: one line each; one JSON object per line
"$bin" check --json "$f" "$corpus/xdebug-recursion.callgrind" >"$tmp/two.json"; expect "two files" 0 $?
[ "$(wc -l <"$tmp/two.json")" = 2 ] && echo "ok: two json lines" || { echo "FAIL: two json lines"; fail=1; }

# a truncated gzip stream: error, exit 1, what was read is reported
head -c $(( $(wc -c <"$tmp/x.gz") / 2 )) "$tmp/x.gz" >"$tmp/cut.gz"
"$bin" check --json "$tmp/cut.gz" >"$tmp/cut.json" 2>/dev/null; expect "truncated gzip" 1 $?
has "truncated-input code" "$tmp/cut.json" '"code":"truncated-input"'
has "truncated: incomplete" "$tmp/cut.json" '"complete":false'

# errors: exit 1 with file:line:col and code
printf 'events: Ir\nfn=(7)\n1 5\ncalls=1 2\nfn=x\n1 18446744073709551616\n' >"$tmp/bad.callgrind"
"$bin" check "$tmp/bad.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "errors found" 1 $?
has "undefined name diagnostic" "$tmp/err" "bad.callgrind:2:4: error: function id \(7\) used before it was defined \[undefined-name\]"
has "call without cost" "$tmp/err" "bad.callgrind:4:1: error: .* \[call-without-cost\]"
has "overflow" "$tmp/err" "bad.callgrind:6:3: error: cost '18446744073709551616' does not fit in 64 bits.* \[number-overflow\]"
has "caret line" "$tmp/err" '^     \^~~$'
has "skipped count" "$tmp/out" 'FAILED: .* 2 of 6 lines skipped'
"$bin" check -q "$tmp/bad.callgrind" >/dev/null 2>"$tmp/err"; expect "quiet still fails" 1 $?
[ -s "$tmp/err" ] && { echo "FAIL: --quiet printed diagnostics"; fail=1; } || echo "ok: quiet"

# empty file and binary file
: >"$tmp/empty"
"$bin" check "$tmp/empty" >/dev/null 2>"$tmp/err"; expect "empty file" 1 $?
has "empty: no-events" "$tmp/err" '\[no-events\]'
head -c 4096 /dev/urandom >"$tmp/random"
"$bin" check "$tmp/random" >/dev/null 2>"$tmp/err"; expect "binary file" 1 $?

# calls that cost more than their callee's lines: a note (exit 0), at the function's first line,
# in the text and in --json; none on a file whose calls agree with their callees' lines.
runs=$(dirname "$corpus")/runs
"$bin" check "$runs/calls-above-lines.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "calls above lines" 0 $?
has "calls-above-lines note" "$tmp/err" 'calls-above-lines.callgrind:12: note: 1 function is called for more than its own lines add up to \(the most: the function whose lines begin here, called for 200 Ir, its lines 110\).*\[calls-above-lines\]'
"$bin" check --json "$runs/calls-above-lines.callgrind" >"$tmp/cal.json"; expect "calls above lines, json" 0 $?
python3 - "$tmp/cal.json" <<'PY' || fail=1
import json, sys
d = json.loads(open(sys.argv[1]).read())
notes = [x for x in d["diagnostics"] if x["code"] == "calls-above-lines"]
assert len(notes) == 1 and notes[0]["severity"] == "note" and notes[0]["line"] == 12, notes
assert "called for 200 Ir, its lines 110" in notes[0]["message"], notes[0]["message"]
assert d["notes"] >= 1 and d["ok"] is True
print("ok: json calls-above-lines")
PY
"$bin" check "$f" 2>&1 | grep -q 'calls-above-lines' && { echo "FAIL: a note on vg-recurse-default"; fail=1; } || echo "ok: no note where calls agree"

# A stated total below the costs' sum (an Xdebug file whose summary: says less): said once, by
# the reader's summary-mismatch warning at its line, not again in the summary's lines (issue 67);
# with -q (no diagnostics) the summary's line says it.
printf 'version: 1\ncreator: xdebug 3.2.0 (PHP 8.2)\ncmd: /tmp/x.php\nevents: Time_(10ns) Memory_(bytes)\nfl=(1) /tmp/x.php\nfn=(1) {main}\n1 500 100\nsummary: 400 100\n' >"$tmp/xs.cg"
"$bin" check "$tmp/xs.cg" >"$tmp/xs.all" 2>&1; expect "summary below the sum" 0 $?
has "summary below the sum: the diagnostic" "$tmp/xs.all" 'xs.cg:8: warning: summary: says 400 Time_\(10ns\), less than .*\[summary-mismatch\]'
n=$(grep -c '400 Time_(10ns)' "$tmp/xs.all")
[ "$n" = 1 ] && echo "ok: the mismatch said once" || { echo "FAIL: the mismatch said $n times:"; cat "$tmp/xs.all"; fail=1; }
"$bin" check -q "$tmp/xs.cg" >"$tmp/xs.q" 2>&1
has "summary below the sum, -q" "$tmp/xs.q" 'warning: the file states a total of 400 Time_\(10ns\) but its self costs sum to 500'

# usage and I/O errors: exit 2
"$bin" check >/dev/null 2>&1; expect "no file" 2 $?
"$bin" check --bogus "$f" >/dev/null 2>&1; expect "unknown option" 2 $?
"$bin" check "$tmp/does-not-exist" >/dev/null 2>&1; expect "missing file" 2 $?
"$bin" check "$tmp" >/dev/null 2>&1; expect "directory" 2 $?
"$bin" check --help | grep -q 'Usage: calltree check' && echo "ok: help" || { echo "FAIL: help"; fail=1; }
"$bin" --version | grep -qE '^calltree [0-9]' && echo "ok: version" || { echo "FAIL: version"; fail=1; }

# a closed pipe is not an error
for i in $(seq 200); do echo "$f"; done | xargs "$bin" check | head -c 1 >/dev/null; expect "broken pipe" 0 "${PIPESTATUS[1]}"

[ $fail = 0 ] && echo "check.sh: all passed" || echo "check.sh: FAILED"
exit $fail
