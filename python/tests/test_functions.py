"""Profile.functions(), callers(), callees() and top() against the library's own numbers."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

import calltree
from conftest import CORPUS_FILES, FUNCTION_COSTS, corpus_ids, run_json


def library_functions(path):
    """function_costs.cc's lines: (events, rows of (calls, self, inclusive, object, file, name))."""
    out = subprocess.run([FUNCTION_COSTS, str(path)], capture_output=True, check=True).stdout
    lines = out.decode("utf-8", "replace").split("\n")
    events = lines[0].split("\t")[:-1]
    n = len(events)
    rows = []
    for line in lines[1:]:
        if not line:
            continue
        fields = line.split("\t", 2 + 2 * n + 2)
        numbers = [int(x) for x in fields[1:2 + 2 * n]]
        rows.append((int(fields[0]), numbers[0], numbers[1:1 + n], numbers[1 + n:], *fields[2 + 2 * n:]))
    return events, rows


@pytest.mark.parametrize("path", CORPUS_FILES, ids=corpus_ids(CORPUS_FILES))
def test_every_function_equals_the_library(path):
    p = calltree.load(path)
    table = p.functions()
    events, rows = library_functions(path)
    assert p.events == events
    assert list(table.columns) == (["name", "file", "object", "calls"]
                                   + [f"{k}:{e}" for e in events for k in ("self", "inclusive")])
    assert len(table) == len(rows) > 0
    assert list(table.index) == [r[0] for r in rows]
    assert table.index.name == "id"
    assert table["calls"].tolist() == [r[1] for r in rows]
    for i, e in enumerate(events):
        assert table[f"self:{e}"].tolist() == [r[2][i] for r in rows], e
        assert table[f"inclusive:{e}"].tolist() == [r[3][i] for r in rows], e
    assert table["object"].tolist() == [r[4] for r in rows]
    assert table["file"].tolist() == [r[5] for r in rows]
    assert table["name"].tolist() == [r[6] for r in rows]


def test_main_inclusive_as_annotate_and_serve_show_it(corpus):
    # annotate --json gives the numbers of the server's function list (one library of views).
    path = corpus / "vg-recurse-default.callgrind"
    report = run_json("annotate", "--json", str(path))
    mains = [f for f in report["functions"] if f["name"] == "main"]
    assert len(mains) == 1
    table = calltree.load(path).functions()
    row = table[table["name"] == "main"]
    assert len(row) == 1
    assert int(row["inclusive:Ir"].iloc[0]) == mains[0]["inclusive"]["Ir"] == 362733729
    assert int(row["self:Ir"].iloc[0]) == mains[0]["self"]["Ir"]


def test_functions_is_a_new_frame_each_time(corpus):
    p = calltree.load(corpus / "vg-recurse-default.callgrind")
    a = p.functions()
    a.loc[0, "self:Ir"] = 123456789
    assert p.functions().loc[0, "self:Ir"] != 123456789


def test_top_is_the_library_order(corpus):
    p = calltree.load(corpus / "vg-recurse-default.callgrind")
    top = p.top(10)
    assert top["name"].tolist()[:5] == ["0x000000000001ab70", "(below main)",
                                        "__libc_start_main@@GLIBC_2.34", "(below main)", "main"]
    assert top["inclusive:Ir"].iloc[0] == 362861224
    assert len(top) == 10
    by_self = p.top(3, by="self:Ir")
    table = p.functions()
    assert by_self["self:Ir"].tolist() == sorted(table["self:Ir"], reverse=True)[:3]
    assert len(p.top(0)) == 0


def test_callers_and_callees(corpus):
    p = calltree.load(corpus / "vg-recurse-default.callgrind")
    callees = p.callees("0x000000000001ab70")
    assert callees["name"].tolist() == ["(below main)", "_dl_start", "_dl_init"]
    assert callees["inclusive:Ir"].tolist() == [362736287, 124548, 374]
    assert callees["count"].tolist() == [1, 1, 1]
    assert list(callees.columns) == ["name", "file", "object", "count", "recursive", "inclusive:Ir"]
    assert callees.index.name == "id"
    f = p.function_id("main")
    callers = p.callers(f)
    assert len(callers) >= 1
    # Every caller row is a function of the profile, and main is among its callees.
    for caller in callers.index:
        assert f in p.callees(int(caller)).index
    fib = p.callees("fib'2")  # fib'2 calls itself: listed, marked recursive
    assert fib.loc[p.function_id("fib'2"), "recursive"]
    assert not fib.drop(index=p.function_id("fib'2"))["recursive"].any()


def test_callers_from_a_numpy_id(corpus):
    p = calltree.load(corpus / "vg-recurse-default.callgrind")
    f = p.functions().index[p.functions()["name"] == "main"][0]
    assert isinstance(f, np.integer)
    assert p.callers(f).equals(p.callers("main"))


def test_file_is_the_file_the_functions_code_is_in(tmp_path):
    # As Valgrind writes an inlined call at a function's start: fl= names the header of the
    # inlined code (stl_vector.h), fi= the function's own file, where its cost lies.
    path = tmp_path / "inlined.callgrind"
    path.write_text("events: Ir\nfl=/usr/include/c++/12/bits/stl_vector.h\nfn=g::dijkstra(int)\n"
                    "1046 3\nfi=/src/graph.cc\n20 100\n21 50\nfe=/usr/include/c++/12/bits/stl_vector.h\n"
                    "1047 5\nfn=std::vector<int>::size() const\n988 7\n"
                    "fl=/src/graph.cc\nfn=main\n5 1\ncfl=/usr/include/c++/12/bits/stl_vector.h\ncfn=g::dijkstra(int)\n"
                    "calls=1 1046\n6 158\n"
                    "fl=/src/empty.cc\nfn=nothing\n1 0\n")
    p = calltree.load(path)
    t = p.functions().set_index("name")
    assert t.loc["g::dijkstra(int)", "file"] == "/src/graph.cc"
    assert t.loc["g::dijkstra(int)", "self:Ir"] == 158
    # Code all in its fl= file, or no cost at all: the fl= file.
    assert t.loc["std::vector<int>::size() const", "file"] == "/usr/include/c++/12/bits/stl_vector.h"
    assert t.loc["main", "file"] == "/src/graph.cc"
    assert t.loc["nothing", "file"] == "/src/empty.cc"
    assert p.callees("main")["file"].tolist() == ["/src/graph.cc"]
    assert p.top(1)["file"].tolist() == ["/src/graph.cc"]
