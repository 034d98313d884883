"""Profile.stacks(): folded stacks whose numbers sum to the functions' self costs."""

from __future__ import annotations

from collections import defaultdict

import pytest

import calltree
from conftest import CORPUS

FILES = ["vg-recurse-default.callgrind", "vg-phases-toggle-collect.callgrind",
         "xdebug-recursion.callgrind", "gperftools-phases-cpu.callgrind",
         "vg-threads-separate-combined.callgrind"]


def frame(name: str) -> str:
    return (name.replace(";", ":").replace("\n", " ").replace("\r", " ")) or "?"


@pytest.mark.parametrize("name", FILES)
def test_stacks_sum_to_self_costs(name):
    p = calltree.load(CORPUS / name)
    for event in p.events[:2]:
        text = p.stacks(event)
        assert text.endswith("\n")
        by_leaf = defaultdict(int)
        for line in text.splitlines():
            stack, _, count = line.rpartition(" ")
            assert stack and int(count) > 0
            by_leaf[stack.split(";")[-1]] += int(count)
        table = p.functions()
        want = defaultdict(int)
        for fname, cost in zip(table["name"], table[f"self:{event}"]):
            if cost:
                want[frame(fname)] += int(cost)
        assert dict(by_leaf) == dict(want)


def test_stacks_default_event_and_shape():
    p = calltree.load(CORPUS / "vg-recurse-default.callgrind")
    text = p.stacks()
    assert text == p.stacks("Ir")
    assert any(line.startswith("0x000000000001ab70;(below main);") for line in text.splitlines())
    assert sum(int(line.rpartition(" ")[2]) for line in text.splitlines()) == \
        int(p.functions()["self:Ir"].sum())
