#!/usr/bin/env bash
# Remakes tests/runs: real runs of several files as valgrind writes them, for `calltree serve
# FILE...`, --parts and --siblings (tests/server/serve_runs.py, web/tests/browser_runs.test.mjs).
#
#   threads/callgrind.out.PID-01 .. -05   valgrind --tool=callgrind --separate-threads=yes
#                                          (one file per thread of tests/corpus/src/c/threads.c)
#   dumps/callgrind.out.PID.1, .2, ...    --dump-before=phase_compute (a dump each time the
#   and dumps/callgrind.out.PID            program enters phase_compute; the rest at its end)
#                                          of tests/corpus/src/c/phases.c
#
# Built and run in /tmp/cgcorpus as tests/corpus/generate.sh does (the same paths in ob=, fl=).
# Needs valgrind and gcc. Usage: bash tests/runs/make.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-/tmp/cgcorpus-runs}
export LC_ALL=C.UTF-8 TZ=UTC
rm -rf "$BUILD"
mkdir -p "$BUILD"/{bin,out/threads,out/dumps}
cp -r "$HERE/../corpus/src" "$BUILD/src"
cd "$BUILD"
CFLAGS_DBG="-g -O1 -fno-inline -fno-optimize-sibling-calls -fdebug-prefix-map=$BUILD=."
gcc $CFLAGS_DBG -pthread -o bin/threads src/c/threads.c
gcc $CFLAGS_DBG -o bin/phases src/c/phases.c
valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file=out/threads/callgrind.out.%p \
    bin/threads > /dev/null 2>&1
# (with --separate-threads callgrind also leaves an empty file without a thread number)
find out/threads -size 0 -delete
valgrind --tool=callgrind --dump-before=phase_compute --callgrind-out-file=out/dumps/callgrind.out.%p \
    bin/phases 20000 > /dev/null 2>&1
rm -rf "$HERE/threads" "$HERE/dumps"
cp -r out/threads out/dumps "$HERE/"
ls -l "$HERE/threads" "$HERE/dumps"
