"""A profile of differences (Valgrind's cg_diff output, tests/signed): top(), callers() and
callees() rank by the size of the change, as `calltree annotate` lists them, and give signed
numbers (-1, never 18446744073709551615)."""

from __future__ import annotations

import re
import subprocess

import pytest

import calltree
from conftest import CALLTREE, SOURCE_DIR

SIGNED = SOURCE_DIR / "tests" / "signed"


def annotate_rows(path):
    """`calltree annotate`'s function rows: [(cost, name)], in its order."""
    text = subprocess.run([CALLTREE, "annotate", "--auto=no", str(path)], capture_output=True,
                          text=True, check=True).stdout
    return [(int(m.group(1).replace(",", "")), m.group(2).rsplit(":", 1)[1])
            for m in re.finditer(r"^ *(-?[\d,]+) \([ \d.-]+%\).* (\S+)$", text, re.M)
            if "PROGRAM TOTALS" not in m.group(0)]


def test_top_ranks_by_the_size_of_the_change_as_annotate():
    path = SIGNED / "cg_diff.out"
    p = calltree.load(path)
    rows = annotate_rows(path)
    assert rows[:3] == [(-262200, "checksum"), (-163896, "fill"), (96000, "work")]
    for by in ("self:Ir", "inclusive:Ir"):
        top = p.top(3, by=by)
        assert list(zip(top[by].tolist(), top["name"])) == rows[:3], by
    everything = p.top(len(p.functions()), by="self:Ir")["self:Ir"].tolist()
    assert [abs(c) for c in everything] == sorted((abs(c) for c in everything), reverse=True)
    assert min(everything) < 0 < max(everything)


def test_callers_rank_by_the_size_of_the_change(tmp_path):
    # main calls up (+14), down (-1,000) and tiny (-1): the largest change first.
    path = tmp_path / "delta.callgrind"
    path.write_text("events: Ir\nfl=a.c\nfn=main\n1 2\ncfn=up\ncalls=1 5\n5 14\ncfn=down\ncalls=1 6\n"
                    "6 -1000\ncfn=tiny\ncalls=1 7\n7 -1\nfn=up\n5 14\nfn=down\n6 -1000\nfn=tiny\n7 -1\n")
    p = calltree.load(path)
    callees = p.callees("main")
    assert list(zip(callees["name"], callees["inclusive:Ir"].tolist())) == [
        ("down", -1000), ("up", 14), ("tiny", -1)]
    assert p.callers("tiny")["inclusive:Ir"].tolist() == [-1]
    assert p.top(4)["name"].tolist() == ["down", "main", "up", "tiny"]  # main: 2+14-1000-1


def test_stacks_of_differences_say_why_there_are_none():
    # Folded stacks carry counts (flamegraph.pl's widths): `calltree export --to=folded` refuses
    # such a file, and so does stacks(), where it printed 18446744073709551544 for main's -72.
    p = calltree.load(SIGNED / "cg_diff.out")
    with pytest.raises(ValueError) as caught:
        p.stacks()
    assert caught.value.code == "other" and "holds differences" in caught.value.message
