#!/usr/bin/env bash
# library_user.sh — the library as a user meets it: `cmake --install` into a temporary prefix,
# the installed examples/ built against it on their own (project() and find_package(calltree),
# nothing from the source tree), and examples/callers (load a profile, the top 10 by inclusive cost, the callers
# and callees of the first; fail clearly on bad input) run on a profile, a binary file, an
# empty file, a file cut short and a file that does not exist: its output and exit status
# checked, its figures against the calltree tool's.
#
#   library_user.sh BUILD CALLTREE CORPUS
set -uo pipefail
build=$1
bin=$2
corpus=$3
src=$(cd "$(dirname "$0")/.." && pwd)  # (only to compare the installed examples with)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; exit 1; }

# The shared library's CMake targets ask for no compression library: only the static one does.
targets=$(find "$prefix" -name calltreeTargets.cmake -print -quit)
[[ -n $targets ]] || { echo "FAIL: no calltreeTargets.cmake under $prefix"; exit 1; }
if grep -nE 'ZLIB|ZSTD|LZMA|BZip2|ISAL' "$targets"; then bad "calltreeTargets.cmake (the shared library) names a compression library"; fi
grep -qE 'ZLIB' "$(dirname "$targets")/calltreeStaticTargets.cmake" ||
  bad "calltreeStaticTargets.cmake does not link the compression libraries"
# No installed header, package file, example or library.md points to a file that is not
# installed, and no installed page links to one.
python3 - "$prefix" <<'PY' || fail=1
import os, re, sys
prefix = sys.argv[1]
installed = [os.path.relpath(os.path.join(d, f), prefix) for d, _, fs in os.walk(prefix) for f in fs]
bad = 0
for rel in installed:
    whole = open(os.path.join(prefix, rel), errors="replace").read() if rel.endswith(".md") else ""
    # Every page's links lead to an installed file (an image, another page).
    for link in re.findall(r"\]\(([^)\s#]+)(?:#[^)\s]*)?\)", whole):
        if "://" in link or link.startswith("mailto:"):
            continue
        if not os.path.exists(os.path.normpath(os.path.join(prefix, os.path.dirname(rel), link))):
            print("FAIL: %s links to %s, which is not installed" % (rel, link))
            bad = 1
    if rel.endswith("/doc/calltree/library.md"):
        text = whole  # the library's reference names only what the package has
    elif rel.startswith("include/") or "/cmake/calltree/" in rel or "/doc/calltree/examples/" in rel:
        lines = open(os.path.join(prefix, rel), errors="replace").read().splitlines()
        # The comments: after // in C++, lines that begin with # in CMake.
        text = "\n".join(l.split("//", 1)[1] if "//" in l else l if l.lstrip().startswith("#") else ""
                         for l in lines)
    else:
        continue
    for ref in sorted(set(re.findall(r"(?<![\w/.$-])((?:[\w.-]+/)*[\w-]+\.(?:h|cc|md|sh|txt))\b", text))):
        if not any(p == ref or p.endswith("/" + ref) for p in installed):
            print("FAIL: %s points to %s, which is not installed" % (rel, ref))
            bad = 1
