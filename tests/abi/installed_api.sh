#!/usr/bin/env bash
# installed_api.sh — the installed library as a new user meets it, with nothing but its prefix:
#  1. <calltree/calltree.h> alone compiles with -Wall -Wextra -Werror (-std=c++20), and every
#     installed header compiles alone;
#  2. below C++20 (-std=c++17) the compiler's first error says that calltree needs C++20;
#  3. calltree::load(path, options = {}) returning result<loaded_profile> is declared;
#  4. no installed header shows the library's machinery (names of code that is not the API);
#  5. pkg-config with calltree.pc as the only .pc file it can see: --cflags --libs give a
#     program that links the shared library and runs (and --static names the libraries
#     libcalltree.a needs without asking for any other .pc file);
#  6. a calltree(3) man page is installed.
#
#   installed_api.sh PREFIX PROFILE
set -uo pipefail
prefix=$1
profile=$2
cxx=${CXX:-c++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
inc=$prefix/include
[[ -f $inc/calltree/calltree.h ]] || { echo "FAIL: no $inc/calltree/calltree.h"; exit 1; }

# 1. The umbrella header alone, warnings as errors; each header alone.
printf '#include <calltree/calltree.h>\nint main() { return 0; }\n' >"$work/umbrella.cc"
"$cxx" -std=c++20 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$inc" "$work/umbrella.cc" \
  >"$work/umbrella.log" 2>&1 || { cat "$work/umbrella.log"; bad "calltree/calltree.h does not compile alone with -Wall -Wextra -Werror"; }
headers=0
while IFS= read -r h; do
  rel=${h#"$inc"/}
  printf '#include <%s>\n' "$rel" >"$work/one.cc"
  "$cxx" -std=c++20 -Wall -Wextra -Werror -fsyntax-only -I"$inc" "$work/one.cc" >"$work/one.log" 2>&1 ||
    { head -5 "$work/one.log"; bad "$rel does not compile alone"; }
  # The umbrella includes every header (it is the whole API).
  [[ $rel == calltree/calltree.h ]] || grep -qF "#include \"$rel\"" "$inc/calltree/calltree.h" ||
    bad "calltree/calltree.h does not include $rel"
  headers=$((headers + 1))
done < <(find "$inc/calltree" -name '*.h' | sort)
echo "ok: calltree.h and the $headers installed headers compile alone (-Wall -Wextra -Werror)"

# 2. C++17: the first error names C++20.
if "$cxx" -std=c++17 -fsyntax-only -I"$inc" "$work/umbrella.cc" >"$work/cxx17.log" 2>&1; then
  bad "calltree/calltree.h compiles with -std=c++17"
fi
first=$(grep -m1 'error' "$work/cxx17.log")
[[ $first == *"calltree needs C++20"* ]] || bad "-std=c++17: the first error is not about C++20: $first"
echo "ok: -std=c++17: $first"

# 3. load() is declared, returning result<loaded_profile>, its options defaulted; and a
#    program using it compiles (checked by calling it below).
grep -qE 'result<loaded_profile> load\(const std::string& path, load_options options = \{\}\)' \
  "$inc/calltree/load.h" || bad "calltree/load.h declares no result<loaded_profile> load(path, options = {})"

# 4. No machinery: the words of code a program never calls.
#    (the analyses' solvers and parsers; the string pool's digest and spill modes and cache
#    hints; the reader's read-ahead grains and runs; the friends that reach past the API)
machinery='inclusive_solver|strongly_connected|call_summer|std::map|parse_objdump|objdump_disassembly|objdump_instruction|plan_disassembly|match_instructions|function_symbols|Tarjan'
machinery+='|digest|spill|prefetch|string_pool_access|builder_access|friend struct|merged_chunk|runs_of_lines|runs_merged_by_place|lines_of|cost_run'
if grep -rniE "$machinery" "$inc/calltree"; then
  bad "installed headers show the library's machinery (above)"
else
  echo "ok: no machinery names in the installed headers"
fi

# 5. pkg-config with nothing but calltree.pc.
pc=$(find "$prefix" -name calltree.pc -print -quit)
[[ -n $pc ]] || { echo "FAIL: no calltree.pc"; exit 1; }
mkdir -p "$work/pc"
cp "$pc" "$work/pc/"
# (${pcfiledir} in calltree.pc points into the prefix from where it lies: a copy points here.)
sed -i "s|^prefix=.*|prefix=$prefix|" "$work/pc/calltree.pc"
pcq() { PKG_CONFIG_LIBDIR=$work/pc PKG_CONFIG_PATH= pkg-config "$@"; }
flags=$(pcq --cflags --libs calltree 2>&1) || bad "pkg-config --cflags --libs calltree with only calltree.pc: $flags"
static=$(pcq --libs --static calltree 2>&1) || bad "pkg-config --libs --static calltree with only calltree.pc: $static"
[[ $static == *-lz* && $static == *-lzstd* && $static == *-llzma* && $static == *-lbz2* ]] ||
  bad "pkg-config --static does not name libcalltree.a's libraries: $static"
cat >"$work/load.cc" <<'CC'
#include <calltree/calltree.h>

#include <cstdio>

int main(int argc, char** argv) {
  auto loaded = calltree::load(argc > 1 ? argv[1] : "");
  if (!loaded) return std::fprintf(stderr, "%s\n", loaded.error().message.c_str()), 2;
  std::printf("%zu functions, ok %d\n", loaded->profile.functions.size(), loaded->ok() ? 1 : 0);
  try {
    (void)calltree::load("/nonexistent/x.out").value();
  } catch (const calltree::bad_result_access& e) {
    std::printf("%s [%s]\n", e.what(), std::string(calltree::to_string(e.error().code)).c_str());
  }
  return 0;
}
CC
libdir=$(dirname "$(find "$prefix" -name 'libcalltree.so' -print -quit)")
# shellcheck disable=SC2086
"$cxx" -std=c++20 -Wall -Wextra -Werror -o "$work/load" "$work/load.cc" $flags -Wl,-rpath,"$libdir" \
  >"$work/pc.log" 2>&1 || { cat "$work/pc.log"; bad "a program does not build with pkg-config's flags alone"; }
if [[ -x $work/load ]]; then
  out=$("$work/load" "$profile")
  echo "$out" | sed 's/^/   /'
  [[ $out == *" functions, ok 1"* ]] || bad "load() of $profile: $out"
  [[ $out == *"/nonexistent/x.out: No such file or directory [not-found]"* ]] ||
    bad "value() of an error does not throw bad_result_access with the error"
  echo "ok: pkg-config with only calltree.pc: built, linked the shared library, ran"
fi

# 6. calltree(3).
[[ -f $prefix/share/man/man3/calltree.3 ]] || bad "no share/man/man3/calltree.3"

exit $fail
