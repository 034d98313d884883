#!/usr/bin/env bash
# `calltree diff` over the whole corpus (the big .gz file excepted, for time):
#  * `diff A A` reports no change and exits 0;
#  * `diff A merge(A, A)` shows +100 % everywhere (program totals, and every function's self
#    cost; inclusive cost too when A has one part, as folding parts may re-root a thread's
#    functions) and exits 1 with --fail-above=50, 0 with --fail-above=100;
#  * the JSON output is valid JSON (names with spaces, quotes and UTF-8 included);
#  * usage and I/O errors exit 2; an input not read to its end (truncated, or cut by
#    --max-memory) exits 1 with no diff.
# Usage: bash diff_corpus.sh CALLTREE CORPUS_DIR
set -u
# shellcheck source-path=SCRIPTDIR source=../tools/test_files.sh
. "$(dirname "$0")/../tools/test_files.sh"
ct=$(realpath "$1")
corpus=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say_fail() { echo "FAIL: $*"; fail=1; }

for f in "$corpus"/*.callgrind "$corpus"/*.cachegrind; do
  small_enough "$f" || continue
  name=$(basename "$f")
  out=$("$ct" diff "$f" "$f" 2>/dev/null)
  status=$?
  [ $status = 0 ] || say_fail "diff $name $name exited $status"
  grep -qx 'No change.' <<<"$out" || say_fail "diff $name $name: no 'No change.'"

  "$ct" merge "$f" "$f" -o "$tmp/aa" || { say_fail "merge $name twice"; continue; }
  "$ct" diff "$f" "$tmp/aa" --fail-above=50 >/dev/null 2>&1
  status=$?
  [ $status = 1 ] || say_fail "diff $name merge($name, $name) --fail-above=50 exited $status"
  "$ct" diff "$f" "$tmp/aa" --fail-above=100 >/dev/null 2>&1
  status=$?
  [ $status = 0 ] || say_fail "diff $name merge($name, $name) --fail-above=100 exited $status"

  parts=$(grep -c '^totals:' "$f")
  "$ct" diff "$f" "$tmp/aa" --json --threshold=0 >"$tmp/d.json" 2>/dev/null
  python3 - "$tmp/d.json" "$name" "$parts" <<'EOF' || fail=1
import json, sys
path, name, parts = sys.argv[1], sys.argv[2], int(sys.argv[3] or 0)
d = json.load(open(path, encoding="utf-8"))
bad = []
def doubled(c, where):
    if c["new"] != 2 * c["old"]:
        bad.append("%s: %d -> %d" % (where, c["old"], c["new"]))
    elif c["old"] and c["percent"] != 100:
        bad.append("%s: percent %s" % (where, c["percent"]))
for e, c in d["totals"].items():
    doubled(c, "total " + e)
if d["counts"]["added"] or d["counts"]["removed"]:
    bad.append("functions added or removed")
for f in d["functions"]:
    for e, c in f["self"].items():
        doubled(c, f["name"] + " self " + e)
    if parts <= 1:
        for e, c in f["inclusive"].items():
            doubled(c, f["name"] + " inclusive " + e)
if d["counts"]["listed"] != d["counts"]["changed"]:
    bad.append("listed %d of %d changed" % (d["counts"]["listed"], d["counts"]["changed"]))
if bad:
    print("FAIL: %s: %d problems, first: %s" % (name, len(bad), "; ".join(bad[:3])))
    sys.exit(1)
EOF
done
echo "checked $(ls "$corpus"/*.callgrind "$corpus"/*.cachegrind | wc -l) corpus files"

# Errors: exit 2.
f="$corpus/vg-threads-separate.t05.callgrind"
expect_status() {  # STATUS ARGS...
  local want=$1; shift
  "$ct" "$@" >/dev/null 2>&1
  local got=$?
  [ "$got" = "$want" ] || say_fail "calltree $* exited $got, expected $want"
}
expect_status 2 diff "$f"
expect_status 2 diff "$f" "$f" "$f"
expect_status 2 diff "$f" "$tmp/no-such-file"
expect_status 2 diff "$f" "$f" --mod-funcname='s/(/x/'
expect_status 2 diff "$f" "$f" --mod-filename='y/a/b/'
expect_status 2 diff "$f" "$f" --show=Dr
expect_status 2 diff "$f" "$f" --sort=Ir,Nope
expect_status 2 diff "$f" "$f" --fail-above=ten
expect_status 2 diff "$f" "$f" --fail-above=5:Nope
expect_status 2 diff "$f" "$f" --per-function
expect_status 2 diff "$f" "$f" --part=2
expect_status 2 diff "$f" "$f" --part=0
expect_status 2 diff "$f" "$f" --threshold=-1
expect_status 2 diff "$f" "$f" --function=no_such_function
expect_status 2 diff "$f" "$f" --no-such-option
head -c 200000 "$corpus/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz" >"$tmp/cut.gz"
expect_status 1 diff "$tmp/cut.gz" "$f"                   # truncated: not half a diff
expect_status 1 diff --max-memory=200K "$corpus/vg-gxx-small-default.cc1plus.callgrind" "$f"
expect_status 0 diff "$f" "$f" --fail-above=0 --per-function
expect_status 0 diff --help
exit $fail
