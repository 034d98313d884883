#!/usr/bin/env bash
# Installs the Debian packages calltree needs to build, test and benchmark, if any is missing.
# Safe to run again: it does nothing when everything is there. Needs root (or sudo) to install.
set -euo pipefail
packages=(cmake ninja-build g++ clang libclang-rt-14-dev pkg-config zlib1g-dev libzstd-dev
          liblzma-dev libisal-dev libbz2-dev libgtest-dev libgmock-dev libbenchmark-dev valgrind gzip zstd
          xz-utils bzip2 python3 clang-format time kcachegrind xvfb xauth dbus-daemon ccache
          libcpp-httplib-dev libre2-dev nodejs chromium fonts-dejavu-core golang-go graphviz
          binutils gcc doxygen nlohmann-json3-dev man-db groff-base bsdextrautils
          dpkg-dev file fakeroot zsh strace)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# (npm comes with nodejs: Debian's own, or NodeSource's, which provides it)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}" >&2
sudo_=""
[ "$(id -u)" -eq 0 ] || sudo_="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_ apt-get update -qq
$sudo_ apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
