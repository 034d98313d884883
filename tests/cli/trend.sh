#!/usr/bin/env bash
# `calltree trend` and `diff --format=markdown` on real runs (tests/trend/make_runs.sh: eight
# valgrind --tool=callgrind runs of steps.c whose work() steps up 30 % from the sixth run on,
# and eight Xdebug runs of steps.php whose work() takes ten times as long from the sixth):
#  * --json lists 8 runs oldest first and work()'s self change at run 5 (+30 %), and no other
#    function's self cost changes (its callers' inclusive cost does); the Xdebug runs' Time is
#    read by the robust detector, which finds work()'s one step up (at run 5, or 4: below);
#  * text, CSV and --format=markdown say the same; diff --format=markdown names work(), and
#    the command that lists the functions it leaves out; Markdown says "1 run", and names the
#    object of two functions of one name ((below main) of ld.so and of libc);
#  * the index: a second run answers the same from it; a corrupt index, a foreign SQLite
#    database and a file that is no database are made again (a note, the same answer); a
#    changed file is read again; --index=none reads every file;
#  * --fail-above: exit 1 when the last run steps up (the folder cut after run 6), 0 when not;
#  * --order=name puts run10 after run9; a profile cut short is left out (exit 1); usage
#    errors exit 2.
# Usage: bash trend.sh CALLTREE CORPUS_DIR
set -u
ct=$(realpath "$1")
here=$(cd "$(dirname "$0")/../trend" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say_fail() { echo "FAIL: $*"; fail=1; }
export XDG_CACHE_HOME="$tmp/cache"

bash "$here/make_runs.sh" "$tmp/fx" || { echo "FAIL: make_runs.sh"; exit 1; }
cg="$tmp/fx/callgrind"
idx="$tmp/index.sqlite"

# --- the steering check: 8 runs, work()'s self change at run 5 --------------------------------
"$ct" trend --json --index="$idx" "$cg" >"$tmp/t1.json" 2>"$tmp/t1.err"
status=$?
[ $status = 0 ] || say_fail "trend --json exited $status: $(cat "$tmp/t1.err")"
grep -q "1 file of .* holds no profile: skipped" "$tmp/t1.err" || say_fail "README.txt not skipped: $(cat "$tmp/t1.err")"
python3 - "$tmp/t1.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
runs = d["runs"]
if len(runs) != 8: bad.append("runs: %d" % len(runs))
if [r["file"].rsplit("/", 1)[1] for r in runs] != ["run%d.callgrind" % i for i in range(1, 9)]:
    bad.append("order: %s" % [r["file"] for r in runs])
if d["detectors"] != {"Ir": "exact"}: bad.append("detectors %s" % d["detectors"])
work = [c for c in d["changes"] if c["function"] == "work" and c["kind"] == "self"]
if len(work) != 1 or work[0]["run"] != 5 or work[0]["event"] != "Ir":
    bad.append("work's self change: %s" % work)
elif not 29 < work[0]["delta_percent"] < 31:
    bad.append("work's step %s %%" % work[0]["delta_percent"])
elif work[0]["after"] - work[0]["before"] < 100000:
    bad.append("work's step: %s" % work[0])
# (work's callers' inclusive cost steps too: main, and what calls main.)
others = {c["function"] for c in d["changes"] if c["kind"] == "self" and c["function"] != "work"}
if others: bad.append("other functions' self cost changed: %s" % others)
if not [c for c in d["changes"] if c["function"] == "main" and c["kind"] == "inclusive"]:
    bad.append("main's inclusive change is missing")
if [c for c in d["changes"] if c["run"] != 5]: bad.append("a change not at run 5: %s" % d["changes"])
if d["changes"][0]["function"] is not None or d["changes"][0]["kind"] != "total":
    bad.append("the program total first: %s" % d["changes"][0])
# Totals: calltree check's.
for b in bad: print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
total6=$("$ct" check --json "$cg/run6.callgrind" | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["program_totals"]["Ir"])')
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["runs"][5]["total"]["Ir"] == int(sys.argv[2]) else 1)' "$tmp/t1.json" "$total6" \
  || say_fail "run 5's total is not check's $total6"

