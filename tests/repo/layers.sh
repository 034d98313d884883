#!/usr/bin/env bash
# layers.sh SOURCE_DIR — the library's layers hold: no #include reaches up a layer.
#
# The layers and their folders are the build's (CMakeLists.txt: one calltree_layer(NAME
# FOLDERS ... BELOW ...) line each, from the bottom), then server/, tui/ and cli/ on top. Checked:
#  1. Every #include "FOLDER/..." of a file under src/, server/ or cli/ names a folder of the
#     file's own layer or of one under it (calltree/ headers are the public API, any layer's).
#  2. Each layer links only layers under it (its BELOW list).
#  3. docs/architecture.md lists the same order ("Layers, from the bottom: ..."), and its
#     table under that line names every folder of the code (src/FOLDER, server/, tui/, cli/,
#     python/).
# Prints each upward include as FILE:LINE: error: ..., and exits 1 if there is one.
set -euo pipefail
src=$(cd "${1:?usage: layers.sh SOURCE_DIR}" && pwd)
cd "$src"

declare -A layer_of_folder rank
order=()
status=0
while read -r line; do
  # calltree_layer(NAME FOLDERS a b BELOW c d)
  line=${line#calltree_layer(}
  line=${line%)}
  read -r -a words <<<"$line"
  name=${words[0]}
  rank[$name]=${#order[@]}
  order+=("$name")
  mode=
  for w in "${words[@]:1}"; do
    case $w in
      FOLDERS | BELOW) mode=$w ;;
      *)
        if [ "$mode" = FOLDERS ]; then
          layer_of_folder[$w]=$name
        elif [ -z "${rank[$w]:-}" ] || [ "${rank[$w]}" -ge "${rank[$name]}" ]; then
          echo "CMakeLists.txt: error: layer $name links $w, which is not under it"
          status=1
        fi
        ;;
    esac
  done
done < <(grep -E '^calltree_layer\(' CMakeLists.txt)
[ ${#order[@]} -ge 5 ] || { echo "layers: no calltree_layer lines in CMakeLists.txt"; exit 1; }
for top in server tui cli; do
  rank[$top]=${#order[@]}
  order+=("$top")
done

listed=$(IFS=,; echo "${order[*]}")
listed=${listed//,/, }
if ! grep -qF "Layers, from the bottom: $listed." docs/architecture.md; then
  echo "docs/architecture.md: error: does not list the layers as the build has them:" \
       "\"Layers, from the bottom: $listed.\""
  status=1
fi

# docs/architecture.md's table of the layers (the block under that line) names every folder of
# the code: each src/FOLDER, and server/, tui/, cli/ and python/.
table=$(awk '/^Layers, from the bottom:/ { on = 1; next } on && /^```/ { n++; if (n == 2) exit; next } on && n == 1' docs/architecture.md)
for dir in src/*/ server/ tui/ cli/ python/; do
  dir=${dir%/}
  [ -d "$dir" ] || continue
  case $dir in
    src/*) want=$dir ;;
    *) want=$dir/ ;;
  esac
  if ! grep -qE "(^|[[:space:],])${want}([[:space:],]|\$)" <<<"$table"; then
    echo "docs/architecture.md: error: the table of the layers does not name $want"
    status=1
  fi
done

# The layer of a file: its folder's (src/FOLDER/...), or server, tui or cli.
layer_of_file() {
  case $1 in
    server/*) echo server ;;
    tui/*) echo tui ;;
    cli/*) echo cli ;;
    src/*)
      local rest=${1#src/}
      echo "${layer_of_folder[${rest%%/*}]:-}"
      ;;
  esac
}

checked=0
while IFS= read -r -d '' file; do
  from=$(layer_of_file "$file")
  [ -n "$from" ] || { echo "$file: error: in no layer (add its folder to a calltree_layer)"; status=1; continue; }
  checked=$((checked + 1))
  while IFS=: read -r line text; do
    folder=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^/"]+)\/.*/\1/' <<<"$text")
    to=${layer_of_folder[$folder]:-}
    [ -n "$to" ] || continue
    if [ "${rank[$to]}" -gt "${rank[$from]}" ]; then
      echo "$file:$line: error: #include of $folder/ (layer $to) reaches up from layer $from"
      status=1
    fi
  done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^/"]+/' "$file" || true)
done < <(find src server tui cli -type f \( -name '*.cc' -o -name '*.h' \) -print0 | sort -z)
[ $checked -gt 100 ] || { echo "layers: only $checked files checked"; exit 1; }
[ $status -eq 0 ] && echo "layers: $checked files, layers ${order[*]}: no include reaches up"
exit $status
