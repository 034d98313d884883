#!/usr/bin/env bash
# run.sh BASE NEW [CORPUS] — every command's output, byte for byte, of two builds of calltree:
# BASE (a git revision, built here; or the path of a calltree binary) against NEW (the binary
# under test). The proof that a change meant to keep every output (a refactor, a speed-up)
# kept them: stdout, stderr, exit status and every file written are compared.
#
# The reference. CI runs `make same-outputs`: `run.sh "$(cat tests/same_outputs/BASE)"
# build/calltree CORPUS`. BASE names the commit whose outputs are the reference: a hash, or the
# word `self`, which stands for the last commit that wrote BASE (git log -1 -- BASE).
# * A commit that keeps every output leaves BASE alone.
# * A commit that changes outputs on purpose (a fix, a new column) writes `self` into BASE, in
#   that same commit, and says in its message which outputs changed and why: that commit is
#   then the reference, for itself (compared with itself) and for every commit after it. It may
#   be replaced by the commit's hash later; `self` survives rebases, a hash does not.
# A difference is never waved through here: there is no list of expected differences.
#
# Building BASE: `git archive REV` into $SAME_OUTPUTS_DIR (default build-same-outputs/ beside
# the build), configured as `make build` configures (Ninja, ccache, warnings as errors, the
# Makefile's TESTED_CONFIG: Release with line tables; the web front end if npm is there), only
# the calltree binary, tests off. Kept between runs: a second
# run with the same REV builds nothing. With ccache warm (CI built the same objects the day
# before, or this machine built REV) it takes seconds; from an empty cache a few minutes.
#
# What is run, on every profile of CORPUS (its *.callgrind, *.cachegrind, *.gz), every
# tests/golden/*/input* and tests/malformed/* input, and the bundled examples:
#   check (text, --json, --threads=1 and 2), dump --records, convert (compressed names and
#   positions on and off), annotate (default, from a folder with no sources; --auto=yes with the
#   corpus's sources; --auto=no --inclusive=yes; --tree=both; --json; --threads=1 and 2; --raw
#   and --part=1 with inclusive costs),
#   export --to=pprof (gzip: its bytes decompressed; --addresses=yes too), folded, speedscope,
#   chrome, dot, flamegraph, json, report --html (the data the page embeds: serve's API answers
#   for the views; the front end's own bytes are not compared), and diff and merge of each
#   profile with the next one of the list.
# And, as tests/release/same_build.sh does, the corpus's 24 MB instr-level profile as a plain,
# mapped file and as zstd (the parallel reader's chunked paths), on one thread and two.
#
# Time: 2,369 commands run by both binaries, 398 s with two workers in a run of .ci/run from an
# empty ccache on the 2-core machine (2026-11-28), plus the base's build: 121 s there, with the
# objects `make test` had put in the cache for the files the base shares with it.
#
# Environment: SAME_OUTPUTS_DIR (where BASE is built), JOBS (build parallelism, default nproc),
# SAME_OUTPUTS_JOBS (comparisons run at once, default nproc).
set -uo pipefail

if [ $# -lt 2 ]; then
  echo "usage: tests/same_outputs/run.sh BASE-REVISION|BASE-BINARY NEW-BINARY [CORPUS]" >&2
  exit 2
fi
base=$1
new=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${3:-$root/tests/corpus}
[ -d "$corpus" ] && corpus=$(cd "$corpus" && pwd)
new=$(cd "$(dirname "$new")" && pwd)/$(basename "$new")
[ -x "$new" ] || { echo "same_outputs: $new is not an executable" >&2; exit 2; }
start=$(date +%s)

# ---- the base binary ----------------------------------------------------------------------
if [ "$base" = self ]; then
  base=$(git -C "$root" log -1 --format=%H -- tests/same_outputs/BASE)
  [ -n "$base" ] || { echo "same_outputs: BASE says self, but no commit wrote it" >&2; exit 2; }
fi
if [ -f "$base" ] && [ -x "$base" ]; then
  old=$(cd "$(dirname "$base")" && pwd)/$(basename "$base")
else
  rev=$(git -C "$root" rev-parse --verify "$base^{commit}") || {
    echo "same_outputs: $base is neither a binary nor a revision of $root" >&2
    exit 2
  }
  dir=${SAME_OUTPUTS_DIR:-$root/build-same-outputs}
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ "$(cat "$dir/rev" 2>/dev/null)" != "$rev" ]; then
    echo "same_outputs: building ${rev:0:12} in $dir" >&2
    rm -rf "$dir/src" "$dir/rev"
    mkdir -p "$dir/src"
    git -C "$root" archive "$rev" | tar -x -C "$dir/src" || exit 2
  fi
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER="$(command -v ccache)")
  # As the Makefile: paths hashed relative to the source, so the objects of a build of the
  # same commit elsewhere (CI's checkout, a work tree) are found in the cache.
  export CCACHE_BASEDIR=$dir/src CCACHE_NOHASHDIR=true
  # (build/ inside the source, as `make build` has it: the compiler's paths relative to the
  # build folder are then those of the tested build, and ccache finds their objects.)
  cmake -S "$dir/src" -B "$dir/src/build" -G Ninja -DCALLTREE_WERROR=ON "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O3 -DNDEBUG -g1" \
    -DCALLTREE_TESTS=OFF >/dev/null || exit 2
  cmake --build "$dir/src/build" -j "${JOBS:-$(nproc)}" --target calltree_cli >"$dir/build.log" 2>&1 || {
    tail -30 "$dir/build.log" >&2
    echo "same_outputs: the build of ${rev:0:12} failed" >&2
    exit 2
  }
  echo "$rev" >"$dir/rev"
  old=$dir/src/build/calltree
  echo "same_outputs: base ${rev:0:12} built ($(($(date +%s) - start)) s)" >&2
