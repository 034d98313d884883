#!/usr/bin/env python3
"""check_tui.py CALLTREE CORPUS — `calltree tui` driven in tmux, as a user at a terminal.

Each check starts the viewer in a tmux window of its own (a private tmux server), sends keys
(send-keys) and reads the screen (capture-pane), on real profiles of the corpus: a g++ -O2 -g
program (wordfreq), a compile (cc1plus), a run of five threads (the .t01-.t05 files as one
run), an Xdebug profile, the difference of two; in a 80x24 and a 200x60 terminal. It asserts:

- the function list's rows, in order, are the page's (its first rows, and after End its last:
  a list of thousands is made a window of rows at a time) (`calltree serve`'s /api/v1/functions, the
  same query): inclusive, self, calls, name; and, in a file without inlined code, each row's
  inclusive and self cost is `calltree annotate --json --inclusive=yes`'s, with its share of
  the total written as annotate writes it;
- Enter on a function shows its callers and callees with the page's counts and costs
  (/api/v1/function/ID), and Backspace comes back to the list;
- `/` filters by a regular expression, `o` orders by self, `e` shows the next event, `p` one
  part alone (the page's `parts=`), `g` groups by object (every group's self cost the sum of
  its functions');
- `s` shows the function's source file with each line's cost (the page's /api/v1/source);
- `t` shows the call tree whose roots' inclusive costs sum to the program's total; `F` on a
  frame focuses on its function (the roots then sum to that frame's cost), `H` hides it (the
  total kept), `X` undoes both;
- `a` shows a function's machine code (tests/asm/hot.c run under callgrind --dump-instr=yes):
  `annotate --json --asm`'s instructions, addresses and self costs;
- a profile of differences (cg_diff's) shows its costs signed, the page's and annotate's;
- with OLD NEW, the functions that changed are the page's (`serve OLD NEW`), in order: old, new
  and signed change of self cost, then (`i`) of inclusive cost; Enter opens one on its side;
- `?` lists the keys; a resize lays the screen out again; TERM=dumb and NO_COLOR draw it;
- `q` exits 0 and Ctrl-C 130, the terminal given back (the shell's next line is printed); not a
  terminal: exit 2 and a message.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
import serve_process  # noqa: E402
from serve_process import FAILURES, check  # noqa: E402

calltree, corpus = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SOCKET = "calltree-tui-test-%d" % os.getpid()
tmp = tempfile.mkdtemp(prefix="calltree-tui-")


class Server(serve_process.Server):
    calltree = calltree


class Tui:
    """One `calltree tui ARGS` in a tmux window of `width` x `height`."""
    count = 0

    def __init__(self, args, width=80, height=24, env=""):
        Tui.count += 1
        self.name = "t%d" % Tui.count
        self.exit_file = os.path.join(tmp, self.name + ".exit")
        cmd = " ".join(shlex.quote(a) for a in [calltree, "tui", *args])
        shell = "cd %s && %s %s; echo $? > %s; echo SHELL-AFTER; sleep 600" % (
            shlex.quote(corpus), env, cmd, shlex.quote(self.exit_file))
        subprocess.run(["tmux", "-L", SOCKET, "new-session", "-d", "-s", self.name,
                        "-x", str(width), "-y", str(height), shell], check=True)

    def keys(self, *keys):
        subprocess.run(["tmux", "-L", SOCKET, "send-keys", "-t", self.name, *keys], check=True)

    def text(self, *chars):
        subprocess.run(["tmux", "-L", SOCKET, "send-keys", "-l", "-t", self.name, *chars],
                       check=True)

    def screen(self):
        return subprocess.run(["tmux", "-L", SOCKET, "capture-pane", "-p", "-t", self.name],
                              check=True, capture_output=True, text=True).stdout.split("\n")

    def wait(self, pattern, timeout=30):
        """The screen once a line matches `pattern` (a regex), else the last one (and a fail)."""
        end = time.time() + timeout
        while True:
            rows = self.screen()
            if any(re.search(pattern, r) for r in rows):
                time.sleep(0.05)
                return self.screen()
            if time.time() > end:
                check(False, "%s: no line matches %r on the screen:\n%s" % (
                    self.name, pattern, "\n".join(rows)))
                return rows
            time.sleep(0.05)

    def exit_code(self, timeout=10):
        end = time.time() + timeout
        while time.time() < end:
            if os.path.exists(self.exit_file):
                with open(self.exit_file) as f:
                    text = f.read().strip()
                if text:
                    return int(text)
            time.sleep(0.05)
        return None

    def resize(self, width, height):
        subprocess.run(["tmux", "-L", SOCKET, "resize-window", "-t", self.name, "-x", str(width),
                        "-y", str(height)], check=True)

    def close(self):
        subprocess.run(["tmux", "-L", SOCKET, "kill-session", "-t", self.name])


COST = r"(-?[\d,]+) \(\s*(-?[\d.]+)%\)"
LIST_ROW = re.compile(r"^\s*" + COST + r"\s+" + COST + r"\s+([\d,]+)  (.*?)\s*$")
CALL_ROW = re.compile(r"^\s*" + COST + r"\s+([\d,]+)  (.*?)\s*$")


def number(text):
    return int(text.replace(",", ""))


def label(row):
    """The list's name of an API row: its name, then [the object's base name]."""
    out = row["name"]
    if row.get("object"):
        out += " [" + row["object"].rsplit("/", 1)[-1] + "]"
    return out


def share(value, total):
    """annotate's " (12.34%)": two decimals, one from 99.995 up."""
    p = 100.0 * value / total if total else 0.0
    return "%5.2f" % p if -9.995 < p < 99.995 else "%5.1f" % p


