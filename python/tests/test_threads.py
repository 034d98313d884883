"""Loads in threads: two at once give what one at a time gives, and load releases the GIL."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import calltree
from conftest import CORPUS

BIG = CORPUS / "vg-gxx-big-instr-jumps.cc1plus.callgrind.gz"
SMALL = CORPUS / "vg-python-work-instr-jumps.callgrind"


def summary(p: calltree.Profile):
    return p.events, p.totals, p.functions()


def test_two_loads_in_two_threads_at_once():
    alone = [summary(calltree.load(BIG)), summary(calltree.load(SMALL))]
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(lambda path: summary(calltree.load(path)), [BIG, SMALL]))
    for (events_a, totals_a, table_a), (events_b, totals_b, table_b) in zip(alone, together):
        assert events_a == events_b
        assert totals_a == totals_b
        assert table_a.equals(table_b)


def test_one_profile_asked_from_two_threads_at_once():
    p = calltree.load(SMALL)
    with ThreadPoolExecutor(max_workers=2) as pool:
        a, b = pool.map(lambda _: p.functions(), range(2))
    assert a.equals(b)


# A thread loads a named pipe that the main thread writes: the writer runs only while load has
# the GIL released, so with it held the two wait for each other for ever (the child is killed
# at the timeout and the test fails).
CHILD = textwrap.dedent("""
    import sys, threading
    import calltree
    fifo, source = sys.argv[1], sys.argv[2]
    got = {}
    reader = threading.Thread(target=lambda: got.setdefault("p", calltree.load(fifo)))
    reader.start()
    with open(source, "rb") as src, open(fifo, "wb") as out:
        while block := src.read(1 << 16):
            out.write(block)
    reader.join()
    print(got["p"].totals)
""")


def test_load_releases_the_gil_while_reading(tmp_path):
    fifo = tmp_path / "profile.fifo"
    os.mkfifo(fifo)
    source = CORPUS / "vg-recurse-default.callgrind"
    done = subprocess.run([sys.executable, "-c", CHILD, str(fifo), str(source)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(calltree.load(source).totals)
