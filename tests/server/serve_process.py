"""serve_process.py — (tests) a `calltree serve` process driven through its socket, and the
checks of a test script: serve_reload.py and serve_runs.py import it.

A script subclasses Server with its binary (`calltree = PATH`), checks with check() (each
failure printed and kept in FAILURES) and exits 1 when FAILURES is not empty.
"""
import http.client
import json
import re
import signal
import subprocess
import sys

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what, file=sys.stderr)


class Server:
    calltree = None  # the binary, set by the subclass

    def __init__(self, *args, stdin=None, cwd=None):
        self.p = subprocess.Popen([self.calltree, "serve", *args], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, stdin=stdin, text=True, cwd=cwd)
        self.line = self.p.stdout.readline().strip()
        m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})", self.line)
        check(m is not None, "the URL line of serve %s: %r %s" % (
            args, self.line, "" if m else self.p.stderr.read()))
        self.port, self.token = (int(m.group(1)), m.group(2)) if m else (0, "")

    def get(self, target):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        c.request("GET", target, headers={"Host": "127.0.0.1:%d" % self.port,
                                          "Authorization": "Bearer " + self.token})
        r = c.getresponse()
        body = r.read()
        c.close()
        return r.status, json.loads(body) if body else None

    def json(self, target):
        status, body = self.get(target)
        check(status == 200, "%s: %d %s" % (target, status, str(body)[:200]))
        return body

    def stop(self):
        self.p.send_signal(signal.SIGINT)
        try:
            code = self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            code = "hung"
        return code, self.p.stderr.read()
