#!/usr/bin/env bash
# install-deps.sh [GROUP...] — installs the Debian 12 packages calltree needs, if any is missing.
# GROUP is one of (no GROUP: all of them, what `make test` and .ci/run use):
#   build      the `calltree` binary and the library, with the embedded front end (`make demo`),
#              and the Python package's module (python3-dev, pybind11-dev)
#   test       every test of `make test`, the sanitizer, thread and fuzz builds, the benchmarks
#              (php-cli and php-xdebug: Xdebug profiles of PHP scripts, as tests/corpus/generate.sh makes them;
#              python3-pandas, python3-pytest and python3-matplotlib: the Python package's tests, python/tests;
#              python3-yaml: docs/ci.md's jobs read and run, tests/docs/ci_recipes.py)
#   docs       the API reference (Doxygen) and the man pages read back (`make docs`, docs.doxygen)
#   packaging  the Debian package (cpack -G DEB, `make deb-check`)
# Safe to run again: it does nothing when everything is there. Needs root (or sudo) to install.
set -euo pipefail
# (web/ builds with node and npm: npm comes with nodejs, Debian's own or NodeSource's; the
# front end's npm packages are pinned by web/package-lock.json and fetched by the build. ccache:
# every `make` build compiles through it when it is there, so the build directory `make demo`
# made is not compiled again by `make test` for a compiler launcher that came in between.)
build=(cmake ninja-build g++ pkg-config zlib1g-dev libzstd-dev liblzma-dev libisal-dev libbz2-dev
       libcpp-httplib-dev libre2-dev nlohmann-json3-dev libsqlite3-dev libncurses-dev nodejs ccache python3-dev pybind11-dev)
test=(clang libclang-rt-14-dev clang-format libgtest-dev libgmock-dev libbenchmark-dev python3-yaml
      valgrind gcc binutils gzip zstd xz-utils bzip2 python3 time strace golang-go graphviz
      kcachegrind xvfb xauth dbus-daemon chromium fonts-dejavu-core zsh tmux
      php-cli php-xdebug python3-pandas python3-pytest python3-matplotlib)
docs=(doxygen man-db groff-base bsdextrautils)
packaging=(dpkg-dev file fakeroot)

[ $# -gt 0 ] || set -- build test docs packaging
packages=()
for group in "$@"; do
  case "$group" in
    build) packages+=("${build[@]}") ;;
    test) packages+=("${test[@]}") ;;
    docs) packages+=("${docs[@]}") ;;
    packaging) packages+=("${packaging[@]}") ;;
    *) echo "install-deps: no group '$group' (build, test, docs, packaging)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}" >&2
sudo_=""
[ "$(id -u)" -eq 0 ] || sudo_="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_ apt-get update -qq
$sudo_ apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
