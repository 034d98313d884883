#!/usr/bin/env bash
# `calltree record` on the mistakes record users made (issue 67, point 8), with real runs:
#  * --function=NAME with a NAME that never runs (a typo) is said, naming it, exit 2, and no
#    empty run is kept in the folder; an empty run already there (a run that counted nothing)
#    is passed over by --compare, which takes the run before it as the baseline;
#  * a php run (Xdebug) prints the totals `calltree annotate` prints: the file's stated ones;
#  * a python3 that is a shell-script shim (pyenv's kind) run under --profiler=callgrind: the
#    error says the program is a script that started another process and names --children,
#    with which the run is recorded.
# Usage: bash record_mistakes.sh CALLTREE CORPUS_DIR
set -u
ct=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say_fail() { echo "FAIL: $*"; fail=1; }
export XDG_CACHE_HOME="$tmp/cache"
cd "$tmp" || exit 1
py=/usr/bin/python3

cat >t.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) long work(long n) { long s = 0; for (long i = 0; i < n; i++) s += i * i % 7; return s; }
int main(int argc, char** argv) { printf("%ld\n", work(argc > 1 ? atol(argv[1]) : 20000)); return 0; }
EOF
gcc -O2 -g t.c -o t || { echo "FAIL: gcc"; exit 1; }

# --- --function=nosuchfn: said, named, nothing kept ------------------------------------------
"$ct" record -o runs -- ./t >out.txt 2>&1 || say_fail "the first run: $(cat out.txt)"
"$ct" record -o runs --function=nosuchfn -- ./t >out.txt 2>err.txt
status=$?
[ $status = 2 ] || say_fail "--function=nosuchfn exited $status: $(cat out.txt err.txt)"
grep -q -- "--function=nosuchfn never ran" err.txt || say_fail "--function=nosuchfn: $(cat err.txt)"
[ "$(ls runs | wc -l)" = 1 ] || say_fail "--function=nosuchfn kept a run: $(ls runs)"
[ -z "$(ls -A runs | grep '^\.record')" ] || say_fail "a staging folder left: $(ls -A runs)"
"$ct" record -o runs --function=work -- ./t >out.txt 2>&1 || say_fail "--function=work: $(cat out.txt)"
grep -q "work" out.txt || say_fail "--function=work: work not in the report: $(cat out.txt)"

# --- an empty run is no baseline ------------------------------------------------------------
# (A run that counted nothing: collection off from the start, and never toggled on.)
"$ct" record -o base -- ./t >out.txt 2>&1 || say_fail "base 1: $(cat out.txt)"
"$ct" record -o base --valgrind-option=--collect-atstart=no -- ./t >out.txt 2>&1 ||
  say_fail "base 2 (empty): $(cat out.txt)"
grep -q "total  0 Ir" out.txt || say_fail "base 2 is not empty: $(cat out.txt)"
"$ct" record -o base --compare -- ./t >out.txt 2>&1
grep -q "compared with 0001-t-" out.txt || say_fail "--compare took an empty baseline: $(cat out.txt)"
grep -q "0002-t-.* counted nothing: not a baseline" out.txt ||
  say_fail "--compare does not say it passed over the empty run: $(cat out.txt)"

# --- php: the totals annotate prints ---------------------------------------------------------
if php -m 2>/dev/null | grep -qi xdebug; then
  cat >t.php <<'EOF'
<?php
function work($n) { $s = 0; for ($i = 0; $i < $n; $i++) $s += $i * $i % 7; return $s; }
$a = []; for ($i = 0; $i < 2000; $i++) $a[] = str_repeat("x", $i);
echo work(20000), "\n";
EOF
  "$ct" record -o php -- php t.php >php.txt 2>&1 || say_fail "php: $(cat php.txt)"
  f=$(ls php/*.callgrind 2>/dev/null | head -1)
  printed=$(sed -n 's/^  total  //p' php.txt | sed 's/ ([0-9]* parts)//')
  want=$("$ct" annotate --json "$f" 2>/dev/null | $py -c '
import json, sys
d = json.load(sys.stdin)
print(", ".join("{:,} {}".format(d["totals"][e], e) for e in d["events"]))')
  [ -n "$want" ] && [ "$printed" = "$want" ] ||
    say_fail "php: record printed 'total  $printed', annotate's totals are '$want'"
else
  echo "php has no Xdebug: its totals not tried"
fi

# --- a python3 that is a shell script ---------------------------------------------------------
mkdir shim
printf '#!/bin/sh\nexec %s "$@"\n' "$py" >shim/python3
chmod +x shim/python3
printf 'def work(n):\n    return sum(i * i %% 7 for i in range(n))\nprint(work(2000))\n' >s.py
PATH="$tmp/shim:$PATH" "$ct" record -o shimruns --profiler=callgrind -- python3 s.py >out.txt 2>err.txt
status=$?
[ $status = 2 ] || say_fail "the shim under callgrind exited $status: $(cat out.txt err.txt)"
grep -q "python3 is a script (#!/bin/sh) that started another process" err.txt &&
  grep -q -- "--children" err.txt || say_fail "the shim: no word of the script, --children: $(cat err.txt)"
PATH="$tmp/shim:$PATH" "$ct" record -o shimruns --profiler=callgrind --children -- python3 s.py \
  >out.txt 2>&1 || say_fail "the shim with --children: $(cat out.txt)"
[ "$(ls shimruns | wc -l)" = 1 ] || say_fail "the shim with --children: no run: $(ls -A shimruns)"

[ $fail = 0 ] && echo "record_mistakes: all checks passed"
exit $fail
