"""serve_client.py — what the bench scripts of `calltree serve` share: starting a server on
127.0.0.1 and reading its URL, a client that times its requests, the server's memory."""
import http.client
import json
import re
import subprocess
import sys
import time


def start(calltree, files):
    """`calltree serve FILES...`: the process, its port and token, when it was started
    (perf_counter) and the seconds until its URL was printed."""
    t0 = time.perf_counter()
    p = subprocess.Popen([calltree, "serve", *files], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    line = p.stdout.readline().strip()
    ready = time.perf_counter() - t0
    m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})", line)
    if not m:
        p.kill()
        sys.exit("%s: no URL from calltree serve: %r" % (sys.argv[0], line))
    return p, int(m.group(1)), m.group(2), t0, ready


class Client:
    """One connection to the server; each request's time from sending to its last byte is kept
    under its kind (times[kind])."""

    def __init__(self, port, token):
        self.port, self.token = port, token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        self.times = {}

    def get(self, kind, target, raw=False, ok=(200,)):
        sep = "&" if "?" in target else "?"
        t0 = time.perf_counter()
        self.conn.request("GET", target + sep + "token=" + self.token,
                          headers={"Host": "127.0.0.1:%d" % self.port})
        r = self.conn.getresponse()
        body = r.read()
        dt = time.perf_counter() - t0
        if r.status not in ok:
            sys.exit("%s: %s: %d %s" % (sys.argv[0], target, r.status, body[:200]))
        self.times.setdefault(kind, []).append(dt)
        if r.status != 200:
            return None
        return body if raw else json.loads(body)


def vm(pid, field):
    """A field of /proc/PID/status in bytes (VmRSS, VmHWM)."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0
