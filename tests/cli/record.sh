#!/usr/bin/env bash
# `calltree record` with real runs (docs/record.md): Valgrind on a small C program compiled
# here (gcc -O2 -g), php with Xdebug, /usr/bin/python3 with cProfile, node with --cpu-prof.
#  * a run is one file in the folder (calltree-runs/PROGRAM without --out),
#    NNNN-LABEL-STAMP.EXT, with instruction addresses and jumps (not with --fast), and the
#    report names it, its total and work(); no staging folder is left; the program's exit
#    status is record's; a program killed by SIGSEGV leaves its profile named -SIGSEGV, record
#    quotes where Valgrind saw it die and exits 139;
#  * the processes of a run (a fork, --children) are the parts of its one file;
#  * --function collects inside other() only, --start-at from other() on, --stop-at what came
#    before it;
#  * a misspelt Valgrind option is refused before the run, with its right spelling; Valgrind
#    missing, or failing (a stand-in that says what an old Valgrind says of DWARF 5), is one
#    error with its words and exit status 2;
#  * Ctrl-C (SIGINT sent to record) stops the program, keeps the profile (-SIGINT), exit 130;
#  * trend DIR orders the runs and serve DIR lists them; --compare diffs with the run before,
#    --fail-above exits 1; --serve prints serve's URL and answers on it;
#  * php, python3 and node: their profilers' files, their exit status; a missing script and
#    python3 -c are refused before the run.
# Usage: bash record.sh CALLTREE CORPUS_DIR
set -u
ct=$(realpath "$1")
tmp=$(mktemp -d)
serve_pid=
trap '[ -z "$serve_pid" ] || kill "$serve_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
say_fail() { echo "FAIL: $*"; fail=1; }
export XDG_CACHE_HOME="$tmp/cache"
cd "$tmp" || exit 1
ulimit -c 0  # (no vgcore file of the SIGSEGV run)

cat >t.c <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
__attribute__((noinline)) long work(long n) { long s = 0; for (long i = 0; i < n; i++) s += i * i % 7; return s; }
__attribute__((noinline)) long other(long n) { return work(n / 2) + 1; }
int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  const char* what = argc > 2 ? argv[2] : "";
  printf("%ld\n", work(n) + other(n));
  fflush(stdout);
  if (!strcmp(what, "segv")) raise(SIGSEGV);
  if (!strcmp(what, "sleep")) sleep(30);
  if (!strcmp(what, "fork") && fork() == 0) return (int)(work(n) & 0);
  return argc > 3 ? atoi(argv[3]) : 0;
}
EOF
gcc -O2 -g t.c -o t || { echo "FAIL: gcc"; exit 1; }

# --- a run: one file, the options the views need, the report --------------------------------
"$ct" record -o runs -- ./t 20000 >out1.txt 2>err1.txt
status=$?
[ $status = 0 ] || say_fail "record exited $status: $(cat err1.txt)"
first=$(ls runs)
[[ $first =~ ^0001-t-[0-9]{8}-[0-9]{6}\.callgrind$ ]] || say_fail "the first run is named '$first'"
[ "$(ls -A runs | wc -l)" = 1 ] || say_fail "more than the run in runs/: $(ls -A runs)"
grep -q '^positions: instr line' "runs/$first" || say_fail "no instruction addresses in $first"
grep -qE '^j(ump|cnd)=' "runs/$first" || say_fail "no jumps in $first"
grep -q "^calltree record: runs/$first$" out1.txt || say_fail "the report does not name the file: $(cat out1.txt)"
grep -qE '^  total  [0-9,]+ Ir$' out1.txt || say_fail "the report has no total: $(cat out1.txt)"
grep -qE '^  self +[0-9,]+ +[0-9.]+%  work$' out1.txt || say_fail "work() is not the top function: $(cat out1.txt)"
head -1 out1.txt | grep -q '^[0-9]' || say_fail "the program's output is not first: $(cat out1.txt)"

# (without --out: calltree-runs/PROGRAM)
"$ct" record --fast -- ./t 1000 >/dev/null 2>&1 || say_fail "record --fast failed"
grep -q '^positions: line' calltree-runs/t/0001-t-*.callgrind || say_fail "--fast still has instruction addresses: $(ls -R calltree-runs)"
grep -qE '^j(ump|cnd)=' calltree-runs/t/0001-t-*.callgrind && say_fail "--fast still has jumps"

