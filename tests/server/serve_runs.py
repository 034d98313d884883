#!/usr/bin/env python3
"""serve_runs.py CALLTREE RUNS — `calltree serve` on a run of several files, through a socket.

RUNS is tests/runs: `threads/` (valgrind --separate-threads=yes: callgrind.out.PID-01 .. -05)
and `dumps/` (--dump-before: callgrind.out.PID.1 .. .3 and callgrind.out.PID). `serve FILE...`
(three or more, or --parts with two) is one profile whose parts are the files: its totals,
and every function's self and inclusive cost and calls, are those of `calltree merge` of the
same files served as one file; a part alone is that file's. One file of a run lists its
siblings in /api/v1/status, and --siblings loads them all in KCachegrind's order.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import serve_process
from serve_process import FAILURES, check

CALLTREE, RUNS = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])


class Server(serve_process.Server):
    calltree = CALLTREE

    def functions(self, query=""):
        """Every function: (name, file, object) -> (self, inclusive, calls)."""
        rows = self.json("/api/v1/functions?cycles=no&limit=5000" + query)["rows"]
        return {(r["name"], r["file"], r["object"]): (r["self"], r["inclusive"], r.get("calls"))
                for r in rows}


def merged(files, tmp, name, parts="sum"):
    out = os.path.join(tmp, name)
    r = subprocess.run([CALLTREE, "merge", "--parts=" + parts, *files, "-o", out],
                       capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, "merge: %s" % r.stderr)
    return out


def served(*args, cwd=None):
    """The profile, functions and status of `serve ARGS`."""
    s = Server(*args, cwd=cwd)
    try:
        return s.json("/api/v1/profile"), s.functions(), s.json("/api/v1/status")
    finally:
        code, err = s.stop()
        check(code == 0, "serve %s: exit %s %s" % (args, code, err))


threads = sorted(glob.glob(os.path.join(RUNS, "threads", "callgrind.out.*-0*")))
dumps_dir = os.path.join(RUNS, "dumps")
dumps = glob.glob(os.path.join(dumps_dir, "callgrind.out.*"))
check(len(threads) == 5 and len(dumps) == 4, "the runs: %s %s" % (threads, dumps))
stem = min(dumps, key=len)  # callgrind.out.PID, the program's end
dumps_in_order = [stem + ".1", stem + ".2", stem + ".3", stem]
tmp = tempfile.mkdtemp(prefix="calltree-runs-")
try:
    # 1. Five thread files: one profile of five parts, each a file; the merge's numbers.
    p, fns, st = served(*threads)
    m_p, m_fns, _ = served(merged(threads, tmp, "threads.callgrind"))
    inp = p["inputs"][0]
    check(p["mode"] == "single" and len(p["inputs"]) == 1, "a run is one profile")
    check([os.path.basename(f["name"]) for f in inp["files"]]
          == [os.path.basename(f) for f in threads], "the run's files: %s" % inp["files"])
    check([(q["index"], q["file"], q["thread"]) for q in inp["parts"]]
          == [(i + 1, i, i + 1) for i in range(5)], "a part per file: %s" % inp["parts"])
    check(p["totals"] == m_p["totals"], "totals %s, merge's %s" % (p["totals"], m_p["totals"]))
    check(fns.keys() == m_fns.keys(), "the functions of the run and of the merge: %d, %d" % (
        len(fns), len(m_fns)))
    diff = [k for k in fns if k in m_fns and (fns[k][0], fns[k][2]) != (m_fns[k][0], m_fns[k][2])]
    check(not diff, "%d functions' self cost or calls differ from the merge's, e.g. %s" % (
        len(diff), [(k, fns[k], m_fns[k]) for k in diff[:2]]))
    # Inclusive costs are solved in each part, as for a file of several parts: those of
    # `merge --parts=keep` (a part per file), not of the parts summed first (where a thread's
    # `clone`, called by the main thread, counts only the calls into it).
    k_p, k_fns, _ = served(merged(threads, tmp, "threads-keep.callgrind", "keep"))
    check(p["totals"] == k_p["totals"] and fns == k_fns,
          "the run is merge --parts=keep: %s" % [(k, fns.get(k), k_fns.get(k))
                                                for k in set(fns) | set(k_fns)
                                                if fns.get(k) != k_fns.get(k)][:2])
    check(st["siblings"] == [] and len(st["files"]) == 5, "a run's status: %s" % st)
    # A part alone is its file.
    s = Server(*threads)
    try:
        for part in (1, 4):
            one = Server(threads[part - 1])
            try:
                check(s.functions("&parts=%d" % part) == one.functions(),
                      "part %d of the run is %s" % (part, threads[part - 1]))
            finally:
                one.stop()
        for route in ("/api/v1/flame", "/api/v1/functions?group=file",
                      "/api/v1/function/0", "/api/v1/graph/0", "/api/v1/asm/0"):
            s.json(route)
    finally:
        s.stop()

    # 2. Two files: a diff, unless --parts.
    p, _, _ = served(threads[1], threads[3])
    check(p["mode"] == "diff", "two files are OLD NEW")
    p, _, _ = served("--parts", threads[1], threads[3])
    m_p, _, _ = served(merged([threads[1], threads[3]], tmp, "two.callgrind"))
    check(p["mode"] == "single" and len(p["inputs"][0]["parts"]) == 2
          and p["totals"] == m_p["totals"], "--parts with two files")

    # 3. One file of a run: its siblings are listed; --siblings loads them all, in order.
    p, _, st = served(threads[2])
    check(len(p["inputs"][0]["parts"]) == 1, "one file alone")
    check(sorted(os.path.basename(f) for f in st["siblings"])
          == sorted(os.path.basename(f) for f in threads if f != threads[2]),
          "siblings of %s: %s" % (threads[2], st["siblings"]))
    p, _, _ = served("--siblings", os.path.basename(threads[2]),
                     cwd=os.path.dirname(threads[2]))
    check([f["name"] for f in p["inputs"][0]["files"]] == [os.path.basename(f) for f in threads],
          "--siblings: the threads in order: %s" % p["inputs"][0].get("files"))
    p, fns, _ = served("--siblings", dumps_in_order[1])
    m_p, m_fns, _ = served(merged(dumps_in_order, tmp, "dumps.callgrind"))
    check([f["name"] for f in p["inputs"][0]["files"]] == dumps_in_order,
          "--siblings: the dumps in order, the program's end last: %s" % [
              f["name"] for f in p["inputs"][0]["files"]])
    k_p, k_fns, _ = served(merged(dumps_in_order, tmp, "dumps-keep.callgrind", "keep"))
    check(p["totals"] == m_p["totals"] and fns == k_fns, "the dumps as the merge of them")
    # A copy outside the run's folder has no siblings.
    lone = os.path.join(tmp, "callgrind.out.99-01")
    shutil.copyfile(threads[0], lone)
    _, _, st = served(lone)
    check(st["siblings"] == [], "a lone file: %s" % st["siblings"])

    # 4. Reload of a run: one file rewritten.
    run = [os.path.join(tmp, os.path.basename(f)) for f in threads]
    for a, b in zip(threads, run):
        shutil.copyfile(a, b)
    s = Server(*run)
    try:
        shutil.copyfile(threads[1], run[2])
        st = s.json("/api/v1/status")
        check([f["state"] for f in st["files"]] == ["same", "same", "changed", "same", "same"],
              "a run's status after a file changed: %s" % st)
        check(s.json("/api/v1/reload?generation=1")["generation"] == 2, "a run reloaded")
        q = s.json("/api/v1/profile")["inputs"][0]["parts"]
        check(q[2]["totals"] == q[1]["totals"], "the third part is now the second file's")
    finally:
        s.stop()

    # 5. Usage errors: exit 2.
    for args in (["--siblings", threads[0], threads[1]], ["--parts", threads[0], "-"],
                 [threads[0], threads[1], "-"]):
        r = subprocess.run([CALLTREE, "serve", *args], capture_output=True, text=True,
                           timeout=60, stdin=subprocess.DEVNULL)
        check(r.returncode == 2 and r.stdout == "", "serve %s: %d %s" % (
            args, r.returncode, r.stderr))
    # A file of the run that cannot be read: exit 1, nothing served.
    r = subprocess.run([CALLTREE, "serve", threads[0], threads[1], "/nonexistent/x"],
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 1 and r.stdout == "", "a missing file of a run: %d" % r.returncode)
finally:
    shutil.rmtree(tmp)

if FAILURES:
    print("%d failures" % len(FAILURES), file=sys.stderr)
    sys.exit(1)
print("serve_runs: ok")