def list_rows(rows):
    out = []
    for r in rows:
        m = LIST_ROW.match(r)
        if m:
            out.append(m.groups())
    return out


def same_name(screen_label, want):
    """The screen's label (cut with '~' when the terminal is narrow) is `want`."""
    if screen_label.endswith("~"):
        return want.startswith(screen_label[:-1])
    return screen_label == want


def check_list(name, screen, api_rows, event, total, annotate=None):
    rows = list_rows(screen)
    check(len(rows) >= 5, "%s: the list shows %d rows:\n%s" % (name, len(rows), "\n".join(screen)))
    for i, (incl, incl_pct, self_, self_pct, calls, lab) in enumerate(rows):
        want = api_rows[i]
        got = (number(incl), number(self_), number(calls))
        exp = (want["inclusive"][event], want["self"][event], want["calls"])
        check(got == exp and same_name(lab, label(want)),
              "%s: list row %d is %r %r, the page's %r %r" % (name, i, got, lab, exp, label(want)))
        check(incl_pct.strip() == share(exp[0], total).strip() and
              self_pct.strip() == share(exp[1], total).strip(),
              "%s: row %d's shares (%s%%, %s%%) for %r of %d" % (name, i, incl_pct, self_pct, exp,
                                                                 total))
        if annotate is not None:
            key = (want["file"], want["name"])
            a = annotate.get(key)
            check(a is not None and a["inclusive"][event] == exp[0] and a["self"][event] == exp[1],
                  "%s: row %d %r: annotate has %r" % (name, i, key, a))


def annotate_of(path):
    out = subprocess.run([calltree, "annotate", "--json", "--auto=no", "--inclusive=yes", path],
                         cwd=corpus, capture_output=True, text=True, check=True).stdout
    return {(f["file"], f["name"]): f for f in json.loads(out)["functions"]}


