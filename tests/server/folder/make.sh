#!/bin/sh
# make.sh — remakes the Xdebug profiles of this folder (serve_folder.py and
# web/tests/browser_folder.test.mjs list them with `calltree serve DIR`): Debian's php-cli and
# php-xdebug (scripts/install-deps.sh) over the small scripts of php/, run from a copy in
# /tmp/calltree-folder (their cmd: lines name no checkout), one second apart so their
# modification times differ.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rm -rf /tmp/calltree-folder && mkdir -p /tmp/calltree-folder && cp -r "$here/php" /tmp/calltree-folder/
cd /tmp/calltree-folder
for s in fib words shapes; do
  php -d xdebug.mode=profile -d xdebug.output_dir="$here" \
      -d xdebug.profiler_output_name=cachegrind.out.$s php/$s.php >/dev/null
  sleep 1
done
