#!/usr/bin/env python3
"""serve_session.py CALLTREE FILE [OLD] — how fast `calltree serve` answers a session of clicks.

The figures of docs/performance.md's "serve" table, all measured in one run on this machine:

  check      `calltree check FILE`, wall time (best of 3): the floor a first view is held to
  ready      from starting `calltree serve FILE` to its printed URL (the profile is loaded)
  first view ready + the page (/, its scripts and styles) + /api/v1/profile + the first
             window of /api/v1/functions: what the browser needs before it shows the list
  RSS        the server's peak resident memory (VmHWM) after the whole session, against the
             file's size
  requests   a replayed session of clicks, each timed from the request to the last byte:
             for each of the 10 functions of highest self cost, select it (function/ID),
             expand callers and callees (the returned ids' function/ID, up to 3 each), the
             call graph (graph/ID), the flame graph from it and its callers (the sandwich),
             its source (source/FILE_ID); then sorts by every column, a regex search, a group
             by object, the whole flame graph; and, with OLD, `serve OLD FILE`'s diff list,
             sorted three ways and grouped by object, and its flame graph coloured by change
             (with that server's time to its URL and its peak RSS against the two files).

Prints one table: p50, p95 and max per kind of request and over all of them. Requests go to
127.0.0.1 only; the session is bounded (a few hundred requests).
"""
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.parse

from serve_client import Client, start, vm


def page(c):
    html = c.get("page", "/", raw=True).decode("utf-8", "replace")
    for asset in re.findall(r'(?:src|href)="(/assets/[^"]+)"', html):
        c.get("page", asset, raw=True)


def single_session(c):
    prof = c.get("profile", "/api/v1/profile")
    events = [e["name"] if isinstance(e, dict) else e for e in prof.get("events") or []]
    top = c.get("functions", "/api/v1/functions?limit=100")["rows"]
    for ev in events[:4]:
        for by in ("self", "inclusive"):
            c.get("functions", "/api/v1/functions?limit=100&by=%s&sort=%s" % (by, ev))
    c.get("functions", "/api/v1/functions?limit=100&by=calls")
    c.get("functions", "/api/v1/functions?limit=100&by=name")
    c.get("functions", "/api/v1/functions?limit=100&filter=" + urllib.parse.quote("(?i)alloc|parse"))
    c.get("functions", "/api/v1/functions?limit=100&offset=5000")
    c.get("functions", "/api/v1/functions?limit=100&group=object")
    c.get("flame", "/api/v1/flame")
    chosen = [r for r in top if r["kind"] == "function"][:10]
    for r in chosen:
        fid = r["id"]
        f = c.get("function", "/api/v1/function/%d" % fid)
        for side in ("callers", "callees"):
            for other in f[side][:3]:
                c.get("function", "/api/v1/function/%d" % other["id"])
        c.get("graph", "/api/v1/graph/%d" % fid)
        c.get("flame", "/api/v1/flame?root=%d" % fid)
        c.get("flame", "/api/v1/flame?root=%d&direction=callers" % fid)
        if r.get("file_id") is not None:
            c.get("source", "/api/v1/source/%d?function=%d" % (r["file_id"], fid))


def diff_session(c):
    c.get("profile", "/api/v1/profile")
    c.get("diff", "/api/v1/functions?limit=100")
    c.get("diff", "/api/v1/functions?limit=100&measure=percent")
    c.get("diff", "/api/v1/functions?limit=100&by=inclusive")
    c.get("diff", "/api/v1/functions?limit=100&group=object")
    c.get("flame", "/api/v1/flame")


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    calltree, path = sys.argv[1], sys.argv[2]
    old = sys.argv[3] if len(sys.argv) == 4 else None
    size = os.path.getsize(path)

    check = []
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([calltree, "check", path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        check.append(time.perf_counter() - t0)

    p, port, token, _, ready = start(calltree, [path])
    try:
        c = Client(port, token)
        t0 = time.perf_counter()
        page(c)
        c.get("profile", "/api/v1/profile")
        c.get("functions", "/api/v1/functions?limit=100")
        first = ready + time.perf_counter() - t0
        single_session(c)
        hwm = vm(p.pid, "VmHWM")
    finally:
        p.terminate()
        p.wait(timeout=60)
    times = c.times
    if old:
        p, port, token, _, diff_ready = start(calltree, [old, path])
        try:
            d = Client(port, token)
            diff_session(d)
            diff_hwm = vm(p.pid, "VmHWM")
        finally:
            p.terminate()
            p.wait(timeout=60)
        for k, v in d.times.items():
            times.setdefault("diff " + k if k != "diff" else k, []).extend(v)

    print("file          %s (%.1f MB)" % (path, size / 1e6))
    print("check         %.3f s (best of 3)" % min(check))
    print("ready         %.3f s   (%.2fx check)" % (ready, ready / min(check)))
    print("first view    %.3f s   (check x 1.5 + 0.5 s = %.3f s)" % (first, min(check) * 1.5 + 0.5))
    print("peak RSS      %.1f MB  (%.2fx the file)" % (hwm / 1e6, hwm / size))
    if old:
        both = size + os.path.getsize(old)
        print("diff ready    %.3f s   (serve OLD FILE to its URL)" % diff_ready)
        print("diff RSS      %.1f MB  (%.2fx the two files)" % (diff_hwm / 1e6, diff_hwm / both))
    print("%-16s %6s %9s %9s %9s" % ("requests", "count", "p50 ms", "p95 ms", "max ms"))
    every = []
    for kind in sorted(times):
        if kind == "page":
            continue
        xs = times[kind]
        every += xs
        print("%-16s %6d %9.1f %9.1f %9.1f" % (kind, len(xs), 1e3 * statistics.median(xs),
                                             1e3 * pct(xs, 0.95), 1e3 * max(xs)))
    print("%-16s %6d %9.1f %9.1f %9.1f" % ("all", len(every), 1e3 * statistics.median(every),
                                         1e3 * pct(every, 0.95), 1e3 * max(every)))


if __name__ == "__main__":
    main()
