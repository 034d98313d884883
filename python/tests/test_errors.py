"""Errors raise calltree.Error with the library's code and message, on real bad inputs."""

from __future__ import annotations

import errno
import os
import pickle
import sys

import pytest

import calltree


def error_of(call, *args, **kwargs) -> calltree.Error:
    with pytest.raises(calltree.Error) as caught:
        call(*args, **kwargs)
    return caught.value


def test_missing_file_is_not_found(tmp_path):
    missing = tmp_path / "missing.out"
    e = error_of(calltree.load, missing)
    assert e.code == "not-found"
    assert e.message == f"{missing}: No such file or directory"
    assert str(e) == f"{missing}: No such file or directory [not-found]"


def test_binary_is_no_profile():
    e = error_of(calltree.load, sys.executable)
    assert e.code == "no-profile"
    assert e.message.startswith(f"{sys.executable}: ")
    assert "binary" in e.message


def test_empty_file_is_no_profile(tmp_path):
    empty = tmp_path / "empty.out"
    empty.write_bytes(b"")
    e = error_of(calltree.load, empty)
    assert e.code == "no-profile"
    assert e.message.startswith(f"{empty}: empty input")


def test_text_without_events_is_no_profile(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("hello\nworld\n")
    assert error_of(calltree.load, text).code == "no-profile"


def test_directory_is_directory(tmp_path):
    assert error_of(calltree.load, tmp_path).code == "is-directory"


def test_merge_names_the_first_bad_input(corpus, tmp_path):
    missing = tmp_path / "gone.out"
    e = error_of(calltree.merge, [corpus / "vg-recurse-default.callgrind", missing])
    assert e.code == "not-found"
    assert e.message.startswith(str(missing))
    assert error_of(calltree.merge, []).code == "other"
    assert error_of(calltree.merge, str(missing)).code == "other"


def test_bad_arguments_are_other(corpus):
    p = calltree.load(corpus / "vg-recurse-default.callgrind")
    for call, args, kwargs, words in [
        (p.callers, ("no_such_function",), {}, "no function named 'no_such_function'"),
        (p.callees, (10**6,), {}, "no function of id 1000000"),
        (p.callers, (-1,), {}, "no function of id -1"),
        (p.callers, (1.5,), {}, "not float"),
        (p.top, (5,), {"by": "inclusive:Dr"}, "by='inclusive:Dr'"),
        (p.top, (5,), {"by": "Ir"}, "by='Ir'"),
        (p.stacks, ("Dr",), {}, "no event 'Dr'"),
        (calltree.load, (corpus / "vg-recurse-default.callgrind",), {"threads": 0}, "threads"),
        (calltree.load, (42,), {}, "not int"),
        (calltree.merge, ([corpus / "vg-recurse-default.callgrind"],), {"parts": "all"}, "parts"),
    ]:
        e = error_of(call, *args, **kwargs)
        assert e.code == "other", (args, kwargs)
        assert words in e.message, e.message


def test_a_name_of_several_functions_asks_for_the_id(corpus):
    p = calltree.load(corpus / "vg-recurse-default.callgrind")
    e = error_of(p.callers, "(below main)")
    assert e.code == "other"
    assert "2 functions are named '(below main)'" in e.message


def test_diff_errors(corpus):
    a = corpus / "vg-recurse-default.callgrind"
    assert error_of(calltree.diff, a, a, part=3).code == "other"
    assert error_of(calltree.diff, a, a, part=0).code == "other"
    assert error_of(calltree.diff, a, a, sort="Dr").code == "other"
    assert error_of(calltree.diff, a, a, mod_funcname="s/(/x/").code == "other"
    assert error_of(calltree.diff, a, "/nonexistent/x.out").code == "not-found"


def test_write_to_a_missing_folder_leaves_nothing(corpus, tmp_path):
    p = calltree.load(corpus / "vg-recurse-default.callgrind")
    target = tmp_path / "no" / "such" / "dir" / "x.callgrind"
    e = error_of(p.write, target)
    assert e.code == "not-found"
    assert e.message.startswith(str(target))
    assert not (tmp_path / "no").exists()


def test_each_error_is_also_the_builtin_exception_of_its_kind(tmp_path):
    # `except FileNotFoundError` catches calltree's as it catches open()'s.
    missing = tmp_path / "missing.out"
    with pytest.raises(FileNotFoundError) as caught:
        calltree.load(missing)
    e = caught.value
    assert isinstance(e, calltree.Error) and e.code == "not-found"
    assert e.errno == errno.ENOENT and e.filename == str(missing)
    with pytest.raises(IsADirectoryError) as caught:
        calltree.load(tmp_path)
    assert caught.value.code == "is-directory" and caught.value.errno == errno.EISDIR
    with pytest.raises(OSError):
        calltree.merge([missing])
    with pytest.raises(ValueError) as caught:
        calltree.load(sys.executable)
    assert caught.value.code == "no-profile"
    good = tmp_path / "good.callgrind"
    good.write_text("events: Ir\nfn=main\n1 5\n")
    p = calltree.load(good)
    with pytest.raises(ValueError):
        p.top(by="self:Dr")
    with pytest.raises(ValueError):
        p.callers("no_such_function")
    with pytest.raises(TypeError) as caught:
        p.callers(1.5)
    assert isinstance(caught.value, calltree.Error) and caught.value.code == "other"
    with pytest.raises(TypeError):
        calltree.load(42)
    # Shown and pickled as calltree.Error, of its kind again when unpickled.
    assert type(e).__module__ == "calltree" and type(e).__qualname__ == "Error"
    again = pickle.loads(pickle.dumps(e))
    assert isinstance(again, FileNotFoundError) and again.code == "not-found" and again.message == e.message
    assert str(e) == f"{missing}: No such file or directory [not-found]"


def test_permission_denied_is_a_permission_error(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads any file")
    locked = tmp_path / "locked.callgrind"
    locked.write_text("events: Ir\nfn=main\n1 5\n")
    locked.chmod(0)
    with pytest.raises(PermissionError) as caught:
        calltree.load(locked)
    assert caught.value.code == "permission-denied" and caught.value.errno == errno.EACCES
