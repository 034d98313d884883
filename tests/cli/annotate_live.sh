#!/usr/bin/env bash
# annotate_live.sh — `calltree annotate` against callgrind_annotate 3.19 run live: source
# annotation with the corpus's real sources, trees, options, small generated profiles, the
# default profile name, and `alias callgrind_annotate='calltree annotate'` in a script.
# Outputs are compared after annotate_sections.py, which only reorders what Perl prints in
# hash order (annotated files, equal-cost tree lines).
set -u
CALLTREE=$(realpath "$1")
CORPUS=$(realpath "$2")
HERE=$(dirname "$(realpath "$0")")
NORM="python3 $HERE/annotate_sections.py"
if ! command -v callgrind_annotate >/dev/null; then
  echo "callgrind_annotate not installed; skipping"
  exit 0
fi
export PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0
fail=0
pass=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

same() {  # description, then the argument list for both tools ("--raw" only for calltree)
  local what=$1
  shift
  local perl_args=()
  for a in "$@"; do [ "$a" = --raw ] || perl_args+=("$a"); done
  callgrind_annotate "${perl_args[@]}" >"$tmp/perl" 2>/dev/null
  "$CALLTREE" annotate "$@" >"$tmp/ours" 2>"$tmp/err"
  if diff <($NORM "$tmp/ours") <($NORM "$tmp/perl") >"$tmp/diff"; then
    pass=$((pass + 1))
  else
    echo "FAIL: $what: calltree annotate $*"
    head -20 "$tmp/diff"
    fail=$((fail + 1))
  fi
}

# Real sources from the corpus (run from the corpus folder: the profiles say ./src/...).
cd "$CORPUS" || exit 2
same "auto-annotation, C" vg-recurse-default.callgrind
same "auto-annotation, C++ with inlined headers" vg-wordfreq-cxx-O2g-default.callgrind
same "trees" --tree=both vg-threads-separate.t01.callgrind
same "caller tree, inclusive, raw" --tree=caller --inclusive=yes --raw vg-phases-instr-jumps-nocompress-pos.callgrind
same "both trees, inclusive, no recursion" --tree=both --inclusive=yes --auto=no vg-gxx-small-default.as.callgrind
same "context 2, no percentages" --context=2 --show-percs=no vg-phases-toggle-collect.callgrind
same "context 0" --context=0 vg-recurse-default.callgrind
same "show/sort/threshold" --show=Dr,Ir --sort=Dr --threshold=90 vg-sqlite3-workload-cache-branch-sim.callgrind
same "per-event thresholds" --sort=Ir:50,Bcm:30 --auto=no vg-sqlite3-workload-cache-branch-sim.callgrind
same "threshold 100" --threshold=100 --auto=no vg-threads-collect-bus.callgrind
same "user-annotated file" --auto=no vg-recurse-default.callgrind src/c/recurse.c
same "user file + include dir" --auto=no --include=src/c vg-phases-toggle-collect.callgrind phases.c
same "include dir with =" --auto=no -I=src/c/ vg-phases-toggle-collect.callgrind phases.c
same "instr-level profile annotates through its lines" vg-phases-instr-jumps-nocompress-pos.callgrind
same "raw inclusive under recursion" --inclusive=yes --raw --auto=no vg-recurse-default.callgrind
same "xdebug (files not found)" --auto=yes xdebug-recursion.callgrind

# Generated profiles: explicit zeros vs omitted costs ("." columns), inlined code, a file
# with lines past its end, counts for line 0.
mkdir -p "$tmp/gen" && cd "$tmp/gen" || exit 2
printf 'int a;\nint b;\nint c;\n' >short.c
cat >gen1.callgrind <<'EOF'
# callgrind format
version: 1
creator: test
pid: 7
cmd:  ./gen 1
part: 1
positions: line
events: Ir Dr Dw
summary: 181 12 3
fl=(1) short.c
fn=(1) main
1 5 1
2 3 0 0
0 4
9 100 2
cfn=(2) helper
calls=2 20
2 40 8 3
fi=(2) inl.h
4 20 1
fe=(1)
3 9
fl=(2) other.c
fn=(2)
20 40 8 3
totals: 181 12 3
EOF
printf '#define X 1\n\n\nstatic inline int f(void) { return X; }\n' >inl.h
same "generated: dots, zeros, inlined, bogus lines" gen1.callgrind
same "generated: trees" --tree=both gen1.callgrind
same "generated: inclusive" --inclusive=yes gen1.callgrind
# Default profile: the first callgrind.out* in the current directory.
cp gen1.callgrind callgrind.out.99
same "default profile name" --auto=no

# The alias works as a drop-in in a shell script.
cat >"$tmp/script.sh" <<EOF
shopt -s expand_aliases
[ -n "\${USE_CALLTREE:-}" ] && alias callgrind_annotate='$CALLTREE annotate'
cd "$CORPUS"
callgrind_annotate --auto=no --threshold=95 vg-threads-separate.t02.callgrind | head -30
callgrind_annotate --tree=caller vg-recurse-default.callgrind | grep -c ' < '
callgrind_annotate --show=Ir --sort=Ir vg-ls-R-nocompress.callgrind > "$tmp/alias-\${USE_CALLTREE:-perl}.txt"
EOF
bash "$tmp/script.sh" >"$tmp/alias-perl" 2>/dev/null
USE_CALLTREE=1 bash "$tmp/script.sh" >"$tmp/alias-ours" 2>/dev/null
if cmp -s "$tmp/alias-perl" "$tmp/alias-ours" &&
  diff <($NORM "$tmp/alias-1.txt") <($NORM "$tmp/alias-perl.txt") >/dev/null; then
  pass=$((pass + 1))
else
  echo "FAIL: alias callgrind_annotate='calltree annotate' gives other output"
  diff "$tmp/alias-perl" "$tmp/alias-ours" | head
  fail=$((fail + 1))
fi
grep -q ' < ' "$tmp/alias-ours" 2>/dev/null || true

echo "annotate_live: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
