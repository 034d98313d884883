#!/usr/bin/env python3
"""serve_load.py CALLTREE FILE [OLD] [--clients=32] [--seconds=60 | --requests=N] — `calltree serve` under load.

Not a unit test (docs/reliability.md, "The server under load", quotes its figures): CLIENTS
threads, each on a kept-alive connection of its own, replay the page's own requests (web/src/
api.ts: the profile, the function list sorted, searched and grouped, each of the 20 functions
of highest self cost selected (function/ID), its call graph, its flame graph and sandwich, its
source and machine code; with OLD, a second server `serve OLD FILE` answers the diff list and
its flame graph) for SECONDS, or until N requests were answered (--requests: the RSS figure
after many requests; its growth is printed ten times on the way). A 503 with Retry-After (the
server is making as many machine-code answers as it makes at once) is asked again after that
time, as the page does: the time of the request is the whole wait, and the retries are counted
apart. Prints the requests per second, p50/p95/p99/max of the answers' times, errors (no
answer, or a status of 500 or more after the retries: 0 wanted), the statuses, and each
server's resident memory (VmRSS) after one of each request, after one round of every request
by every client at once (the start: the growth is from it) and at the end, and the machine's
load average. Requests go to 127.0.0.1 only.
"""
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse


def start(calltree, files):
    p = subprocess.Popen([calltree, "serve", *files], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    line = p.stdout.readline().strip()
    m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})", line)
    if not m:
        p.kill()
        sys.exit("serve did not start: %r" % line)
    return p, int(m.group(1)), m.group(2)


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def get(port, token, path, retry=False):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    sep = "&" if "?" in path else "?"
    c.request("GET", "/api/v1/" + path + sep + "token=" + token)
    r = c.getresponse()
    body = r.read()
    c.close()
    if retry:  # (True once answered; False for a busy answer, after its Retry-After)
        if r.status == 503 and r.getheader("Retry-After"):
            time.sleep(int(r.getheader("Retry-After")))
            return False
        return True
    return json.loads(body) if r.status == 200 else None


