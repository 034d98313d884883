#!/usr/bin/env bash
# The options of every command (--max-memory, --color: docs/cli.md, "Options of every command")
# stand before the command's name as well as after it, with the same effect and the same
# output; an unknown option before the command is a usage error in `calltree`'s own words.
set -uo pipefail
bin=$(realpath "$1")
corpus=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
f=$corpus/vg-recurse-default.callgrind
big=$corpus/vg-gxx-small-default.cc1plus.callgrind  # (its names take more than 64K)

# same DESCRIPTION "ARGS BEFORE" "ARGS AFTER": both runs give the same stdout, stderr and status.
same() {
  local what=$1
  "$bin" $2 >"$tmp/out1" 2>"$tmp/err1"
  local rc1=$?
  "$bin" $3 >"$tmp/out2" 2>"$tmp/err2"
  local rc2=$?
  if [[ $rc1 != "$rc2" ]]; then
    echo "FAIL: $what: exit $rc1 ($2) but $rc2 ($3)"; head -3 "$tmp/err1"; fail=1
  elif ! cmp -s "$tmp/out1" "$tmp/out2" || ! cmp -s "$tmp/err1" "$tmp/err2"; then
    echo "FAIL: $what: the outputs differ"; diff "$tmp/err1" "$tmp/err2" | head -5; fail=1
  elif [[ ! -s $tmp/out1 ]]; then
    echo "FAIL: $what: no output"; head -3 "$tmp/err1"; fail=1
  else
    echo "ok: $what (exit $rc1)"
  fi
}

same "--max-memory before check" "--max-memory=1G check $f" "check --max-memory=1G $f"
same "--max-memory SIZE before check" "--max-memory 1G check $f" "check $f --max-memory 1G"
same "--color=never before annotate" "--color=never annotate $f" "annotate --color=never $f"
same "both before annotate --json" "--max-memory=1G --color=never annotate --json $f" \
  "annotate --json $f --color=never --max-memory=1G"
same "--color before dump" "--color always dump $f" "dump $f --color=always"

# The limit takes effect from before the command: the read stops, status 1, limit-exceeded.
"$bin" --max-memory=64K check "$big" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [[ $rc == 1 ]] && grep -q "limit-exceeded" "$tmp/err" && grep -q "reading stopped early" "$tmp/out"; then
  echo "ok: --max-memory=64K before check stops the read"
else
  echo "FAIL: --max-memory=64K before check: exit $rc"; head -3 "$tmp/err"; fail=1
fi
same "--max-memory=64K before check" "--max-memory=64K check $big" "check --max-memory=64K $big"
# And --color=always before the command colours the diagnostics written to a file.
"$bin" --color=always check --max-memory=64K "$big" >/dev/null 2>"$tmp/err"
grep -qF $'\x1b[' "$tmp/err" && echo "ok: --color=always before check colours" ||
  { echo "FAIL: --color=always before check: no colour"; fail=1; }

# expect_error DESCRIPTION PATTERN ARGS...: exit status 2 and PATTERN on stderr.
expect_error() {
  local what=$1 pattern=$2
  shift 2
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc == 2 ]] && grep -qF -- "$pattern" "$tmp/err" && [[ ! -s $tmp/out ]]; then
    echo "ok: $what"
  else
    echo "FAIL: $what: exit $rc, stderr:"; head -3 "$tmp/err"; fail=1
  fi
}
expect_error "unknown option before the command" \
  "calltree: unknown option '--colour' (see 'calltree --help')" --colour=never check "$f"
expect_error "bad --max-memory before the command" \
  "--max-memory needs a size such as 512M or 4G, not 'lots'" --max-memory=lots check "$f"
expect_error "bad --color before the command" "--color takes auto, always or never, not 'red'" \
  --color=red check "$f"
expect_error "--color without its value before the command" "option '--color' needs a value" \
  --color
expect_error "an unknown command after a good option" "calltree: unknown command 'chek'" \
  --color=never chek "$f"
# A value of a command's flag that looks like an option of every command stays the flag's.
(cd "$tmp" && "$bin" convert -o --color=never "$f" 2>"$tmp/err")
if [[ -s "$tmp/--color=never" ]]; then echo "ok: -o takes '--color=never' as its file"; else
  echo "FAIL: -o --color=never"; head -3 "$tmp/err"; fail=1; fi
# `calltree --color=never --help` is calltree's help.
"$bin" --color=never --help >"$tmp/out" 2>&1
grep -q "^Usage: calltree COMMAND" "$tmp/out" && echo "ok: --help after an option" ||
  { echo "FAIL: --color=never --help"; fail=1; }
exit $fail