# --- the program's exit status, a signal ------------------------------------------------------
"$ct" record -o runs -- ./t 1000 x 3 >/dev/null 2>&1
status=$?
[ $status = 3 ] || say_fail "a program that exits 3: record exited $status"
ls runs/0002-t-*.callgrind >/dev/null 2>&1 || say_fail "no profile of the run that exited 3"
"$ct" record -o crash -- ./t 1000 segv >/dev/null 2>err.txt
status=$?
[ $status = 139 ] || say_fail "a program killed by SIGSEGV: record exited $status"
ls crash/0001-t-*-SIGSEGV.callgrind >/dev/null 2>&1 || say_fail "no -SIGSEGV profile: $(ls crash)"
grep -q "killed by SIGSEGV; the profile holds what ran until then" err.txt || say_fail "the signal is not said: $(cat err.txt)"
grep -q "Process terminating with default action of signal 11 (SIGSEGV)" err.txt || say_fail "Valgrind's words of the crash are not said: $(cat err.txt)"

# --- processes of one run: parts of one file --------------------------------------------------
"$ct" record -o procs -- ./t 1000 fork >/dev/null 2>&1 || say_fail "record of a fork failed"
f=$(ls procs/0001-t-*.callgrind)
"$ct" check "$f" 2>&1 | grep -q ': ok: 2 parts' || say_fail "a fork is not 2 parts: $("$ct" check "$f" 2>&1)"
"$ct" record -o procs --children -- /bin/sh -c './t 1000; ./t 10' >/dev/null 2>&1 || say_fail "record --children failed"
f=$(ls procs/0002-sh-*.callgrind)
"$ct" check "$f" 2>&1 | grep -qE ': ok: [3-9] parts' || say_fail "--children: not 3 parts: $("$ct" check "$f" 2>&1)"
[ "$(ls -A procs | wc -l)" = 2 ] || say_fail "procs/ holds more than 2 runs: $(ls -A procs)"

# --- --function, --stop-at -----------------------------------------------------------------------
"$ct" record -o fn --function=other -- ./t 20000 >fn.txt 2>&1 || say_fail "record --function failed"
grep -qE '^  self +[0-9,]+ +(9[0-9.]+|100\.0)%  work$' fn.txt || say_fail "--function=other: not work() alone: $(cat fn.txt)"
grep -q 'main' fn.txt && say_fail "--function=other counts main: $(cat fn.txt)"
# (from other() on: its call of work(n / 2), a third of the first run's work)
"$ct" record -o start --start-at=other -- ./t 20000 >start.txt 2>&1 || say_fail "record --start-at failed"
whole=$(sed -n 's/^  total  \([0-9,]*\) Ir$/\1/p' out1.txt | tr -d ,)
part=$(sed -n 's/^  total  \([0-9,]*\) Ir$/\1/p' start.txt | tr -d ,)
[ -n "$part" ] && [ -n "$whole" ] && [ $((part * 5)) -lt $((whole * 2)) ] && [ $((part * 4)) -gt "$whole" ] ||
  say_fail "--start-at=other: $part Ir of the whole $whole, not about a third"
"$ct" record -o stop --stop-at=other -- ./t 20000 >stop.txt 2>&1 || say_fail "record --stop-at failed"
f=$(ls stop/0001-t-*.callgrind)
grep -q '^fn=.* other$' "$f" && say_fail "--stop-at=other counts other()"
grep -q '^fn=.* work$' "$f" || say_fail "--stop-at=other lost work() before it"

