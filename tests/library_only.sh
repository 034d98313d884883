#!/usr/bin/env bash
# library_only.sh — `-DCALLTREE_TOOL=OFF`: the library built and installed alone (`make
# test-library`). The configuration looks for no node, npm, cpp-httplib or RE2 and the build has
# no tool, server or front end target; the install has the headers, libcalltree (shared and
# static), the CMake package, calltree.pc, the docs with the examples and calltree(3), and no
# tool; then the installed package is used as a user would (tests/abi/installed_api.sh,
# tests/doc_program.sh, the installed examples built on their own and run).
#
#   library_only.sh SOURCE_DIR BUILD_DIR PROFILE [CMAKE_ARGS...]
set -uo pipefail
src=$1
build=$2
profile=$3
shift 3
fail=0
bad() { echo "FAIL: $*"; fail=1; }
start=$SECONDS
mkdir -p "$build"
log=$build/library_only  # (its logs: .configure.log, .build.log, ...)

cmake -S "$src" -B "$build" -DCALLTREE_TOOL=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" \
  >"$log.configure.log" 2>&1 || { cat "$log.configure.log"; exit 1; }
cache=$build/CMakeCache.txt
if grep -nE '^(CALLTREE_NPM|CALLTREE_NODE|HTTPLIB_FOUND|RE2_FOUND|nlohmann_json_DIR)[:=]' "$cache" | grep -v NOTFOUND; then
  bad "the library's configuration looked for the tool's dependencies (above)"
fi
grep -q '^CALLTREE_TESTS:BOOL=OFF' "$cache" || bad "CALLTREE_TOOL=OFF left the tests on"
cmake --build "$build" >"$log.build.log" 2>&1 || { tail -30 "$log.build.log"; exit 1; }
targets=$(cmake --build "$build" --target help 2>/dev/null)
for t in calltree_cli calltree_server calltree_web_dist calltree_assets calltree_man_pages parse_floor; do
  grep -qw "$t" <<<"$targets" && bad "the library's build has the target $t"
done
built=$SECONDS

prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >"$log.install.log" 2>&1 || { cat "$log.install.log"; exit 1; }
[[ -e $prefix/bin/calltree ]] && bad "the tool is installed"
for f in include/calltree/calltree.h include/calltree/load.h include/calltree/version.h \
         share/doc/calltree/library.md share/doc/calltree/examples/CMakeLists.txt \
         share/doc/calltree/examples/tour.cc share/man/man3/calltree.3; do
  [[ -f $prefix/$f ]] || bad "not installed: $f"
done
for f in libcalltree.so libcalltree.a cmake/calltree/calltreeConfig.cmake pkgconfig/calltree.pc; do
  [[ -n $(find "$prefix" -path "*/lib*/$f" -print -quit) ]] || bad "not installed: lib/$f"
done
[[ -n $(find "$prefix" -path '*/man1/*' -print -quit) ]] && bad "the tool's man pages are installed"

bash "$src/tests/abi/installed_api.sh" "$prefix" "$profile" || fail=1
bash "$src/tests/doc_program.sh" "$prefix" "$profile" || fail=1
# The installed examples, on their own against the prefix, and two of them run.
examples=$prefix/share/doc/calltree/examples
# (the prefix is new each run: a build of an earlier run's examples is not reused)
rm -rf "$build/examples-installed"
cmake -S "$examples" -B "$build/examples-installed" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$log.examples.log" 2>&1 &&
  cmake --build "$build/examples-installed" >>"$log.examples.log" 2>&1 ||
  { tail -20 "$log.examples.log"; bad "the installed examples do not build against the prefix"; }
if [[ -x $build/examples-installed/tour ]]; then
  "$build/examples-installed/tour" "$profile" "$profile" "$prefix/no-such.out" >"$log.tour.out" 2>&1
  status=$?
  sed 's/^/   tour: /' "$log.tour.out" | head -30
  [[ $status == 1 ]] || bad "tour with a missing file: exit $status, expected 1"
  grep -q "no-such.out: No such file or directory \[not-found\]" "$log.tour.out" || bad "tour: no not-found error"
  grep -q "^folded stacks: [1-9][0-9]* lines" "$log.tour.out" || bad "tour: no folded stacks"
  grep -q "^diff: Ir 362861224 -> 362861224; 0 functions added, 0 removed, 0 changed" "$log.tour.out" || bad "tour: the diff of a file with itself"
fi
echo "library alone: configured and built in $((built - start)) s, installed and checked in $((SECONDS - built)) s"
[[ $fail == 0 ]] && echo "ok: CALLTREE_TOOL=OFF builds and installs the library alone"
exit $fail
