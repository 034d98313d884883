#!/usr/bin/env python3
"""snippets.py — every ```cpp, ```c++ and ```python block of docs/*.md, run as a reader runs it,
against an installed calltree (PREFIX: `cmake --install` into a temporary folder).

  C++     compiled with the compile line of library.md, "Linking" (pkg-config, with the rpath
          it gives), -Wall -Wextra -Werror, then run; exit status 0 unless the marker says.
  Python  a block of `>>>` lines is a doctest: each output as the page shows it (but the
          blanks that end a line), the page's blocks one session in order (a walk-through); any
          other block is a script, run to exit status 0.
  sh      only a block with a marker (below) is run: with bash -e.

Each runs in an empty folder that holds the corpus's files and examples/recurse.callgrind by
name (the files the pages name), and nothing else unless its marker says.

A block's marker is an HTML comment (which no renderer shows) on the line before it:
  <!-- doc-test: KEY=VALUE ... -->
  skip="why"        not run: a block that is deliberately partial (say why)
  wrap=main         a C++ fragment: run as the body of a main() that has loaded argv[1] into
                    `loaded` and holds its profile as `p` (the fragments of library.md's tasks)
  args="A B"        the program's arguments (default: recurse.callgrind)
  status=N          the exit status expected (default 0)
  files="D=S ..."   the folder also holds D, a copy of the corpus file S (D may be in a folder)
  output=next       the program's standard output is the next ``` block of the page, exactly
  sh                (an sh block) run it: prefix=P replaced by PREFIX, copy=F (files of the
                    installed examples) copied in first, then="CMD" run after it
  cmake             (a cmake block) the CMakeLists.txt of a project: copy=F as for sh, then
                    configured with CMAKE_PREFIX_PATH=PREFIX, built (build/), then="CMD" run
Also: every path of library.md's install table ("Installing") is in PREFIX.
A ```cpp, ```c++ or ```python block is never left out silently: it runs or its marker says why.

Usage: snippets.py PREFIX CORPUS DOCS_DIR PYTHON [PYTHONPATH]
"""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

prefix, corpus, docs, python = (os.path.abspath(a) if i < 3 else a for i, a in enumerate(sys.argv[1:5]))
pythonpath = sys.argv[5] if len(sys.argv) > 5 else ""
failures = []
ran = {"cpp": 0, "python": 0, "sh": 0, "cmake": 0, "paths": 0}
skipped = []


def fail(where, msg):
    print("FAIL: %s: %s" % (where, msg))
    failures.append(where)


def blocks(path):
    """(language, text, marker, the next block's text, line) of every fenced block."""
    lines = open(path).read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(lines) and lines[j] != "```":
            j += 1
        marker = None
        if start > 0:
            mm = re.match(r"^<!-- doc-test: (.*) -->$", lines[start - 1])
            if mm:
                marker = mm.group(1)
        out.append([m.group(1), "\n".join(lines[start + 1:j]) + "\n", marker, None, start + 1])
        i = j + 1
    for k in range(len(out) - 1):
        out[k][3] = out[k + 1][1]
    return out


def parse_marker(text):
    opts = {}
    for word in shlex.split(text or ""):
        key, _, value = word.partition("=")
        opts[key] = value
    return opts


examples = os.path.join(prefix, "share", "doc", "calltree", "examples")


def folder(opts):
    """An empty folder with the corpus's files and recurse.callgrind, and the marker's files."""
    work = tempfile.mkdtemp(dir=root)
    for f in os.listdir(corpus):
        if os.path.isfile(os.path.join(corpus, f)):
            os.symlink(os.path.join(corpus, f), os.path.join(work, f))
    os.symlink(os.path.join(examples, "recurse.callgrind"), os.path.join(work, "recurse.callgrind"))
    for pair in opts.get("files", "").split():
        dest, _, src = pair.partition("=")
        os.makedirs(os.path.dirname(os.path.join(work, dest)), exist_ok=True)
        shutil.copy(os.path.join(corpus, src), os.path.join(work, dest))
    return work


def env():
    e = dict(os.environ)
    e["PKG_CONFIG_PATH"] = os.path.join(prefix, "lib", "pkgconfig")
    e["MPLBACKEND"] = "Agg"
    e["PYTHONDONTWRITEBYTECODE"] = "1"
    if pythonpath:
        e["PYTHONPATH"] = pythonpath
    else:
        e.pop("PYTHONPATH", None)
    return e


def pkg_config(*args):
    return subprocess.check_output(["pkg-config", *args, "calltree"], env=env(), text=True).split()


