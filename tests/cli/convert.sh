#!/usr/bin/env bash
# convert.sh — `calltree convert` and `calltree dump` from the shell: help, usage and I/O errors
# and their exit codes, stdin/gzip/zstd inputs, -o - and in-place output, compression options,
# diagnostics on stderr, multi-part files, broken pipes, convert being a fixpoint, and convert
# keeping what the file says: stated totals only where stated and as stated, desc: lines byte
# for byte, and `annotate` of the converted file equal to `annotate` of the original on every
# corpus and golden input.
# Usage: bash convert.sh CALLTREE_BINARY CORPUS_DIR
set -u
# shellcheck source-path=SCRIPTDIR source=../tools/test_files.sh
. "$(dirname "$0")/../tools/test_files.sh"
ct=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_rc() {  # expect_rc WANT DESCRIPTION CMD...
  local want=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq "$want" ] || fail "$what: exit $rc, expected $want ($(head -c 300 "$tmp/err"))"
}

small=$corpus/vg-recurse-default.callgrind
combined=$corpus/vg-threads-separate-combined.callgrind
gz=$corpus/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz

# --help
expect_rc 0 "convert --help" "$ct" convert --help
grep -q -- "--no-compress-names" "$tmp/out" || fail "convert --help lists --no-compress-names"
grep -q -- "--no-compress-positions" "$tmp/out" || fail "convert --help lists --no-compress-positions"
grep -q -- "--output" "$tmp/out" || fail "convert --help lists --output"
expect_rc 0 "dump --help" "$ct" dump --help
grep -q -- "--records" "$tmp/out" || fail "dump --help lists --records"

# Usage and I/O errors: exit 2, nothing written.
expect_rc 2 "convert without FILE" "$ct" convert
expect_rc 2 "convert with two FILEs" "$ct" convert "$small" "$small"
expect_rc 2 "convert with an unknown option" "$ct" convert --bogus "$small"
expect_rc 2 "convert -o without value" "$ct" convert "$small" -o
expect_rc 2 "convert a missing file" "$ct" convert "$tmp/does-not-exist" -o "$tmp/x.out"
[ -e "$tmp/x.out" ] && fail "a failed convert created its output"
expect_rc 2 "convert into a missing folder" "$ct" convert "$small" -o "$tmp/no/such/dir/out"
expect_rc 2 "dump a missing file" "$ct" dump --records "$tmp/does-not-exist"
expect_rc 2 "dump without FILE" "$ct" dump --records
expect_rc 2 "dump --records --profile" "$ct" dump --records --profile "$small"
head -c 100000 "$gz" >"$tmp/truncated.gz"
expect_rc 1 "convert a truncated gzip file" "$ct" convert "$tmp/truncated.gz" -o "$tmp/trunc.out"
[ -e "$tmp/trunc.out" ] && fail "a truncated input left an output file"
ls "$tmp" | grep -q calltree-tmp && fail "a temporary output file was left behind"

# A clean conversion: the format's first lines, a final newline, and `check` finds nothing.
expect_rc 0 "convert a corpus file" "$ct" convert "$small" -o "$tmp/a.callgrind"
[ -s "$tmp/err" ] && fail "a clean convert printed to stderr: $(head -c 300 "$tmp/err")"
[ "$(head -2 "$tmp/a.callgrind")" = "$(printf '# callgrind format\nversion: 1')" ] ||
  fail "output does not begin with '# callgrind format' and 'version: 1'"
[ "$(tail -c 1 "$tmp/a.callgrind" | od -An -c | tr -d ' ')" = '\n' ] || fail "no final newline"
grep -q $'\r' "$tmp/a.callgrind" && fail "CR in the output"
# (desc: lines are as the input wrote them: callgrind's `desc: I1 cache: ` ends in a blank.)
grep -v '^desc:' "$tmp/a.callgrind" | grep -q ' $' && fail "trailing space in the output"
grep -v '^desc:' "$tmp/a.callgrind" | grep -q '  ' && fail "double space in the output"
grep -q '^cfl=' "$tmp/a.callgrind" && fail "cfl= written (cfi= is the key)"
expect_rc 0 "check the converted file" "$ct" check "$tmp/a.callgrind"
grep -q "0 errors, 0 warnings" "$tmp/out" "$tmp/err" || fail "check found problems in converted output"

