#!/usr/bin/env bash
# Exit status and a file cut short, for every command that reads a profile (docs/cli.md,
# "Exit status"): an error-level diagnostic or a file not read to its end is status 1, after
# what could be read is printed where that is safe; a warning alone keeps 0; --max-memory
# reached is an error; a binary file is refused as check refuses it. A callgrind file cut to
# its first 3,000 bytes is said to be cut short (likely-truncated: no totals:, no last newline,
# self costs below summary:), an error with check --strict; no corpus file gets that warning.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../tools/test_files.sh
. "$(dirname "$0")/../tools/test_files.sh"
bin=$1
corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {  # expect DESCRIPTION EXPECTED_RC ACTUAL_RC
  if [ "$2" != "$3" ]; then echo "FAIL: $1: exit $3, expected $2"; fail=1; else echo "ok: $1"; fi
}
has() {  # has DESCRIPTION FILE PATTERN
  if grep -qE -- "$3" "$2"; then echo "ok: $1"; else echo "FAIL: $1: no /$3/ in:"; head -8 "$2"; fail=1; fi
}
hasnt() {  # hasnt DESCRIPTION FILE PATTERN
  if grep -qE -- "$3" "$2"; then echo "FAIL: $1: /$3/ in:"; grep -E -- "$3" "$2" | head -5; fail=1; else echo "ok: $1"; fi
}

# --- a callgrind file cut to its first 3,000 bytes ------------------------------------------
src=$corpus/vg-recurse-default.callgrind
head -c 3000 "$src" >"$tmp/cut.callgrind"
"$bin" check "$tmp/cut.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "check: a cut file is a warning" 0 $?
has "cut: no totals:" "$tmp/err" "warning: no 'totals:' line ends part 1, though callgrind-3.19.0 ends every part with one: the file was likely cut short \(truncated\) \[likely-truncated\]"
has "cut: no last newline" "$tmp/err" "warning: the last line has no newline.*cut short \(truncated\) \[likely-truncated\]"
has "cut: summary above the sum" "$tmp/err" "warning: summary: says 362861224 Ir but the self costs read sum to [0-9]+ \([0-9.]+ %\).*cut short \(truncated\) \[likely-truncated\]"
has "cut: summary line ok, 3 warnings" "$tmp/out" "cut.callgrind: ok: .* 0 errors, 3 warnings"
"$bin" check --strict "$tmp/cut.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "check --strict: a cut file fails" 1 $?
has "strict: errors" "$tmp/err" "error: no 'totals:' line ends part 1.*\[likely-truncated\]"
has "strict: FAILED" "$tmp/out" "cut.callgrind: FAILED: .* 3 errors, 0 warnings"
"$bin" check --json "$tmp/cut.callgrind" >"$tmp/json"; expect "check --json on a cut file" 0 $?
has "json: likely-truncated" "$tmp/json" '"code":"likely-truncated"'
# Cut after a newline: the last line is whole, the end is still missing.
head -n 300 "$src" >"$tmp/cut_lines.callgrind"
"$bin" check "$tmp/cut_lines.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "check: cut at a line end" 0 $?
has "cut at a line end: no totals:" "$tmp/err" "no 'totals:' line ends part 1"
hasnt "cut at a line end: the last line is whole" "$tmp/err" "no newline"
# The same with 2 threads (the parallel reader) and compressed.
"$bin" check --threads=2 "$tmp/cut.callgrind" >"$tmp/out" 2>"$tmp/err"
has "threads=2: the same 3 warnings" "$tmp/out" "0 errors, 3 warnings"
zstd -q -c "$tmp/cut.callgrind" >"$tmp/cut.callgrind.zst"
"$bin" check --threads=2 "$tmp/cut.callgrind.zst" >"$tmp/out" 2>"$tmp/err"
has "zstd, threads=2: the same 3 warnings" "$tmp/out" "0 errors, 3 warnings"
# annotate prints its report, says the file was cut short, exits 0 (a warning).
"$bin" annotate --auto=no "$tmp/cut.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "annotate: a cut file is a warning" 0 $?
has "annotate: says it is cut" "$tmp/err" "likely cut short \(truncated\) \[likely-truncated\]"
has "annotate: the report" "$tmp/out" "PROGRAM TOTALS"
"$bin" convert "$tmp/cut.callgrind" -o "$tmp/conv.callgrind" 2>"$tmp/err"; expect "convert: a cut file is a warning" 0 $?
has "convert: says it is cut" "$tmp/err" "\[likely-truncated\]"
# convert keeps what the file says: no totals: line of its own, so the conversion of a cut
# callgrind file is still one that callgrind would have closed with totals:, and check says so.
"$bin" check "$tmp/conv.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "check of convert's output" 0 $?
has "convert's output is still cut" "$tmp/err" "likely-truncated"
# calltree's own output, cut: its end is missing too.
head -c 2000 "$tmp/conv.callgrind" >"$tmp/conv_cut.callgrind"
"$bin" check "$tmp/conv_cut.callgrind" >"$tmp/out" 2>"$tmp/err"
has "calltree's output cut: no totals:" "$tmp/err" "though callgrind-3.19.0 ends every part|though calltree ends every part"

