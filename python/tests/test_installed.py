"""The package as `cmake --install` puts it under a prefix, imported by Debian's python3 alone."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from conftest import BUILD_DIR, CORPUS

CHILD = textwrap.dedent("""
    import sys
    import calltree
    prefix, corpus = sys.argv[1], sys.argv[2]
    assert calltree.__file__.startswith(prefix), calltree.__file__
    maps = open("/proc/self/maps").read()
    libs = {line.split()[-1] for line in maps.splitlines() if "libcalltree.so" in line}
    assert libs and all(l.startswith(prefix) for l in libs), libs
    p = calltree.load(corpus + "/vg-recurse-default.callgrind")
    t = p.functions()
    print(p.totals["Ir"], int(t[t["name"] == "main"]["inclusive:Ir"].iloc[0]))
    for path, code in [(corpus + "/missing.out", "not-found"), (sys.executable, "no-profile")]:
        try:
            calltree.load(path)
        except calltree.Error as e:
            assert e.code == code, e
        else:
            raise SystemExit("no error for " + path)
    d = calltree.diff(corpus + "/vg-phases-toggle-collect.callgrind",
                      corpus + "/vg-phases-dump-before-zero-combined.callgrind")
    print(len(d) > 0, sorted(set(d["change"])))
""")


def test_installed_package(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", str(BUILD_DIR), "--prefix", str(prefix)],
                   check=True, capture_output=True)
    package = prefix / "lib" / "python3" / "dist-packages" / "calltree"
    installed = sorted(p.name for p in package.iterdir())
    assert [n for n in installed if n.startswith("_calltree.")], installed
    for name in ["__init__.py", "__init__.pyi", "_diff.py", "_errors.py", "_profile.py", "py.typed"]:
        assert name in installed
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    env["PYTHONPATH"] = str(package.parent)
    done = subprocess.run(["/usr/bin/python3", "-c", CHILD, str(prefix), str(CORPUS)],
                          env=env, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["362861224 362733729", "True ['added', 'changed']"]
    assert sys.executable == "/usr/bin/python3"


def test_installed_example_scripts_run_as_they_are(tmp_path):
    # gate.py and trend.py are installed runnable, and their shebang is Debian's python3 (which
    # has the package and pandas), not whatever python3 comes first on PATH.
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", str(BUILD_DIR), "--prefix", str(prefix)],
                   check=True, capture_output=True)
    examples = prefix / "share" / "doc" / "calltree" / "examples" / "python"
    for name in ["gate.py", "trend.py"]:
        script = examples / name
        assert os.access(script, os.X_OK), f"{script} is installed without its run bit"
        assert script.read_text().splitlines()[0] == "#!/usr/bin/python3", name
    # A python3 first on PATH that has no pandas (as pyenv's may be).
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "python3").write_text("#!/bin/sh\necho 'not this python' >&2\nexit 99\n")
    (fake / "python3").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    env["PYTHONPATH"] = str(prefix / "lib" / "python3" / "dist-packages")
    env["PATH"] = f"{fake}:{env.get('PATH', '')}"
    done = subprocess.run([str(examples / "gate.py"), str(CORPUS / "vg-phases-dump-before-zero-combined.callgrind"),
                           str(CORPUS / "vg-phases-toggle-collect.callgrind"), "--fail-above=5"],
                          env=env, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[-1] == "gate: FAILED: Ir grew by 172.13% (more than 5.0%)"
