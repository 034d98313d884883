#!/usr/bin/env bash
# same_build.sh A B CORPUS — two builds of calltree (the tested one and `make release`'s,
# profile-guided unless RELEASE_PGO=no) print the same bytes on stdout and stderr, with the
# same exit status.
#
# For the bundled example, the golden and malformed files and every corpus profile: `check
# --json`, `annotate` (default, and --auto=no --inclusive=yes --tree=both) and `convert`; for
# the corpus's 24 MB instr-level profile, plain, gzip and zstd, on one thread and two. The two
# builds run each command side by side (CI's machine has two cores; the script's time halves).
set -uo pipefail
a=$1
b=$2
corpus=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
checked=0

same() {  # same COMMAND...: runs calltree COMMAND with A and with B, the two at once
  { "$a" "$@" >"$tmp/out.a" 2>"$tmp/err.a"; echo $? >"$tmp/rc.a"; } </dev/null &
  { "$b" "$@" >"$tmp/out.b" 2>"$tmp/err.b"; echo $? >"$tmp/rc.b"; } </dev/null &
  wait
  checked=$((checked + 1))
  if ! cmp -s "$tmp/out.a" "$tmp/out.b" || ! cmp -s "$tmp/err.a" "$tmp/err.b" ||
     ! cmp -s "$tmp/rc.a" "$tmp/rc.b"; then
    echo "FAIL: calltree $*: the two builds differ"
    diff "$tmp/out.a" "$tmp/out.b" | head -5
    fail=1
  fi
}

files=("$root"/examples/*.callgrind "$root"/tests/golden/*/*.callgrind "$root"/tests/malformed/*)
[ -d "$corpus" ] && files+=("$corpus"/*.callgrind "$corpus"/*.cachegrind)
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  same check --json "$f"
  same annotate "$f"
  same annotate --auto=no --inclusive=yes --tree=both "$f"
  same convert -o - "$f"
done

if big_gz=$(bash "$root/scripts/corpus-big.sh" "$corpus" "$tmp"); then
  big=$tmp/big.callgrind
  for f in "$big" "$big_gz" "$big.zst"; do
    for t in 1 2; do
      same check --json --threads=$t "$f"
      same annotate --auto=no --threads=$t "$f"
      same annotate --inclusive=yes --tree=both --threads=$t "$f"
    done
  done
fi

echo "same_build: $checked runs, $([ $fail = 0 ] && echo 'all the same' || echo 'some differ')"
exit $fail
