"""A profile that loads with problems in it warns (warnings.warn, calltree.ProfileWarning) once,
naming the first; a clean one does not."""

from __future__ import annotations

import warnings

import pytest

import calltree
from conftest import SOURCE_DIR

MALFORMED = SOURCE_DIR / "tests" / "malformed" / "m05-too-many-costs.callgrind"


def test_a_file_with_errors_warns_naming_the_first():
    with pytest.warns(calltree.ProfileWarning) as caught:
        p = calltree.load(MALFORMED)
    assert len(caught) == 1
    text = str(caught[0].message)
    assert text.startswith(f"{MALFORMED}: read with 1 error; the first: line 5: ")
    assert "[too-many-costs]" in text and "Profile.diagnostics" in text
    assert caught[0].filename == __file__  # (the caller's line, not the package's)
    assert p.counts["errors"] == 1
    assert issubclass(calltree.ProfileWarning, UserWarning)


def test_a_file_cut_short_warns(corpus, tmp_path):
    whole = (corpus / "vg-recurse-default.callgrind").read_bytes()
    cut = tmp_path / "cut.callgrind"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.warns(calltree.ProfileWarning, match=r"likely-truncated"):
        calltree.load(cut)
    with pytest.warns(calltree.ProfileWarning, match=r"^merged profile: "):
        calltree.merge([corpus / "vg-recurse-default.callgrind", cut])


def test_a_clean_file_does_not_warn_and_a_filter_makes_problems_fail(corpus):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        calltree.load(corpus / "vg-recurse-default.callgrind")
        with pytest.raises(calltree.ProfileWarning):
            calltree.load(MALFORMED)


def test_diff_of_paths_warns_at_its_callers_line(corpus):
    with pytest.warns(calltree.ProfileWarning) as caught:
        calltree.diff(MALFORMED, corpus / "vg-recurse-default.callgrind")
    assert [w.filename for w in caught] == [__file__]
