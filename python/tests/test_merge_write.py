"""calltree.merge equals `calltree merge`; Profile.write writes what reads back the same."""

from __future__ import annotations

import subprocess

import pytest

import calltree
from conftest import CALLTREE, CORPUS, run_json

def by_key(p: calltree.Profile):
    """The functions table in (object, file, name) order, without ids (a file written by merge
    or write lists functions in that order, so its ids are others)."""
    return p.functions().sort_values(["object", "file", "name"]).reset_index(drop=True)


THREADS = [CORPUS / f"vg-threads-separate.t0{i}.callgrind" for i in range(1, 6)]


@pytest.mark.parametrize("parts", ["sum", "keep"])
def test_merge_equals_the_tool(tmp_path, parts):
    merged = calltree.merge(THREADS, parts=parts)
    out = tmp_path / "merged.callgrind"
    subprocess.run([CALLTREE, "merge", f"--parts={parts}", "-o", str(out), *map(str, THREADS)],
                   check=True, capture_output=True)
    check = run_json("check", "--json", str(out))
    assert merged.path is None
    assert merged.events == check["events"]
    assert merged.parts == check["parts"] == (1 if parts == "sum" else 5)
    assert merged.totals == (check["summary"] or check["totals"])
    assert by_key(merged).equals(by_key(calltree.load(out)))


def test_write_is_what_merge_writes(tmp_path):
    merged = calltree.merge(THREADS)
    ours = tmp_path / "ours.callgrind"
    merged.write(ours)
    theirs = tmp_path / "theirs.callgrind"
    subprocess.run([CALLTREE, "merge", "-o", str(theirs), *map(str, THREADS)], check=True)
    assert ours.read_bytes() == theirs.read_bytes()
    assert not list(tmp_path.glob("*tmp*"))


def test_write_reads_back_the_same(tmp_path):
    for name in ("vg-recurse-default.callgrind", "xdebug-recursion.callgrind"):
        p = calltree.load(CORPUS / name, positions=True)
        out = tmp_path / name
        p.write(out)
        back = calltree.load(out)
        assert back.events == p.events
        assert back.functions()[["self:" + e for e in p.events]].sum().tolist() == \
            p.functions()[["self:" + e for e in p.events]].sum().tolist()
        assert back.complete
        assert by_key(back).equals(by_key(p))


def test_positions_kept_or_summed(tmp_path):
    path = CORPUS / "vg-phases-instr-jumps-nocompress-pos.callgrind"
    whole, summed = calltree.load(path, positions=True), calltree.load(path)
    assert whole.functions().equals(summed.functions())
    whole.write(tmp_path / "whole.callgrind")
    summed.write(tmp_path / "summed.callgrind")
    text = (tmp_path / "whole.callgrind").read_text()
    assert "positions: instr line" in text and "jump=" in text
    assert "jump=" not in (tmp_path / "summed.callgrind").read_text()
    assert by_key(calltree.load(tmp_path / "summed.callgrind")).equals(by_key(summed))


def test_write_replaces_a_file_whole(tmp_path):
    out = tmp_path / "x.callgrind"
    out.write_text("old contents\n")
    calltree.load(CORPUS / "vg-recurse-default.callgrind").write(out)
    assert calltree.load(out).totals == {"Ir": 362861224}
