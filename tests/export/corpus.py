"""Shared by the export tests: the corpus files, calltree's own numbers for them, a temp dir.

Every export test checks an export against the model of the same file (`calltree export
--to=json`: self cost per function, per event), whose per-line costs tests/cli and the unit
tests check against callgrind_annotate itself.
"""
import concurrent.futures
import glob
import gzip
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict


def args():
    if len(sys.argv) < 3:
        sys.exit("usage: %s CALLTREE CORPUS_DIR" % sys.argv[0])
    return os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])


def corpus_files(corpus):
    """The corpus's profiles, up to CALLTREE_TEST_MAX_BYTES bytes each when that is set (only
    `make test-sanitize` sets it: tests/unit/profile_files.h says why), and up to
    CALLTREE_TEST_SUITE_MAX_BYTES (a suite's own limit, tests/CMakeLists.txt)."""
    limits = [int(os.environ.get(v) or 0) for v in
              ("CALLTREE_TEST_MAX_BYTES", "CALLTREE_TEST_SUITE_MAX_BYTES")]
    largest = min([n for n in limits if n > 0] or [float("inf")])
    files = []
    for f in sorted(os.listdir(corpus)):
        if f.endswith(".txt") or f.endswith(".sh") or f.endswith(".md"):
            continue
        p = os.path.join(corpus, f)
        if os.path.isfile(p) and os.path.getsize(p) <= largest:
            files.append(p)
    if len(files) < 30:
        sys.exit("corpus at %s has %d files: not the corpus" % (corpus, len(files)))
    return files


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d\n%s" % (" ".join(cmd), r.returncode,
                                                r.stderr.decode(errors="replace")))
    return r.stdout


def annotate(calltree, path):
    """Self cost per function as the exports count functions (object, fl= file, name), from the
    model (`calltree export --to=json`): (events, {(name, file): {event: self}}, self sums per
    event). Functions of one name and file in several objects are summed, as the formats that
    key a function by name and file show them. (`calltree annotate`'s keys differ where code is
    inlined from other files: there it is a key of its own under the fi= file.)"""
    with tempfile.TemporaryDirectory(prefix="calltree-export-") as d:
        out = os.path.join(d, "model.json")
        run([calltree, "export", "--to=json", path, "-o", out])
        with open(out) as f:
            m = json.load(f)
    events = [e["name"] for e in m["events"]]
    names = [(f["name"], m["files"][f["file"]]) for f in m["functions"]]
    cols = m["costs"]["columns"]
    fcol, scol = cols.index("function"), cols.index("self")
    self_of = defaultdict(lambda: defaultdict(int))
    for n in names:
        self_of[n]  # (every function, those with calls and no cost of their own too)
    sums = defaultdict(int)
    for row in m["costs"]["rows"]:
        costs = row[scol]
        for i, e in enumerate(events):
            v = int(costs[i]) if i < len(costs) else 0
            self_of[names[row[fcol]]][e] += v
            sums[e] += v
    return events, self_of, sums


def has_inlined_code(path):
    """Whether the profile has fi=/fe= lines (code inlined from other files)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return any(line.startswith((b"fi=", b"fe=")) for line in f)


def _context_at(name):
    """(where the caller context of a callgrind name begins or -1, where its recursion level
    begins or -1): "f'g'h" -> (2, -1); "f'2'g'h" -> (4, 1)."""
    tick = name.find("'")
    if tick <= 0:
        return -1, -1
    nxt = name.find("'", tick + 1)
    first = name[tick + 1:] if nxt < 0 else name[tick + 1:nxt]
    if first.isdigit():
        return (-1 if nxt < 0 else nxt + 1), tick
    return tick + 1, -1


def stack_label(name, parent):
    """The name a stack shows for a frame `name` under `parent` (None for a root): without its
    callgrind caller context ("f'g'h") when the parent's name, without its own recursion level,
    starts with that context; a recursion level ("f'2'g'h" -> "f'2") stays.
    export/stacks.h's stack_frame_name, written again."""
    at, _ = _context_at(name)
    if at < 0 or not parent:
        return name
    return name[:at - 1] if (as_caller(parent) + "'").startswith(name[at:] + "'") else name


def as_caller(name):
    """A name as a caller context names it: without its recursion level ("f'2'g" -> "f'g")."""
    _, level = _context_at(name)
    if level < 0:
        return name
    end = name.find("'", level + 1)
    return name[:level] + ("" if end < 0 else name[end:])


def parallel(fn, items, workers=2):
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for item, err in zip(items, pool.map(lambda i: _catch(fn, i), items)):
            if err:
                failures.append("%s: %s" % (os.path.basename(str(item)), err))
    return failures


def _catch(fn, item):
    try:
        fn(item)
        return None
    except AssertionError as e:
        return "FAIL " + str(e)
    except Exception as e:  # noqa: BLE001 (reported as a failure)
        return "ERROR %s: %s" % (type(e).__name__, e)


def finish(name, failures, checked):
    for f in failures:
        print(f)
    if failures:
        print("%s: %d of %d failed" % (name, len(failures), checked))
        sys.exit(1)
    print("%s: %d files checked" % (name, checked))


def tempdir():
    return tempfile.mkdtemp(prefix="calltree-export-")
