"""calltree.diff gives the rows and numbers of `calltree diff --json`."""

from __future__ import annotations

import math

import pytest

import calltree
from conftest import CORPUS, run_json

PAIRS = [
    ("vg-phases-toggle-collect.callgrind", "vg-phases-dump-before-zero-combined.callgrind"),
    ("vg-recurse-default.callgrind", "vg-recurse-separate-recs-callers.callgrind"),
    ("vg-recurse-default.callgrind", "vg-recurse-cacheuse.callgrind"),
    ("vg-threads-separate.t01.callgrind", "vg-threads-separate-combined.callgrind"),
    ("xdebug-recursion.callgrind", "xdebug-closures.callgrind"),
    ("vg-gxx-small-default.cc1plus.callgrind", "vg-gxx-big-instr-jumps.cc1plus.callgrind.gz"),
]

# (python keyword arguments, the same as flags)
OPTIONS = [
    ({}, []),
    ({"threshold": 0}, ["--threshold=0"]),
    ({"threshold": 0, "inclusive": True, "limit": 7}, ["--threshold=0", "--inclusive=yes", "--limit=7"]),
    ({"threshold": 0, "strip_recursion": True, "ignore_object": True},
     ["--threshold=0", "--strip-recursion", "--ignore-object"]),
    ({"threshold": 0.5, "mod_funcname": "s/'.*$//"}, ["--threshold=0.5", "--mod-funcname=s/'.*$//"]),
]


def same_number(got, want):
    if want is None:
        return got is None or (isinstance(got, float) and math.isnan(got))
    if isinstance(got, float):  # (the JSON writes 6 significant digits: 1453.38 for 1453.3809)
        return float(f"{got:.6g}") == want
    return got == want


def assert_equal_to_json(table, doc):
    assert table.attrs["events"] == doc["events"]
    assert table.attrs["old_only_events"] == doc["old_only_events"]
    assert table.attrs["new_only_events"] == doc["new_only_events"]
    for e, cost in doc["totals"].items():
        for part, want in cost.items():
            assert same_number(table.attrs["totals"][e][part], want), (e, part)
    assert table.attrs["saturated"] == doc["saturated"]
    for k, v in doc["counts"].items():
        assert table.attrs["counts"][k] == v, k
    assert len(table) == len(doc["functions"])
    for (_, row), f in zip(table.iterrows(), doc["functions"]):
        for k in ("name", "file", "object", "change"):
            assert row[k] == f[k], (k, f["name"])
        for kind in ("self", "inclusive"):
            for e in doc["events"]:
                for part in ("old", "new", "delta", "percent"):
                    got, want = row[f"{kind}:{e}:{part}"], f[kind][e][part]
                    assert same_number(got, want), (f["name"], kind, e, part, got, want)


@pytest.mark.parametrize("old,new", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
@pytest.mark.parametrize("kwargs,flags", OPTIONS, ids=[" ".join(f) or "defaults" for _, f in OPTIONS])
def test_diff_equals_diff_json(old, new, kwargs, flags):
    a, b = CORPUS / old, CORPUS / new
    doc = run_json("diff", "--json", *flags, str(a), str(b))
    table = calltree.diff(a, b, **kwargs)
    assert_equal_to_json(table, doc)


def test_diff_of_loaded_profiles_and_columns():
    a = calltree.load(CORPUS / "vg-phases-toggle-collect.callgrind")
    b = calltree.load(CORPUS / "vg-phases-dump-before-zero-combined.callgrind")
    table = calltree.diff(a, b, threshold=0)
    assert len(table) > 0
    assert list(table.columns[:4]) == ["name", "file", "object", "change"]
    assert "self:Ir:delta" in table.columns and "inclusive:Ir:percent" in table.columns
    assert table["self:Ir:delta"].dtype.kind == "i"
    assert set(table["change"]) <= {"changed", "added", "removed"}
    assert (table["self:Ir:new"].astype(object) - table["self:Ir:old"].astype(object)
            == table["self:Ir:delta"].astype(object)).all()


def test_diff_of_a_part():
    a = CORPUS / "vg-phases-dump-before-zero-combined.callgrind"
    doc = run_json("diff", "--json", "--part=2", "--threshold=0", str(a), str(a))
    assert_equal_to_json(calltree.diff(a, a, part=2, threshold=0), doc)
    assert len(calltree.diff(a, a, threshold=0)) == 0  # a file against itself: nothing changed