# -o - and no -o write the same to stdout.
"$ct" convert "$small" -o - >"$tmp/b.callgrind" 2>/dev/null || fail "convert -o - failed"
"$ct" convert "$small" >"$tmp/c.callgrind" 2>/dev/null || fail "convert to stdout failed"
cmp -s "$tmp/a.callgrind" "$tmp/b.callgrind" || fail "-o - differs from -o FILE"
cmp -s "$tmp/a.callgrind" "$tmp/c.callgrind" || fail "no -o differs from -o FILE"

# stdin, gzip and zstd inputs give the same output as the plain file.
"$ct" convert - -o "$tmp/stdin.callgrind" <"$small" 2>/dev/null || fail "convert - (stdin) failed"
cmp -s "$tmp/a.callgrind" "$tmp/stdin.callgrind" || fail "stdin input gives another output"
gzip -c "$small" >"$tmp/small.gz"
"$ct" convert "$tmp/small.gz" -o "$tmp/gz.callgrind" 2>/dev/null || fail "convert a .gz failed"
cmp -s "$tmp/a.callgrind" "$tmp/gz.callgrind" || fail "gzip input gives another output"
if command -v zstd >/dev/null; then
  zstd -q -c "$small" >"$tmp/small.zst"
  "$ct" convert "$tmp/small.zst" -o "$tmp/zst.callgrind" 2>/dev/null || fail "convert a .zst failed"
  cmp -s "$tmp/a.callgrind" "$tmp/zst.callgrind" || fail "zstd input gives another output"
  zstd -q -c "$small" | "$ct" convert - -o "$tmp/zst2.callgrind" 2>/dev/null ||
    fail "convert zstd on stdin failed"
  cmp -s "$tmp/a.callgrind" "$tmp/zst2.callgrind" || fail "zstd on stdin gives another output"
fi

# In place: OUT may be FILE itself.
cp "$small" "$tmp/inplace.callgrind"
expect_rc 0 "convert in place" "$ct" convert "$tmp/inplace.callgrind" -o "$tmp/inplace.callgrind"
cmp -s "$tmp/a.callgrind" "$tmp/inplace.callgrind" || fail "in-place convert differs"

# Fixpoint: converting the converted file changes nothing, in every mode.
for opts in "" "--no-compress-names" "--no-compress-positions" \
  "--no-compress-names --no-compress-positions"; do
  # shellcheck disable=SC2086
  "$ct" convert $opts "$small" -o "$tmp/f1" 2>/dev/null || fail "convert $opts"
  # shellcheck disable=SC2086
  "$ct" convert $opts "$tmp/f1" -o "$tmp/f2" 2>/dev/null || fail "convert $opts (again)"
  cmp -s "$tmp/f1" "$tmp/f2" || fail "convert $opts is not a fixpoint"
done

# --no-compress-names: no "(id)" at all in a file whose names never start with "(" + digit;
# --no-compress-positions: no relative position anywhere.
"$ct" convert --no-compress-names "$small" -o "$tmp/n.callgrind" 2>/dev/null
grep -Eq '^(ob|fl|fi|fe|fn|cob|cfi|cfn|jfi|jfn)=\([0-9]' "$tmp/n.callgrind" &&
  fail "--no-compress-names still wrote ids"
grep -Eq '^(ob|fl|fn)=\([0-9]' "$tmp/a.callgrind" || fail "compression on wrote no ids"
"$ct" convert --no-compress-positions "$small" -o "$tmp/p.callgrind" 2>/dev/null
relative_positions() {  # succeeds if a cost, call or jump line has a +N, -N or * token
  awk '/^(0x[0-9a-f]+|[0-9]+|[-+*])( |$)/ || /^(calls|jump|jcnd)=/ {
         for (i = 1; i <= NF; i++) if ($i ~ /^[-+*]/) found = 1 }
       END { exit !found }' "$1"
}
relative_positions "$tmp/p.callgrind" && fail "--no-compress-positions still wrote relative positions"
relative_positions "$tmp/a.callgrind" || fail "compression on wrote no relative positions"
# A name that looks like an id is written compressed even with --no-compress-names.
printf 'events: Ir\nfl=a.c\nfn=(5)x\n1 1\nfn=(below main)\n2 1\n' >"$tmp/idlike.callgrind"
printf 'events: Ir\nfl=a.c\nfn=(5) (7) x\n1 1\n' >"$tmp/idlike2.callgrind"
"$ct" convert --no-compress-names "$tmp/idlike2.callgrind" -o "$tmp/idlike2.out" 2>/dev/null
grep -qx 'fn=(1) (7) x' "$tmp/idlike2.out" || fail "a name '(7) x' was not written compressed"
"$ct" convert --no-compress-names "$tmp/idlike.callgrind" -o "$tmp/idlike.out" 2>/dev/null
grep -qx 'fn=(below main)' "$tmp/idlike.out" || fail "'(below main)' was compressed"
[ "$("$ct" dump --records --no-line-numbers "$tmp/idlike2.callgrind" 2>/dev/null | grep '^cost')" = \
  "$("$ct" dump --records --no-line-numbers "$tmp/idlike2.out" 2>/dev/null | grep '^cost')" ] ||
  fail "the '(7) x' name did not survive"