CPP_MAIN = """#include <cstdio>
#include <string>

#include <calltree/calltree.h>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  auto loaded = calltree::load(argv[1]);
  if (!loaded) {
    std::fprintf(stderr, "%s\\n", loaded.error().message.c_str());
    return 2;
  }
  const calltree::profile& p = loaded->profile;
  // -- the page's fragment --
"""


def check_output(where, got, opts, following):
    if opts.get("output") == "next":
        if got != following:
            fail(where, "its output is not the page's:\n--- page\n%s--- got\n%s" % (following, got))


def run_cpp(where, text, opts, following):
    work = folder(opts)
    source = os.path.join(work, "snippet.cc")
    if opts.get("wrap") == "main":
        text = CPP_MAIN + "".join("  " + l + "\n" for l in text.splitlines()) + "  return 0;\n}\n"
    elif "int main(" not in text:
        fail(where, "a C++ block with no main() and no marker (wrap=main or skip=...)")
        return
    open(source, "w").write(text)
    libdir = pkg_config("--variable=libdir")[0]
    cmd = ["c++", "-std=c++20", "-Wall", "-Wextra", "-Werror", source, "-o", os.path.join(work, "snippet"),
           *pkg_config("--cflags", "--libs"), "-Wl,-rpath," + libdir]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env())
    if r.returncode != 0:
        fail(where, "does not compile:\n%s\n%s" % (text, r.stderr[-4000:]))
        return
    args = shlex.split(opts.get("args", "recurse.callgrind"))
    r = subprocess.run([os.path.join(work, "snippet"), *args], cwd=work, capture_output=True, text=True)
    want = int(opts.get("status", "0"))
    if r.returncode != want:
        fail(where, "exit %d, not %d:\n%s%s" % (r.returncode, want, r.stdout[-2000:], r.stderr[-2000:]))
        return
    check_output(where, r.stdout, opts, following)
    ran["cpp"] += 1
    print("ok: %s: C++, compiled and run (%d lines of output)" % (where, r.stdout.count("\n")))


DOCTEST_RUNNER = r"""
import doctest, json, sys

class Checker(doctest.OutputChecker):
    # (a page's lines keep no trailing blanks: pandas pads its index line with them)
    def check_output(self, want, got, flags):
        strip = lambda t: "\n".join(l.rstrip() for l in t.split("\n"))
        return super().check_output(strip(want), strip(got), flags)

# (pandas fits a table to the terminal of an interactive python3; a doctest has none: the
# width of a terminal of 120 columns, as python.md says its outputs are printed in)
import pandas
pandas.set_option("display.width", 120)
pandas.set_option("display.max_columns", None)
globs = {}
failed = []
for where, path in json.load(open(sys.argv[1])):
    test = doctest.DocTestParser().get_doctest(open(path).read(), globs, where, where, 0)
    test.globs = globs  # (get_doctest copies them)
    runner = doctest.DocTestRunner(checker=Checker(), optionflags=doctest.ELLIPSIS)
    runner.run(test, clear_globs=False)
    if runner.failures:
        failed.append(where)
    else:
        print("ok: %s: Python, its doctest passes" % where)
for where in failed:
    print("FAIL: %s: its doctest fails (above)" % where)
sys.exit(1 if failed else 0)
"""


def run_python(where, text, opts, following):
    """A script: run on its own."""
    work = folder(opts)
    script = os.path.join(work, "snippet.py")
    open(script, "w").write(text)
    r = subprocess.run([python, script], cwd=work, capture_output=True, text=True, env=env())
    want = int(opts.get("status", "0"))
    if r.returncode != want:
        fail(where, "exit %d, not %d:\n%s%s" % (r.returncode, want, r.stdout[-6000:], r.stderr[-3000:]))
        return
    if opts.get("output") == "next":
        strip = lambda t: "\n".join(l.rstrip() for l in t.split("\n"))
        if strip(r.stdout) != strip(following):
            fail(where, "its output is not the page's:\n--- page\n%s--- got\n%s" % (following, r.stdout))
            return
    ran["python"] += 1
    print("ok: %s: Python, run%s" % (where, ", its output the page's" if opts.get("output") else ""))


def run_doctests(page, tests):
    """A page's `>>>` blocks: one session, in order (a walk-through: a name one block makes, the
    next uses), in one folder with every block's files."""
    if not tests:
        return
    merged = {"files": " ".join(o.get("files", "") for _, _, o in tests)}
    work = folder(merged)
    listed = []
    for n, (where, text, _) in enumerate(tests):
        path = os.path.join(work, "doctest%d.txt" % n)
        open(path, "w").write(text)
        listed.append((where, path))
    open(os.path.join(work, "tests.json"), "w").write(json.dumps(listed))
    open(os.path.join(work, "run_doctest.py"), "w").write(DOCTEST_RUNNER)
    r = subprocess.run([python, os.path.join(work, "run_doctest.py"), os.path.join(work, "tests.json")],
                       cwd=work, capture_output=True, text=True, env=env())
    print(r.stdout[-12000:], end="")
    if r.returncode != 0:
        fail(page, "%s%s" % ("" if r.stdout else "exit %d" % r.returncode, r.stderr[-3000:]))
    ran["python"] += r.stdout.count("its doctest passes")


