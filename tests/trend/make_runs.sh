#!/usr/bin/env bash
# make_runs.sh OUT — two folders of real runs for `calltree trend` and serve's Trend view:
#   OUT/callgrind/run1.callgrind .. run8.callgrind: valgrind --tool=callgrind on steps.c, whose
#     work() runs 100,000 rounds in runs 1-5 and 130,000 from run 6 on (its self cost steps up
#     30 % at run index 5); modification times a minute apart, oldest first.
#   OUT/xdebug/cachegrind.out.run1 .. run8: php -d xdebug.mode=profile on steps.php, work()
#     500,000 rounds in runs 1-5 and 5,000,000 from run 6 on (a step Xdebug's noisy Time shows
#     on a loaded machine too).
#   OUT/callgrind/README.txt: a file that is no profile (a folder holds such files).
# Needs gcc, valgrind, and php with Xdebug (scripts/install-deps.sh test); without php or
# Xdebug the xdebug folder is not made (and the script says so).
set -euo pipefail
out=${1:?usage: make_runs.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/callgrind" "$out/xdebug"
gcc -O1 -g -o "$out/steps" "$here/steps.c"
base=$(( $(date +%s) - 3600 ))
for i in 1 2 3 4 5 6 7 8; do
  rounds=$([ "$i" -le 5 ] && echo 100000 || echo 130000)
  env -i valgrind --tool=callgrind --callgrind-out-file="$out/callgrind/run$i.callgrind" \
    "$out/steps" "$rounds" 2>/dev/null
  touch -d "@$((base + i * 60))" "$out/callgrind/run$i.callgrind"
done
echo "eight runs of steps.c: work() 100,000 rounds, 130,000 from run 6 on" > "$out/callgrind/README.txt"
touch -d "@$((base + 30))" "$out/callgrind/README.txt"

if command -v php >/dev/null && [[ $(php -m 2>/dev/null) == *[Xx]debug* ]]; then
  for i in 1 2 3 4 5 6 7 8; do
    rounds=$([ "$i" -le 5 ] && echo 500000 || echo 5000000)
    php -d xdebug.mode=profile -d xdebug.start_with_request=yes \
      -d xdebug.output_dir="$out/xdebug" -d xdebug.profiler_output_name="cachegrind.out.run$i" \
      "$here/steps.php" "$rounds" >/dev/null
    touch -d "@$((base + i * 60))" "$out/xdebug/cachegrind.out.run$i"
  done
else
  echo "make_runs.sh: no php with Xdebug: no $out/xdebug runs" >&2
fi
