#!/usr/bin/env bash
# snippets.sh BUILD CORPUS PYTHON — every ```cpp, ```c++ and ```python block of docs/*.md run
# against an install: `cmake --install` into a temporary prefix, the pages read from it
# (share/doc/calltree/), the Python package imported from it (tests/docs/snippets.py says how
# each block is run, and the markers that say otherwise).
set -uo pipefail
build=$1
corpus=$(cd "$2" && pwd)
python=$3
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >"$prefix.install.log" 2>&1 || { cat "$prefix.install.log"; rm -f "$prefix.install.log"; exit 1; }
rm -f "$prefix.install.log"
docs=$prefix/share/doc/calltree
pythonpath=$(find "$prefix" -path '*/dist-packages/calltree/__init__.py' -print -quit)
[[ -n $pythonpath ]] || { echo "FAIL: the Python package is not installed under $prefix"; exit 1; }
# The installed pages are the source's (architecture.md is not installed: it has no snippet).
for page in "$here"/../../docs/*.md; do
  name=$(basename "$page")
  [[ $name == architecture.md ]] && { ! grep -qE '^```(cpp|c\+\+|python)' "$page" || { echo "FAIL: architecture.md has a snippet, and is not installed"; exit 1; }; continue; }
  cmp -s "$page" "$docs/$name" || { echo "FAIL: docs/$name is not installed as it is"; exit 1; }
done
cd / && exec "$python" "$here/snippets.py" "$prefix" "$corpus" "$docs" "$python" "$(dirname "$(dirname "$pythonpath")")"
