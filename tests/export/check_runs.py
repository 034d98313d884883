#!/usr/bin/env python3
"""export of a run of threads (tests/runs/threads, valgrind --separate-threads=yes), as one file
of five parts (`calltree merge --parts=keep`): each thread's stacks are its own.

In the folded stacks (and pprof's, read back by `go tool pprof -traces` where go is installed):
no stack of a worker (`worker`) has the main thread's `main` under it, every worker stack starts
at `clone` (the workers' entry), the counts sum to the file's total, and summed per last frame
to each function's self cost. Part selection as before: --part=N exports that thread alone.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

import corpus

calltree, _ = corpus.args()
runs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runs", "threads")
threads = sorted(glob.glob(os.path.join(runs, "callgrind.out.*-0*")))
assert len(threads) == 5, threads
tmp = tempfile.mkdtemp(prefix="calltree-runs-export-")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


try:
    merged = os.path.join(tmp, "threads.callgrind")
    corpus.run([calltree, "merge", "--parts=keep", *threads, "-o", merged])
    events, self_of, totals = corpus.annotate(calltree, merged)
    self_by_name = defaultdict(int)
    for (name, _file), per in self_of.items():
        self_by_name[name] += per[events[0]]
    for part in ["", "1", "2", "2,5"]:
        out = os.path.join(tmp, "t%s.folded" % part.replace(",", "_"))
        corpus.run([calltree, "export", "--to=folded"] + (["--part=" + part] if part else []) +
                   [merged, "-o", out])
        total = 0
        per_leaf = defaultdict(int)
        worker_stacks = 0
        with open(out) as f:
            for line in f:
                m = re.match(r"^(.+) (\d+)$", line.rstrip("\n"))
                check(m is not None, "a folded line: %r" % line)
                stack, count = m.group(1).split(";"), int(m.group(2))
                total += count
                per_leaf[stack[-1]] += count
                if "worker" in stack:
                    worker_stacks += 1
                    check("main" not in stack, "part %r: a worker under main: %s" % (part, line))
                    check(stack[0] == "clone", "part %r: a worker stack from %s" % (part, stack[0]))
        check(worker_stacks > 0 or part == "1", "part %r: no worker stack" % part)
        check(worker_stacks == 0 or part != "1", "part 1 (the main thread) has worker stacks")
        if not part:
            check(total == totals[events[0]], "folded total %d, file %d" % (total, totals[events[0]]))
            for name, v in self_by_name.items():
                check(per_leaf.get(name.replace(";", ":"), 0) == v or v == 0,
                      "self of %s: %d in the stacks, %d in the file" % (
                          name, per_leaf.get(name, 0), v))
    go = shutil.which("go")
    if go:
        pb = os.path.join(tmp, "t.pb.gz")
        corpus.run([calltree, "export", "--to=pprof", merged, "-o", pb])
        traces = corpus.run([go, "tool", "pprof", "-traces", pb]).decode()
        for block in traces.split("-----------+-------------------------------------------------------"):
            names = [l.split()[-1] for l in block.strip().splitlines() if l.strip()]
            if "worker" in names:
                check("main" not in names, "pprof: a worker under main: %s" % names)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
if failures:
    sys.exit("%d failure(s)" % len(failures))
print("ok: the threads' stacks are their own in folded%s" % (" and pprof" if shutil.which("go") else ""))
