#!/usr/bin/env bash
# Out of memory on a thread other than the main one is an error or a slower way to the same
# output, never a crash and never other output.
#
# tests/tools/failing_malloc.cc (LD_PRELOAD) lets the threads a command starts (the chunks
# read ahead, the decoders, json's row writer, export's formatting and compressing threads)
# make N allocations and fails every one after, while the main thread allocates as ever. Each
# command runs on the corpus's largest profile, mapped, piped, as zstd and as gzip, for N
# from 0 to more than the threads ever make. Every run must end with exit status 0 and the
# output of a run without the limit (a thread that ran out left its work to the main one), or
# 2 and "calltree: error: out of memory", or 1 and the input's out-of-memory error (a decoder
# that ran out) — and no output file. Never a signal: before, a handler that made its message
# in a std::string on the decoding thread ended the process (std::terminate), as did
# ulimit -v in tests/cli/out_of_memory.sh now and then. Some runs must run out and some
# must not, or the limits test nothing.
set -uo pipefail
bin=$1
corpus=$2
lib=${CALLTREE_FAILING_MALLOC:-}
if [ ! -f "$lib" ]; then
  echo "FAIL: CALLTREE_FAILING_MALLOC names no library ('$lib'): see tests/CMakeLists.txt"
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ran_out=0
succeeded=0

big=$tmp/big.callgrind
gzip -dc "$corpus/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz" >"$big"
cp "$corpus/vg-gxx-big-instr-jumps.cc1plus.callgrind.gz" "$big.gz"
inputs=("$big" "-" "$big.gz")
if command -v zstd >/dev/null; then
  zstd -q -3 "$big" -o "$big.zst"
  inputs+=("$big.zst")
fi

commands=(
  "annotate --auto=no"
  "check"
  "export --to=json"
  "export --to=pprof"
  "export --to=folded"
)

n_values=(0 1 2 3 5 8 13 21 34 55 89 144 233 377 610 987 1597 2584 4181 10946 100000)
for input in "${inputs[@]}"; do
  for c in "${commands[@]}"; do
    read -r -a words <<<"$c"
    is_export=0
    [ "${words[0]}" = export ] && is_export=1
    # The output without a limit.
    ref=$tmp/ref
    rm -f "$ref"
    if [ $is_export = 1 ]; then
      cmd=("$bin" "${words[@]}" --threads=2 -o "$ref")
    else
      cmd=("$bin" "${words[@]}" --threads=2)
    fi
    if [ "$input" = - ]; then
      "${cmd[@]}" - <"$big" >"$ref.stdout" 2>"$tmp/err"
    else
      "${cmd[@]}" "$input" >"$ref.stdout" 2>"$tmp/err"
    fi
    rc=$?
    if [ $rc -ne 0 ]; then
      echo "FAIL: $c ${input##*/} without a limit: exit $rc"
      tail -3 "$tmp/err"
      fail=1
      continue
    fi
    [ $is_export = 1 ] || mv "$ref.stdout" "$ref"
    for n in "${n_values[@]}"; do
      out=$tmp/out
      rm -f "$out" "$out.stdout"
      if [ $is_export = 1 ]; then
        cmd=("$bin" "${words[@]}" --threads=2 -o "$out")
      else
        cmd=("$bin" "${words[@]}" --threads=2)
      fi
      if [ "$input" = - ]; then
        LD_PRELOAD=$lib CALLTREE_FAIL_AFTER=$n "${cmd[@]}" - <"$big" >"$out.stdout" 2>"$tmp/err"
      else
        LD_PRELOAD=$lib CALLTREE_FAIL_AFTER=$n "${cmd[@]}" "$input" >"$out.stdout" 2>"$tmp/err"
      fi
      rc=$?
      [ $is_export = 1 ] || mv "$out.stdout" "$out"
      what="$c ${input##*/} with threads failing after $n allocations"
      if [ $rc -eq 0 ]; then
        succeeded=$((succeeded + 1))
        if ! cmp -s "$ref" "$out"; then
          echo "FAIL: $what: exit 0 and other output than without the limit"
          fail=1
        fi
        continue
      fi
      if [ $rc -eq 2 ] && grep -q '^calltree: error: out of memory$' "$tmp/err"; then
        ran_out=$((ran_out + 1))
      elif [ $rc -eq 1 ] && grep -q 'error: out of memory.*\[io-error\]' "$tmp/err"; then
        ran_out=$((ran_out + 1))
      else
        echo "FAIL: $what: exit $rc"
        tail -3 "$tmp/err"
        fail=1
      fi
      if [ $is_export = 1 ] && [ -e "$out" ]; then
        echo "FAIL: $what: exit $rc and an output file left"
        fail=1
      fi
    done
  done
done

echo "out_of_memory_on_threads: $succeeded runs succeeded, $ran_out ran out of memory"
if [ $ran_out -eq 0 ] || [ $succeeded -eq 0 ]; then
  echo "FAIL: the limits must make some runs fail and let some succeed"
  fail=1
fi
exit $fail
