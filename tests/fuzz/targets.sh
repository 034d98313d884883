# targets.sh — sourced by run.sh and merge.sh: what each fuzz target reads.
#
# kind_of TARGET: the kind of input (the seed folder of make-seeds.sh); max_len_of TARGET: the
# cap on an input's size (-max_len); dict_of TARGET: its dictionary; inputs_of TARGET SEEDS:
# the read-only corpora of a run (committed corpus, regression inputs, seeds), those that
# exist.
here=${here:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}

kind_of() {
  case $1 in
    fuzz_diff | fuzz_merge) echo pair ;;
    fuzz_serve_api) echo http ;;
    *) echo profile ;;
  esac
}

# Two profiles in one input get twice the room of one; a connection's requests fit the
# target's bounds (a head of 2 KB).
max_len_of() {
  case $(kind_of "$1") in
    pair) echo 4096 ;;
    http) echo 4096 ;;
    *) echo 2048 ;;
  esac
}

dict_of() {
  case $(kind_of "$1") in
    http) echo http.dict ;;
    *) echo callgrind.dict ;;
  esac
}

inputs_of() {
  local d
  for d in "$here/corpus/$1" "$here/regressions/$1" "$2/$(kind_of "$1")"; do
    [ -d "$d" ] && echo "$d"
  done
}
