#!/usr/bin/env bash
# --color=auto|always|never and NO_COLOR (docs/cli.md): diagnostics are coloured on a terminal
# (auto), never in a pipe or file, not with NO_COLOR set (non-empty) or TERM=dumb, always
# with --color=always (which wins over NO_COLOR), never with --color=never. `script` gives
# the runs a terminal.
set -uo pipefail
bin=$1
corpus=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
src=$corpus/vg-recurse-default.callgrind
{ sed -n '1,/^fn=/p' "$src"; echo "bogus=1"; sed -n '/^fn=/,$p' "$src" | tail -n +2; } >"$tmp/warn.callgrind"
esc=$'\x1b[1;35m'  # the colour of "warning"

# coloured WHERE(file|tty) EXPECTED(yes|no) ENV... -- ARGS...
coloured() {
  local where=$1 want=$2
  shift 2
  local envs=()
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  if [[ $where == tty ]]; then
    # stderr is the terminal `script` makes; its typescript holds what was written to it.
    env "${envs[@]}" script -qec "$(printf '%q ' "$bin" "$@") >/dev/null" "$tmp/typescript" >/dev/null 2>&1
    out=$tmp/typescript
  else
    env "${envs[@]}" "$bin" "$@" >/dev/null 2>"$tmp/err"
    out=$tmp/err
  fi
  local got=no
  grep -qF "$esc" "$out" && got=yes
  grep -q "unknown-key" "$out" || { echo "FAIL: no diagnostic at all ($where ${envs[*]} $*)"; fail=1; return; }
  if [[ $got == "$want" ]]; then echo "ok: $where ${envs[*]} $* -> colour $want"; else
    echo "FAIL: $where ${envs[*]} $*: colour $got, expected $want"; fail=1; fi
}
coloured file no  TERM=xterm -- check "$tmp/warn.callgrind"
coloured file yes TERM=xterm -- check --color=always "$tmp/warn.callgrind"
coloured file yes TERM=xterm -- --color=always check "$tmp/warn.callgrind"
coloured tty  yes TERM=xterm -- check "$tmp/warn.callgrind"
coloured tty  yes TERM=xterm -- check --color=auto "$tmp/warn.callgrind"
coloured tty  no  TERM=xterm NO_COLOR=1 -- check "$tmp/warn.callgrind"
coloured tty  yes TERM=xterm NO_COLOR= -- check "$tmp/warn.callgrind"
coloured tty  no  TERM=dumb -- check "$tmp/warn.callgrind"
coloured tty  no  TERM=xterm -- check --color=never "$tmp/warn.callgrind"
coloured file yes TERM=xterm NO_COLOR=1 -- check --color=always "$tmp/warn.callgrind"
coloured tty  no  TERM=xterm -- convert --color never "$tmp/warn.callgrind" -o "$tmp/out.callgrind"
"$bin" check --color=sometimes "$tmp/warn.callgrind" >/dev/null 2>"$tmp/err"
rc=$?
[[ $rc == 2 ]] && grep -q "color takes auto, always or never" "$tmp/err" && echo "ok: --color=sometimes is a usage error" ||
  { echo "FAIL: --color=sometimes: exit $rc"; fail=1; }
# The progress line: only on a terminal (never in the file stderr is written to).
"$bin" check --threads=1 "$src" >/dev/null 2>"$tmp/err"
grep -q "reading" "$tmp/err" && { echo "FAIL: a progress line in a file"; fail=1; } || echo "ok: no progress line off a terminal"
exit $fail