fi

# ---- the runs ------------------------------------------------------------------------------
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/nosrc"

# same WHERE FILTER -- ARGS...: runs calltree ARGS in folder WHERE with each binary, one after
# the other, in this worker's folder $w. Both run under one path, $w/bin/calltree (a symlink
# switched between them), so that nothing which prints the program's path can differ. An
# argument @OUT stands for a file written ($w/out), compared after FILTER: cat, gunzip (its
# bytes decompressed), html-data (the report's data, not the front end's code; nor the page's
# size in the report's one line on stderr, which counts that code). The version a file or a
# line names is not compared (it is the build's: a new version changes no result).
same() {
  local where=$1 filter=$2
  shift 3
  local side args x
  for side in a b; do
    ln -sfn "$([ $side = a ] && echo "$old" || echo "$new")" "$w/bin/calltree"
    args=()
    for x in "$@"; do [ "$x" = @OUT ] && args+=("$w/out") || args+=("$x"); done
    rm -f "$w/out"
    (cd "$where" && "$w/bin/calltree" "${args[@]}" >"$w/$side/stdout" 2>"$w/$side/stderr")
    echo $? >"$w/$side/rc"
    if [ -f "$w/out" ]; then
      case $filter in
        gunzip) gzip -dc <"$w/out" >"$w/$side/file" 2>&1 || cp "$w/out" "$w/$side/file" ;;
        html-data)
          # (anywhere on its line: the page's own markup may come before it on that line.) A
          # page with no data line is a failure, not two empty files found equal.
          grep -ao '<script>window\.__CALLTREE_REPORT__=.*' "$w/out" >"$w/$side/file" ||
            echo "FAIL: (in $where) calltree $*: the report ($side) holds no data line" >>"$w/failures"
          # The page's size counts the front end's code, which is not compared: "wrote F (N
          # bytes; ...)" keeps everything but N.
          sed -i -E 's/ \([0-9]+ bytes; / (N bytes; /' "$w/$side/stderr" ;;
        *) mv "$w/out" "$w/$side/file" ;;
      esac
    else
      echo "(no file)" >"$w/$side/file"
    fi
    # The version the outputs name (a merge's `creator:`, an export's exporter) is the build's,
    # not a result: "calltree 1.0.0" of either side reads "calltree VERSION".
    LC_ALL=C sed -i -E 's/calltree [0-9]+\.[0-9]+\.[0-9]+/calltree VERSION/g' \
      "$w/$side/stdout" "$w/$side/stderr" "$w/$side/file"
  done
  echo >>"$w/checked"
  for x in stdout stderr rc file; do
    if ! cmp -s "$w/a/$x" "$w/b/$x"; then
      {
        echo "FAIL: (in $where) calltree $*: $x differs"
        diff "$w/a/$x" "$w/b/$x" | head -6
      } >>"$w/failures"
      break
    fi
  done
}

