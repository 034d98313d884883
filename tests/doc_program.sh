#!/usr/bin/env bash
# doc_program.sh — the program that opens library.md, as a reader copies it: the first ```cpp
# block of the INSTALLED page (share/doc/calltree/library.md) as top.cc and its first ```cmake
# block as CMakeLists.txt, configured with find_package(calltree) against the prefix alone,
# built (it is also the installed examples/top.cc), and run on a profile (its rows: 10, by inclusive cost, the first the program's whole
# cost) and on a directory (exit 2, the error's code).
#
#   doc_program.sh PREFIX PROFILE
set -uo pipefail
prefix=$1
profile=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
page=$(find "$prefix" -path '*/doc/calltree/library.md' -print -quit)
[[ -n $page ]] || { echo "FAIL: library.md is not installed under $prefix"; exit 1; }
mkdir -p "$work/src"
python3 - "$page" "$work/src" <<'PY' || exit 1
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"^```(\w*)\n(.*?)^```$", text, re.M | re.S)
cpp = [b for lang, b in blocks if lang == "cpp"]
cmake = [b for lang, b in blocks if lang == "cmake"]
assert cpp and cmake, "no ```cpp or ```cmake block"
first_lang = [lang for lang, _ in blocks if lang][0]
assert first_lang == "cpp", "the page's first code block is not the program: " + first_lang
open(sys.argv[2] + "/top.cc", "w").write(cpp[0])
import os
example = os.path.join(os.path.dirname(sys.argv[1]), "examples", "top.cc")
assert open(example).read() == cpp[0], "the page's first program is not examples/top.cc as installed"
open(sys.argv[2] + "/CMakeLists.txt", "w").write(cmake[0])
print("the page's first program: %d lines of C++, %d of CMake" % (cpp[0].count("\n"), cmake[0].count("\n")))
PY
cmake -S "$work/src" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
fail=0
"$work/build/top" "$profile" >"$work/out" 2>"$work/err"
status=$?
sed 's/^/   /' "$work/out"
[[ $status == 0 ]] || { echo "FAIL: top $profile: exit $status"; cat "$work/err"; fail=1; }
python3 - "$work/out" <<'PY' || fail=1
import sys
lines = open(sys.argv[1]).read().splitlines()
head, rows = lines[0].split(), [l.split(None, 3) for l in lines[1:]]
assert head[1] == "total", lines[0]
assert len(rows) == 10, rows
costs = [int(r[0]) for r in rows]
assert costs == sorted(costs, reverse=True), costs
assert costs[0] == int(head[2]), (costs[0], head[2])   # the root holds the whole program
assert all(r[2] == "calls" and int(r[1]) >= 0 for r in rows), rows
print("ok: the page's program: 10 rows by inclusive cost, the first the total %s" % head[2])
PY
"$work/build/top" "$work" >/dev/null 2>"$work/err_dir"
status=$?
[[ $status == 2 ]] || { echo "FAIL: top DIRECTORY: exit $status"; fail=1; }
grep -qF "top: $work: is a directory [is-directory]" "$work/err_dir" ||
  { echo "FAIL: top DIRECTORY: $(cat "$work/err_dir")"; fail=1; }
exit $fail