# --- the same from the index; text, CSV, Markdown ----------------------------------------------
"$ct" trend --json --index="$idx" "$cg" >"$tmp/t2.json" 2>/dev/null
cmp -s "$tmp/t1.json" "$tmp/t2.json" || say_fail "the second run (index) answers differently"
"$ct" trend --index=none --json "$cg" >"$tmp/t3.json" 2>/dev/null
cmp -s "$tmp/t1.json" "$tmp/t3.json" || say_fail "--index=none answers differently"
text=$("$ct" trend --index="$idx" "$cg" 2>/dev/null)
grep -q "^Runs:       8, oldest first (by time)" <<<"$text" || say_fail "text: no runs line: $text"
# (runs numbered from 1, as the page numbers them: run6.callgrind is the sixth)
grep -Eq "run +6 +self +Ir .* \(\+30\.[0-9]+%\)  work .*\[run6.callgrind\]" <<<"$text" || say_fail "text: no work line: $text"
grep -Eq "^ +1  .*/run1.callgrind$" <<<"$text" || say_fail "text: the first run is not run 1: $text"
md=$("$ct" trend --format=markdown --index="$idx" "$cg" 2>/dev/null)
grep -q '^| Run | Function | Event | Kind | Before | After | Δ % |$' <<<"$md" || say_fail "markdown: no changes table: $md"
grep -Eq '^\| 6 `run6.callgrind` \| `work` \| `Ir` \| self \| [0-9,]+ \| [0-9,]+ \| \+30\.[0-9]+% \|$' <<<"$md" \
  || say_fail "markdown: no work row: $md"
csv=$("$ct" trend --csv --index="$idx" "$cg" 2>/dev/null)
grep -Eq '^5,[^,]*run6.callgrind,[0-9T:Z-]+,Ir,self,work,' <<<"$csv" || say_fail "csv: no work row: $csv"

# --- diff --format=markdown ------------------------------------------------------------------
dm=$("$ct" diff --format=markdown "$cg/run5.callgrind" "$cg/run6.callgrind")
grep -q '^| Program total | Old | New | Δ | Δ % |$' <<<"$dm" || say_fail "diff markdown: no totals table: $dm"
grep -Eq '^\| `work` · `steps` \| [0-9,]+ \| [0-9,]+ \| \+[0-9,]+ \| \+30\.[0-9]+% \|' <<<"$dm" \
  || say_fail "diff markdown: no work row: $dm"
# The functions it leaves out: the command it gives lists them (plain `calltree diff` hides those
# below its 0.1 % threshold).
more=$(grep -E '^[0-9]+ more changed functions?: `.*` lists every changed function\.$' <<<"$dm")
if [[ -z $more ]]; then
  say_fail "diff markdown: no line for the functions left out: $dm"
else
  n=$(cut -d' ' -f1 <<<"$more")
  shown=$(sed -n 's/^\*\*Functions that changed most\*\* (.*; \([0-9]*\) of [0-9]* changed)$/\1/p' <<<"$dm")
  cmd=$(sed 's/^[^`]*`calltree \([^`]*\)`.*/\1/' <<<"$more")
  # shellcheck disable=SC2086
  listed=$("$ct" $cmd | sed -n 's/^Functions: \([0-9]*\) listed.*/\1/p')
  [[ $listed == $((shown + n)) ]] || say_fail "diff markdown: '$more': calltree $cmd lists ${listed:-none}, not $shown + $n"
fi
"$ct" diff --format=markdown --fail-above=1 "$cg/run5.callgrind" "$cg/run6.callgrind" >"$tmp/dm" 2>/dev/null
[ $? = 1 ] && grep -q 'Gate failed' "$tmp/dm" || say_fail "diff markdown --fail-above=1: no failed gate"
"$ct" diff --format=nope "$cg/run5.callgrind" "$cg/run6.callgrind" >/dev/null 2>&1
[ $? = 2 ] || say_fail "diff --format=nope does not exit 2"