sys.exit(bad)
PY
# The examples as installed (share/doc/calltree/examples), built on their own against the
# prefix: a user's project.
examples=$(find "$prefix" -path '*/doc/calltree/examples/CMakeLists.txt' -print -quit)
[[ -n $examples ]] || { echo "FAIL: the examples are not installed"; exit 1; }
for f in "$src"/examples/*; do
  if [[ -d $f ]]; then  # (examples/python/: the Python package's, docs/python.md)
    diff -r -q "$f" "$(dirname "$examples")/$(basename "$f")" >/dev/null ||
      bad "examples/$(basename "$f")/ not installed as it is"
    continue
  fi
  cmp -s "$f" "$(dirname "$examples")/$(basename "$f")" || bad "examples/$(basename "$f") not installed as it is"
done
cmake -S "$(dirname "$examples")" -B "$work/examples" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/examples" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
grep -q "$prefix" "$work/examples/CMakeCache.txt" || bad "examples not configured against $prefix"
ldd "$work/examples/callers" | grep -F "$prefix" >/dev/null || bad "callers does not load the installed libcalltree.so"
callers=$work/examples/callers

run() {  # run NAME FILE: stdout in $work/NAME.out, stderr in .err, status in $status
  "$callers" "$2" >"$work/$1.out" 2>"$work/$1.err"
  status=$?
  echo "-- $1: exit $status"
  sed 's/^/   out: /' "$work/$1.out" | head -25
  sed 's/^/   err: /' "$work/$1.err" | head -6
}
expect() {  # expect NAME STATUS: the exit status
  [[ $status == "$2" ]] || bad "$1: exit $status, expected $2"
}
has() {  # has NAME out|err TEXT
  grep -qF -- "$3" "$work/$1.$2" || bad "$1: no '$3' in std$2"
}
empty() {  # empty NAME out|err
  [[ ! -s $work/$1.$2 ]] || bad "$1: std$2 is not empty"
}

# 1. A profile: exit 0, nothing on stderr; the figures are the tool's.
profile=$corpus/vg-recurse-default.callgrind
run profile "$profile"
expect profile 0
empty profile err
"$bin" annotate --inclusive=yes --tree=both --auto=no "$profile" >"$work/annotate.txt"
python3 - "$work/profile.out" "$work/annotate.txt" <<'PY' || fail=1
import re, sys
out = open(sys.argv[1]).read().split("\n\n")
ann = open(sys.argv[2]).read()
top = out[0].splitlines()
assert top[0] == "Ir total 362861224; the 10 functions of highest inclusive Ir:", top[0]
rows = [r.split(None, 2) for r in top[1:]]
assert len(rows) == 10, rows
costs = [int(r[0]) for r in rows]
assert costs == sorted(costs, reverse=True), costs
# Each row is a function row of annotate --inclusive=yes (with --tree, the lines with '*').
for cost, pct, name in rows:
    assert re.search(r"^ *%s \([ \d.]+%%\)  \*  \S*:%s( <cycle \d+>)? \[" % (
        re.escape("{:,}".format(int(cost))), re.escape(name)), ann, re.M), ("no annotate row", cost, name)
# The callers and callees of the first: annotate's tree of it ('<' callers, '>' callees), each
# (cost, name, count) the same, in the same order (by inclusive cost).
calls = out[1].splitlines()
first = rows[0][2]
assert calls[0].split()[-1] == first + ")", calls[0]
ci = [n for n, l in enumerate(calls) if l.startswith("callers:")][0]
i = [n for n, l in enumerate(calls) if l.startswith("callees:")][0]
callers = [l.split(None, 2) for l in calls[ci + 1:i]]
callees = [l.split(None, 2) for l in calls[i + 1:]]
assert (calls[ci] == "callers: none") == (not callers), calls[ci]
block = re.search(r"^((?:.*  < .*\n)*) *[\d,]+ \([ \d.]+%%\)  \*  \S*:%s( <cycle \d+>)? \[.*\n((?:.*  >   .*\n)*)"
                  % re.escape(first), ann, re.M)
assert block, "no tree of " + first
def tree(lines):
    got = []
    for l in lines.splitlines():
        m = re.match(r"\s*([\d,]+) \([ \d.]+%\)  [<>] +\S*:(.*?)( <cycle \d+>)? \(([\d,]+)x\) \[", l)
        got.append([m.group(1).replace(",", ""), m.group(4).replace(",", ""), m.group(2)])
    return got
want_callers, want_callees = tree(block.group(1)), tree(block.group(3))
assert callers == want_callers, (callers, want_callers)
assert callees == want_callees, (callees, want_callees)
assert len(callees) == 3, callees
print("ok: profile: the top 10 and the %d callers and %d callees of %s as annotate shows them"
      % (len(callers), len(callees), first))
PY

# 2. A binary file: no profile, exit 2, the error names the file once, nothing on stdout.
head -c 4096 "$bin" >"$work/binary"
run binary "$work/binary"
expect binary 2
empty binary out
has binary err "callers: error: $work/binary: the input is binary: this is a program (ELF), not a profile: \`calltree record -- $work/binary\` makes one [no-profile]"
# (once as the error's subject; the command that profiles it names it again)
[[ $(grep -o -F "$work/binary:" "$work/binary.err" | wc -l) == 1 ]] || bad "binary: the file not named once"

# 3. An empty file: no profile, exit 2.
: >"$work/empty"
run empty "$work/empty"
expect empty 2
empty empty out
has empty err "callers: error: $work/empty: empty input: no 'events:' line, no profile data [no-profile]"

# 4. A file cut short (a plain callgrind file cut to 30 KB, inside a line): read, shown, but
#    exit 1 and said so; its top function is the tool's too.
head -c 30000 "$profile" >"$work/cut"
run cut "$work/cut"
expect cut 1
has cut err "callers: $work/cut: the file was likely cut short (truncated): the costs below are of the part that was read"
has cut out "the 10 functions of highest inclusive Ir:"
"$bin" check "$work/cut" >"$work/cut.check" 2>&1
grep -q "likely-truncated" "$work/cut.check" || bad "cut: calltree check does not say likely-truncated"
# The figures of the part read: 10 rows by inclusive cost, the first annotate's (every function
# listed: --threshold=100). (Not every row: annotate keys a function by file:name, the fi= file
# for inlined code, so a function with inlined code is several rows there, one here.)
"$bin" annotate --inclusive=yes --tree=both --auto=no --threshold=100 "$work/cut" \
  >"$work/cut.annotate" 2>/dev/null
python3 - "$work/cut.out" "$work/cut.annotate" <<'PY' || fail=1
import re, sys
top = open(sys.argv[1]).read().split("\n\n")[0].splitlines()
ann = open(sys.argv[2]).read()
assert re.match(r"Ir total \d+; the 10 functions of highest inclusive Ir:$", top[0]), top[0]
rows = [r.split(None, 2) for r in top[1:]]
assert len(rows) == 10, rows
costs = [int(r[0]) for r in rows]
assert costs == sorted(costs, reverse=True), costs
cost, pct, name = rows[0]
assert re.search(r"^ *%s \([ \d.]+%%\)  \*  \S*:%s( <cycle \d+>)?( \[.*)?$" % (
    re.escape("{:,}".format(int(cost))), re.escape(name)), ann, re.M), ("no annotate row", cost, name)
print("ok: cut: the top 10 of the part read, the first as annotate shows it")
PY

# 5. A file that does not exist: exit 2, the error's code, the path once.
run missing "$work/no-such-file"
expect missing 2
empty missing out
has missing err "callers: error: $work/no-such-file: No such file or directory [not-found]"

# 6. A directory.
run directory "$work"
expect directory 2
has directory err "[is-directory]"

# 7. tour (the trial program of the issue that made load(), on it): three profiles and a
#    missing file; its figures the tool's.
second=$corpus/vg-recurse-separate-recs-callers.callgrind
"$work/examples/tour" "$profile" "$second" "$profile" "$work/no-such.out" >"$work/tour.out" 2>"$work/tour.err"
status=$?
sed 's/^/   tour: /' "$work/tour.out" "$work/tour.err" | head -30
[[ $status == 1 ]] || bad "tour: exit $status, expected 1 (a missing input)"
grep -qxF "tour: $work/no-such.out: No such file or directory [not-found]" "$work/tour.err" || bad "tour: the missing file"
"$bin" export --to=folded "$profile" -o "$work/folded" || bad "calltree export --to=folded"
want="folded stacks: $(wc -l <"$work/folded") lines; the first: $(head -1 "$work/folded")"
grep -qxF -- "$want" "$work/tour.out" || bad "tour: not the tool's folded stacks ($want)"
"$bin" merge -o "$work/merged" "$profile" "$second" "$profile" || bad "calltree merge"
total=$("$bin" check --json "$work/merged" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["totals"]["Ir"])' 2>/dev/null)
grep -q "^merged 3 inputs: [0-9]* functions, Ir total $total\$" "$work/tour.out" || bad "tour: the merged total is not calltree merge's ($total)"
grep -q "^diff: Ir 362861224 -> " "$work/tour.out" || bad "tour: no diff"
grep -q "calls  main$" "$work/tour.out" || bad "tour: no call count of main"

# 8. The installed API alone (tests/abi/installed_api.sh) and the program library.md opens
#    with, built from the installed page (tests/doc_program.sh).
bash "$src/tests/abi/installed_api.sh" "$prefix" "$profile" || fail=1
bash "$src/tests/doc_program.sh" "$prefix" "$profile" || fail=1

[[ $fail == 0 ]] && echo "ok: library_user: examples built against the install; callers on 6 inputs; tour; the installed API; library.md's program"
exit $fail
