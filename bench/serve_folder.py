#!/usr/bin/env python3
"""serve_folder.py CALLTREE [N] — `calltree serve DIR` on a folder of N profiles (10,000).

Not a unit test (docs/serve.md, "A folder of profiles", quotes its figures). Makes two folders
of N hard links each to corpus files: "small" (files of 1-16 KB: Xdebug, gperftools, pprofile,
callgrind thread files; read whole by the table) and "big" (files of 0.9-4.8 MB: callgrind,
Xdebug, a gzip one; their headers only). For each it measures, from the start of `calltree
serve DIR`: the time to the table's first page answered (GET /api/v1/folder?limit=50, newest
first: the URL line read, then the request), the time until every header is read (pending 0),
the time until a file copied in afterwards is listed (asked as the page asks: every
second, with rescan=1), and the server's
resident memory (VmRSS) at most while it lists. Prints them as a Markdown table with the
machine's load average. Requests go to 127.0.0.1 only.
"""
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

CALLTREE = os.path.abspath(sys.argv[1])
N = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get("CALLTREE_CORPUS_DIR", os.path.join(HERE, "..", "tests", "corpus"))
XDEBUG = os.path.join(HERE, "..", "tests", "server", "folder")

SMALL = [os.path.join(XDEBUG, f) for f in ("cachegrind.out.fib", "cachegrind.out.shapes",
                                           "cachegrind.out.words")] + [
    os.path.join(CORPUS, f) for f in ("gperftools-recurse-cpu.callgrind",
                                      "gperftools-phases-cpu.callgrind",
                                      "pprofile-work-deterministic.callgrind",
                                      "ruby-prof-work.callgrind",
                                      "vg-threads-separate.t02.callgrind",
                                      "vg-threads-separate.t04.callgrind")]
BIG = [os.path.join(CORPUS, f) for f in ("vg-gxx-small-default.cc1plus.callgrind",
                                         "vg-python-work-instr-jumps.callgrind",
                                         "xdebug-includes.callgrind",
                                         "xdebug-recursion.callgrind",
                                         "vg-gxx-big-instr-jumps.cc1plus.callgrind.gz")]


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def get(port, token, target):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("GET", target, headers={"Host": "127.0.0.1:%d" % port,
                                      "Authorization": "Bearer " + token})
    r = c.getresponse()
    body = json.loads(r.read())
    c.close()
    return body


def make(folder, sources):
    os.mkdir(folder)
    for i in range(N):
        src = sources[i % len(sources)]
        os.link(src, os.path.join(folder, "%05d-%s" % (i, os.path.basename(src))))
    return sum(os.path.getsize(s) for s in sources) * N // len(sources)


def measure(folder, new_source):
    t0 = time.monotonic()
    p = subprocess.Popen([CALLTREE, "serve", folder], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})", p.stdout.readline().strip())
    port, token = int(m.group(1)), m.group(2)
    first = get(port, token, "/api/v1/folder?limit=50")
    first_page = time.monotonic() - t0
    assert first["listed"] == N and len(first["rows"]) == 50, first["listed"]
    peak = rss_kb(p.pid)
    while True:
        a = get(port, token, "/api/v1/folder?limit=50&offset=5000")
        peak = max(peak, rss_kb(p.pid))
        if a["pending"] == 0:
            break
        time.sleep(0.1)
    all_headers = time.monotonic() - t0
    shutil.copy(new_source, os.path.join(folder, "new-" + os.path.basename(new_source)))
    t1 = time.monotonic()
    # Asked as the page asks: every second, with rescan=1 (web/src/Folder.tsx).
    while True:
        time.sleep(1.0)
        a = get(port, token, "/api/v1/folder?limit=1&rescan=1")
        peak = max(peak, rss_kb(p.pid))
        if a["listed"] == N + 1:
            break
    new_file = time.monotonic() - t1
    peak = max(peak, rss_kb(p.pid))
    p.terminate()
    p.wait(timeout=10)
    return first_page, all_headers, new_file, peak


tmp = tempfile.mkdtemp(prefix="calltree-bench-folder-")
try:
    print("| folder (%d hard links) | bytes | first page | all headers read | new file listed "
          "| peak RSS |" % N)
    print("|---|---|---|---|---|---|")
    for name, sources in (("small (1-16 KB each)", SMALL), ("big (0.9-4.8 MB each)", BIG)):
        folder = os.path.join(tmp, name.split()[0])
        total = make(folder, sources)
        first_page, all_headers, new_file, peak = measure(folder, sources[0])
        print("| %s | %.1f GB | %.2f s | %.2f s | %.2f s | %.0f MB |" % (
            name, total / 1e9, first_page, all_headers, new_file, peak / 1024))
        shutil.rmtree(folder)
    print("\nload average: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
