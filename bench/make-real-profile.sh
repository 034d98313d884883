#!/usr/bin/env bash
# make-real-profile.sh [OUTDIR] — the recipe for the real instr-level benchmark profile.
#
# Runs callgrind with --dump-instr=yes --collect-jumps=yes --separate-callers=3 on one clang
# compile of the corpus's big.cpp (template-heavy, #include <bits/stdc++.h>), then writes
# gzip and zstd copies beside it.  Clang runs its cc1 in-process, so the profiled process is
# the compiler itself; --trace-children=yes keeps any child it spawns (they are dropped).
#
# Output (OUTDIR defaults to bench/data/, which git ignores):
#   real-clang-big.callgrind      ~260 MB, 19 M lines, instr-level, jumps, 3-deep caller contexts
#   real-clang-big.callgrind.gz   gzip -6
#   real-clang-big.callgrind.zst  zstd -3
# Takes about 5 minutes on one core (valgrind is ~50x slower than native); run it with `nice`.
#
# OPT (default -O2) is clang's optimization flag. OPT=-O1 makes the other side of a real
# differential pair (the same compile at another level: the "new build" of `serve OLD NEW` and
# `calltree diff`), written as real-clang-big-O1.callgrind (no .gz/.zst).
# (clang itself has no debug info, so most files are `???` and lines 0: addresses carry it.)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/data}
OPT=${OPT:--O2}
name=real-clang-big
[ "$OPT" = "-O2" ] || name=real-clang-big$OPT
src=${CALLTREE_CORPUS_DIR:-$here/../tests/corpus}/src/cpp/big.cpp
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes --separate-callers=3 \
    --trace-children=yes --callgrind-out-file="$tmp/cg.%p.callgrind" \
    clang++ "$OPT" -g -std=c++17 -c "$src" -o "$tmp/big.o" 2> "$tmp/valgrind.log" || {
    cat "$tmp/valgrind.log" >&2
    exit 2
}
# Keep the largest profile: the process that compiled (the driver alone is tiny).
best=$(ls -S "$tmp"/cg.*.callgrind | head -1)
mv "$best" "$out/$name.callgrind"
chmod 644 "$out/$name.callgrind"
if [ "$OPT" != "-O2" ]; then
  ls -l "$out/$name.callgrind"
  exit 0
fi
rm -f "$out/real-clang-big.callgrind.gz" "$out/real-clang-big.callgrind.zst"
gzip -6 -k -n "$out/real-clang-big.callgrind"
zstd -q -3 -k "$out/real-clang-big.callgrind" -o "$out/real-clang-big.callgrind.zst"
chmod 644 "$out"/real-clang-big.callgrind.*
ls -l "$out"/real-clang-big.callgrind*
