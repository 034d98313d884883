#!/usr/bin/env bash
# --threads: the parallel and serial paths give byte-identical output.
#
# For every corpus profile, as it is and compressed (a compressed input is what the second
# thread decodes: gzip, zstd, xz and bzip2 in turn, one of them a file, so that each reads a
# quarter of the corpus, every dialect among them), `check --json` and `annotate` (default
# options, and --inclusive=yes --tree=both) must print the same bytes on stdout and stderr,
# with the same exit status, for --threads=1 and 2 (and 4 on a few). Then the files big enough
# for the parallel path of plain files, with the commands that take it (check, annotate, diff).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../tools/test_files.sh
. "$(dirname "$0")/../tools/test_files.sh"
bin=$1
corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
checked=0

counts="1 2"
# THREADS_COMPRESSIONS: the compressions taken in turn (a run may take only some;
# the decoding thread hands every decompressor's bytes over the same way).
read -r -a compressions <<<"${THREADS_COMPRESSIONS:-gz zst xz bz2}"
same() {  # same DESCRIPTION COMMAND...: runs COMMAND with --threads=1 and each of $counts
  local what=$1
  shift
  local t
  for t in $counts; do
    "$@" --threads=$t >"$tmp/out.$t" 2>"$tmp/err.$t"
    echo $? >"$tmp/rc.$t"
  done
  for t in $counts; do
    if ! cmp -s "$tmp/out.1" "$tmp/out.$t" || ! cmp -s "$tmp/err.1" "$tmp/err.$t" ||
       ! cmp -s "$tmp/rc.1" "$tmp/rc.$t"; then
      echo "FAIL: $what: --threads=$t differs from --threads=1"
      diff "$tmp/out.1" "$tmp/out.$t" | head -5
      diff "$tmp/err.1" "$tmp/err.$t" | head -5
      fail=1
      return
    fi
  done
  checked=$((checked + 1))
}

files=()
for f in "$corpus"/*.callgrind "$corpus"/*.cachegrind "$corpus"/*.gz; do
  [ -f "$f" ] && small_enough "$f" && files+=("$f")
done
[ ${#files[@]} -gt 30 ] || { echo "FAIL: only ${#files[@]} corpus files"; exit 1; }

turn=0
for f in "${files[@]}"; do
  name=$(basename "$f")
  variants=("$f")
  case $name in
    *.gz) ;;  # already compressed
    *)
      z=${compressions[turn % ${#compressions[@]}]}
      turn=$((turn + 1))
      case $z in
        gz) gzip -c "$f" >"$tmp/$name.gz" ;;
        zst) zstd -q -c "$f" >"$tmp/$name.zst" ;;
        xz) xz -c "$f" >"$tmp/$name.xz" ;;
        bz2) bzip2 -c "$f" >"$tmp/$name.bz2" ;;
        *) echo "FAIL: unknown compression '$z' in THREADS_COMPRESSIONS"; exit 1 ;;
      esac
      variants+=("$tmp/$name.$z")
      ;;
  esac
  for v in "${variants[@]}"; do
    same "check --json $(basename "$v")" "$bin" check --json "$v"
    same "annotate $(basename "$v")" "$bin" annotate "$v"
    same "annotate --inclusive=yes --tree=both $(basename "$v")" \
      "$bin" annotate --inclusive=yes --tree=both "$v"
  done
  rm -f "$tmp/$name".*
done

# Plain files of 1 MiB and more are cut into chunks that the second thread reads ahead (the
# parallel path of the reader) when the sinks take sums: check, annotate (with source lines,
# sums per line; the corpus's sources found through --include), and diff (against the big
# file). The corpus's big file unpacked, its other plain
# files of 1 MiB and more, and all its plain files concatenated (parts of every dialect one
# after the other). (Under the sanitizers, CALLTREE_TEST_MAX_BYTES: the files up to that size
# concatenated, 4.7 MB in five chunks, stand for the big file, and diff compares with them.)
big_gz=$corpus/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz
for f in "$corpus"/*.callgrind "$corpus"/*.cachegrind; do
  small_enough "$f" && cat "$f"
done >"$tmp/all.callgrind"
if [ -n "${CALLTREE_TEST_MAX_BYTES:-}" ]; then
  big=$tmp/all.callgrind
  chunked=("$big")
  big_gz=$tmp/all.callgrind.gz
  gzip -c "$big" >"$big_gz"
else
  big=$tmp/big.callgrind
  gzip -dc "$big_gz" >"$big"
  chunked=("$big" "$tmp/all.callgrind")
fi
for f in "$corpus"/*.callgrind "$corpus"/*.cachegrind; do
  [ "$(stat -c %s "$f")" -ge 1048576 ] && small_enough "$f" && chunked+=("$f")
done
[ -n "${CALLTREE_TEST_MAX_BYTES:-}" ] || [ ${#chunked[@]} -ge 5 ] ||
  { echo "FAIL: only ${#chunked[@]} files of 1 MiB or more"; exit 1; }
for v in "${chunked[@]}"; do
  same "check --json $(basename "$v") (chunks)" "$bin" check --json "$v"
  same "annotate --auto=no $(basename "$v") (chunks)" "$bin" annotate --auto=no "$v"
  same "annotate --include $(basename "$v") (chunks)" "$bin" annotate --include="$corpus" "$v"
  same "annotate --auto=no --inclusive=yes --tree=both $(basename "$v") (chunks)" \
    "$bin" annotate --auto=no --inclusive=yes --tree=both "$v"
  same "diff --json --inclusive=yes $(basename "$v") $(basename "$big") (chunks)" \
    "$bin" diff --json --inclusive=yes "$v" "$big"
done
rm -f "$tmp/big.callgrind" "$tmp/all.callgrind"  # ($big_gz stays: the runs below read it)

# A compressed stream cut short: the same error, at the same place, either way.
counts="1 2 4"
gzip -c "$corpus/vg-recurse-default.callgrind" | head -c 20000 >"$tmp/cut.gz"
same "check --json on a truncated gzip file" "$bin" check --json "$tmp/cut.gz"
zstd -q -c "$corpus/vg-recurse-default.callgrind" | head -c 20000 >"$tmp/cut.zst"
same "annotate on a truncated zstd file" "$bin" annotate "$tmp/cut.zst"
same "check --json on the big file" "$bin" check --json "$big_gz"
# merge decodes each compressed input on a thread of its own.
# (Under the sanitizers a gzip of the file that the zstd one is: files of one producer.)
small=$corpus/vg-gxx-small-default.cc1plus.callgrind
merge_gz=$corpus/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz
if [ -n "${CALLTREE_TEST_MAX_BYTES:-}" ]; then
  small=$corpus/vg-recurse-default.callgrind
  merge_gz=$tmp/recurse.gz
  gzip -c "$small" >"$merge_gz"
fi
zstd -q -c "$small" >"$tmp/small.zst"
same "merge -o - of a gzip and a zstd file" "$bin" merge -o - "$merge_gz" "$tmp/small.zst"

echo "$checked comparisons"
if [ $fail -ne 0 ]; then exit 1; fi
echo "ok: every --threads gives identical output"
