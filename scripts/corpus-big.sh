#!/usr/bin/env bash
# corpus-big.sh CORPUS DIR — the corpus's 24 MB instr-level profile as the speed-minded scripts
# read it: DIR/big.callgrind (plain) and DIR/big.callgrind.zst (zstd -3), beside the corpus's own
# .gz, whose path it prints. Exit status 1 (and nothing made) if the corpus does not have it.
set -euo pipefail
gz=$1/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz
[ -f "$gz" ] || exit 1
gzip -dc "$gz" >"$2/big.callgrind"
zstd -q -f -3 "$2/big.callgrind" -o "$2/big.callgrind.zst"
echo "$gz"
