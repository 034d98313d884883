#!/usr/bin/env python3
"""export's stack filters (--focus, --ignore, --hide, --show-frames) against go tool pprof's own.

For every corpus file, with regular expressions made from its heaviest functions' names:
`go tool pprof -top` of our filtered pprof export and `go tool pprof -top -focus=RE` (-ignore,
-hide, -show) of our unfiltered export give the same total and the same flat cost per function;
export's note on standard error says what it left out, and the stacks kept plus those left out
are the profile's total. The expressions are anchored names (^name$): pprof also matches a
function's source file and object names, calltree only its name (docs/export.md), so these
differ only where an expression matches a file or object name. A bad expression is exit 2 with
RE2's reason; --to=dot and --addresses refuse the filters.
"""
import os
import re
import shutil
import subprocess
import sys

import corpus

calltree, corpus_dir = corpus.args()
tmp = corpus.tempdir()
env = dict(os.environ, HOME=tmp, GOCACHE=os.path.join(tmp, "gocache"), GOFLAGS="",
           GOTOOLCHAIN="local", PPROF_TMPDIR=tmp)
if not shutil.which("go"):
    sys.exit("go is not installed (scripts/install-deps.sh installs golang-go)")


def scale_of(event):
    m = re.search(r"\((\d+)[a-z]+\)$", event)
    return int(m.group(1)) if m else 1


def pprof(*a):
    return corpus.run(["go", "tool", "pprof"] + list(a), env=env).decode()


def escape(name):
    return re.sub(r"([\\.+*?()|\[\]{}^$])", r"\\\1", name)


PCT = r"[-+\d.e]+%"


# -unit= for the sample types with a unit (check_pprof.py's), so that -top prints whole numbers.
UNIT_FLAG = {"Time_(10ns)": "ns", "Memory_(bytes)": "B", "ns": "ns", "cpu(ms)": "ms",
             "microseconds": "us"}


def top(path, event, *flags):
    """(shown, total, {function name: flat}) of `go tool pprof -top` of the first sample type:
    what the nodes shown account for (every node: -nodefraction=0) and the profile's total."""
    unit = ["-unit=" + UNIT_FLAG[event]] if event in UNIT_FLAG else []
    text = pprof("-top", "-nodecount=1000000", "-nodefraction=0", "-edgefraction=0",
                 "-sample_index=0", *unit, *flags, path)
    m = re.search(r"accounting for (-?\d+)\S*, [-+\d.e]+% of (-?\d+)\S* total", text)
    shown, total = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    row_re = re.compile(r"^\s*(-?\d+)\S*\s+" + PCT + r"\s+" + PCT + r"\s+(-?\d+)\S*\s+" + PCT +
                        r"\s+(.*)$")
    flat = {}
    for line in text.splitlines():
        r = row_re.match(line)
        if r and int(r.group(1)):
            flat[r.group(3)] = int(r.group(1))
    if flat and not m:
        raise AssertionError("no total in pprof -top: " + text[:300])
    return shown, total, flat


def export(path, out, *flags):
    r = subprocess.run([calltree, "export", "--to=pprof", path, "-o", out] + list(flags),
                              capture_output=True)
    assert r.returncode == 0, "export %s: exit %d: %s" % (flags, r.returncode, r.stderr[-300:])
    return r.stderr.decode()


NOTE = re.compile(r"calltree export: (?:focus|ignore|hide|show)=.*: left out (\d+) of (\d+) (\S+)")


def check(path):
    name = os.path.basename(path)
    events, self_of, sums = corpus.annotate(calltree, path)
    if not events or sums[events[0]] == 0:
        return
    e = events[0]
    heavy = sorted(((c[e], n) for (n, _), c in self_of.items() if c[e]), reverse=True)
    names = []
    for _, n in heavy:
        if n not in names:
            names.append(n)
    if len(names) < 3:
        return
    plain = os.path.join(tmp, name + ".pb.gz")
    plain_err = export(path, plain)
    a, b, c = (escape(n) for n in names[:3])
    cases = [("focus", "^%s$" % b, "-focus"), ("ignore", "^%s$" % a, "-ignore"),
             ("hide", "^(%s|%s)$" % (a, c), "-hide"),
             ("show-frames", "^(%s|%s)$" % (b, c), "-show")]
    for ours, rx, theirs in cases:
        out = os.path.join(tmp, "%s.%s.pb.gz" % (name, ours))
        note = export(path, out, "--%s=%s" % (ours, rx))
        got = top(out, e)
        want = top(plain, e, "%s=%s" % (theirs, rx))
        # (pprof's "of N total" is the profile's before its filters: ours, filtered, is less.)
        assert got[0] == want[0], "--%s=%s: ours shows %d, pprof's %s %d" % (
            ours, rx, got[0], theirs, want[0])
        assert want[1] in (0, sums[e] * scale_of(e)), "pprof's total %d" % want[1]
        assert got[2] == want[2], "--%s=%s: flat per function differs: %s" % (
            ours, rx, sorted(set(got[2].items()) ^ set(want[2].items()))[:4])
        # The warning of a file whose stated total is not its functions' sum compares the
        # stacks before the filter: said as without one, never for the filter's cut.
        for line in note.splitlines():
            if "warning" in line:
                assert line in plain_err, "--%s: a warning of its own: %s" % (ours, line)
        m = NOTE.search(note)
        assert m, "--%s: no note of what was left out on stderr: %r" % (ours, note[-300:])
        dropped, total = int(m.group(1)), int(m.group(2))
        assert m.group(3) == e, "note names %s, not %s" % (m.group(3), e)
        assert total == sums[e], "--%s: note's total %d, annotate's %d" % (ours, total, sums[e])
        assert got[0] + dropped * scale_of(e) == total * scale_of(e), \
            "--%s: kept %d + left out %d x %d != total %d" % (ours, got[0], dropped, scale_of(e),
                                                              total)
    # Every filter that keeps everything gives the unfiltered stacks.
    out = os.path.join(tmp, name + ".all.pb.gz")
    note = export(path, out, "--focus=.", "--show-frames=.")
    assert top(out, e) == top(plain, e), "--focus=. --show-frames=. changed the stacks"
    assert NOTE.search(note).group(1) == "0", note


def check_bad_input():
    path = os.path.join(corpus_dir, "vg-threads-separate.t01.callgrind")
    for flags, want in [(["--to=pprof", "--focus=(a"], "--focus: bad regular expression: missing )"),
                        (["--to=folded", "--hide=*x"], "--hide: bad regular expression"),
                        (["--to=dot", "--ignore=main"], "apply to the stack formats"),
                        (["--to=pprof", "--addresses=yes", "--focus=main"], "without --addresses"),
                        (["--to=json", "--focus=main"], "--focus does not apply to --to=json")]:
        out = os.path.join(tmp, "bad.out")
        r = subprocess.run([calltree, "export"] + flags + [path, "-o", out],
                                  capture_output=True)
        err = r.stderr.decode()
        assert r.returncode == 2, "%s: exit %d, not 2: %s" % (flags, r.returncode, err)
        assert want in err, "%s: %r does not say %r" % (flags, err, want)
        assert not os.path.exists(out), "%s: wrote %s" % (flags, out)


files = corpus.corpus_files(corpus_dir)
failures = corpus.parallel(check, files)
failures += corpus.parallel(lambda _: check_bad_input(), ["bad input"])
shutil.rmtree(tmp, ignore_errors=True)
corpus.finish("export filters", failures, len(files) + 1)
