"""Profile's events, parts, totals and diagnostics against `calltree check --json` and
`calltree annotate --json`, on every corpus file."""

from __future__ import annotations

import pytest

import calltree
from conftest import CORPUS_FILES, SOURCE_DIR, corpus_ids, run_json


@pytest.mark.parametrize("path", CORPUS_FILES, ids=corpus_ids(CORPUS_FILES))
def test_totals_equal_check_json(path):
    check = run_json("check", "--json", str(path))
    p = calltree.load(path)
    assert p.events == check["events"]
    assert p.parts == check["parts"]
    # The stated-total rule (calltree/totals.h): check's program_totals, annotate's PROGRAM
    # TOTALS: the file's summary: or totals: where it states one, else the sum of the self costs.
    assert p.totals == check["program_totals"]
    annotate = run_json("annotate", "--json", "--auto=no", str(path))
    assert p.totals == annotate["totals"]
    if annotate["totals_calculated"]:
        assert p.totals == check["totals"]
    # Whatever is stated, the functions' self costs sum to check's totals.
    table = p.functions()
    assert {e: int(table[f"self:{e}"].sum()) for e in p.events} == check["totals"]
    assert p.counts["errors"] == check["errors"]
    assert p.counts["warnings"] == check["warnings"]
    kept = [(d.severity, d.code, d.line, d.column, d.message) for d in p.diagnostics]
    # (check's own calls-above-lines note, from the sums it makes, is no reader diagnostic)
    shown = [(d["severity"], d["code"], d["line"], d["column"], d["message"])
             for d in check["diagnostics"] if d["code"] != "calls-above-lines"]
    assert sorted(kept) == sorted(shown)
    assert isinstance(p.complete, bool)


def test_profile_attributes(corpus):
    p = calltree.load(corpus / "vg-recurse-default.callgrind")
    assert p.events == ["Ir"]
    assert p.totals == {"Ir": 362861224}
    assert p.parts == 1
    assert p.complete and p.state == "complete"
    assert p.path.endswith("vg-recurse-default.callgrind")
    assert "vg-recurse-default.callgrind" in repr(p)
    assert calltree.__version__.count(".") == 2


def test_cut_file_is_not_complete(corpus, tmp_path):
    whole = (corpus / "vg-recurse-default.callgrind").read_bytes()
    cut = tmp_path / "cut.callgrind"
    cut.write_bytes(whole[:30000])
    p = calltree.load(cut)
    assert not p.complete
    assert p.state == "likely-truncated"
    assert any(d.code == "likely-truncated" for d in p.diagnostics)


@pytest.mark.parametrize("name", ["cg_diff.out", "ann2.cgout"])
def test_a_file_of_differences_has_signed_numbers(name):
    # Valgrind's cg_diff output and cachegrind's ann2.cgout test file (tests/signed): negative
    # costs are numbers with their sign, in the totals and the columns, as check --json says.
    path = SOURCE_DIR / "tests" / "signed" / name
    check = run_json("check", "--json", str(path))
    p = calltree.load(path)
    assert p.totals == check["program_totals"]
    table = p.functions()
    for e in p.events:
        assert table[f"self:{e}"].dtype.kind == "i"
        assert int(table[f"self:{e}"].sum()) == check["totals"][e]
    assert min(int(table[f"self:{e}"].min()) for e in p.events) < 0
