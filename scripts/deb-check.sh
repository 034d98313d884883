#!/usr/bin/env bash
# deb-check.sh BUILD CORPUS — the Debian package as a user meets it (make deb-check, .ci/run):
# `cpack -G DEB` in BUILD; its dependencies are Debian runtime packages only; `apt-get install
# ./calltree_*.deb` resolves them; the installed calltree answers --version and checks a corpus
# file; its man page renders; tests/consumer builds against the installed files only (/usr);
# Debian's python3 imports the Python package from /usr and reads the corpus file with it (when
# the build has the package: then the .deb depends on python3-pandas); `apt-get purge` removes
# every file. Needs root. Leaves the machine as it found it.
set -euo pipefail
build=$(cd "$1" && pwd)
corpus=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^project(calltree VERSION \([0-9.]*\).*/\1/p' "$here/CMakeLists.txt")
if dpkg-query -W calltree >/dev/null 2>&1; then
  echo "deb-check: a calltree package is installed already; not touching it" >&2
  exit 1
fi

rm -f "$build"/calltree_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/calltree_"$version"_*.deb)
echo "deb-check: $(basename "$deb"), $(du -k "$deb" | cut -f1) KB"
depends=$(dpkg-deb -f "$deb" Depends)
echo "deb-check: Depends: $depends"
# Runtime libraries only: no -dev package, no package of this machine's own making.
for dep in $(tr ',' '\n' <<<"$depends" | sed 's/(.*//; s/|.*//; s/ //g'); do
  [[ $dep == *-dev ]] && { echo "deb-check: depends on a -dev package: $dep"; exit 1; }
  apt-cache show "$dep" >/dev/null 2>&1 || { echo "deb-check: $dep is no Debian package"; exit 1; }
done
grep -q 'libc6' <<<"$depends" || { echo "deb-check: no libc6 in Depends (shlibdeps not run?)"; exit 1; }

cleanup() { apt-get purge -y -qq calltree >/dev/null 2>&1 || true; }
trap cleanup EXIT
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >/dev/null
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
contents=$(dpkg-deb -c "$deb")
if grep -q '/usr/lib/python3/dist-packages/calltree/_calltree' <<<"$contents"; then
  grep -q 'python3-pandas' <<<"$depends" || { echo "deb-check: the Python package without python3-pandas in Depends"; exit 1; }
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
apt-get purge -y -qq calltree >/dev/null
trap - EXIT
left=$(dpkg -L calltree 2>/dev/null || true)
[[ -z $left && ! -e /usr/bin/calltree && ! -e /usr/include/calltree &&
   ! -e /usr/lib/python3/dist-packages/calltree ]] ||
  { echo "deb-check: files left after purge"; exit 1; }
echo "deb-check: purged, nothing left"
