# targets.sh — sourced by run.sh, campaign.sh and merge.sh: which targets a build has and
# what each fuzz target reads.
#
# built_targets BUILD: the fuzz targets built in BUILD, a name a line; make_seeds WORK: the
# seeds (make-seeds.sh), made once per build directory into WORK/seeds-3 (the folders by kind
# of input; delete it to remake them). kind_of TARGET: the kind of input (the seed folder of
# make-seeds.sh); max_len_of TARGET: the cap on an input's size (-max_len); dict_of TARGET: its
# dictionary; inputs_of TARGET SEEDS: the read-only corpora of a run (committed corpus,
# regression inputs, seeds), those that exist.
here=${here:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}

kind_of() {
  case $1 in
    fuzz_diff | fuzz_merge) echo pair ;;
    fuzz_serve_api) echo http ;;
    fuzz_import_*) echo "import-${1#fuzz_import_}" ;;
    *) echo profile ;;
  esac
}

# Two profiles in one input get twice the room of one; a connection's requests fit the
# target's bounds (a head of 2 KB); another profiler's file (a protocol buffer, a marshal, a
# JSON document) holds its few functions in a few kilobytes.
max_len_of() {
  case $(kind_of "$1") in
    pair) echo 4096 ;;
    http) echo 4096 ;;
    import-*) echo 8192 ;;
    *) echo 2048 ;;
  esac
}

dict_of() {
  case $(kind_of "$1") in
    http) echo http.dict ;;
    import-*) echo import.dict ;;
    *) echo callgrind.dict ;;
  esac
}

inputs_of() {
  local d
  for d in "$here/corpus/$1" "$here/regressions/$1" "$2/$(kind_of "$1")"; do
    [ -d "$d" ] && echo "$d"
  done
}

built_targets() {
  local t
  for t in "$1"/tests/fuzz/fuzz_*; do
    [ -x "$t" ] && [ -f "$t" ] && basename "$t"
  done
  return 0
}

make_seeds() {
  if [ ! -d "$1/seeds-3" ]; then
    rm -rf "$1/seeds.tmp"
    bash "$here/make-seeds.sh" "$1/seeds.tmp" && mv "$1/seeds.tmp" "$1/seeds-3"
  fi
}
