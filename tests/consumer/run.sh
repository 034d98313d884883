#!/usr/bin/env bash
# run.sh — builds tests/consumer against installed calltree files, both ways a user would:
# find_package(calltree CONFIG) and pkg-config. Prints what the programs print and fails if
# they do not report the profile's true figures.
#
#   run.sh PREFIX PROFILE EXPECTED      use files already installed under PREFIX (/usr: the .deb)
#   run.sh --install BUILD PROFILE EXPECTED
#                                      first `cmake --install BUILD` into a temporary prefix
# EXPECTED is the line the program prints ("calltree 1.0.0: Ir total N, top main N").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ $1 == --install ]]; then
  prefix=$work/prefix
  cmake --install "$2" --prefix "$prefix" >"$work/install.log"
  shift 2
else
  prefix=$1
  shift
fi
profile=$1
expected=$2

# Everything the consumer uses must come from the prefix: the headers and libraries are looked
# for nowhere else.
for f in include/calltree/calltree.h include/calltree/reader.h include/calltree/version.h; do
  [[ -f $prefix/$f ]] || { echo "missing $prefix/$f"; exit 1; }
done
so=$(find "$prefix"/lib* -name libcalltree.so -print -quit 2>/dev/null || true)
[[ -n $so ]] || { echo "no libcalltree.so under $prefix/lib*"; exit 1; }
libdir=$(dirname "$so")
[[ -f $libdir/libcalltree.a ]] || { echo "no libcalltree.a beside libcalltree.so in $libdir"; exit 1; }

check() {  # check NAME OUTPUT
  if [[ $2 != "$expected" ]]; then
    echo "FAIL $1: got '$2', expected '$expected'"
    exit 1
  fi
  echo "ok $1: $2"
}

# 1. CMake: find_package(calltree CONFIG), the shared and the static library.
cmake -S "$here" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_STANDARD=20 >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/cmake" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
# The shared library loaded is the installed one (found through the RUNPATH CMake sets, or
# the system's directories for /usr).
loaded() { ldd "$1" | awk '/libcalltree/ { print $3 }' | xargs -r realpath; }
want_so=$(realpath "$libdir/libcalltree.so")
[[ $(loaded "$work/cmake/consumer_shared") == "$want_so" ]] ||
  { echo "consumer_shared does not load $want_so"; ldd "$work/cmake/consumer_shared"; exit 1; }
check find_package-shared "$("$work/cmake/consumer_shared" "$profile")"
check find_package-static "$("$work/cmake/consumer_static" "$profile")"

# 2. pkg-config, shared (the default) and --static.
export PKG_CONFIG_PATH=$libdir/pkgconfig
[[ $(pkg-config --modversion calltree) == "$(sed -n 's/.*calltree \([0-9.]*\):.*/\1/p' <<<"$expected")" ]] ||
  { echo "pkg-config --modversion calltree: $(pkg-config --modversion calltree)"; exit 1; }
# shellcheck disable=SC2046
c++ -std=c++20 -O1 -o "$work/pc_shared" "$here/main.cc" $(pkg-config --cflags --libs calltree) \
  -Wl,-rpath,"$libdir"
[[ $(loaded "$work/pc_shared") == "$want_so" ]] || { echo "pc_shared does not load $want_so"; exit 1; }
check pkg-config-shared "$("$work/pc_shared" "$profile")"
# shellcheck disable=SC2046
c++ -std=c++20 -O1 -o "$work/pc_static" "$here/main.cc" $(pkg-config --cflags calltree) \
  "$libdir/libcalltree.a" $(pkg-config --libs-only-other --libs-only-l --static calltree | sed 's/-lcalltree//')
if ldd "$work/pc_static" | grep -q libcalltree; then echo "pc_static loads libcalltree.so"; exit 1; fi
check pkg-config-static "$("$work/pc_static" "$profile")"