# --- no false warning on the corpus ---------------------------------------------------------
for f in "$corpus"/*.callgrind "$corpus"/*.callgrind.gz "$corpus"/*.cachegrind; do
  [ -f "$f" ] && small_enough "$f" || continue
  "$bin" check --strict -q "$f" >"$tmp/out" 2>&1
  if grep -q "likely-truncated\|FAILED" "$tmp/out"; then
    echo "FAIL: corpus $(basename "$f"): $(cat "$tmp/out")"; fail=1
  fi
done
echo "ok: check --strict passes every corpus file, no likely-truncated"

# --- a binary file --------------------------------------------------------------------------
head -c 4096 "$bin" >"$tmp/binary"
"$bin" annotate "$tmp/binary" >"$tmp/out" 2>"$tmp/err"; expect "annotate: binary file" 1 $?
has "annotate: binary-input" "$tmp/err" "error: the input is binary.*\[binary-input\]"
[ -s "$tmp/out" ] && { echo "FAIL: annotate printed a report of a binary file"; fail=1; }
"$bin" annotate --json "$tmp/binary" >"$tmp/out" 2>"$tmp/err"; expect "annotate --json: binary file" 1 $?
"$bin" check "$tmp/binary" >"$tmp/out" 2>"$tmp/err"; expect "check: binary file" 1 $?
"$bin" convert "$tmp/binary" -o "$tmp/b.out" 2>"$tmp/err"; expect "convert: binary file" 1 $?
"$bin" diff "$tmp/binary" "$src" >"$tmp/out" 2>"$tmp/err"; expect "diff: binary file" 1 $?
"$bin" merge "$tmp/binary" "$src" -o "$tmp/m.out" 2>"$tmp/err"; expect "merge: binary file" 1 $?
has "merge: binary-input" "$tmp/err" "\[binary-input\]"

# --- an error-level diagnostic: the report of the rest, status 1 ----------------------------
{ sed -n '1,/^fn=/p' "$src"; echo "12 x34"; sed -n '/^fn=/,$p' "$src" | tail -n +2; } >"$tmp/err.callgrind"
"$bin" check "$tmp/err.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "check: an error" 1 $?
has "check: malformed-number" "$tmp/err" "\[malformed-number\]"
"$bin" annotate --auto=no "$tmp/err.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "annotate: an error" 1 $?
has "annotate: report of the rest" "$tmp/out" "PROGRAM TOTALS"
has "annotate: names the errors" "$tmp/err" "error: 1 errors in .*err.callgrind \(see 'calltree check'\)"
"$bin" annotate --json "$tmp/err.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "annotate --json: an error" 1 $?
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" && echo "ok: annotate --json output is whole" || fail=1
"$bin" convert "$tmp/err.callgrind" -o "$tmp/conv2.callgrind" 2>"$tmp/err"; expect "convert: an error" 1 $?
[ -s "$tmp/conv2.callgrind" ] && echo "ok: convert wrote the rest" || { echo "FAIL: convert wrote nothing"; fail=1; }
"$bin" diff "$src" "$tmp/err.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "diff: an error" 1 $?
has "diff: printed" "$tmp/out" "Ir"
"$bin" merge "$src" "$tmp/err.callgrind" -o "$tmp/m.callgrind" 2>"$tmp/err"; expect "merge: an error" 1 $?
[ -s "$tmp/m.callgrind" ] && echo "ok: merge wrote the sum of the rest" || { echo "FAIL: merge wrote nothing"; fail=1; }
"$bin" dump "$tmp/err.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "dump: an error" 1 $?

# --- a warning alone keeps 0 ----------------------------------------------------------------
{ sed -n '1,/^fn=/p' "$src"; echo "bogus=1"; sed -n '/^fn=/,$p' "$src" | tail -n +2; } >"$tmp/warn.callgrind"
"$bin" check "$tmp/warn.callgrind" >"$tmp/out" 2>"$tmp/err"; expect "check: a warning" 0 $?
has "check: unknown-key warning" "$tmp/err" "warning: .*\[unknown-key\]"
"$bin" annotate --auto=no "$tmp/warn.callgrind" >/dev/null 2>&1; expect "annotate: a warning" 0 $?
"$bin" convert "$tmp/warn.callgrind" -o "$tmp/w.out" 2>/dev/null; expect "convert: a warning" 0 $?
"$bin" diff "$src" "$tmp/warn.callgrind" >/dev/null 2>&1; expect "diff: a warning" 0 $?
"$bin" merge "$src" "$tmp/warn.callgrind" -o "$tmp/w.out" 2>/dev/null; expect "merge: a warning" 0 $?

# --- a compressed file cut short: not read to its end ---------------------------------------
gzip -c "$src" | head -c 20000 >"$tmp/cut.callgrind.gz"
"$bin" check "$tmp/cut.callgrind.gz" >"$tmp/out" 2>"$tmp/err"; expect "check: gzip cut" 1 $?
has "check: truncated-input" "$tmp/err" "\[truncated-input\]"
"$bin" annotate --auto=no "$tmp/cut.callgrind.gz" >"$tmp/out" 2>"$tmp/err"; expect "annotate: gzip cut" 1 $?
has "annotate: report of what was read" "$tmp/out" "PROGRAM TOTALS"
has "annotate: not read to its end" "$tmp/err" "error: .*cut.callgrind.gz was not read to its end"
"$bin" convert "$tmp/cut.callgrind.gz" -o "$tmp/c.out" 2>"$tmp/err"; expect "convert: gzip cut" 1 $?
[ -e "$tmp/c.out" ] && { echo "FAIL: convert wrote a file from a cut input"; fail=1; }
"$bin" convert "$tmp/cut.callgrind.gz" >"$tmp/c.stdout" 2>"$tmp/err"; expect "convert to stdout: gzip cut" 1 $?
[ -s "$tmp/c.stdout" ] && echo "ok: convert to stdout wrote what was read" || { echo "FAIL: nothing on stdout"; fail=1; }
"$bin" diff "$src" "$tmp/cut.callgrind.gz" >"$tmp/out" 2>"$tmp/err"; expect "diff: gzip cut" 1 $?
has "diff: no diff of half a profile" "$tmp/err" "cut.callgrind.gz could not be read to its end; no diff"
"$bin" merge "$src" "$tmp/cut.callgrind.gz" -o "$tmp/m2.out" 2>"$tmp/err"; expect "merge: gzip cut" 1 $?
[ -e "$tmp/m2.out" ] && { echo "FAIL: merge wrote a sum of a cut input"; fail=1; }

# --- --max-memory reached: an error ---------------------------------------------------------
big=$corpus/vg-gxx-small-default.cc1plus.callgrind
"$bin" annotate --auto=no --max-memory=1M "$big" >"$tmp/out" 2>"$tmp/err"; expect "annotate: --max-memory" 1 $?
has "annotate: limit-exceeded" "$tmp/err" "error: .*\[limit-exceeded\]"
"$bin" check --max-memory=64K "$big" >"$tmp/out" 2>"$tmp/err"; expect "check: --max-memory" 1 $?
"$bin" diff --max-memory=1M "$big" "$big" >"$tmp/out" 2>"$tmp/err"; expect "diff: --max-memory" 1 $?
"$bin" convert --max-memory=64K "$big" -o "$tmp/x.out" 2>"$tmp/err"; expect "convert: --max-memory" 1 $?
exit $fail