def requests_of(port, token, diff_port=None, diff_token=None):
    """The page's requests, as (port, token, path)."""
    q = urllib.parse.quote
    out = [(port, token, "profile")]
    for by in ("self", "inclusive", "calls", "name"):
        out.append((port, token, "functions?by=%s&limit=100" % by))
    out.append((port, token, "functions?filter=%s&limit=100" % q("(?i)alloc")))
    out.append((port, token, "functions?group=object&limit=100"))
    out.append((port, token, "flame"))
    rows = get(port, token, "functions?by=self&limit=20")["rows"]
    for row in rows:
        i = row["id"]
        out.append((port, token, "function/%d" % i))
        out.append((port, token, "graph/%d" % i))
        if row["name"].startswith("<cycle"):
            continue  # (the page asks a cycle for no flame graph or machine code)
        out.append((port, token, "flame?root=%d" % i))
        out.append((port, token, "flame?root=%d&direction=callers" % i))
        out.append((port, token, "asm/%d" % i))
        if row.get("file_id") is not None:
            out.append((port, token, "source/%d?function=%d" % (row["file_id"], i)))
    if diff_port:
        for by in ("self", "inclusive", "name"):
            out.append((diff_port, diff_token, "functions?by=%s&limit=100" % by))
        out.append((diff_port, diff_token, "functions?group=object&limit=100"))
        out.append((diff_port, diff_token, "flame"))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--"))
    calltree, path = args[0], args[1]
    old = args[2] if len(args) > 2 else None
    clients = int(opts.get("clients", 32))
    limit = int(opts["requests"]) if "requests" in opts else None
    seconds = float(opts.get("seconds", 60 if limit is None else 1e9))

    servers = []
    p, port, token = start(calltree, [path])
    servers.append(("serve FILE", p))
    diff_port = diff_token = None
    if old:
        dp, diff_port, diff_token = start(calltree, [old, path])
        servers.append(("serve OLD FILE", dp))
    work = requests_of(port, token, diff_port, diff_token)
    # Every request once first (what a server makes on the first ask, and keeps, is made), then
    # a round of every request by every client at once (what CLIENTS requests at a time hold
    # in the workers' heaps is reached), so that the memory at the start is a served server's.
    for port_, token_, path_ in work:
        get(port_, token_, path_)
    rss_one = {name: rss_mb(s.pid) for name, s in servers}

    def warm(k):
        for j in range(len(work)):
            port_, token_, path_ = work[(k * 7 + j) % len(work)]
            for _ in range(60):
                try:
                    if get(port_, token_, path_, retry=True):
                        break
                except Exception:  # noqa: BLE001 (counted in the run, not here)
                    break
    warmers = [threading.Thread(target=warm, args=(k,)) for k in range(clients)]
    for t in warmers:
        t.start()
    for t in warmers:
        t.join()
    rss_start = {name: rss_mb(s.pid) for name, s in servers}

    times, statuses, errors, retried, answered = [], {}, [0], [0], [0]
    lock = threading.Lock()
    deadline = time.monotonic() + seconds
    every = max(1000, limit // 10) if limit else 0

    def claim():
        """False when the run is over (the time is up or N requests were claimed)."""
        if time.monotonic() >= deadline:
            return False
        if not limit:
            return True
        with lock:
            if answered[0] >= limit:
                return False
            answered[0] += 1
            n = answered[0]
        if n % every == 0:
            print("  %d requests, %.0f s: RSS %s" % (n, time.monotonic() - t0, ", ".join(
                "%.0f MB (%+.1f %%)" % (rss_mb(s.pid), 100 * (rss_mb(s.pid) - rss_start[name]) /
                                        max(rss_start[name], 1)) for name, s in servers)),
                  flush=True)
        return True

    def client(k):
        conns = {}
        i = k * 7
        mine_t, mine_s, mine_e, mine_r = [], {}, 0, 0
        while claim():
            port_, token_, path_ = work[i % len(work)]
            i += 1
            sep = "&" if "?" in path_ else "?"
            t = time.perf_counter()
            try:
                for _ in range(120):
                    c = conns.get(port_)
                    if c is None:
                        c = conns[port_] = http.client.HTTPConnection("127.0.0.1", port_,
                                                                      timeout=60)
                    c.request("GET", "/api/v1/" + path_ + sep + "token=" + token_,
                              headers={"Accept-Encoding": "gzip"})
                    r = c.getresponse()
                    r.read()
                    if r.getheader("Connection", "").lower() == "close":
                        c.close()
                        conns.pop(port_, None)
                    if r.status != 503 or not r.getheader("Retry-After"):
                        break
                    mine_r += 1  # (busy: asked again after the time it says, as the page does)
                    time.sleep(min(10, max(1, int(r.getheader("Retry-After")))))
                mine_t.append(time.perf_counter() - t)
                mine_s[r.status] = mine_s.get(r.status, 0) + 1
                if r.status >= 500:
                    mine_e += 1
            except Exception:  # noqa: BLE001 (no answer: counted)
                mine_e += 1
                conns.pop(port_, None)
        with lock:
            times.extend(mine_t)
            errors[0] += mine_e
            retried[0] += mine_r
            for s, n in mine_s.items():
                statuses[s] = statuses.get(s, 0) + n

    t0 = time.monotonic()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - t0
    rss_end = {name: rss_mb(s.pid) for name, s in servers}
    for _, s in servers:
        s.terminate()
        s.wait(timeout=30)

    times.sort()
    pct = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000 if times else 0
    print("file: %s (%.0f MB)%s" % (path, os.path.getsize(path) / 1e6,
                                    ", old: %s" % old if old else ""))
    print("clients: %d, %.0f s, %d distinct requests replayed" % (clients, took, len(work)))
    print("requests: %d (%.1f/s), errors: %d, statuses: %s, busy answers asked again: %d" % (
        len(times), len(times) / took, errors[0], dict(sorted(statuses.items())), retried[0]))
    print("answer ms: p50 %.1f, p95 %.1f, p99 %.1f, max %.1f, mean %.1f" % (
        pct(0.5), pct(0.95), pct(0.99), times[-1] * 1000 if times else 0,
        statistics.mean(times) * 1000 if times else 0))
    for name, _ in servers:
        print("%s RSS: %.0f MB after one of each request, %.0f MB after a round by every "
              "client, %.0f MB at the end (%+.1f %%)" % (
            name, rss_one[name], rss_start[name], rss_end[name],
            100 * (rss_end[name] - rss_start[name]) / max(rss_start[name], 1)))
    print("load average at the end: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    return 1 if errors[0] else 0


if __name__ == "__main__":
    sys.exit(main())
