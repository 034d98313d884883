#!/usr/bin/env python3
"""serve_folder.py CALLTREE CORPUS FOLDER — `calltree serve DIR`, through a socket.

FOLDER is tests/server/folder (real Xdebug profiles, make.sh). A temporary DIR holds them,
copies of corpus files (plain above and below one block, gzip, one with `summary:` in its
header, one without), a file that is no profile, an unreadable one (chmod 000; not checked as
root, who reads it anyway), a callgrind file cut short, and a folder below (--recursive).
/api/v1/folder lists every file with its problem or its header's facts, newest first: the
totals are `calltree check --json`'s (files smaller than one block, read whole) or the header's
`summary:`; filter, sort and paging; a file written meanwhile is listed (a real Xdebug run
when php has xdebug), and at once by a request with rescan=1; a profile opened by id (/api/v1/f/ID/...) answers every route
with check's totals, two (/api/v1/d/OLD/NEW/...) their diff; a file deleted or cut to nothing
before it is opened is an error answer, the server goes on; the token and Host rules hold.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import serve_process
from serve_process import FAILURES, check

CALLTREE, CORPUS, FOLDER = (os.path.abspath(a) for a in sys.argv[1:4])


class Server(serve_process.Server):
    calltree = CALLTREE

    def folder(self, query=""):
        return self.json("/api/v1/folder?limit=5000" + query)

    def rows(self, query=""):
        return {r["name"]: r for r in self.folder(query)["rows"]}


def check_json(path):
    r = subprocess.run([CALLTREE, "check", "--json", path], capture_output=True, text=True,
                       timeout=120)
    return json.loads(r.stdout.splitlines()[0])


tmp = tempfile.mkdtemp(prefix="calltree-folder-")
# (serve DIR's index of runs, history/index.h, in the test's own cache directory.)
os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
d = os.path.join(tmp, "profiles")
os.mkdir(d)
try:
    # The files, each a second older than the one after it (the table's order: newest first).
    xdebug = sorted(glob.glob(os.path.join(FOLDER, "cachegrind.out.*")))
    check(len(xdebug) == 3, "the Xdebug profiles of %s: %s" % (FOLDER, xdebug))
    corpus = ["gperftools-recurse-cpu.callgrind",        # small: read whole
              "vg-recurse-default.callgrind",            # 72 KB: header, summary: in it
              "xdebug-recursion.callgrind",              # 0.9 MB: header, no summary: in it
              "vg-gxx-big-instr-jumps.cc1plus.callgrind.gz"]  # gzip: its first block
    names = []
    for f in xdebug:
        shutil.copy(f, d)
        names.append(os.path.basename(f))
    for f in corpus:
        shutil.copy(os.path.join(CORPUS, f), d)
        names.append(f)
    with open(os.path.join(d, "notes.txt"), "w") as f:
        f.write("not a profile\n")
    names.append("notes.txt")
    with open(os.path.join(CORPUS, "vg-phases-dump-before-zero-combined.callgrind"), "rb") as f:
        whole = f.read()
    with open(os.path.join(d, "cut.callgrind"), "wb") as f:
        f.write(whole[:len(whole) // 2])
    names.append("cut.callgrind")
    locked = os.path.join(d, "locked.callgrind")
    shutil.copy(os.path.join(CORPUS, "gperftools-recurse-cpu.callgrind"), locked)
    os.chmod(locked, 0)
    names.append("locked.callgrind")
    root = os.geteuid() == 0
    os.mkdir(os.path.join(d, "below"))
    shutil.copy(os.path.join(CORPUS, "gperftools-phases-cpu.callgrind"), os.path.join(d, "below"))
    now = time.time()
    for i, n in enumerate(names):
        os.utime(os.path.join(d, n), (now - 1000 + i, now - 1000 + i))
    newest_first = list(reversed(names))

    s = Server(d)
    try:
        answer = s.folder()
        check(answer["listed"] == len(names), "listed %d of %d" % (answer["listed"], len(names)))
        check([r["name"] for r in answer["rows"]] == newest_first,
              "newest first: %s" % [r["name"] for r in answer["rows"]])
        rows = {r["name"]: r for r in answer["rows"]}
        ids = {n: r["id"] for n, r in rows.items()}
        check(len(set(ids.values())) == len(names), "one id a file")
        # Files read whole (smaller than a block): parts and totals as calltree check says.
        for n in ["gperftools-recurse-cpu.callgrind"] + [os.path.basename(x) for x in xdebug]:
            c, r = check_json(os.path.join(d, n)), rows[n]
            check(r["read"] == "whole" and r["problem"] is None, "%s: %s" % (n, r))
            check(r["parts"] == c["parts"], "%s parts %s, check %s" % (n, r["parts"], c["parts"]))
            first = c["events"][0]
            want = c["program_totals"][first]  # (annotate's: the stated total, else the sum)
            check(r["total"] == {"event": first, "value": want, "from": "read"},
                  "%s total %s, check %s" % (n, r["total"], c["program_totals"]))
            if n.startswith("cachegrind.out."):
                check(r["producer"].startswith("xdebug ") and r["cmd"].endswith(".php"),
                      "%s producer/cmd: %s %s" % (n, r["producer"], r["cmd"]))
        # Read to the header: the total of its summary: line until the run store (the index) has
        # read it whole, then the whole file's (the same here: one part, summary: as totals:).
        r = rows["vg-recurse-default.callgrind"]
        check(r["read"] == "header" and r["parts"] is None and r["producer"] == "callgrind-3.19.0"
              and r["total"] is not None and r["total"]["from"] in ("summary", "index")
              and {k: r["total"][k] for k in ("event", "value")} == {"event": "Ir", "value": 362861224},
              "vg-recurse-default: %s" % r)
        # No summary: in the header (Xdebug): unknown, until the run store (the index) has
        # read it whole: then check's program total, the summary: at its end (annotate's; not
        # the sum of its self costs, which the page never shows).
        r = rows["xdebug-recursion.callgrind"]
        check(r["read"] == "header" and r["problem"] is None
              and (r["total"] is None or r["total"]["from"] == "index"),
              "xdebug-recursion: %s" % r)
        c = check_json(os.path.join(d, "xdebug-recursion.callgrind"))
        deadline = time.time() + 60
        while r["total"] is None and time.time() < deadline:
            time.sleep(0.2)
            r = s.rows()["xdebug-recursion.callgrind"]
        check(r["total"] == {"event": c["events"][0], "value": c["program_totals"][c["events"][0]],
                             "from": "index"},
              "xdebug-recursion's total from the index: %s, check %s" % (r["total"], c["program_totals"]))
        before_open = r["total"]
        r = rows["vg-gxx-big-instr-jumps.cc1plus.callgrind.gz"]
        check(r["compression"] == "gzip" and r["read"] == "header" and r["total"] is not None
              and r["total"]["from"] in ("summary", "index") and r["total"]["value"] == 28431562977,
              "the gzip file: %s" % r)
        # Problems, listed with the rest.
        check("not a profile" in (rows["notes.txt"]["problem"] or ""), "notes: %s" % rows["notes.txt"])
        check("cut short" in (rows["cut.callgrind"]["problem"] or ""), "cut: %s" % rows["cut.callgrind"])
        if not root:
            check("cannot open" in (rows["locked.callgrind"]["problem"] or ""),
                  "locked: %s" % rows["locked.callgrind"])

        # Filter (RE2 over name, producer, cmd), sort, paging.
        got = s.rows("&filter=xdebug")
        check(set(got) == {os.path.basename(x) for x in xdebug} | {"xdebug-recursion.callgrind"},
              "filter=xdebug: %s" % sorted(got))
        got = s.folder("&filter=%5Evg-")
        check(got["matched"] == 2 and got["listed"] == len(names), "filter=^vg-: %s" % got["matched"])
        status, body = s.get("/api/v1/folder?filter=(")
        check(status == 400 and body["error"]["code"] == "bad_regex", "a bad regex: %d" % status)
        by_size = [r["size"] for r in s.folder("&by=size&dir=asc")["rows"]]
        check(by_size == sorted(by_size), "by=size asc: %s" % by_size)
        by_name = [r["name"] for r in s.folder("&by=name")["rows"]]
        check(by_name == sorted(names), "by=name: %s" % by_name)
        page = s.json("/api/v1/folder?offset=3&limit=4")
        check([r["name"] for r in page["rows"]] == newest_first[3:7] and page["matched"] == len(names),
              "the window 3+4: %s" % [r["name"] for r in page["rows"]])
        status, _ = s.get("/api/v1/folder?by=colour")
        check(status == 400, "by=colour: %d" % status)

        # Open one: every route, check's totals.
        fid = ids["gperftools-recurse-cpu.callgrind"]
        prof = s.json("/api/v1/f/%d/profile" % fid)
        c = check_json(os.path.join(d, "gperftools-recurse-cpu.callgrind"))
        check(prof["mode"] == "single" and prof["totals"] == c["program_totals"],
              "opened: %s vs %s" % (prof["totals"], c["program_totals"]))
        fns = s.json("/api/v1/f/%d/functions?limit=5" % fid)
        check(len(fns["rows"]) == 5, "functions of an opened file")
        top = fns["rows"][0]["id"]
        check(s.json("/api/v1/f/%d/function/%d" % (fid, top))["id"] == top, "function/ID")
        s.json("/api/v1/f/%d/flame" % fid)
        s.json("/api/v1/f/%d/graph/%d" % (fid, top))
        st = s.json("/api/v1/f/%d/status" % fid)
        check(st["reloadable"] and not st["changed"], "status of an opened file: %s" % st)
        big = s.json("/api/v1/f/%d/profile" % ids["vg-recurse-default.callgrind"])
        check(big["totals"]["Ir"] == rows["vg-recurse-default.callgrind"]["total"]["value"],
              "vg-recurse-default opened: %s" % big["totals"])
        # An Xdebug file states no summary: its total is unknown until it is opened, then its
        # row has the page's total and parts (and the table ranks it by them).
        xr = s.json("/api/v1/f/%d/profile" % ids["xdebug-recursion.callgrind"])
        r = s.rows()["xdebug-recursion.callgrind"]
        first = xr["events"][0]["name"]
        check(r["read"] == "whole" and r["parts"] == 1
              and r["total"] == {"event": first, "value": xr["totals"][first], "from": "read"},
              "xdebug-recursion once opened: %s (the page: %s)" % (r, xr["totals"]))
        # One total: the same figure before it was opened (issue 57: the index kept the sum of
        # the self costs, 2,742,867 beside the page's 2,782,648 of a real profile).
        check(r["total"]["value"] == before_open["value"],
              "xdebug-recursion's total before opening %s, after %s" % (before_open, r["total"]))
        ranked = [x["name"] for x in s.folder("&by=total&dir=desc")["rows"] if x["total"]]
        check("xdebug-recursion.callgrind" in ranked, "ranked by total: %s" % ranked)
        # The diff of two Xdebug profiles.
        a, b = os.path.basename(xdebug[0]), os.path.basename(xdebug[1])
        diff = s.json("/api/v1/d/%d/%d/profile" % (ids[a], ids[b]))
        check(diff["mode"] == "diff" and [i["name"] for i in diff["inputs"]] ==
              [os.path.join(d, a), os.path.join(d, b)], "diff: %s" % [i["name"] for i in diff["inputs"]])
        dfn = s.json("/api/v1/d/%d/%d/functions?limit=3" % (ids[a], ids[b]))
        check(dfn["mode"] == "diff" and len(dfn["rows"]) == 3, "diff functions")
        # Two files with no event in common (Ir, Xdebug's Time): an error, not a crash.
        pair = (ids["vg-recurse-default.callgrind"], ids[a])
        status, body = s.get("/api/v1/d/%d/%d/functions?limit=3" % pair)
        check(status == 400 and "no event in common" in body["error"]["message"],
              "a diff of no common event: %d %s" % (status, body))
        check(s.json("/api/v1/d/%d/%d/profile" % pair)["mode"] == "diff", "its profile answers")

        # An opened file rewritten on disk: its status says so, its reload reads it again.
        fib = ids["cachegrind.out.fib"]
        s.json("/api/v1/f/%d/profile" % fib)
        shutil.copy(os.path.join(FOLDER, "cachegrind.out.words"), os.path.join(d, "cachegrind.out.fib"))
        st = s.json("/api/v1/f/%d/status" % fib)
        check(st["changed"] and st["files"][0]["state"] == "changed", "rewritten: %s" % st)
        check(s.json("/api/v1/f/%d/reload?generation=%d" % (fib, st["generation"]))["generation"]
              == st["generation"] + 1, "reload of an opened file")
        words = check_json(os.path.join(FOLDER, "cachegrind.out.words"))
        check(s.json("/api/v1/f/%d/profile" % fib)["totals"] == (words["summary"] or words["totals"]),
              "the reloaded file's totals")
        check(not s.json("/api/v1/f/%d/status" % fib)["changed"], "status after the reload")

        # Not a profile, ids only, errors are answers.
        status, body = s.get("/api/v1/profile")
        check(status == 409 and body["error"]["code"] == "folder_mode", "unscoped: %d" % status)
        status, body = s.get("/api/v1/f/9999/profile")
        check(status == 404 and body["error"]["code"] == "no_file", "no such id: %d" % status)
        for target in ["/api/v1/f/..%2f..%2fetc%2fpasswd/profile", "/api/v1/f/-1/profile",
                       "/api/v1/f/1", "/api/v1/d/1/profile"]:
            status, body = s.get(target)
            check(status in (400, 404), "%s: %d %s" % (target, status, body))
        status, body = s.get("/api/v1/f/%d/profile" % ids["notes.txt"])
        check(status == 422, "opening notes.txt: %d %s" % (status, body))
        # (one not opened before: an opened one stays in memory, and says so in its status)
        cutnow = os.path.join(d, "cachegrind.out.shapes")
        open(cutnow, "w").close()
        status, body = s.get("/api/v1/f/%d/profile" % ids["cachegrind.out.shapes"])
        check(status == 422, "a file cut to nothing before it is opened: %d %s" % (status, body))
        os.unlink(os.path.join(d, "cachegrind.out.words"))
        status, body = s.get("/api/v1/f/%d/profile" % ids["cachegrind.out.words"])
        check(status in (404, 422), "a file deleted before it is opened: %d %s" % (status, body))
        # The security rules, as for every route.
        for headers, want in [({"Host": "127.0.0.1:%d" % s.port}, 401),
                              ({"Host": "evil.example:%d" % s.port,
                                "Authorization": "Bearer " + s.token}, 403)]:
            import http.client
            conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=30)
            conn.request("GET", "/api/v1/folder", headers=headers)
            check(conn.getresponse().status == want, "folder with %s: want %d" % (headers, want))
            conn.close()

        # A file written meanwhile (a real Xdebug run when there is one).
        php = shutil.which("php")
        has_xdebug = php and "xdebug" in subprocess.run(
            [php, "-m"], capture_output=True, text=True).stdout.lower()
        start = time.time()
        if has_xdebug:
            subprocess.run([php, "-d", "xdebug.mode=profile", "-d", "xdebug.output_dir=" + d,
                            "-d", "xdebug.profiler_output_name=cachegrind.out.new",
                            os.path.join(FOLDER, "php", "fib.php")],
                           capture_output=True, check=True, timeout=60)
        else:
            print("(php with xdebug not found: the new file is a copy)")
            shutil.copy(xdebug[0], os.path.join(d, "cachegrind.out.new"))
        written = time.time()
        # The server's own scans list it (how fast is bench/serve_folder.py's figure: a bound
        # here would fail on a loaded machine, not on a slow server).
        seen = None
        while time.time() - written < 30:
            got = s.rows()
            if "cachegrind.out.new" in got:
                seen = time.time() - written
                break
            time.sleep(0.1)
        check(seen is not None, "the new file is not listed after 30 s")
        if seen is not None:
            r = s.rows()["cachegrind.out.new"]
            check(r["producer"].startswith("xdebug") and r["total"] is not None,
                  "the new file's row: %s" % r)
            check(s.folder()["rows"][0]["name"] == "cachegrind.out.new", "newest first")
            print("new file listed after %.2f s (written in %.2f s)" % (seen, written - start))
        # rescan=1 (the page's poll) lists a file written before it at once: a scan that began
        # after the write, or one made now (none began in the last 250 ms).
        shutil.copy(xdebug[0], os.path.join(d, "cachegrind.out.newer"))
        time.sleep(0.3)
        check("cachegrind.out.newer" in s.rows("&rescan=1"), "rescan=1 lists a file written before it")
        os.unlink(os.path.join(d, "cachegrind.out.newer"))
        time.sleep(0.3)
        check("cachegrind.out.newer" not in s.rows("&rescan=1"), "rescan=1 drops a deleted file")
        st = s.json("/api/v1/f/%d/status" % fid)
        check(st["files"][0]["state"] == "same", "status: %s" % st)
    finally:
        code, err = s.stop()
        check(code == 0, "serve DIR: exit %s %s" % (code, err))

    # --recursive: the folder below too; --keep 1 still answers each profile.
    s = Server("--recursive", "--keep", "1", d)
    try:
        rows = s.rows()
        check("below/gperftools-phases-cpu.callgrind" in rows, "--recursive: %s" % sorted(rows))
        i1, i2 = rows["gperftools-recurse-cpu.callgrind"]["id"], rows["below/gperftools-phases-cpu.callgrind"]["id"]
        for i in (i1, i2, i1):
            s.json("/api/v1/f/%d/functions?limit=1" % i)
    finally:
        code, err = s.stop()
        check(code == 0, "serve --recursive DIR: exit %s %s" % (code, err))
    # Flags for a folder only.
    r = subprocess.run([CALLTREE, "serve", "--recursive", os.path.join(CORPUS, "gperftools-recurse-cpu.callgrind")],
                       capture_output=True, text=True, timeout=30)
    check(r.returncode == 2, "--recursive with a file: %d %s" % (r.returncode, r.stderr))
finally:
    os.chmod(locked, 0o600)
    shutil.rmtree(tmp)

if FAILURES:
    print("%d failures" % len(FAILURES))
    sys.exit(1)
print("ok")
