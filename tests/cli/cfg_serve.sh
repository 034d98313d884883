#!/usr/bin/env bash
# serve's control-flow graph (GET /api/v1/cfg/ID, calltree/cfg.h) end to end: tests/asm/hot.c
# (a loop with an if) built with gcc -O2 -g, calling mix() in a shared library, run under
# callgrind --dump-instr=yes --collect-jumps=yes; tests/asm/check_cfg.py checks hot_loop's and
# main's graphs against the profile file (costs, jump lines, counts of blocks and edges).
set -uo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")/../asm" && pwd)
for tool in gcc valgrind objdump python3; do
  command -v $tool >/dev/null || { echo "cfg_serve.sh: $tool missing (scripts/install-deps.sh)"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
gcc -O2 -g -fPIC -shared -o libmix.so "$here/mix.c" &&
  gcc -O2 -g -o hot "$here/hot.c" -L. -lmix -Wl,-rpath,'$ORIGIN' || { echo "FAIL: gcc"; exit 1; }
valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes --callgrind-out-file=cg.out \
  ./hot 1237 >/dev/null 2>&1 || { echo "FAIL: valgrind"; exit 1; }
fail=0
python3 "$here/check_cfg.py" "$bin" cg.out hot_loop || fail=1
python3 "$here/check_cfg.py" "$bin" cg.out main || fail=1
exit $fail
