#!/usr/bin/env bash
# installed_headers.sh — the installed headers name no file that is not installed: every
# `x.h` or `dir/x.h` a header's comments mention is one of include/calltree's (or version.h,
# generated from cmake/version.h.in, which is checked too), and none mentions a source file
# (`.cc`) or a path under src/, tests/, cli/, server/ or bench/, which a user of the installed
# package does not have.
# Usage: installed_headers.sh SOURCE_DIR
set -euo pipefail
cd "$1/include/calltree"
bad=0
while IFS= read -r -d '' h; do
  while IFS= read -r hit; do
    line=${hit%%:*}
    name=${hit#*:}
    case $name in
      *.cc | src/* | tests/* | cli/* | server/* | bench/*) ;;
      *.h)
        [[ $name == version.h || $name == calltree/version.h ]] && continue
        [[ -f ${name#calltree/} || -f $(dirname "$h")/$name || -f analysis/$name ]] && continue
        ;;
      *) continue ;;
    esac
    echo "${h#./}:$line: names '$name', which is not installed"
    bad=1
  done < <(awk '{ i = index($0, "//"); if (i) print NR ":" substr($0, i + 2) }' "$h" |
           grep -oE '^[0-9]+:|\b((src|tests|cli|server|bench)/[A-Za-z0-9_./-]+|[A-Za-z0-9_/]+\.(h|cc))\b' |
           awk '/^[0-9]+:$/ { n = $0; next } { print n $0 }')
done < <(find . -name '*.h' -print0; [[ -f ../../cmake/version.h.in ]] && printf '%s\0' ../../cmake/version.h.in)
if ((bad)); then
  echo "A public header points its reader at a file the installed package does not have:"
  echo "say it in words, or move what it describes out of the public headers."
  exit 1
fi
echo "the installed headers name only installed files"
