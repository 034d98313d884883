#!/usr/bin/env bash
# make-xdebug-profile.sh [OUTDIR] — the recipe for the Xdebug benchmark profile.
#
# Runs bench/xdebug-work.php under Xdebug 3's profiler (`php -d xdebug.mode=profile`, Debian's
# php-cli and php-xdebug: scripts/install-deps.sh installs them) for as many rounds as make a
# file of about SIZE_MB (default 50) MB: one short run first says how many bytes a round writes.
# Output (OUTDIR defaults to bench/data/, which git ignores):
#   xdebug-work.callgrind   ~50 MB, ~6.8 M lines, ~830 k calls (PHP 8.2, Xdebug 3.2)
# The costs are Xdebug's times and memory, so two runs differ in their numbers, not their shape.
# Takes about 10 seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/data}
SIZE_MB=${SIZE_MB:-50}
command -v php > /dev/null || { echo "make-xdebug-profile.sh: no php (apt-get install php-cli php-xdebug)" >&2; exit 2; }
php -m | grep -qx xdebug || { echo "make-xdebug-profile.sh: php has no xdebug (apt-get install php-xdebug)" >&2; exit 2; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
profile() {  # profile ROUNDS: the profile's path
  rm -f "$tmp"/cachegrind.out.*
  php -d xdebug.mode=profile -d xdebug.start_with_request=yes -d xdebug.use_compression=0 \
      -d xdebug.output_dir="$tmp" -d xdebug.profiler_output_name=cachegrind.out.%p \
      "$here/xdebug-work.php" "$1" > /dev/null
  ls "$tmp"/cachegrind.out.*
}
probe=200
size=$(stat -c %s "$(profile $probe)")
rounds=$(( SIZE_MB * 1000000 * probe / size ))
echo "make-xdebug-profile.sh: $probe rounds wrote $size bytes; $rounds rounds for $SIZE_MB MB" >&2
mv "$(profile "$rounds")" "$out/xdebug-work.callgrind"
ls -l "$out/xdebug-work.callgrind" >&2
