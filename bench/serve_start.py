#!/usr/bin/env python3
"""serve_start.py CALLTREE FILE [--reps=N] — serve's start against check's, and its memory.

The figures of docs/performance.md's "serve at any size" table, all measured in one run, the
commands alternated round by round (a shared machine's load falls on both alike):

  check        `calltree check FILE`, wall time
  URL          from starting `calltree serve FILE` to its printed URL
  first list   URL + the page (/, its scripts and styles) + /api/v1/profile + the first window
               of /api/v1/functions: what the browser needs before it shows the list
  RSS at list  the server's resident memory (VmRSS) once the first list is answered, against
               the file's size (uncompressed: FILE's decompressed size for a .gz/.zst/.xz/.bz2)
  function     then, right after the list, a click on each of the list's three heaviest
               functions (function/ID: its callers, callees and lines), the slowest of the three
  source       the slowest of their source views (source/FILE_ID?function=ID)
  asm          the slowest of their machine code (asm/ID; skipped when objdump has nothing)
  graph        the slowest of their call graphs (graph/ID)
  lines ready  from the URL to the first click's answer
  flame        then the flame graph (flame)
  peak RSS     VmHWM 3 s later, at the end of the round

Prints a Markdown table: median [best-worst] of each figure over the rounds, and the ratios the
targets are stated in (first list / check; RSS / file), from medians. Requests go to 127.0.0.1
only; each round is a handful of requests.
"""
import gzip
import os
import re
import statistics
import subprocess
import sys
import time

from serve_client import Client, start, vm


def plain_size(path):
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            n = 0
            while True:
                b = f.read(1 << 24)
                if not b:
                    return n
                n += len(b)
    for ext, cmd in ((".zst", ["zstd", "-dc"]), (".xz", ["xz", "-dc"]), (".bz2", ["bzip2", "-dc"])):
        if path.endswith(ext):
            out = subprocess.run(cmd + [path], stdout=subprocess.PIPE, check=True).stdout
            return len(out)
    return os.path.getsize(path)


def round_of(calltree, path):
    t0 = time.perf_counter()
    subprocess.run([calltree, "check", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    check = time.perf_counter() - t0
    p, port, token, began, url = start(calltree, [path])
    r = {"check": check, "url": url}
    try:
        c = Client(port, token)
        html = c.get("request", "/", raw=True).decode("utf-8", "replace")
        for asset in re.findall(r'(?:src|href)="(/assets/[^"]+)"', html):
            c.get("request", asset, raw=True)
        c.get("request", "/api/v1/profile")
        top = c.get("request", "/api/v1/functions?limit=100")["rows"]
        r["first list"] = time.perf_counter() - began
        r["RSS at list"] = vm(p.pid, "VmRSS")
        heaviest = [x for x in top if x["kind"] == "function" and x.get("cycle") is None][:3]

        def timed(key, route, ok=(200,)):
            t0 = time.perf_counter()
            if c.get("request", route, ok=ok) is not None:
                r[key] = max(r.get(key, 0), time.perf_counter() - t0)

        for fn in heaviest:
            timed("function", "/api/v1/function/%d" % fn["id"])
            r.setdefault("lines ready", time.perf_counter() - began - url)
            if fn.get("file_id") is not None:
                timed("source", "/api/v1/source/%d?function=%d" % (fn["file_id"], fn["id"]))
            timed("asm", "/api/v1/asm/%d" % fn["id"], ok=(200, 404, 422))
            timed("graph", "/api/v1/graph/%d" % fn["id"])
        timed("flame", "/api/v1/flame")
        r["RSS after"] = vm(p.pid, "VmRSS")
        time.sleep(3)
        r["peak RSS"] = vm(p.pid, "VmHWM")
    finally:
        p.terminate()
        p.wait(timeout=120)
    return r


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    reps = 5
    for a in sys.argv[1:]:
        if a.startswith("--reps="):
            reps = int(a[len("--reps="):])
    if len(args) != 2:
        sys.exit(__doc__)
    calltree, path = args
    size = plain_size(path)
    with open(path, "rb") as f:  # (in the page cache)
        while f.read(1 << 24):
            pass
    load0 = open("/proc/loadavg").read().split()[:3]
    rounds = [round_of(calltree, path) for _ in range(reps)]
    load1 = open("/proc/loadavg").read().split()[:3]
    print("### %s (%.1f MB on disk, %.1f MB plain; %d rounds; load %s before, %s after)" %
          (os.path.basename(path), os.path.getsize(path) / 1e6, size / 1e6, reps,
           " ".join(load0), " ".join(load1)))
    print()
    print("| figure | median | best | worst |")
    print("|---|---:|---:|---:|")
    med = {}
    for k in ("check", "url", "first list", "function", "source", "asm", "graph", "lines ready",
              "flame", "RSS at list", "RSS after", "peak RSS"):
        xs = [r[k] for r in rounds if k in r]
        if not xs:
            continue
        med[k] = statistics.median(xs)
        if "RSS" in k:
            print("| %s | %.1f MB (%.2fx) | %.1f MB | %.1f MB |" %
                  (k, med[k] / 1e6, med[k] / size, min(xs) / 1e6, max(xs) / 1e6))
        else:
            print("| %s | %.3f s | %.3f s | %.3f s |" % (k, med[k], min(xs), max(xs)))
    print()
    print("first list / check: %.2fx (target 1.3x); RSS at list / file: %.2fx (target 0.5x); "
          "peak RSS / file: %.2fx (target 0.6x)" % (med["first list"] / med["check"],
                                                    med["RSS at list"] / size,
                                                    med["peak RSS"] / size))
    clicks = max(med.get(k, 0) for k in ("function", "source", "asm", "graph"))
    print("slowest click: %.3f s (target 0.3 s, 1 s past 500 MB); flame: %.3f s (target 1 s, "
          "3 s past 500 MB)" % (clicks, med.get("flame", 0)))


if __name__ == "__main__":
    main()