# --- Markdown: one run; two functions of one name ----------------------------------------------
md1=$("$ct" trend --format=markdown --index=none "$cg/run1.callgrind" 2>/dev/null)
[[ $(head -1 <<<"$md1") == "### calltree trend: 1 run" ]] || say_fail "markdown of one run: $(head -1 <<<"$md1")"
# (below main) of ld.so and of libc: each row names its object, no two rows alike.
mkdir "$tmp/twice"
cp "$2/vg-recurse-default.callgrind" "$tmp/twice/run1.callgrind"
"$ct" merge "$2/vg-recurse-default.callgrind" "$2/vg-recurse-default.callgrind" -o "$tmp/twice/run2.callgrind"
mt=$("$ct" trend --format=markdown --order=name --index=none --limit=6 "$tmp/twice" 2>/dev/null)
rows=$(grep '^| 2 `run2.callgrind` |' <<<"$mt")
[[ $(wc -l <<<"$rows") == 6 ]] || say_fail "markdown of two runs: not 6 changes: $mt"
[[ -z $(sort <<<"$rows" | uniq -d) ]] || say_fail "markdown: two rows alike: $(sort <<<"$rows" | uniq -d)"
grep -qF '| `(below main)` · `libc.so.6` |' <<<"$rows" || say_fail "markdown: (below main) without its object: $rows"
grep -qF '| `main` |' <<<"$rows" || say_fail "markdown: main (one of its name) named with more than its name: $rows"

# --- a timing profiler's events: the robust detector ---------------------------------------------
# Two runs of one Python script under cProfile (event ns) differ by timing noise: no change
# point (the exact detector took a -8.85 % step for one, issue 67); nor for Xdebug's Memory.
mkdir "$tmp/timed"
cp "$2/pyprof2calltree-work.callgrind" "$tmp/timed/run1.callgrind"
"$ct" merge "$2/pyprof2calltree-work.callgrind" "$2/pyprof2calltree-work.callgrind" -o "$tmp/timed/run2.callgrind"
tt=$("$ct" trend --order=name --index=none "$tmp/timed" 2>/dev/null)
grep -q "^Events:     ns (robust detector)" <<<"$tt" || say_fail "cProfile's ns: not the robust detector: $tt"
grep -q "^No change of" <<<"$tt" || say_fail "cProfile's ns: two runs are a change point: $tt"
mkdir "$tmp/php"
cp "$2/xdebug-classes.callgrind" "$2/xdebug-closures.callgrind" "$tmp/php/"
tp=$("$ct" trend --order=name --index=none --event='Time_(10ns),Memory_(bytes)' "$tmp/php" 2>/dev/null)
grep -q "^Events:     Time_(10ns) (robust detector), Memory_(bytes) (robust detector)" <<<"$tp" \
  || say_fail "Xdebug's events: not the robust detector: $tp"

