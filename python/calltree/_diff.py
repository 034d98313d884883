"""calltree.diff: two profiles compared function by function, as `calltree diff --json`."""

from __future__ import annotations

from typing import Iterable, Optional, Union

import pandas as pd

from . import _calltree
from ._errors import Error, type_error
from ._profile import PathLike, Profile, _read


def _profile(p: Union[Profile, PathLike], threads: Optional[int]) -> Profile:
    return p if isinstance(p, Profile) else _read(p, threads, False, 3)  # (warns at diff's caller)


def _strings(name: str, values: Union[str, Iterable[str]]) -> list[str]:
    if isinstance(values, str):
        return [values]
    out = list(values)
    if not all(isinstance(v, str) for v in out):
        raise type_error(f"{name}: strings")
    return out


def diff(old: Union[Profile, PathLike], new: Union[Profile, PathLike], *,
         threshold: float = 0.1, limit: int = 0, sort: Union[str, Iterable[str], None] = None,
         inclusive: bool = False, mod_filename: Union[str, Iterable[str]] = (),
         mod_funcname: Union[str, Iterable[str]] = (), ignore_object: bool = False,
         strip_recursion: bool = False, part: Optional[int] = None,
         threads: Optional[int] = None) -> pd.DataFrame:
    """The functions whose cost changed from ``old`` to ``new`` (each a Profile or a path): the
    rows and numbers of ``calltree diff --json``'s ``"functions"``, in its order.

    Functions are matched by (object, file, name) after the rewrites; the options are
    ``calltree diff``'s flags (docs/diff.md): ``threshold`` (percent of the old total; 0 lists
    every changed function), ``limit`` (0: none), ``sort`` (event names), ``inclusive`` (rank
    by inclusive cost), ``mod_filename`` and ``mod_funcname`` (``s/OLD/NEW/`` rewrites, one or
    a list), ``ignore_object``, ``strip_recursion``, ``part`` (1-based, of both; default every
    part summed). ``threads`` reads the paths given.

    Columns: ``name``, ``file``, ``object``, ``change`` (``"changed"``, ``"added"``,
    ``"removed"``), then for each compared event E ``self:E:old``, ``self:E:new``,
    ``self:E:delta``, ``self:E:percent`` and the same for ``inclusive:E``. A percent is rounded
    to 4 decimals, NaN for growth from 0. ``attrs`` holds ``events`` (compared: recorded in
    both), ``old_only_events``, ``new_only_events``, ``totals`` (``{E: {"old", "new",
    "delta", "percent"}}``, the program totals), ``counts`` and ``saturated``.
    """
    request = _calltree.DiffRequest()
    request.threshold = float(threshold)
    if limit < 0:
        raise Error("other", f"limit is at least 0, not {limit}")
    request.limit = int(limit)
    request.sort = [] if sort is None else _strings("sort", sort)
    request.inclusive = bool(inclusive)
    request.mod_filename = _strings("mod_filename", mod_filename)
    request.mod_funcname = _strings("mod_funcname", mod_funcname)
    request.ignore_object = bool(ignore_object)
    request.strip_recursion = bool(strip_recursion)
    if part is not None and part < 1:
        raise Error("other", f"part is 1-based: part=1 is the first, not {part}")
    request.part = part
    a, b = _profile(old, threads), _profile(new, threads)
    columns, info = _calltree.diff(a._native, b._native, request)
    table = pd.DataFrame(columns)
    table.attrs.update(info)
    return table