files=()
if [ -d "$corpus" ]; then
  for f in "$corpus"/*.callgrind "$corpus"/*.cachegrind "$corpus"/*.gz; do
    [ -f "$f" ] && files+=("$f")
  done
else
  echo "same_outputs: no corpus at $corpus: only the repository's files" >&2
fi
for f in "$root"/examples/*.callgrind "$root"/tests/golden/*/input* "$root"/tests/malformed/*; do
  case $f in *.expected) continue ;; esac
  [ -f "$f" ] && files+=("$f")
done
src=$corpus
[ -d "$src" ] || src=$tmp/nosrc
nosrc=$tmp/nosrc
n=${#files[@]}

# Every command on file number $1 (and the next file, for diff and merge).
one_file() {
  local f=${files[$1]} g=${files[$((($1 + 1) % n))]} to
  same "$nosrc" cat -- check "$f"
  same "$nosrc" cat -- check --json --threads=1 "$f"
  same "$nosrc" cat -- check --json --threads=2 "$f"
  same "$nosrc" cat -- dump --records "$f"
  same "$nosrc" cat -- convert -o - "$f"
  same "$nosrc" cat -- convert --no-compress-names --no-compress-positions -o - "$f"
  same "$nosrc" cat -- annotate "$f"
  same "$src" cat -- annotate --auto=yes -I "$src" --source-root=/tmp/cgcorpus="$src" "$f"
  same "$src" cat -- annotate --auto=yes --threads=1 "$f"
  same "$nosrc" cat -- annotate --auto=no --inclusive=yes --threads=1 "$f"
  same "$nosrc" cat -- annotate --auto=no --inclusive=yes --threads=2 "$f"
  same "$src" cat -- annotate --tree=both "$f"
  same "$src" cat -- annotate --json "$f"
  same "$src" cat -- annotate --raw --inclusive=yes --tree=both "$f"
  same "$src" cat -- annotate --part=1 --inclusive=yes --tree=calling "$f"
  same "$nosrc" gunzip -- export --to=pprof "$f" -o @OUT
  same "$nosrc" gunzip -- export --to=pprof --addresses=yes "$f" -o @OUT
  for to in folded speedscope chrome dot flamegraph json; do
    same "$nosrc" cat -- export --to=$to "$f" -o @OUT
  done
  same "$src" html-data -- report --html "$f" -o @OUT
  same "$nosrc" cat -- diff "$f" "$g"
  same "$nosrc" cat -- diff --json --inclusive=yes "$g" "$f"
  same "$nosrc" cat -- merge "$f" "$g" -o -
}

# The chunked paths of the parallel reader on a file big enough for them: the corpus's 24 MB
# instr-level profile, plain (mapped) and zstd, on one thread and two.
big_files() {
  local big_gz big f t
  big_gz=$(bash "$root/scripts/corpus-big.sh" "$corpus" "$w" 2>/dev/null) || return 0
  big=$w/big.callgrind
  for f in "$big" "$big.zst"; do
    for t in 1 2; do
      same "$nosrc" cat -- check --json --threads=$t "$f"
      same "$nosrc" cat -- annotate --auto=no --threads=$t "$f"
      same "$src" cat -- annotate --inclusive=yes --tree=both --threads=$t "$f"
      same "$nosrc" cat -- export --to=json --threads=$t "$f" -o @OUT
      same "$nosrc" cat -- diff --threads=$t "$f" "$big_gz"
    done
  done
}

# Tasks, the longest first (the big file's chunked runs, then the files by size), taken by
# $workers workers as each becomes free (a task is claimed by making its folder: mkdir is
# atomic), each worker in its own folder; each task's comparisons run one binary after the
# other. (Dealt round-robin, each worker's share was fixed before any file's time was known.)
workers=${SAME_OUTPUTS_JOBS:-$(nproc)}
order=(big)
while read -r _ i; do order+=("$i"); done < <(
  for ((i = 0; i < n; i++)); do echo "$(stat -c %s "${files[$i]}") $i"; done | sort -k1,1nr -k2,2n)
mkdir -p "$tmp/claimed"
worker() {
  w=$tmp/w$1
  mkdir -p "$w/a" "$w/b" "$w/bin"
  : >"$w/checked"
  : >"$w/failures"
  local task
  for task in "${order[@]}"; do
    mkdir "$tmp/claimed/$task" 2>/dev/null || continue
    if [ "$task" = big ]; then big_files; else one_file "$task"; fi
  done
}
for ((k = 0; k < workers; k++)); do worker $k & done
wait
checked=$(cat "$tmp"/w*/checked | wc -l)
cat "$tmp"/w*/failures
differ=$(grep -c '^FAIL:' "$tmp"/w*/failures | awk -F: '{s += $NF} END {print s + 0}')
echo "same_outputs: $checked commands on $n files and the big one, $workers workers," \
  "$(($(date +%s) - start)) s: $([ "$differ" = 0 ] && echo 'every output the same' || echo "$differ differ")"
[ "$differ" = 0 ]
