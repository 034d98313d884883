# shellcheck shell=bash
# null_device.sh — sourced by the benchmark scripts: stop unless /dev/null is the null device.
#
# The runs write their output to /dev/null. If that is not the null device (a `rm /dev/null`,
# or a tool renaming a temporary file onto it as root, then any `> /dev/null`, leaves a regular
# file in its place), every run also writes its whole output into that file: 260 MB for `zstd
# -dc` of the real profile, 28 MB for annotate's report, and a ratio to annotate's time comes
# out too low. The table would be wrong, so it is not made. (Found so on the development
# machine twice, docs/performance.md "Method"; as root: rm /dev/null; mknod -m 666 /dev/null c 1 3.)
require_null_device() {
  if [ ! -c /dev/null ]; then
    echo "$1: /dev/null is not a character device, so every run would write its output" \
      "into a file; restore it (as root: rm /dev/null; mknod -m 666 /dev/null c 1 3)" >&2
    exit 2
  fi
}