# --- Valgrind's options checked, Valgrind missing or failing ----------------------------------
"$ct" record -o bad --valgrind-option=--collect-at-start=no -- ./t >/dev/null 2>err.txt
status=$?
[ $status = 2 ] || say_fail "a misspelt option: exit $status"
grep -q "did you mean --collect-atstart?" err.txt || say_fail "no suggestion: $(cat err.txt)"
[ -e bad ] && say_fail "a refused option still ran the program"
"$ct" record -o bad --callgrind-args='--cache-sim=yes --dump-instrs=yes' -- ./t >/dev/null 2>err.txt
grep -q "did you mean --dump-instr?" err.txt || say_fail "--callgrind-args: no suggestion: $(cat err.txt)"
"$ct" record -o bad --valgrind-option=--callgrind-out-file=x -- ./t >/dev/null 2>err.txt
[ $? = 2 ] && grep -q "record names the file" err.txt || say_fail "--callgrind-out-file taken: $(cat err.txt)"
"$ct" record -o ok --valgrind-option=--cache-sim=yes -- ./t 1000 >ok.txt 2>&1 || say_fail "--cache-sim=yes refused: $(cat ok.txt)"
grep -q '^events: Ir Dr Dw I1mr' ok/0001-t-*.callgrind || say_fail "--cache-sim=yes did not reach callgrind"
"$ct" record -o bad --valgrind=/nonexistent/valgrind -- ./t >/dev/null 2>err.txt
[ $? = 2 ] && grep -q "was not found: install Valgrind" err.txt || say_fail "missing valgrind: $(cat err.txt)"
"$ct" record -o bad -- ./no-such-program >/dev/null 2>err.txt
[ $? = 2 ] && grep -q "no such program" err.txt || say_fail "missing program: $(cat err.txt)"
cat >oldvg <<'EOF'
#!/bin/sh
# What Valgrind 3.17 says of a DWARF 5 binary, into its --log-file, then its exit status 1.
for a; do case $a in --log-file=*) log=${a#--log-file=} ;; esac; done
log=$(echo "$log" | sed "s/%p/$$/")
printf '==%s== Callgrind, a call-graph generating cache profiler\n==%s== \n### unhandled dwarf2 abbrev form code 0x25\n==%s== Valgrind: debuginfo reader: ensure_valid failed:\n' $$ $$ $$ >"$log"
exit 1
EOF
chmod +x oldvg
"$ct" record -o vgfail --valgrind=./oldvg -- ./t >/dev/null 2>err.txt
status=$?
[ $status = 2 ] || say_fail "a failing valgrind: exit $status"
grep -q "valgrind failed (exit status 1) and wrote no profile:" err.txt || say_fail "no failure line: $(cat err.txt)"
grep -q "unhandled dwarf2 abbrev form code 0x25" err.txt || say_fail "valgrind's words are not quoted: $(cat err.txt)"
grep -q "build the program with -gdwarf-4" err.txt || say_fail "no DWARF hint: $(cat err.txt)"
[ -z "$(ls -A vgfail)" ] || say_fail "a failed run left files: $(ls -A vgfail)"

# --- Ctrl-C: the run stops, its profile is kept -----------------------------------------------
set -m  # (a job of its own: SIGINT is not ignored in it)
"$ct" record -o runs -- ./t 1000 sleep >int.txt 2>int.err &
pid=$!
set +m
for _ in $(seq 100); do grep -q '^[0-9]' int.txt 2>/dev/null && break; sleep 0.1; done
sleep 0.3
kill -INT "$pid"
wait "$pid"
status=$?
[ $status = 130 ] || say_fail "Ctrl-C: record exited $status: $(cat int.err)"
ls runs/0003-t-*-SIGINT.callgrind >/dev/null 2>&1 || say_fail "Ctrl-C: no -SIGINT profile: $(ls runs)"
grep -q "^calltree record: runs/0003-t-" int.txt || say_fail "Ctrl-C: no report: $(cat int.txt)"

# --- trend DIR and serve DIR, --compare, --serve ------------------------------------------------
"$ct" record -o runs --compare -- ./t 40000 >cmp.txt 2>&1 || say_fail "record --compare failed: $(cat cmp.txt)"
grep -q "^calltree record: compared with 0002-t-" cmp.txt || say_fail "--compare: not with run 2 (run 3 was interrupted): $(cat cmp.txt)"
grep -q "work" cmp.txt || say_fail "--compare: no diff of work(): $(cat cmp.txt)"
"$ct" record -o runs --compare --fail-above=1 -- ./t 80000 >/dev/null 2>gate.err
status=$?
[ $status = 1 ] || say_fail "--fail-above=1 after twice the work: exit $status"
grep -q "program total: Ir grew" gate.err || say_fail "--fail-above: no reason: $(cat gate.err)"
"$ct" trend --json --index=none runs >trend.json 2>trend.err || say_fail "trend runs: $(cat trend.err)"
python3 - trend.json <<'PY' || fail=1
import json, sys
runs = [r["file"].split("/")[-1] for r in json.load(open(sys.argv[1]))["runs"]]
numbers = [int(r.split("-")[0]) for r in runs]
if numbers != [1, 2, 3, 4, 5]:
    print("FAIL: trend's runs, oldest first:", runs)
    sys.exit(1)
PY
"$ct" serve --port 0 --index none runs >serve.txt 2>&1 &
serve_pid=$!
for _ in $(seq 100); do grep -q '^http' serve.txt && break; sleep 0.1; done
url=$(grep -m1 '^http' serve.txt)
curl -s "${url%%/\?*}/api/v1/folder?rescan=1&by=name&dir=asc&token=${url##*token=}" >folder.json
kill -INT $serve_pid; wait $serve_pid; serve_pid=
python3 - folder.json <<'PY' || fail=1
import json, sys
rows = [r["name"] for r in json.load(open(sys.argv[1]))["rows"]]
if len(rows) != 5 or not all(r.startswith("%04d-t-" % (i + 1)) for i, r in enumerate(rows)):
    print("FAIL: serve DIR lists", rows)
    sys.exit(1)
PY
"$ct" record -o served --serve -- ./t 1000 >serve2.txt 2>&1 &
serve_pid=$!
for _ in $(seq 150); do grep -q '^http' serve2.txt && break; sleep 0.1; done
url=$(grep -m1 '^http' serve2.txt)
[ -n "$url" ] || say_fail "--serve printed no URL: $(cat serve2.txt)"
[ -z "$url" ] || curl -s "${url%%/\?*}/api/v1/functions?token=${url##*token=}" | grep -q '"work"' || say_fail "--serve: the profile is not served"
kill -INT $serve_pid; wait $serve_pid; status=$?; serve_pid=
[ $status = 0 ] || say_fail "--serve: exit $status after Ctrl-C"

# --- php (Xdebug), python3 (cProfile), node (--cpu-prof) --------------------------------------
cat >t.php <<'EOF'
<?php
function work($n) { $s = 0; for ($i = 0; $i < $n; $i++) $s += $i * $i % 7; return $s; }
echo work(20000), "\n";
exit(4);
EOF
"$ct" record -o langs -- php t.php >php.txt 2>&1
status=$?
[ $status = 4 ] || say_fail "php: exit $status: $(cat php.txt)"
f=$(ls langs/0001-t.php-*.callgrind 2>/dev/null)
[ -n "$f" ] && grep -q '^creator: xdebug' "$f" || say_fail "php: no Xdebug profile: $(ls langs) $(cat php.txt)"
grep -q 'work' php.txt || say_fail "php: work is not in the report: $(cat php.txt)"
cat >t.py <<'EOF'
import sys
def work(n):
    s = 0
    for i in range(n):
        s += i * i % 7
    return s
print(work(20000))
sys.exit(5)
EOF
"$ct" record -o langs -- /usr/bin/python3 t.py >py.txt 2>&1
status=$?
[ $status = 5 ] || say_fail "python3: exit $status (sys.exit(5)): $(cat py.txt)"
f=$(ls langs/0002-t.py-*.pstats 2>/dev/null)
[ -n "$f" ] && "$ct" check "$f" >/dev/null 2>&1 || say_fail "python3: no readable pstats: $(ls langs) $(cat py.txt)"
grep -q 'work' py.txt || say_fail "python3: work is not in the report: $(cat py.txt)"
"$ct" record -o langs -- /usr/bin/python3 missing.py >/dev/null 2>err.txt
[ $? = 2 ] && grep -q "missing.py: No such file or directory" err.txt || say_fail "python3 missing.py: $(cat err.txt)"
"$ct" record -o langs -- /usr/bin/python3 -c 'print(1)' >/dev/null 2>err.txt
[ $? = 2 ] && grep -q "not -c CODE" err.txt || say_fail "python3 -c: $(cat err.txt)"
cat >t.js <<'EOF'
function work(n) { let s = 0; for (let i = 0; i < n; i++) s += i * i % 7; return s; }
let s = 0;
for (let k = 0; k < 200; k++) s += work(20000);
console.log(s);
process.exitCode = 6;
EOF
"$ct" record -o langs -- node t.js >node.txt 2>&1
status=$?
[ $status = 6 ] || say_fail "node: exit $status: $(cat node.txt)"
f=$(ls langs/0003-t.js-*.cpuprofile 2>/dev/null)
[ -n "$f" ] && "$ct" check "$f" >/dev/null 2>&1 || say_fail "node: no readable .cpuprofile: $(ls langs) $(cat node.txt)"
"$ct" record -o langs --function=work -- node t.js >/dev/null 2>err.txt
[ $? = 2 ] && grep -q "are callgrind's" err.txt || say_fail "node --function: $(cat err.txt)"
"$ct" trend --index=none langs >/dev/null 2>trend.err
[ $? -le 1 ] || say_fail "trend of php, python and node runs: $(cat trend.err)"

[ $fail = 0 ] && echo "record: all checks passed"
exit $fail
