#!/usr/bin/env bash
# input_changed.sh CALLTREE CORPUS — a profile that shrinks, vanishes or grows while it is read.
#
# tests/tools/shrinking_file.cc (preloaded; its path in CALLTREE_SHRINKING_FILE) truncates the
# file at an exact moment: after the process's first read of it (or its mapping). Every command
# that reads a file, on one thread and on two, plain, gzip and zstd: a file that shrinks or is
# emptied ends with `FILE: error: the file changed while it was read [input-changed]` and exit
# 1, never a signal, and no -o file; a file that grows is read to the size it had at the start,
# with an `input-grew` warning, and gives what the unchanged file gives.
set -uo pipefail
bin=$1
corpus=$2
shim=${CALLTREE_SHRINKING_FILE:?the path of the shrinking_file library}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say_fail() { echo "FAIL: $*"; fail=1; }

base=$corpus/vg-gxx-small-default.cc1plus.callgrind  # 3.3 MB: several 1 MiB blocks
other=$corpus/vg-python-work-instr-jumps.callgrind
size=$(stat -c %s "$base")

# make_input KIND: $tmp/in.KIND, a fresh copy (the previous run changed it).
make_input() {
  case $1 in
    plain) cp "$base" "$tmp/in.plain" ;;
    gz) gzip -c "$base" > "$tmp/in.gz" ;;
    zst) zstd -q -c "$base" > "$tmp/in.zst" ;;
  esac
  chmod u+w "$tmp/in.$1"
}

# changed KIND TO NAME ARGS... (the input's path is @IN@ among ARGS; -o's is @OUT@): runs the
# command while the input is cut to TO bytes after its first read.
changed() {
  local kind=$1 to=$2 name=$3
  shift 3
  make_input "$kind"
  local in=$tmp/in.$kind out=$tmp/out.$name
  rm -f "$out"
  local args=() a
  for a in "$@"; do a=${a//@IN@/$in}; args+=("${a//@OUT@/$out}"); done
  local rc=0
  LD_PRELOAD=$shim CALLTREE_CHANGE_FILE=$in CALLTREE_CHANGE_TO=$to \
    timeout 120 "$bin" "${args[@]}" >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
  local what="$name ($kind, cut to $to bytes)"
  if [ "$rc" -ge 128 ]; then
    say_fail "$what: ended by a signal (exit $rc)"; tail -3 "$tmp/stderr"; return
  fi
  if [ "$rc" != 1 ]; then say_fail "$what: exit $rc, expected 1"; tail -3 "$tmp/stderr"; return; fi
  if ! grep -qxF "$in: error: the file changed while it was read [input-changed]" "$tmp/stderr"; then
    say_fail "$what: no input-changed error:"; tail -5 "$tmp/stderr"; return
  fi
  if [ -e "$out" ]; then say_fail "$what: the -o file was written"; return; fi
  if ls -A "$tmp" | grep -q 'calltree-'; then say_fail "$what: a temporary file was left"; return; fi
  echo "ok: $what"
}

for kind in plain gz zst; do
  for to in $((size / 3)) 0; do
    [ "$kind" != plain ] && to=$((to / 40))  # (compressed: about a tenth of the size)
    for threads in 1 2; do
      changed $kind $to "check-t$threads" check --threads=$threads @IN@
      changed $kind $to "annotate-t$threads" annotate --auto=no --threads=$threads @IN@
      changed $kind $to "export-json-t$threads" export --to=json --threads=$threads @IN@ -o @OUT@
    done
    changed $kind $to "annotate-inclusive" annotate --inclusive=yes --tree=caller @IN@
    changed $kind $to "convert" convert @IN@ -o @OUT@
    changed $kind $to "dump" dump --records @IN@
    changed $kind $to "diff-old" diff @IN@ "$other"
    changed $kind $to "diff-new" diff "$other" @IN@
    changed $kind $to "merge" merge @IN@ "$other" -o @OUT@
    changed $kind $to "export-folded" export --to=folded @IN@ -o @OUT@
    changed $kind $to "report" report --html @IN@ -o @OUT@
    changed $kind $to "serve" serve --port=0 @IN@
  done
done

# A file that grows: read to its size at the start, with a warning; the same summary.
for kind in plain gz zst; do
  for threads in 1 2; do
    make_input $kind
    in=$tmp/in.$kind
    "$bin" check --threads=$threads "$in" >"$tmp/want" 2>/dev/null
    rc=0
    LD_PRELOAD=$shim CALLTREE_CHANGE_FILE=$in CALLTREE_CHANGE_TO=$(($(stat -c %s "$in") + 5000)) \
      "$bin" check --threads=$threads "$in" >"$tmp/got" 2>"$tmp/stderr" || rc=$?
    what="grows ($kind, $threads threads)"
    if [ "$rc" != 0 ]; then
      say_fail "$what: exit $rc"; tail -3 "$tmp/stderr"
    elif ! grep -q "^$in: warning: the file grew while it was read: it was read to the $(($(stat -c %s "$in") - 5000)) bytes it had when opened, what was added after is not read \[input-grew\]$" "$tmp/stderr"; then
      say_fail "$what: no input-grew warning:"; cat "$tmp/stderr"
    elif ! sed 's/0 errors, 1 warnings/0 errors, 0 warnings/' "$tmp/got" | cmp -s - "$tmp/want"; then
      say_fail "$what: another summary:"; diff "$tmp/want" "$tmp/got"
    else
      echo "ok: $what"
    fi
  done
done
exit $fail