def check_profile(path, width, height, inlined):
    name = "%s %dx%d" % (path, width, height)
    server = Server(path, cwd=corpus)
    try:
        data = server.json("/api/v1/functions?by=inclusive&limit=5000")
        event = data["events"][0]
        total = data["totals"][event]
        t = Tui([path], width, height)
        screen = t.wait(r"^ Functions: ")
        check(any("q quit" in r for r in screen), "%s: no footer of keys" % name)
        check_list(name, screen, data["rows"], event, total, None if inlined else annotate_of(path))

        # End: the list's last rows (a big list is made a window at a time), as the page's.
        n = data["total_rows"]
        t.keys("End")
        screen = t.wait(r"%d/%d" % (n, n))
        rows = list_rows(screen)
        tail = server.json("/api/v1/functions?by=inclusive&offset=%d&limit=%d" % (
            max(0, n - len(rows)), len(rows)))["rows"]
        check_list(name + " (End)", screen, tail, event, total)
        t.keys("Home")
        t.wait(r" 1/%d" % n)

        # Enter on the fourth row: its callers and callees, as the page's.
        t.keys("Down", "Down", "Down", "Enter")
        screen = t.wait(r"^ (Function|Cycle) ")
        fid = data["rows"][3]["id"]
        f = server.json("/api/v1/function/%d" % fid)
        at = next(i for i, r in enumerate(screen) if r.startswith("Callers ("))
        shown = [CALL_ROW.match(r) for r in screen[at + 1:]]
        callers = []
        for m in shown:
            if not m:
                break
            callers.append((number(m.group(1)), number(m.group(3)), m.group(4)))
        want = [(c["cost"][event], c["count"], label(c)) for c in f["callers"]]
        check(len(callers) > 0 or not want, "%s: no caller shown of %s" % (name, f["name"]))
        for got, exp in zip(callers, want):
            check(got[:2] == exp[:2] and same_name(got[2].replace("  (recursive)", ""), exp[2]),
                  "%s: caller %r, the page's %r" % (name, got, exp))
        check(("Callers (%d)" % f["callers_total"]) in "\n".join(screen),
              "%s: the callers' count %d" % (name, f["callers_total"]))
        if f["callees"]:
            screen = t.screen()
            text = "\n".join(screen)
            first = f["callees"][0]
            row = next((CALL_ROW.match(r) for r in screen[screen.index(next(
                r for r in screen if r.startswith("Callees ("))) + 1:] if CALL_ROW.match(r)), None)
            check(row is not None and (number(row.group(1)), number(row.group(3))) ==
                  (first["cost"][event], first["count"]),
                  "%s: the first callee %r, the page's %r:\n%s" % (
                      name, row and row.groups(), first, text))
        t.keys("BSpace")
        screen = t.wait(r"^ Functions: ")
        check_list(name + " (back)", screen, data["rows"], event, total)

        # o: by self; / a filter.
        t.keys("o")
        screen = t.wait(r"by self cost")
        by_self = server.json("/api/v1/functions?by=self&limit=5000")["rows"]
        check_list(name + " (by self)", screen, by_self, event, total)
        t.text("/")
        t.wait(r"^Filter")
        t.text("a")
        t.keys("Enter")
        screen = t.wait(r"matching /a/")
        filtered = server.json("/api/v1/functions?by=self&filter=a&limit=5000")["rows"]
        if len(filtered) >= 5:
            check_list(name + " (filter a)", screen, filtered, event, total)
        t.keys("q")
        code = t.exit_code()
        check(code == 0, "%s: q exits %r" % (name, code))
        check(any("SHELL-AFTER" in r for r in t.wait("SHELL-AFTER")), "%s: the terminal" % name)
        t.close()
    finally:
        server.stop()


def check_threads():
    files = ["vg-threads-separate.t0%d.callgrind" % i for i in range(1, 6)]
    server = Server(*files, cwd=corpus)
    try:
        data = server.json("/api/v1/functions?by=inclusive&limit=5000")
        event = data["events"][0]
        t = Tui(files, 200, 60)
        screen = t.wait(r"^ Functions: ")
        check_list("threads", screen, data["rows"], event, data["totals"][event])
        # p: the second part alone (a thread), as the page's parts=2.
        t.text("p")
        t.wait(r"part 1 of 5")
        t.text("p")
        screen = t.wait(r"part 2 of 5")
        part = server.json("/api/v1/functions?by=inclusive&parts=2&limit=5000")
        check_list("threads part 2", screen, part["rows"], event, part["totals"][event])
        t.text("p", "p", "p", "p")
        screen = t.wait(r"^ Functions: \d+ of \d+, by inclusive cost of \S+$")
        # The call tree: its roots (the threads' own) sum to the program's total.
        t.keys("t")
        screen = t.wait(r"^ Call tree of ")
        total = sum(r[0] for r in tree_rows(screen) if r[1] == 0)
        check(total == data["totals"][event],
              "threads: the call tree's roots sum to %d, the total is %d:\n%s" % (
                  total, data["totals"][event], "\n".join(screen)))
        t.keys("C-c")
        check(t.exit_code() == 130, "threads: Ctrl-C exits 130")
        t.close()
    finally:
        server.stop()


