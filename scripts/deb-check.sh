#!/usr/bin/env bash
# deb-check.sh BUILD CORPUS — the Debian packages as a user meets them (make deb-check, .ci/run):
# `cpack -G DEB` in BUILD makes calltree_*.deb and, when the build has the Python package,
# python3-calltree_*.deb. calltree's dependencies are Debian runtime packages only, with no
# Python and no pandas (a user of the tool or the library gets neither); python3-calltree's are
# calltree of the same version, pandas and the python3 its module is for. `apt-get install`
# resolves them; the installed calltree answers --version and checks a corpus file; its man page
# renders; tests/consumer builds against the installed files only (/usr); Debian's python3
# imports the Python package from /usr and reads the corpus file with it; `apt-get purge`
# removes every file of both. Needs root. Leaves the machine as it found it.
set -euo pipefail
build=$(cd "$1" && pwd)
corpus=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^project(calltree VERSION \([0-9.]*\).*/\1/p' "$here/CMakeLists.txt")
for p in calltree python3-calltree; do
  if dpkg-query -W "$p" >/dev/null 2>&1; then
    echo "deb-check: a $p package is installed already; not touching it" >&2
    exit 1
  fi
done

rm -f "$build"/calltree_*.deb "$build"/python3-calltree_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/calltree_"$version"_*.deb)
pydeb=$(ls "$build"/python3-calltree_"$version"_*.deb 2>/dev/null || true)
[[ -n $pydeb ]] || ! grep -q '^CALLTREE_PYTHON:BOOL=ON' "$build/CMakeCache.txt" ||
  { echo "deb-check: the build has the Python package, but no python3-calltree .deb"; exit 1; }
ls "$build"/*.deb | grep -vxF -e "$deb" -e "$pydeb" && { echo "deb-check: a .deb of no package above"; exit 1; }
echo "deb-check: $(basename "$deb"), $(du -k "$deb" | cut -f1) KB"
depends=$(dpkg-deb -f "$deb" Depends)
echo "deb-check: Depends: $depends"
# Runtime libraries only: no -dev package, no package of this machine's own making, no Python.
for dep in $(tr ',' '\n' <<<"$depends" | sed 's/(.*//; s/|.*//; s/ //g'); do
  [[ $dep == *-dev ]] && { echo "deb-check: depends on a -dev package: $dep"; exit 1; }
  [[ $dep == python* ]] && { echo "deb-check: the tool's package depends on $dep"; exit 1; }
  apt-cache show "$dep" >/dev/null 2>&1 || { echo "deb-check: $dep is no Debian package"; exit 1; }
done
grep -q 'libc6' <<<"$depends" || { echo "deb-check: no libc6 in Depends (shlibdeps not run?)"; exit 1; }
contents=$(dpkg-deb -c "$deb")
if grep -q '/dist-packages/' <<<"$contents"; then echo "deb-check: the Python package is in $(basename "$deb")"; exit 1; fi
if [[ -n $pydeb ]]; then
  pydepends=$(dpkg-deb -f "$pydeb" Depends)
  echo "deb-check: $(basename "$pydeb"), $(du -k "$pydeb" | cut -f1) KB; Depends: $pydepends"
  grep -q "calltree (= $version)" <<<"$pydepends" || { echo "deb-check: python3-calltree does not depend on calltree $version"; exit 1; }
  grep -q 'python3-pandas' <<<"$pydepends" || { echo "deb-check: python3-calltree without python3-pandas in Depends"; exit 1; }
  # The python3 of the module's ABI tag (cpython-3XY), and no other.
  tag=$(dpkg-deb -c "$pydeb" | sed -n 's/.*_calltree\.cpython-\([0-9]\)\([0-9]*\)-.*/\1.\2/p')
  [[ -n $tag ]] || { echo "deb-check: no native module in $(basename "$pydeb")"; exit 1; }
  grep -q "python3 (>= $tag~)" <<<"$pydepends" || { echo "deb-check: python3-calltree is not for python3 $tag"; exit 1; }
  dpkg-deb -c "$pydeb" | grep -vE '/dist-packages/|/share/doc/calltree/examples/python/|/$' | grep . &&
    { echo "deb-check: python3-calltree holds files of the tool's package (above)"; exit 1; }
fi

cleanup() { apt-get purge -y -qq python3-calltree calltree >/dev/null 2>&1 || true; }
trap cleanup EXIT
# The tool's package alone first: it brings no Python module of its own.
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >/dev/null
[[ ! -e /usr/lib/python3/dist-packages/calltree ]] || { echo "deb-check: calltree installed a Python package"; exit 1; }
[[ $(command -v calltree) == /usr/bin/calltree ]] || { echo "deb-check: calltree is not /usr/bin/calltree"; exit 1; }
got=$(/usr/bin/calltree --version)
[[ $got == "calltree $version" ]] || { echo "deb-check: --version says '$got'"; exit 1; }
echo "deb-check: $got"
/usr/bin/calltree check "$corpus/vg-recurse-default.callgrind" |
  grep -q ': ok: 1 part, events Ir, .* totals Ir=362861224;' || { echo "deb-check: check failed"; exit 1; }
echo "deb-check: calltree check on the corpus: ok"
MANWIDTH=80 man calltree-annotate 2>/dev/null | grep -qE 'calltree-annotate +- ' ||
  { echo "deb-check: man calltree-annotate does not render"; exit 1; }
[[ -f /usr/share/bash-completion/completions/calltree && -f /usr/share/zsh/vendor-completions/_calltree ]] ||
  { echo "deb-check: completions not installed"; exit 1; }
echo "deb-check: man page and completions installed"
if [[ -n $pydeb ]]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pydeb" >/dev/null
  # (Debian's python3 by its path: another python3 may come first on PATH. From /, so that no
  # calltree/ folder of a checkout is imported instead.)
  got=$(cd / && env -u PYTHONPATH /usr/bin/python3 -c 'import sys, calltree
p = calltree.load(sys.argv[1])
assert calltree.__file__.startswith("/usr/lib/python3/dist-packages/calltree/"), calltree.__file__
print(calltree.__version__, p.totals["Ir"], len(p.functions()))' "$corpus/vg-recurse-default.callgrind") ||
    { echo "deb-check: python3 -c 'import calltree' failed"; exit 1; }
  [[ $got == "$version 362861224 "* ]] || { echo "deb-check: the Python package says '$got'"; exit 1; }
  echo "deb-check: python3 -c 'import calltree': $got"
fi
bash "$here/tests/consumer/run.sh" /usr "$here/examples/recurse.callgrind" \
  "calltree $version: Ir total 362861224, top 0x000000000001ab70 362861224"
apt-get purge -y -qq python3-calltree calltree >/dev/null
trap - EXIT
left=$(dpkg -L calltree python3-calltree 2>/dev/null || true)
[[ -z $left && ! -e /usr/bin/calltree && ! -e /usr/include/calltree &&
   ! -e /usr/lib/python3/dist-packages/calltree ]] ||
  { echo "deb-check: files left after purge"; exit 1; }
echo "deb-check: purged, nothing left"
