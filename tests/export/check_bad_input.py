#!/usr/bin/env python3
"""export on bad input: diagnostics as `calltree check` prints them, exit 1, nothing written.

For every file of tests/malformed that `calltree check` finds errors in, and every format:
exit status 1, `file:line:col: error: ... [code]` on stderr, OUT untouched (an existing OUT
keeps its bytes) and no temporary file left beside it. Then usage errors (exit 2): an unknown
format, an unknown event, a directory that does not exist.
"""
import glob
import os
import re
import shutil
import subprocess

import corpus

calltree, corpus_dir = corpus.args()
malformed_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "malformed")
tmp = corpus.tempdir()
FORMATS = ["pprof", "folded", "speedscope", "chrome", "dot", "svg", "flamegraph", "json"]
# (file:line:col, or file alone for what is about the whole input, as an empty file)
DIAG = re.compile(r"^.+?(?::\d+:\d+)?: error: .+ \[[a-z0-9-]+\]$", re.M)


def bad_files():
    out = []
    for f in sorted(glob.glob(os.path.join(malformed_dir, "*.callgrind"))):
        r = subprocess.run([calltree, "check", f], capture_output=True, text=True)
        if " error: " in r.stdout + r.stderr:
            out.append(f)
    assert len(out) >= 10, "only %d malformed files with errors" % len(out)
    return out


def check(path):
    d = os.path.join(tmp, os.path.basename(path))
    os.makedirs(d)
    for fmt in FORMATS:
        out = os.path.join(d, "out." + fmt)
        with open(out, "w") as f:
            f.write("keep")
        r = subprocess.run([calltree, "export", "--to=" + fmt, path, "-o", out],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 1, "%s: exit %d, stderr %s" % (fmt, r.returncode, r.stderr[-300:])
        assert DIAG.search(r.stderr), "%s: no file:line:col diagnostic in %r" % (fmt, r.stderr[:300])
        assert "nothing written" in r.stderr
        with open(out) as f:
            assert f.read() == "keep", "%s: OUT was changed" % fmt
        assert os.listdir(d) == [os.path.basename(out)], "%s: left %s" % (fmt, os.listdir(d))
        os.unlink(out)


bad = bad_files()
failures = corpus.parallel(check, bad)


def usage(_):
    good = os.path.join(corpus_dir, "vg-recurse-default.callgrind")
    for args, text in [(["--to=nope"], "unknown format"), (["--to=pprof", "--show=Nope"], "Nope"),
                       (["--to=folded", "--show=Ir,Dr"], "one event")]:
        out = os.path.join(tmp, "usage.out")
        r = subprocess.run([calltree, "export"] + args + [good, "-o", out], capture_output=True,
                           text=True)
        assert r.returncode == 2 and text in r.stderr, (args, r.returncode, r.stderr)
        assert not os.path.exists(out)
    r = subprocess.run([calltree, "export", "--to=pprof", good, "-o",
                        os.path.join(tmp, "no", "such", "dir", "x.pb.gz")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "cannot write" in r.stderr, r.stderr
    r = subprocess.run([calltree, "export", "--to=pprof", os.path.join(tmp, "absent.callgrind"),
                        "-o", os.path.join(tmp, "absent.pb.gz")], capture_output=True, text=True)
    assert r.returncode == 1 and "absent.callgrind" in r.stderr, r.stderr


failures += corpus.parallel(usage, ["usage errors"])
shutil.rmtree(tmp, ignore_errors=True)
corpus.finish("export bad input", failures, len(bad) + 1)