def check_xdebug():
    path = "xdebug-classes.callgrind"
    server = Server(path, cwd=corpus)
    try:
        data = server.json("/api/v1/functions?by=inclusive&limit=5000")
        events = data["events"]
        t = Tui([path], 80, 24, env="NO_COLOR=1")
        screen = t.wait(r"^ Functions: ")
        check_list("xdebug", screen, data["rows"], events[0], data["totals"][events[0]],
                   annotate_of(path))
        # e: the next event.
        t.keys("e")
        screen = t.wait(r"cost of " + re.escape(events[1]))
        second = server.json("/api/v1/functions?by=inclusive&events=%s&limit=5000" % events[1])
        check_list("xdebug " + events[1], screen, second["rows"], events[1],
                   second["totals"][events[1]])
        # g: groups by object; each group's self cost its functions' (Xdebug has no objects:
        # one group).
        t.keys("g")
        screen = t.wait(r"groups by object")
        rows = list_rows(screen)
        check(sum(number(r[2]) for r in rows) == second["totals"][events[1]] or
              sum(number(r[2]) for r in rows) == sum(r["self"][events[1]] for r in second["rows"]),
              "xdebug: the groups' self costs:\n%s" % "\n".join(screen))
        # ?: the keys.
        t.text("?")
        screen = t.wait(r"^ Keys")
        check(any(r.startswith("Up Down") for r in screen), "xdebug: the help's first key")
        t.keys("End")
        screen = t.wait(r"^q ")
        check(any(r.startswith("q ") for r in screen), "xdebug: the help lists q, last")
        t.keys("q")
        check(t.exit_code() == 0, "xdebug: q exits 0")
        t.close()
    finally:
        server.stop()


def check_source_and_resize():
    path = "vg-wordfreq-cxx-O2g-default.callgrind"
    server = Server(path, cwd=corpus)
    try:
        rows = server.json("/api/v1/functions?filter=%5Emain%24&limit=10")["rows"]
        main = next(r for r in rows if r["name"] == "main")
        src = server.json("/api/v1/source/%d?function=%d" % (main["file_id"], main["id"]))
        event = src["events"][0]
        t = Tui([path], 200, 60, env="TERM=xterm")
        t.wait(r"^ Functions: ")
        t.text("/")
        t.text("^main$")
        t.keys("Enter")
        t.wait(r"matching /\^main\$/")
        t.text("s")
        screen = t.wait(r"^ Source of main")
        costs = {}
        for r in screen:
            m = re.match(r"^\s*" + COST + r"\s+(\d+)  ", r)
            if m:
                costs[int(m.group(3))] = number(m.group(1))
        want = {l["line"]: l["self"][event] for l in src["lines"] if l["line"]}
        check(len(costs) >= 3, "source: costs on %d lines:\n%s" % (len(costs), "\n".join(screen)))
        for line, cost in costs.items():
            check(want.get(line) == cost, "source: line %d costs %d, the page's %r" % (
                line, cost, want.get(line)))
        text = open(os.path.join(corpus, "src/cpp/wordfreq.cpp")).read().split("\n")
        shown = [r for r in screen if re.match(r"^.{20,}\s(\d+)  ", r)]
        for r in shown[:10]:
            n = int(re.match(r"^.*?\s(\d+)  ", r).group(1))
            body = r.split("  ", 2)[-1] if n <= len(text) else ""
            check(text[n - 1].strip()[:40] in r, "source: line %d shows %r" % (n, r))
        # A resize: laid out again for 80 columns.
        t.resize(80, 24)
        screen = t.wait(r"^ Source of main")
        check(all(len(r) <= 80 for r in screen), "resize: rows wider than 80")
        t.keys("q")
        check(t.exit_code() == 0, "source: q exits 0")
        t.close()
    finally:
        server.stop()


DIFF_ROW = re.compile(r"^\s*([\d,]+|-)\s+([\d,]+|-)\s+([+-]?[\d,]+)\s+(\S+)  (.*?)\s*$")