# An input with errors: exit 1, the diagnostic in file:line:col form, the rest converted.
printf 'events: Ir\nfl=a.c\nfn=main\n1 2\n1 5x\n2 3\n' >"$tmp/bad.callgrind"
expect_rc 1 "convert an input with an error" "$ct" convert "$tmp/bad.callgrind" -o "$tmp/bad.out"
grep -Eq "bad\.callgrind:5:[0-9]+: error: .* \[malformed-number\]" "$tmp/err" ||
  fail "diagnostic not in file:line:col: severity: message [code] form: $(cat "$tmp/err")"
grep -qx '2 3' "$tmp/bad.out" || fail "the readable lines were not converted"
expect_rc 1 "dump an input with an error" "$ct" dump --records "$tmp/bad.callgrind"
# Notes (calls=0 is valid) are not printed by convert.
printf 'events: Ir\nfl=a.c\nfn=main\n1 2\ncfn=f\ncalls=0 5\n1 3\nfn=f\n5 3\n' >"$tmp/zero.callgrind"
expect_rc 0 "convert an input with a note" "$ct" convert "$tmp/zero.callgrind" -o "$tmp/zero.out"
[ -s "$tmp/err" ] && fail "convert printed a note: $(cat "$tmp/err")"

# Multi-part files keep every part, each with its header and totals.
"$ct" convert "$combined" -o "$tmp/m.callgrind" 2>/dev/null || fail "convert a multi-part file"
[ "$(grep -c '^# callgrind format$' "$tmp/m.callgrind")" = 5 ] || fail "not 5 part headers"
[ "$(grep -c '^totals: ' "$tmp/m.callgrind")" = 5 ] || fail "not 5 totals: lines"
[ "$(grep -c '^thread: ' "$tmp/m.callgrind")" = 5 ] || fail "not 5 thread: lines"
[ "$("$ct" dump --records --no-line-numbers "$combined" 2>/dev/null | grep -c '^part ')" = 5 ] ||
  fail "dump does not list 5 parts"

# What the file says, kept. Stated totals only where stated, as stated; desc: lines byte for
# byte (blanks inside and at the end, a desc: without a type); annotate's "(calculated)" stays.
printf 'events: Ir\nfl=a.c\nfn=main\n1 40\n' >"$tmp/none.callgrind"
"$ct" convert "$tmp/none.callgrind" -o "$tmp/none.out" 2>/dev/null || fail "convert without totals"
grep -Eq '^(totals|summary):' "$tmp/none.out" && fail "convert stated a total the input did not"
"$ct" annotate "$tmp/none.out" | grep -q 'PROGRAM TOTALS (calculated)' ||
  fail "annotate of the converted file lost '(calculated)'"
# pyprof2calltree states its largest inclusive time, here below the sum of the self times.
printf 'events: ns\nsummary: 57000\nfl=a.py\nfn=f\n1 30000\nfn=g\n2 28000\n' >"$tmp/py.callgrind"
"$ct" convert "$tmp/py.callgrind" -o "$tmp/py.out" 2>/dev/null || fail "convert a summary"
[ "$(grep -E '^(summary|totals):' "$tmp/py.out")" = "summary: 57000" ] ||
  fail "summary: 57000 not kept as stated: $(grep -E '^(summary|totals):' "$tmp/py.out")"
