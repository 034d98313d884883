#!/usr/bin/env python3
"""serve_reload.py CALLTREE CORPUS — `calltree serve`'s reload, on the binary through a socket.

/api/v1/status says whether a served file changed on disk (size or modification time) or is
gone; /api/v1/reload reads it again and answers the new generation and the id, in the new
profile, of the function it was asked to keep (by name, file and object). A file deleted or cut
short is an error of that request (422) or a file with errors, never a crash: the server keeps
answering. Standard input cannot be reloaded; a diff reloads both sides.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import serve_process
from serve_process import FAILURES, check

CALLTREE, CORPUS = sys.argv[1], sys.argv[2]


class Server(serve_process.Server):
    calltree = CALLTREE


def annotate_totals(path):
    out = subprocess.run([CALLTREE, "annotate", "--json", path], capture_output=True, text=True,
                         timeout=120).stdout
    return json.loads(out)["totals"]


def fn_id(s, name):
    rows = s.json("/api/v1/functions?filter=%%5E%s%%24" % name)["rows"]
    check(len(rows) == 1, "one function %s: %s" % (name, rows))
    return rows[0]["id"] if rows else None


before = os.path.join(CORPUS, "vg-threads-separate.t03.callgrind")
after = os.path.join(CORPUS, "vg-threads-separate.t02.callgrind")
tmp = tempfile.mkdtemp(prefix="calltree-reload-")
try:
    prof = os.path.join(tmp, "callgrind.out.1")
    shutil.copyfile(before, prof)
    s = Server(prof)
    try:
        st = s.json("/api/v1/status")
        check(st["generation"] == 1 and st["reloadable"] and not st["changed"]
              and [f["state"] for f in st["files"]] == ["same"], "status at start: %s" % st)
        worker_before = fn_id(s, "worker")
        t0 = s.json("/api/v1/profile")["totals"]
        check(t0["Ir"] == annotate_totals(before)["Ir"], "the total before")
        # The file is rewritten (another thread of the program: other functions, other ids).
        time.sleep(0.01)
        shutil.copyfile(after, prof + ".new")
        os.replace(prof + ".new", prof)
        st = s.json("/api/v1/status")
        check(st["changed"] and st["files"][0]["state"] == "changed", "status after: %s" % st)
        r = s.json("/api/v1/reload?generation=1&keep=%d" % worker_before)
        check(r["generation"] == 2, "the generation after a reload: %s" % r)
        worker_after = fn_id(s, "worker")
        check(r["function"] == worker_after, "the function kept: %s, worker is %s" % (
            r["function"], worker_after))
        check(s.json("/api/v1/profile")["totals"]["Ir"] == annotate_totals(after)["Ir"],
              "the total after the reload is the new file's")
        st = s.json("/api/v1/status")
        check(st["generation"] == 2 and not st["changed"], "status after the reload: %s" % st)
        # A client that saw generation 1 asks again: the reload already made is its answer.
        r = s.json("/api/v1/reload?generation=1")
        check(r["generation"] == 2 and r["function"] is None, "a stale reload: %s" % r)
        # Bad requests.
        for target, code in (("/api/v1/reload?generation=x", 400),
                             ("/api/v1/reload?keep=99999999", 404),
                             ("/api/v1/reload?keep=abc", 400)):
            status, body = s.get(target)
            check(status == code, "%s: %d %s" % (target, status, body))
        # Deleted: status says so, a reload is an error, what was read is still served.
        os.unlink(prof)
        st = s.json("/api/v1/status")
        check(st["changed"] and st["files"][0]["state"] == "missing", "status, deleted: %s" % st)
        status, body = s.get("/api/v1/reload?generation=2")
        check(status == 422 and body["error"]["code"] == "reload_failed"
              and "still showing" in body["error"]["message"], "reload, deleted: %d %s" % (
                  status, body))
        check(s.json("/api/v1/profile")["totals"]["Ir"] == annotate_totals(after)["Ir"],
              "still served after a failed reload")
        # Cut short: it opens, with its errors listed (as serve opens such a file at start).
        data = open(after, "rb").read()
        open(prof, "wb").write(data[: len(data) // 2])
        r = s.json("/api/v1/reload?generation=2")
        check(r["generation"] == 3, "reload, cut short: %s" % r)
        inp = s.json("/api/v1/profile")["inputs"][0]
        check(inp["diagnostics"]["errors"] + inp["diagnostics"]["warnings"] > 0
              or not inp["complete"], "a file cut short has diagnostics: %s" % inp["diagnostics"])
        s.json("/api/v1/functions")
    finally:
        code, err = s.stop()
    check(code == 0, "exit after reloads: %s %s" % (code, err))

    # Standard input: nothing to read again.
    with open(before, "rb") as f:
        s = Server("-", stdin=f)
        st = s.json("/api/v1/status")
        check(not st["reloadable"] and st["files"] == [], "stdin status: %s" % st)
        status, body = s.get("/api/v1/reload")
        check(status == 404 and body["error"]["code"] == "no_reload", "stdin reload: %d" % status)
        s.stop()

    # A diff reloads both sides.
    old, new = os.path.join(tmp, "old.callgrind"), os.path.join(tmp, "new.callgrind")
    shutil.copyfile(before, old)
    shutil.copyfile(before, new)
    s = Server(old, new)
    st = s.json("/api/v1/status")
    check(len(st["files"]) == 2 and not st["changed"], "diff status: %s" % st)
    shutil.copyfile(after, new)
    st = s.json("/api/v1/status")
    check([f["state"] for f in st["files"]] == ["same", "changed"], "diff status after: %s" % st)
    r = s.json("/api/v1/reload?generation=1")
    p = s.json("/api/v1/profile")
    check(r["generation"] == 2 and p["mode"] == "diff"
          and p["totals"]["Ir"] == annotate_totals(after)["Ir"], "the diff reloaded")
    d = s.json("/api/v1/functions?unchanged=no")
    check(d["counts"]["changed"] + d["counts"]["added"] + d["counts"]["removed"] > 0,
          "the diff of the reloaded sides: %s" % d["counts"])
    s.stop()
finally:
    shutil.rmtree(tmp)

if FAILURES:
    print("%d failures" % len(FAILURES), file=sys.stderr)
    sys.exit(1)
print("serve_reload: ok")
