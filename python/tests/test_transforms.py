"""Profile.stacks(transforms=...): Firefox Profiler's call-tree transforms in the order given,
the stacks those of `calltree export --to=folded` with the same transforms in the same order,
the total kept (focus_path aside), and results that differ by order."""

from __future__ import annotations

import re
import subprocess

import pytest

import calltree
from conftest import CALLTREE, CORPUS

RECURSE = CORPUS / "vg-recurse-default.callgrind"  # (recursion, cycles, libc's clones)
XDEBUG = CORPUS / "xdebug-recursion.callgrind"
PHASES = CORPUS / "vg-phases-toggle-collect.callgrind"
LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6"


def exported(path, *flags) -> str:
    """`calltree export --to=folded` of every path (--min-share=0, as stacks() has it)."""
    r = subprocess.run([CALLTREE, "export", "--to=folded", "--min-share=0", *flags, str(path),
                        "-o", "-"], capture_output=True, check=True)
    return r.stdout.decode()


def parse(text: str) -> dict:
    out = {}
    for line in text.splitlines():
        stack, _, cost = line.rpartition(" ")
        out[stack] = out.get(stack, 0) + int(cost)
    return out


def total(text: str) -> int:
    return sum(parse(text).values())


# (the steps for stacks(), export's flags in the same order)
CASES = [
    (RECURSE, [("collapse_recursion", "^fib$")], ["--collapse-recursion=^fib$"]),
    (RECURSE, ["collapse_direct_recursion"], ["--collapse-direct-recursion"]),
    (RECURSE, ["merge_clones"], ["--merge-clones"]),
    (RECURSE, [("collapse_object", r"libc\.so"), "collapse_recursion"],
     [r"--collapse-object=libc\.so", "--collapse-recursion"]),
    (RECURSE, ["collapse_recursion:.", "merge_clones"], ["--collapse-recursion=.", "--merge-clones"]),
    (XDEBUG, ["collapse_recursion"], ["--collapse-recursion"]),
    (PHASES, ["merge_clones", ("collapse_direct_recursion", None)],
     ["--merge-clones", "--collapse-direct-recursion"]),
]


@pytest.mark.parametrize("path,steps,flags", CASES,
                         ids=[f"{p.name.split('.')[0]}:{' '.join(f)}" for p, _, f in CASES])
def test_stacks_as_export(path, steps, flags):
    p = calltree.load(path)
    got = p.stacks(transforms=steps)
    assert got and parse(got) == parse(exported(path, *flags))
    assert total(got) == total(p.stacks())
    assert parse(p.stacks()) == parse(exported(path))


def test_order_matters_collapse_object_and_recursion():
    """libc collapsed, then every recursion: libc calling back into the program, which calls
    libc again, is one libc frame. Every recursion first, then libc: libc under libc stays."""
    p = calltree.load(RECURSE)
    object_first = p.stacks(transforms=[("collapse_object", r"libc\.so"), "collapse_recursion"])
    recursion_first = p.stacks(transforms=["collapse_recursion", ("collapse_object", r"libc\.so")])
    assert object_first != recursion_first
    assert total(object_first) == total(recursion_first) == total(p.stacks())
    assert max(s.split(";").count(LIBC) for s in parse(object_first)) == 1
    assert max(s.split(";").count(LIBC) for s in parse(recursion_first)) > 1
    assert parse(recursion_first) == parse(exported(RECURSE, "--collapse-recursion",
                                                    r"--collapse-object=libc\.so"))


def test_focus_then_collapse_is_not_collapse_then_focus():
    p = calltree.load(RECURSE)
    plain = parse(p.stacks())
    # a path main ... fib;fib'2 of the plain stacks, cut after fib'2
    deep = next(s for s in plain if ";fib;fib'2" in s)
    path = deep.split(";")[:deep.split(";").index("fib'2") + 1]
    focus_first = p.stacks(transforms=[("focus_path", path), ("collapse_recursion", "^fib$")])
    collapse_first = p.stacks(transforms=[("collapse_recursion", "^fib$"), ("focus_path", path)])
    assert collapse_first == ""  # (no fib'2 left to focus on)
    stacks = parse(focus_first)
    assert stacks and all(s.split(";")[0] == "fib'2" for s in stacks)
    assert not any("fib'3" in s for s in stacks)  # (collapsed into fib'2, the root)
    assert 0 < total(focus_first) < total(p.stacks())
    # the same as focusing alone, then the levels below fib'2 collapsed into it
    focused = parse(p.stacks(transforms=[("focus_path", ";".join(path))]))
    assert total(focus_first) == sum(focused.values())


def test_bad_transforms():
    p = calltree.load(RECURSE)
    with pytest.raises(calltree.Error, match="no transform 'fold'"):
        p.stacks(transforms=["fold"])
    with pytest.raises(calltree.Error, match="bad pattern"):
        p.stacks(transforms=[("collapse_recursion", "(")])
    with pytest.raises(calltree.Error, match="collapse_object needs a pattern"):
        p.stacks(transforms=["collapse_object"])
    with pytest.raises(calltree.Error, match="focus_path takes names"):
        p.stacks(transforms=[("focus_path", [])])
    assert p.stacks(transforms=[("collapse_recursion", re.compile("^fib$"))]) == \
        p.stacks(transforms=["collapse_recursion:^fib$"])