def check_diff():
    old, new = "xdebug-classes.callgrind", "xdebug-closures.callgrind"
    server = Server(old, new, cwd=corpus)
    try:
        data = server.json("/api/v1/functions?by=self&unchanged=no&limit=5000")
        event = data["events"][0]
        t = Tui([old, new], 200, 60)
        screen = t.wait(r"^ Difference: ")
        rows = [m.groups() for m in map(DIFF_ROW.match, screen) if m]
        check(len(rows) >= 5, "diff: %d rows:\n%s" % (len(rows), "\n".join(screen)))
        check(("%d functions changed" % data["total_rows"]) in screen[0],
              "diff: the title %r, the page's %d rows" % (screen[0], data["total_rows"]))
        for i, (o, n, delta, pct, lab) in enumerate(rows):
            want = data["rows"][i]
            c = want["self"][event]
            got = (None if o == "-" else number(o), None if n == "-" else number(n),
                   int(delta.replace(",", "")))
            exp = (None if want["change"] == "added" else c["old"],
                   None if want["change"] == "removed" else c["new"], c["delta"])
            name = lab.replace("  (new)", "").replace("  (gone)", "")
            check(got == exp and same_name(name, label(want)),
                  "diff: row %d is %r %r, the page's %r %r" % (i, got, lab, exp, label(want)))
        # i: inclusive costs; Enter opens the function on its side.
        t.text("i")
        screen = t.wait(r"by inclusive cost")
        incl = server.json("/api/v1/functions?by=inclusive&unchanged=no&limit=5000")["rows"]
        first = next(m.groups() for m in map(DIFF_ROW.match, screen) if m)
        check(int(first[2].replace(",", "")) == incl[0]["inclusive"][event]["delta"],
              "diff: the first inclusive change %r, the page's %r" % (first, incl[0]))
        t.keys("Enter")
        screen = t.wait(r"^ (Function|Cycle) ")
        check("(new profile)" in screen[0] or "(old profile)" in screen[0],
              "diff: the function's side: %r" % screen[0])
        t.keys("BSpace")
        t.wait(r"^ Difference: ")
        t.keys("q")
        check(t.exit_code() == 0, "diff: q exits 0")
        t.close()
    finally:
        server.stop()


