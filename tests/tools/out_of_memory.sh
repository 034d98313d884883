# tests/tools/out_of_memory.sh — sourced by tests/cli/out_of_memory.sh and
# out_of_memory_on_threads.sh: how a run that runs out of memory must end, and the counts.
#
# ended_well RC ERR WHAT: true (and counted) if a run that ended with status RC and standard
# error in file ERR succeeded (0) or ran out of memory as it should: 2 and
# "calltree: error: out of memory", or 1 and the input's out-of-memory error (a decoder that
# ran out: the input is not read to its end). Else prints "FAIL: WHAT: exit RC" and the
# error's last lines, and sets fail=1.
# shellcheck shell=bash
succeeded=0
ran_out=0
fail=0
ended_well() {
  local rc=$1 err=$2 what=$3
  if [ "$rc" -eq 0 ]; then
    succeeded=$((succeeded + 1))
  elif [ "$rc" -eq 2 ] && grep -q '^calltree: error: out of memory$' "$err"; then
    ran_out=$((ran_out + 1))
  elif [ "$rc" -eq 1 ] && grep -q 'error: out of memory.*\[io-error\]' "$err"; then
    ran_out=$((ran_out + 1))
  else
    echo "FAIL: $what: exit $rc"
    tail -3 "$err"
    fail=1
    return 1
  fi
}

# The counts, and a failure if the limits made no run fail or none succeed (they test nothing).
# The test's exit status.
verdict() {
  echo "$1: $succeeded runs succeeded, $ran_out ran out of memory"
  if [ $ran_out -eq 0 ] || [ $succeeded -eq 0 ]; then
    echo "FAIL: the limits must make some runs fail and let some succeed"
    fail=1
  fi
  return $fail
}

# big_inputs CORPUS DIR [FILE]: a corpus profile (FILE, or the largest) unpacked into
# DIR/big.callgrind (any of more than two 128 KiB chunks takes the parallel path), and as zstd
# beside it (decoded on a thread of its own) when zstd is installed: their paths in `inputs`.
big_inputs() {
  local file=${3:-vg-gxx-big-instr-jumps.cc1plus.callgrind.gz}
  if [ "${file%.gz}" != "$file" ]; then
    gzip -dc "$1/$file" >"$2/big.callgrind"
  else
    cp "$1/$file" "$2/big.callgrind"
  fi
  inputs=("$2/big.callgrind")
  if command -v zstd >/dev/null; then
    zstd -q -3 "$2/big.callgrind" -o "$2/big.callgrind.zst"
    inputs+=("$2/big.callgrind.zst")
  fi
}
