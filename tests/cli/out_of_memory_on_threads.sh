#!/usr/bin/env bash
# Out of memory on a thread other than the main one is an error or a slower way to the same
# output, never a crash and never other output.
#
# tests/tools/failing_malloc.cc (LD_PRELOAD) lets the threads a command starts (the chunks read
# ahead, the decoders, json's row writer, export's formatting and compressing threads) make N
# allocations and fails every one after, while the main thread allocates as ever. Each command
# runs on a 3 MB profile with instructions and jumps (24 chunks of the parallel path: the
# threads' every kind of work, in a fifth of the time the 24 MB one took), mapped, piped, as
# zstd and as gzip, for N from 0 to more than the threads ever make. Every run must end with
# exit status 0 and the output of a run without the limit (a thread that ran out left its work
# to the main one), or 2 and "calltree: error: out of memory", or 1 and the input's
# out-of-memory error (a decoder that ran out) — and no output file. Never a signal: before, a
# handler that made its message in a std::string on the decoding thread ended the process
# (std::terminate), as did ulimit -v in tests/cli/out_of_memory.sh now and then. Some runs must
# run out and some must not, or the limits test nothing.
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
# shellcheck source-path=SCRIPTDIR source=../tools/out_of_memory.sh
. "$(dirname "$0")/../tools/out_of_memory.sh"

big_inputs "$corpus" "$tmp" vg-python-work-instr-jumps.callgrind
big=$tmp/big.callgrind
gzip -c "$big" >"$big.gz"
inputs+=("-" "$big.gz")

commands=(
  "annotate --auto=no"
  "check"
  "export --to=json"
  "export --to=pprof"
  "export --to=folded"
)

# run OUT [VAR=VALUE...]: the command ("${words[@]}", on two threads) on $input ("-": the plain
# file on a pipe) with those variables in its environment; its output (-o for export, else
# standard output) in OUT, its standard error in $tmp/err; its exit status.
run() {
  local out=$1
  shift
  local cmd=("$bin" "${words[@]}" --threads=2) stdout=$out
  if [ "${words[0]}" = export ]; then
    cmd+=(-o "$out")
    stdout=/dev/null
  fi
  if [ "$input" = - ]; then
    env "$@" "${cmd[@]}" - <"$big" >"$stdout" 2>"$tmp/err"
  else
    env "$@" "${cmd[@]}" "$input" >"$stdout" 2>"$tmp/err"
  fi
}

n_values=(0 1 2 3 5 8 13 34 89 233 610 1597 4181 10946 100000)
for input in "${inputs[@]}"; do
  for c in "${commands[@]}"; do
    read -r -a words <<<"$c"
    ref=$tmp/ref
    rm -f "$ref"
    run "$ref"
    rc=$?
    if [ $rc -ne 0 ]; then
      echo "FAIL: $c ${input##*/} without a limit: exit $rc"
      tail -3 "$tmp/err"
      fail=1
      continue
    fi
    for n in "${n_values[@]}"; do
      out=$tmp/out
      rm -f "$out"
      run "$out" LD_PRELOAD="$lib" CALLTREE_FAIL_AFTER="$n"
      rc=$?
      what="$c ${input##*/} with threads failing after $n allocations"
      ended_well $rc "$tmp/err" "$what"
      if [ $rc -eq 0 ]; then
        if ! cmp -s "$ref" "$out"; then
          echo "FAIL: $what: exit 0 and other output than without the limit"
          fail=1
        fi
      elif [ "${words[0]}" = export ] && [ -e "$out" ]; then
        echo "FAIL: $what: exit $rc and an output file left"
        fail=1
      fi
    done
  done
done

verdict out_of_memory_on_threads
