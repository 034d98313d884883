#!/usr/bin/env python3
"""export --to=folded: collapsed stacks as flamegraph.pl and inferno read them.

For every corpus file and its first event (the default) and last event (--show=EVENT): every
line is `frame;frame;... COUNT`, the counts summed per last frame are the self costs `calltree
annotate --json` prints per function name, and their sum is the event's total. A frame shown
without the caller context its parent shows (`cyc_b` for `cyc_b'cyc_a'main` under
`cyc_a'main'...`) is read back to its full name, which must be the one function of the profile
it can be; and a frame shown with its context must not have had it shown by its parent.
"""
import os
import re
import shutil
from collections import defaultdict

import corpus

calltree, corpus_dir = corpus.args()
tmp = corpus.tempdir()
LINE = re.compile(r"^(.+) (\d+)$")


def folded_name(name):
    return name.replace(";", ":").replace("\n", " ").replace("\r", " ") or "?"


def read_back(stack, names):
    """The full names of a line's frames (see the docstring)."""
    full = []
    for i, shown in enumerate(stack):
        if i == 0:
            full.append(shown)
            continue
        parts = corpus.as_caller(full[-1]).split("'")
        implied = [shown + "'" + "'".join(parts[:j]) for j in range(1, len(parts) + 1)]
        assert corpus.stack_label(shown, full[-1]) == shown, (
            "%r is shown with the context its parent %r shows" % (shown, full[-1]))
        found = [n for n in [shown] + implied if n in names]
        assert len(found) == 1, "frame %r under %r is %s" % (
            shown, full[-1], "ambiguous: %s" % found if found else "no function of the profile")
        full.append(found[0])
    return full


def check(path):
    events, self_of, sums = corpus.annotate(calltree, path)
    for n, e in enumerate(sorted({events[0], events[-1]}, key=events.index)):
        out = os.path.join(tmp, "%s.%d.folded" % (os.path.basename(path), n))
        cmd = [calltree, "export", "--to=folded", path, "-o", out]
        if e != events[0]:
            cmd.insert(3, "--show=" + e)
        corpus.run(cmd)
        names = {folded_name(name) for (name, _) in self_of}
        got = defaultdict(int)
        total = 0
        with open(out, encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                m = LINE.match(line.rstrip("\n"))
                assert m, "%s: not a folded line: %r" % (e, line[:200])
                v = int(m.group(2))
                assert v > 0, "a line with no cost: %r" % line[:200]
                got[read_back(m.group(1).split(";"), names)[-1]] += v
                total += v
        want = defaultdict(int)
        for (name, _), costs in self_of.items():
            want[folded_name(name)] += costs[e]
        want = {k: v for k, v in want.items() if v}
        assert got == want, "%s: per-leaf sums differ from annotate's self costs on %s" % (
            e, sorted(set(got.items()) ^ set(want.items()))[:6])
        assert total == sums[e], "%s: total %d, annotate %d" % (e, total, sums[e])


files = corpus.corpus_files(corpus_dir)
failures = corpus.parallel(check, files)
shutil.rmtree(tmp, ignore_errors=True)
corpus.finish("export folded", failures, len(files))