# --- the index is a cache ----------------------------------------------------------------------
printf 'this is not a database, not at all, but long enough to be read as a header......' >"$idx"
rm -f "$idx-wal" "$idx-shm"
"$ct" trend --json --index="$idx" "$cg" >"$tmp/t4.json" 2>"$tmp/t4.err"
cmp -s "$tmp/t1.json" "$tmp/t4.json" || say_fail "a non-database index: another answer"
grep -q "note: .*made again" "$tmp/t4.err" || say_fail "a non-database index: no note: $(cat "$tmp/t4.err")"
python3 - "$idx" <<'PY' || fail=1
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("DELETE FROM meta"); db.execute("CREATE TABLE mine(x)"); db.commit(); db.close()
PY
"$ct" trend --json --index="$idx" "$cg" >"$tmp/t5.json" 2>"$tmp/t5.err"
cmp -s "$tmp/t1.json" "$tmp/t5.json" || say_fail "a foreign index: another answer"
grep -q "another program or version" "$tmp/t5.err" || say_fail "a foreign index: no note: $(cat "$tmp/t5.err")"
# An entry whose blob is damaged: the file is read again (never trusted).
python3 - "$idx" <<'PY' || fail=1
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE runs SET costs = substr(costs, 1, length(costs) - 7) WHERE length(costs) > 8"); db.commit(); db.close()
PY
"$ct" trend --json --index="$idx" "$cg" >"$tmp/t6.json" 2>/dev/null
cmp -s "$tmp/t1.json" "$tmp/t6.json" || say_fail "damaged entries: another answer"
# Pages of the database overwritten: SQLite says corrupt (or not), the answer is the same.
size=$(stat -c %s "$idx")
dd if=/dev/urandom of="$idx" bs=1024 seek=1 count=$(( size / 1024 > 2 ? size / 1024 - 1 : 1 )) conv=notrunc status=none
"$ct" trend --json --index="$idx" "$cg" >"$tmp/t7.json" 2>"$tmp/t7.err"
cmp -s "$tmp/t1.json" "$tmp/t7.json" || say_fail "a corrupt index: another answer: $(cat "$tmp/t7.err")"
# A changed file is read again: run8 becomes run1's profile.
cp "$cg/run1.callgrind" "$tmp/run8.keep"
cp -p "$cg/run8.callgrind" "$tmp/run8.orig"
cp "$tmp/run8.keep" "$cg/run8.callgrind"
touch -r "$tmp/run8.orig" "$cg/run8.callgrind"
printf '# changed\n' >>"$cg/run8.callgrind"
"$ct" trend --json --index="$idx" "$cg" >"$tmp/t8.json" 2>/dev/null
python3 - "$tmp/t8.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
runs = [c["run"] for c in d["changes"] if c["function"] == "work" and c["kind"] == "self"]
if runs != [5, 7]: print("FAIL: a changed file not read again: work's changes at", runs); sys.exit(1)
PY
cp -p "$tmp/run8.orig" "$cg/run8.callgrind"
touch -r "$tmp/run8.orig" "$cg/run8.callgrind"
# Two processes at once on one index.
rm -f "$idx" "$idx-wal" "$idx-shm"
"$ct" trend --json --index="$idx" "$cg" >"$tmp/p1.json" 2>"$tmp/p1.err" &
"$ct" trend --json --index="$idx" "$cg" >"$tmp/p2.json" 2>"$tmp/p2.err"
wait
cmp -s "$tmp/t1.json" "$tmp/p1.json" && cmp -s "$tmp/t1.json" "$tmp/p2.json" \
  || say_fail "two processes: another answer: $(cat "$tmp/p1.err" "$tmp/p2.err")"
grep -q warning "$tmp/p1.err" "$tmp/p2.err" && say_fail "two processes: a warning: $(cat "$tmp/p1.err" "$tmp/p2.err")"

# --- the gate ------------------------------------------------------------------------------------
mkdir "$tmp/six"
for i in 1 2 3 4 5 6; do cp -p "$cg/run$i.callgrind" "$tmp/six/"; done
"$ct" trend --index="$idx" --fail-above=2 "$tmp/six" >/dev/null 2>"$tmp/g.err"
[ $? = 1 ] || say_fail "the last run stepped up: --fail-above=2 does not exit 1"
grep -q "program total: Ir grew" "$tmp/g.err" || say_fail "the gate's message: $(cat "$tmp/g.err")"
"$ct" trend --index="$idx" --fail-above=50 "$tmp/six" >/dev/null 2>&1
[ $? = 0 ] || say_fail "--fail-above=50 exits non-zero"
"$ct" trend --index="$idx" --fail-above=20 --per-function "$tmp/six" >/dev/null 2>"$tmp/g.err"
[ $? = 1 ] && grep -q "work (self): Ir grew +30" "$tmp/g.err" || say_fail "--per-function: $(cat "$tmp/g.err")"
"$ct" trend --index="$idx" --fail-above=2 "$cg" >/dev/null 2>&1
[ $? = 0 ] || say_fail "the last run steady: --fail-above=2 exits non-zero"