for n in 11 15 19 57000; do
  printf 'events: Ir\nfl=a.c\nfn=main\n1 5\ntotals: %s\n' "$n" >"$tmp/tot.callgrind"
  "$ct" convert "$tmp/tot.callgrind" -o "$tmp/tot.out" 2>/dev/null
  [ "$(grep -E '^(summary|totals):' "$tmp/tot.out")" = "totals: $n" ] ||
    fail "totals: $n written as '$(grep -E '^(summary|totals):' "$tmp/tot.out")'"
done
printf '%s\n' 'desc: I1 cache:         32768 B, 64 B, 8-way associative' 'desc: LL cache: ' \
  'desc: Trigger' 'desc:   Timerange:  Basic block 0 - 9' 'events: Ir' 'fl=a.c' 'fn=main' '1 2' \
  >"$tmp/desc.callgrind"
"$ct" convert "$tmp/desc.callgrind" -o "$tmp/desc.out" 2>/dev/null || fail "convert desc: lines"
[ "$(grep '^desc:' "$tmp/desc.out")" = "$(printf '%s\n' 'desc: I1 cache:         32768 B, 64 B, 8-way associative' 'desc: LL cache: ' 'desc: Trigger' 'desc: Timerange:  Basic block 0 - 9')" ] ||
  fail "desc: lines changed: $(grep '^desc:' "$tmp/desc.out" | cat -A)"

# annotate of the converted file equals annotate of the original (but for the file's name), on
# every corpus profile and golden input, self and inclusive, compression on and off.
annotate_as() {  # annotate_as FILE OPTIONS...: the report without its "Profile data file" line
  local f=$1
  shift
  "$ct" annotate --auto=no "$@" "$f" 2>/dev/null | grep -v "^Profile data file '"
}
same=0
for f in "$corpus"/*.callgrind "$corpus"/*.cachegrind "$corpus"/*.gz "$src"/tests/golden/*/input*; do
  [ -f "$f" ] && small_enough "$f" || continue
  # (the original's reports once, for both conversions)
  want_no=$(annotate_as "$f" --inclusive=no | md5sum)
  want_yes=$(annotate_as "$f" --inclusive=yes | md5sum)
  for opts in "" "--no-compress-names --no-compress-positions"; do
    # shellcheck disable=SC2086
    "$ct" convert $opts "$f" -o "$tmp/rt.callgrind" 2>/dev/null
    [ -s "$tmp/rt.callgrind" ] || { fail "convert $opts $f wrote nothing"; continue; }
    for incl in no yes; do
      want=$want_no
      [ $incl = yes ] && want=$want_yes
      if [ "$want" != "$(annotate_as "$tmp/rt.callgrind" --inclusive=$incl | md5sum)" ]; then
        fail "annotate --inclusive=$incl of ${f#"$src"/} differs after convert $opts"
        diff <(annotate_as "$f" --inclusive=$incl) <(annotate_as "$tmp/rt.callgrind" --inclusive=$incl) |
          head -6 >&2
      else
        same=$((same + 1))
      fi
    done
    # The large file once: compression off says nothing more there.
    [ "$(stat -c %s "$f")" -gt 4000000 ] && break
  done
done
[ "$same" -ge 150 ] || fail "only $same annotate reports compared equal after convert"

# A closed pipe is success, for convert and dump.
"$ct" convert "$gz" 2>/dev/null | head -1 >/dev/null
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "convert | head: exit ${PIPESTATUS[0]}"
"$ct" dump --records "$gz" 2>/dev/null | head -1 >/dev/null
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "dump | head: exit ${PIPESTATUS[0]}"

# dump: the golden listing, --no-line-numbers, and --profile on a converted file.
g=$src/tests/golden/t01-spec-names-defined-up-front
(cd "$g" && "$ct" dump --records input.callgrind) | cmp -s - "$g/expected.txt" ||
  fail "dump --records differs from the golden listing"
"$ct" dump --records --no-line-numbers "$small" 2>/dev/null | grep -q ' line=' &&
  fail "--no-line-numbers printed line="
[ "$("$ct" dump --profile "$small" 2>/dev/null | md5sum)" = \
  "$("$ct" dump --profile "$tmp/a.callgrind" 2>/dev/null | md5sum)" ] ||
  fail "dump --profile of a file and of its conversion differ"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "convert.sh: all passed"
