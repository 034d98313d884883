"""Shared by the export tests: the corpus files, calltree's own numbers for them, a temp dir.

Every export test checks an export against `calltree annotate --json --auto=no` of the same
file (self cost per function, per event), which tests/cli/annotate_golden.sh checks against
callgrind_annotate itself.
"""
import concurrent.futures
import glob
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
    files = []
    for f in sorted(os.listdir(corpus)):
        if f.endswith(".txt") or f.endswith(".sh") or f.endswith(".md"):
            continue
        p = os.path.join(corpus, f)
        if os.path.isfile(p):
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
    """calltree annotate --json: (events, {(name, file): {event: self}}, self sums per event)."""
    d = json.loads(run([calltree, "annotate", "--json", "--auto=no", path]))
    events = d["recorded_events"]
    self_of = defaultdict(lambda: defaultdict(int))
    sums = defaultdict(int)
    for f in d["functions"]:
        for e in events:
            v = f["self"].get(e, 0)
            self_of[(f["name"], f["file"])][e] += v
            sums[e] += v
    return events, self_of, sums


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
