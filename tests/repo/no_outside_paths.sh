#!/usr/bin/env bash
# no_outside_paths.sh SOURCE_DIR — a clone tests itself: nothing it runs reads outside it.
#  1. No file of the repository (tracked, or new and not ignored) names the corpus's old home
#     beside the checkout: the corpus is tests/corpus.
#  2. No test, script, build or bench file names an absolute path under a folder where a
#     machine keeps its own files (work, home, root, srv, mnt, media): a clone on another
#     machine has none of them. (A cheap stand-in for watching what the tests open; /tmp, /dev,
#     /proc, /usr and the made-up paths inside test profiles are fine.)
# The needles are built from pieces, so this script does not name what it looks for.
set -euo pipefail
src=$(cd "${1:?usage: no_outside_paths.sh SOURCE_DIR}" && pwd)
cd "$src"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -d '' files < <(git ls-files -z --cached --others --exclude-standard)
else  # (a source tarball: every file but the build's)
  mapfile -d '' files < <(find . -type f -not -path './.git/*' -not -path './build*' \
                                 -not -path '*/node_modules/*' -printf '%P\0')
fi
[ ${#files[@]} -gt 100 ] || { echo "no_outside_paths: only ${#files[@]} files found in $src"; exit 1; }

status=0
up=..
top=work
old_home=shared
needles=("$up/$old_home" "/$top/$old_home")
if hits=$(printf '%s\0' "${files[@]}" | xargs -0 grep -I -n -s -F "${needles[@]/#/-e}"); then
  echo "no_outside_paths: files name the corpus outside the checkout (it is tests/corpus):"
  echo "$hits"
  status=1
fi

# Code, not data: test sources and scripts, web/tests, examples, bench, scripts, the build.
code=()
for f in "${files[@]}"; do
  case "$f" in
    tests/corpus/* | tests/golden/* | tests/golden-diff/* | tests/malformed/* | tests/fuzz/regressions/* | tests/fuzz/corpus/* | tests/import/perf/perf-*.txt) ;;
    tests/* | web/tests/* | examples/* | python/* | bench/* | scripts/* | cmake/* | .ci/* | Makefile | */CMakeLists.txt | CMakeLists.txt)
      code+=("$f") ;;
  esac
done
roots='work|home|root|srv|mnt|media'
if hits=$(printf '%s\0' "${code[@]}" |
          xargs -0 grep -I -n -s -E "(^|[^A-Za-z0-9_.~\$}-])/($roots)/"); then
  echo "no_outside_paths: test or build code names a path of this machine outside the checkout:"
  echo "$hits"
  status=1
fi
[ $status -eq 0 ] && echo "no_outside_paths: ${#files[@]} files, ${#code[@]} of them code: ok"
exit $status
