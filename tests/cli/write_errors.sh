#!/usr/bin/env bash
# write_errors.sh CALLTREE CORPUS — output that cannot be written.
#
# Every command writing to a standard output that fails (/dev/full: ENOSPC), to `-o /dev/full`,
# and (as root, in a mount namespace of its own) to `-o` on a full 64 KiB tmpfs: exit 2, the
# reason on stderr ("No space left on device"), no output file and no temporary file left.
# A reader that goes away (`| head -c 10`) is a quiet end: the exit status of a whole write,
# no error message.
set -uo pipefail
bin=$1
corpus=$2
# inputs CORPUS: sets in and other, the files written from. Under the sanitizers
# (CALLTREE_TEST_MAX_BYTES) files of that size, whose outputs still fill a 64 KiB file system
# and a pipe: the same writes fail (with the 3 MB ones the test took 269 s under ASan).
inputs() {
  in=$1/vg-gxx-small-default.cc1plus.callgrind
  other=$1/vg-python-work-instr-jumps.callgrind
  if [ -n "${CALLTREE_TEST_MAX_BYTES:-}" ]; then
    in=$1/vg-sqlite3-workload-cache-branch-sim.callgrind
    other=$1/vg-perl-work-systime.callgrind
  fi
}
inputs "$corpus"
fail=0
say_fail() { echo "FAIL: $*"; fail=1; }

# full NAME ARGS...: the command fails with exit 2 and the reason (with its standard output on
# /dev/full when $stdout_full is 1).
stdout_full=0
full() {
  local name=$1
  shift
  local rc=0
  if [ $stdout_full = 1 ]; then
    timeout 120 "$bin" "$@" 2>"$tmp/err" >/dev/full || rc=$?
  else
    timeout 120 "$bin" "$@" 2>"$tmp/err" || rc=$?
  fi
  if [ "$rc" != 2 ]; then
    say_fail "$name: exit $rc, expected 2"; tail -3 "$tmp/err"
  elif ! grep -q "No space left on device" "$tmp/err"; then
    say_fail "$name: no reason:"; tail -3 "$tmp/err"
  else
    echo "ok: $name"
  fi
}

if [ "${1:-}" = --full-tmpfs ]; then
  # (Run again by the part below, in a mount namespace of its own: the tmpfs goes with it.)
  bin=$2; corpus=$3; tmp=$4; mnt=$tmp/full
  inputs "$corpus"
  mkdir -p "$mnt"
  mount -t tmpfs -o size=64k tmpfs "$mnt" || { echo "SKIP: cannot mount a tmpfs"; exit 0; }
  for args in "convert $in" "merge $in $other" "export --to=folded $in" "export --to=json $in" \
              "export --to=pprof $in" "export --to=svg $in" "report --html $in"; do
    # shellcheck disable=SC2086
    full "full tmpfs: $args -o" $args -o "$mnt/out"
    if [ -n "$(ls -A "$mnt")" ]; then say_fail "full tmpfs: $args: left $(ls -A "$mnt")"; rm -f "$mnt"/* "$mnt"/.[!.]*; fi
  done
  umount "$mnt"
  exit $fail
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Standard output on /dev/full.
stdout_full=1
while IFS= read -r args; do
  # shellcheck disable=SC2086
  full "stdout /dev/full: $args" $args
done <<EOF
check $in
check --json $in
annotate $in
annotate --auto=no --threads=1 $in
annotate --json $in
annotate --inclusive=yes --tree=caller $in
convert $in
dump --records $in
diff $in $other
diff --json $in $other
merge $in $other -o -
export --to=folded $in -o -
export --to=json $in -o -
export --to=speedscope $in -o -
serve --port=0 $in
--help
check --help
--version
EOF
stdout_full=0

# -o on /dev/full (a device, written in place).
for args in "convert $in" "merge $in $other" "export --to=folded $in" "export --to=pprof $in" \
            "export --to=json $in" "report --html $in"; do
  # shellcheck disable=SC2086
  full "-o /dev/full: $args" $args -o /dev/full
done

# A full file system, where one can be made (root, and a mount namespace of its own).
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
  unshare -m bash "$0" --full-tmpfs "$bin" "$corpus" "$tmp" || fail=1
else
  echo "SKIP: a full file system (not root, or no mount namespace): /dev/full only"
fi

# A reader that goes away: a quiet end, the status of a whole write.
for args in "annotate $in" "check $in" "convert $in" "dump --records $in" "diff $in $other" \
            "merge $in $other -o -" "export --to=folded $in -o -"; do
  # shellcheck disable=SC2086
  want=0; "$bin" $args >/dev/null 2>&1 || want=$?
  # shellcheck disable=SC2086
  ("$bin" $args 2>"$tmp/err"; echo $? >"$tmp/rc") | head -c 10 >/dev/null
  got=$(cat "$tmp/rc")
  if [ "$got" != "$want" ]; then
    say_fail "| head: $args: exit $got, $want without the pipe"
  elif grep -q "error writing\|Broken pipe" "$tmp/err"; then
    say_fail "| head: $args: says:"; cat "$tmp/err"
  else
    echo "ok: | head: $args"
  fi
done
exit $fail