# --- order by name; files named; usage ------------------------------------------------------------
mkdir "$tmp/names"
for i in 1 2 9 10; do cp "$cg/run1.callgrind" "$tmp/names/run$i.callgrind"; done
touch -d '2020-01-01' "$tmp/names/run10.callgrind"
"$ct" trend --json --order=name --index=none "$tmp/names" >"$tmp/n.json" 2>/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if [r["file"].rsplit("/",1)[1] for r in d["runs"]] == ["run1.callgrind","run2.callgrind","run9.callgrind","run10.callgrind"] else 1)' "$tmp/n.json" \
  || say_fail "--order=name: $(cat "$tmp/n.json")"
"$ct" trend --json --index=none "$cg/run1.callgrind" "$cg/run7.callgrind" "$cg/run6.callgrind" >"$tmp/f.json" 2>/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if len(d["runs"]) == 3 and d["runs"][2]["file"].endswith("run7.callgrind") else 1)' "$tmp/f.json" \
  || say_fail "files named: $(cat "$tmp/f.json")"
"$ct" trend --index=none "$cg/README.txt" "$cg/run1.callgrind" >/dev/null 2>&1
[ $? = 1 ] || say_fail "a named file with no profile does not exit 1"
# A profile cut short is left out (half a run would be a fall of every function): exit 1.
head -c 30000 "$cg/run2.callgrind" >"$tmp/cut.callgrind"
"$ct" trend --index=none --json "$cg/run1.callgrind" "$tmp/cut.callgrind" "$cg/run3.callgrind" \
  >"$tmp/c.json" 2>"$tmp/c.err"
[ $? = 1 ] && grep -q "cut.callgrind: was likely cut short .*; left out" "$tmp/c.err" \
  && python3 -c 'import json,sys; sys.exit(0 if len(json.load(open(sys.argv[1]))["runs"]) == 2 else 1)' "$tmp/c.json" \
  || say_fail "a profile cut short: $(cat "$tmp/c.err")"
for bad in "--threshold=0" "--order=size" "--format=xml" "--json --csv" "--event=Nope" "--function=(" "--per-function"; do
  # shellcheck disable=SC2086
  "$ct" trend --index=none $bad "$cg" >/dev/null 2>&1
  [ $? = 2 ] || say_fail "trend $bad does not exit 2"
done
"$ct" trend "$tmp/no-such-dir" >/dev/null 2>&1
[ $? = 2 ] || say_fail "a missing folder does not exit 2"

# --- Xdebug: the robust detector -------------------------------------------------------------------
xd="$tmp/fx/xdebug"
if [ -e "$xd/cachegrind.out.run8" ]; then
  "$ct" trend --json --index="$idx" "$xd" >"$tmp/x.json" 2>"$tmp/x.err"
  [ $? = 0 ] || say_fail "trend on Xdebug runs: $(cat "$tmp/x.err")"
  python3 - "$tmp/x.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
if len(d["runs"]) != 8: bad.append("runs %d" % len(d["runs"]))
ev = d["events"][0]
if not ev.startswith("Time") or d["detectors"][ev] != "robust": bad.append("detector %s" % d["detectors"])
work = [c for c in d["changes"] if c["function"] == "work" and c["kind"] == "self"]
# One step up, at run 5; or at run 4 when the run before the step was itself slowed as much as
# the step (this machine's other builds preempt PHP: a run of the same code takes up to 6
# times as long as another), which no detector can tell from an early step.
if len(work) != 1 or work[0]["run"] not in (4, 5) or not work[0]["delta_percent"] > 50:
    bad.append("work's change: %s" % work)
for b in bad: print("FAIL: xdebug:", b)
sys.exit(1 if bad else 0)
PY
else
  echo "SKIP: no Xdebug runs (php with Xdebug is not installed)"
fi

[ $fail = 0 ] && echo "trend: all checks passed"
exit $fail
