#!/usr/bin/env python3
"""serve_http.py CALLTREE CORPUS — `calltree serve` through a real socket.

What serve_api_test.cc checks in-process, here end to end on the binary: the one line it prints
(the URL and a 128-bit token), the token as query parameter, Bearer header and the cookie it
sets, the Host check, GET/HEAD only, raw traversal targets, gzip, concurrent clients, a file
with errors that still opens, the diff mode, SIGINT and SIGTERM (exit 0), a port in use (exit
2), a profile that cannot be read (exit 1), a diff of standard input (exit 2), the warning of a non-loopback --host. Requests go
to 127.0.0.1 only; every loop is bounded.
"""
import gzip
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

CALLTREE, CORPUS = sys.argv[1], sys.argv[2]
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what, file=sys.stderr)


class Server:
    def __init__(self, *args):
        self.p = subprocess.Popen([CALLTREE, "serve", *args], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        self.line = self.p.stdout.readline().strip()
        m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})", self.line)
        check(m is not None, "the URL line: %r" % self.line)
        self.port, self.token = (int(m.group(1)), m.group(2)) if m else (0, "")

    def request(self, method, target, headers=None, token=True, host=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        if token:
            target += ("&" if "?" in target else "?") + "token=" + self.token
        c.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        c.putheader("Host", host if host is not None else "127.0.0.1:%d" % self.port)
        for k, v in (headers or {}).items():
            c.putheader(k, v)
        c.endheaders()
        r = c.getresponse()
        body = r.read()
        c.close()
        return r, body

    def json(self, target, **kw):
        r, body = self.request("GET", target, **kw)
        check(r.status == 200, "%s: %d %s" % (target, r.status, body[:200]))
        return json.loads(body)

    def stop(self, sig=signal.SIGINT):
        self.p.send_signal(sig)
        try:
            code = self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            code = "hung"
        return code, self.p.stderr.read()


def error_code(body):
    try:
        return json.loads(body)["error"]["code"]
    except Exception:
        return None


recurse = os.path.join(CORPUS, "vg-recurse-default.callgrind")
s = Server(recurse)
try:
    # The token: query, cookie, Bearer.
    r, body = s.request("GET", "/")
    check(r.status == 200, "/ with the token")
    cookie = r.getheader("Set-Cookie") or ""
    check(cookie == "calltree_token_%d=%s; Path=/; HttpOnly; SameSite=Strict" % (s.port, s.token),
          "the cookie: %r" % cookie)
    r, body = s.request("GET", "/api/v1/profile", token=False,
                        headers={"Cookie": cookie.split(";")[0]})
    check(r.status == 200, "the cookie alone")
    r, body = s.request("GET", "/api/v1/profile", token=False,
                        headers={"Authorization": "Bearer " + s.token})
    check(r.status == 200, "the Bearer header")
    r, body = s.request("GET", "/api/v1/profile", token=False)
    check(r.status == 401 and error_code(body) == "missing_token", "no token: %d" % r.status)
    r, body = s.request("GET", "/api/v1/profile?token=" + "0" * 32, token=False)
    check(r.status == 403 and error_code(body) == "bad_token", "a wrong token: %d" % r.status)
    # The Host header (DNS rebinding).
    for host in ("evil.example:%d" % s.port, "127.0.0.1:1", "localhost.evil.example:%d" % s.port):
        r, body = s.request("GET", "/api/v1/profile", host=host)
        check(r.status == 403 and error_code(body) == "bad_host", "Host %s: %d" % (host, r.status))
    r, body = s.request("GET", "/api/v1/profile", host="localhost:%d" % s.port)
    check(r.status == 200, "Host localhost")
    # No CORS, even when asked.
    r, body = s.request("GET", "/api/v1/profile", headers={"Origin": "http://evil.example"})
    check(not any(k.lower().startswith("access-control") for k, _ in r.getheaders()), "no CORS")
    # Methods.
    for m in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        r, body = s.request(m, "/api/v1/profile")
        check(r.status == 405, "%s: %d" % (m, r.status))
    r, body = s.request("HEAD", "/api/v1/profile")
    check(r.status == 200 and body == b"", "HEAD: %d, %d bytes" % (r.status, len(body)))
    # Traversal, raw.
    for target in ("/../../etc/passwd", "/assets/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
                   "/api/v1/source/..%2f..%2fetc%2fpasswd", "/api/v1/source/-1",
                   "/api/v1/function/99999999999999999999999"):
        r, body = s.request("GET", target)
        check(400 <= r.status < 500 and error_code(body) and b"root:" not in body,
              "%s: %d %s" % (target, r.status, body[:100]))
    # gzip for JSON when the client takes it.
    r, body = s.request("GET", "/api/v1/functions?limit=500", headers={"Accept-Encoding": "gzip"})
    check(r.getheader("Content-Encoding") == "gzip", "gzip")
    check(json.loads(gzip.decompress(body))["total_rows"] > 200, "gzip body")
    # Never brotli (cpp-httplib's takes seconds per megabyte): gzip for a browser's header.
    r, body = s.request("GET", "/api/v1/functions?limit=500",
                        headers={"Accept-Encoding": "gzip, deflate, br"})
    check(r.getheader("Content-Encoding") == "gzip", "gzip, not br: %s" % r.getheader("Content-Encoding"))
    r, body = s.request("GET", "/api/v1/functions?limit=500", headers={"Accept-Encoding": "br"})
    check(r.getheader("Content-Encoding") is None and json.loads(body)["total_rows"] > 200,
          "no encoding when only br is offered")
    # Every view answers; the numbers of the recurse example.
    rows = s.json("/api/v1/functions?limit=5")["rows"]
    check(rows[0]["name"] == "<cycle 1>", "the cycle first")
    fn = s.json("/api/v1/functions?filter=%5Ecyc_c%24")["rows"][0]
    check(fn["inclusive"]["Ir"] == 352761723, "cyc_c's inclusive cost")
    d = s.json("/api/v1/function/%d" % fn["id"])
    check([c["name"] for c in d["callers"]] == ["cyc_b"], "cyc_c's caller")
    s.json("/api/v1/graph/%d" % fn["id"])
    s.json("/api/v1/flame?root=%d&direction=callers" % fn["id"])
    src = s.json("/api/v1/source/%d" % fn["file_id"])
    check(src["missing"] and "not found" in src["message"], "a source not found says so")
    # Concurrent clients: 8 threads of 25 requests.
    errors = []

    def client(i):
        for k in range(25):
            try:
                r, body = s.request("GET", "/api/v1/functions?offset=%d&limit=50&by=%s" % (
                    k * 7, ["self", "inclusive", "name", "calls"][(i + k) % 4]))
                if r.status != 200:
                    errors.append(r.status)
            except Exception as e:  # noqa: BLE001
                errors.append(str(e))
    threads = [threading.Thread(target=client, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    check(not errors, "concurrent clients: %s" % errors[:5])
    # A port in use: exit 2.
    busy = subprocess.run([CALLTREE, "serve", "--port", str(s.port), recurse],
                          capture_output=True, text=True, timeout=20)
    check(busy.returncode == 2 and "cannot listen" in busy.stderr,
          "port in use: %d %s" % (busy.returncode, busy.stderr))
finally:
    code, err = s.stop(signal.SIGINT)
check(code == 0, "SIGINT: exit %s %s" % (code, err))

# With the source found (-I), SIGTERM.
s = Server("-I", CORPUS, recurse)
fn = s.json("/api/v1/functions?filter=%5Ecyc_c%24")["rows"][0]
src = s.json("/api/v1/source/%d?function=%d" % (fn["file_id"], fn["id"]))
check(not src["missing"] and any("cyc_c" in line for line in src["text"]), "the source text")
code, err = s.stop(signal.SIGTERM)
check(code == 0, "SIGTERM: exit %s" % code)

# SIGTERM the moment the URL is printed (before the server listens): still the end. (It was
# lost there, and the server ran on: cpp-httplib's stop() did nothing before listening began.)
hung = 0
for _ in range(20):
    s = Server(recurse)
    code, err = s.stop(signal.SIGTERM)
    hung += code != 0
check(hung == 0, "SIGTERM at once: %d of 20 did not end with 0" % hung)

# A file with errors opens, its diagnostics listed.
bad = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "malformed",
                   "m01-cost-before-events.callgrind")
s = Server(bad)
p = s.json("/api/v1/profile")
diags = p["inputs"][0]["diagnostics"]
check(diags["errors"] > 0 and diags["shown"], "the diagnostics of %s" % bad)
s.json("/api/v1/functions")
code, err = s.stop()
check(code == 0 and "errors" in err, "a file with errors: %s %s" % (code, err))

# Diff mode.
s = Server(recurse, os.path.join(CORPUS, "vg-recurse-cacheuse.callgrind"))
p = s.json("/api/v1/profile")
check(p["mode"] == "diff" and len(p["inputs"]) == 2, "diff mode")
d = s.json("/api/v1/functions?unchanged=no")
cd = json.loads(subprocess.run([CALLTREE, "diff", "--json", "--threshold=0", recurse,
                                os.path.join(CORPUS, "vg-recurse-cacheuse.callgrind")],
                               capture_output=True, text=True, timeout=60).stdout)
# (calltree diff's counts but for one word: changed is a self cost that differs, the list's
# Cost; calltree diff's changed ones whose self costs are the same are unchanged here)
same_self = sum(1 for f in cd["functions"] if f["change"] == "changed"
                and all(c["old"] == c["new"] for c in f["self"].values()))
want = dict(cd["counts"], changed=cd["counts"]["changed"] - same_self,
            unchanged=cd["counts"]["unchanged"] + same_self)
check(all(d["counts"][k] == want[k] for k in ("changed", "unchanged", "added", "removed"))
      and d["total_rows"] == cd["counts"]["listed"] - same_self
      and all(r["change"] != "unchanged" for r in d["rows"]), "diff rows as calltree diff's")
s.stop()

# Cannot read: exit 1. Usage: exit 2.
r = subprocess.run([CALLTREE, "serve", "/nonexistent/x.callgrind"], capture_output=True, text=True,
                   timeout=60)
check(r.returncode == 1 and r.stdout == "", "a file that cannot be read: %d" % r.returncode)
r = subprocess.run([CALLTREE, "serve"], capture_output=True, text=True, timeout=60)
check(r.returncode == 2, "no file: %d" % r.returncode)
r = subprocess.run([CALLTREE, "serve", "--port", "70000", recurse], capture_output=True,
                   text=True, timeout=60)
check(r.returncode == 2, "a bad port: %d" % r.returncode)
r = subprocess.run([CALLTREE, "serve", "-", recurse], input="", capture_output=True, text=True,
                   timeout=60)
check(r.returncode == 2 and "standard input" in r.stderr, "a diff from stdin: %d %r" % (
    r.returncode, r.stderr))

# --host other than loopback warns (it listens on every address; asked on 127.0.0.1 only).
s = Server("--host", "0.0.0.0", recurse)
code, err = s.stop()
check("other machines can connect" in err, "the --host warning: %r" % err)

if FAILURES:
    print("%d failures" % len(FAILURES), file=sys.stderr)
    sys.exit(1)
print("serve_http: ok")