def check_machine_code():
    """tests/asm/hot.c under callgrind --dump-instr=yes: `a` on hot_loop shows
    `annotate --json --asm`'s instructions, each with its address and self cost."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "asm")
    work = os.path.join(tmp, "asm")
    os.makedirs(work)
    run = lambda cmd: subprocess.run(cmd, cwd=work, check=True, capture_output=True)
    run(["gcc", "-O2", "-g", "-fPIC", "-shared", "-o", "libmix.so", os.path.join(here, "mix.c")])
    run(["gcc", "-O2", "-g", "-pie", "-fPIE", "-o", "hot", os.path.join(here, "hot.c"), "-L.",
         "-lmix", "-Wl,-rpath,$ORIGIN"])
    run(["valgrind", "--tool=callgrind", "--dump-instr=yes", "--collect-jumps=yes",
         "--callgrind-out-file=cg.out", "./hot", "1237"])
    want = json.loads(run([calltree, "annotate", "--json", "--asm=^hot_loop$",
                           "cg.out"]).stdout)["asm"][0]
    event = want["events"][0]
    t = Tui([os.path.join(work, "cg.out")], 120, 60)
    t.wait(r"^ Functions: ")
    t.text("/")
    t.text("^hot_loop$")
    t.keys("Enter")
    t.wait(r"matching /\^hot_loop\$/")
    t.text("a")
    screen = t.wait(r"^ Machine code of hot_loop")
    shown = {}
    for r in screen:
        m = re.match(r"^\s*" + COST + r"\s+([0-9a-f]+)  (\S+)", r)
        if m:
            shown[int(m.group(3), 16)] = (number(m.group(1)), m.group(4))
    expected = {int(i["address"], 16): (i["self"][event], i["mnemonic"])
                for i in want["instructions"] if i["profiled"]}
    check(len(shown) >= 10 and all(expected.get(a) == v for a, v in shown.items()),
          "machine code: %r, annotate --asm's %r" % (shown, expected))
    check(sum(v[0] for v in shown.values()) == want["self"][event] or len(shown) < len(expected),
          "machine code: the instructions' costs sum to the self cost %r" % want["self"])
    t.keys("q")
    check(t.exit_code() == 0, "machine code: q exits 0")
    t.close()


def tree_rows(screen):
    """(inclusive, depth, name) of the call tree's rows."""
    out = []
    for r in screen:
        m = re.match(r"^\s*" + COST + r"\s+" + COST + r"  (( {2})*)([-+ ]) (.*?)\s*$", r)
        if m:
            out.append((number(m.group(1)), len(m.group(5)) // 2, m.group(8)))
    return out


def check_signed():
    """A profile of differences (tests/signed/cg_diff.out, cg_diff's): costs with their sign,
    shares of the signed total, the largest change first, as the page and annotate give them."""
    path = os.path.join(corpus, "..", "signed", "cg_diff.out")
    server = Server(path, cwd=corpus)
    try:
        data = server.json("/api/v1/functions?by=inclusive&limit=5000")
        event = data["events"][0]
        t = Tui([path], 100, 24)
        screen = t.wait(r"^ Functions: ")
        check(any(re.match(r"^\s*-[\d,]+ \(", r) for r in screen),
              "signed: a negative cost shown:\n" + "\n".join(screen))
        check_list("signed", screen, data["rows"], event, data["totals"][event],
                   annotate_of(path))
        t.keys("q")
        check(t.exit_code() == 0, "signed: q exits 0")
        t.close()
    finally:
        server.stop()


def check_tree_filters():
    """The call tree's focus (F), hide (H) and none (X), on main of vg-recurse."""
    t = Tui(["vg-recurse-default.callgrind"], 120, 30)
    t.wait(r"^ Functions: ")
    t.text("t")
    t.wait(r"^ Call tree of ")
    t.keys("Down", "Enter", "Down", "Enter", "Down", "Enter", "Down")
    screen = t.wait(r"\+ main \[recurse\]")
    rows = tree_rows(screen)
    main = next(r for r in rows if r[2] == "main [recurse]")
    total = sum(r[0] for r in rows if r[1] == 0)
    t.text("F")
    screen = t.wait(r"focus=\^main\$")
    roots = [r for r in tree_rows(screen) if r[1] == 0]
    check(sum(r[0] for r in roots) == main[0],
          "tree focus=main: the roots sum to %d, main's frame %d:\n%s" % (
              sum(r[0] for r in roots), main[0], "\n".join(screen)))
    t.text("X")
    screen = t.wait(r"^ Call tree of \S+ \(the flame graph's estimate\)\s*$")
    check(sum(r[0] for r in tree_rows(screen) if r[1] == 0) == total, "tree X: the whole total")
    t.keys("Down", "Enter", "Down", "Enter", "Down", "Enter", "Down")
    t.wait(r"\+ main \[recurse\]")
    t.text("H")
    screen = t.wait(r"hide=\^main\$")
    text = "\n".join(screen)
    check(sum(r[0] for r in tree_rows(screen) if r[1] == 0) == total and "main [recurse]" not in text,
          "tree hide=main: the total kept, no main frame:\n" + text)
    t.keys("q")
    check(t.exit_code() == 0, "tree filters: q exits 0")
    t.close()


def check_not_a_terminal():
    p = subprocess.run([calltree, "tui", os.path.join(corpus, "xdebug-classes.callgrind")],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    check(p.returncode == 2 and "must be a terminal" in p.stderr,
          "not a terminal: exit %d, %r" % (p.returncode, p.stderr))
    # TERM=dumb cannot move its cursor: said before the profile is read, and the shell goes on.
    t = Tui(["xdebug-classes.callgrind"], 80, 24, env="TERM=dumb")
    screen = t.wait("SHELL-AFTER")
    check(t.exit_code() == 2 and any("cannot move its cursor" in r for r in screen),
          "TERM=dumb: exit %r:\n%s" % (t.exit_code(), "\n".join(screen)))
    t.close()


try:
    check_not_a_terminal()
    check_profile("vg-wordfreq-cxx-O2g-default.callgrind", 80, 24, inlined=True)
    check_profile("vg-gxx-small-default.cc1plus.callgrind", 200, 60, inlined=True)
    check_profile("vg-recurse-default.callgrind", 80, 24, inlined=True)
    check_threads()
    check_xdebug()
    check_source_and_resize()
    check_diff()
    check_machine_code()
    check_tree_filters()
    check_signed()
finally:
    subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)
if FAILURES:
    print("tui: %d failures" % len(FAILURES))
    sys.exit(1)
print("tui: every check passed")