def run_cmake(where, text, opts):
    """A CMake project: the block as CMakeLists.txt beside the copied examples, configured
    against the prefix (CMAKE_PREFIX_PATH, as the page says), built, `then` run."""
    work = folder(opts)
    for f in opts.get("copy", "").split():
        shutil.copy(os.path.join(examples, os.path.basename(f)), work)
    open(os.path.join(work, "CMakeLists.txt"), "w").write(text)
    script = ('cmake -S . -B build -DCMAKE_PREFIX_PATH="%s" -DCMAKE_BUILD_TYPE=Release >cmake.log 2>&1 '
              '|| { cat cmake.log; exit 1; }\ncmake --build build >>cmake.log 2>&1 || { cat cmake.log; exit 1; }\n%s\n'
              % (prefix, opts.get("then", "")))
    r = subprocess.run(["bash", "-e", "-c", script], cwd=work, capture_output=True, text=True, env=env())
    if r.returncode != 0:
        fail(where, "exit %d:\n%s\n%s%s" % (r.returncode, text, r.stdout[-3000:], r.stderr[-2000:]))
        return
    ran["cmake"] += 1
    print("ok: %s: CMake project, configured against the prefix, built and run" % where)


def check_install_table(page):
    """Every path the table of "Installing" names is in the prefix."""
    text = open(page).read()
    section = text[text.index("## Installing"):text.index("## Linking")]
    for row in re.findall(r"^\| (`[^|]*) \|", section, re.M):
        for path in re.findall(r"`((?:bin|include|lib|share)/[^`]*)`", row):
            where = "%s: the install table's %s" % (os.path.basename(page), path)
            if not glob.glob(os.path.join(prefix, path.rstrip("/"))):
                fail(where, "not installed")
            else:
                ran["paths"] += 1


def run_sh(where, text, opts):
    work = folder(opts)
    for f in opts.get("copy", "").split():
        shutil.copy(os.path.join(examples, os.path.basename(f)), work)
    if "prefix" in opts:
        text = text.replace(opts["prefix"], prefix)
    script = text + "\n" + opts.get("then", "") + "\n"
    e = env()
    e.pop("PKG_CONFIG_PATH")  # (the block says how it finds calltree)
    e.pop("LD_LIBRARY_PATH", None)
    r = subprocess.run(["bash", "-e", "-c", script], cwd=work, capture_output=True, text=True, env=e)
    if r.returncode != 0:
        fail(where, "exit %d:\n%s\n%s%s" % (r.returncode, script, r.stdout[-2000:], r.stderr[-3000:]))
        return
    ran["sh"] += 1
    print("ok: %s: sh, run" % where)


root = tempfile.mkdtemp()
try:
    for page in sorted(glob.glob(os.path.join(docs, "*.md"))):
        doctests = []
        for lang, text, marker, following, line in blocks(page):
            where = "%s:%d" % (os.path.basename(page), line)
            opts = parse_marker(marker)
            if lang not in ("cpp", "c++", "python") and not (lang in ("sh", "cmake") and lang in opts):
                continue
            if "skip" in opts:
                if not opts["skip"]:
                    fail(where, "skip= without a reason")
                skipped.append("%s (%s)" % (where, opts["skip"]))
                continue
            if lang in ("cpp", "c++"):
                run_cpp(where, text, opts, following)
            elif lang == "python" and re.search(r"^>>> ", text, re.M):
                doctests.append((where, text, opts))
            elif lang == "python":
                run_python(where, text, opts, following)
            elif lang == "cmake":
                run_cmake(where, text, opts)
            else:
                run_sh(where, text, opts)
        run_doctests(os.path.basename(page), doctests)
        if os.path.basename(page) == "library.md":
            check_install_table(page)
finally:
    shutil.rmtree(root, ignore_errors=True)

for s in skipped:
    print("skipped, as its marker says: %s" % s)
if failures:
    sys.exit(1)
print("ok: the docs' snippets: %d C++, %d Python, %d sh, %d CMake run; %d skipped by their markers; "
      "library.md's install table: %d paths installed"
      % (ran["cpp"], ran["python"], ran["sh"], ran["cmake"], len(skipped), ran["paths"]))
