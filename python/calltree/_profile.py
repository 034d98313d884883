"""calltree.load, calltree.merge and the Profile they return."""

from __future__ import annotations

import operator
import os
import re
import warnings
from typing import Iterable, NamedTuple, Optional, Sequence, Tuple, Union

import pandas as pd

from . import _calltree
from ._errors import Error, type_error

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
# A step of Profile.stacks' transforms: "merge_clones", "NAME:ARGUMENT" (serve's transform=),
# or (NAME, ARGUMENT): ARGUMENT a pattern (str or re.Pattern) or, for focus_path, the names.
Transform = Union[str, Tuple[str, Union[str, "re.Pattern[str]", Sequence[str], None]]]

_TRANSFORMS = ("merge_clones", "collapse_object", "collapse_recursion",
               "collapse_direct_recursion", "focus_path")


def _transform_steps(transforms: Iterable[Transform]) -> list:
    """The steps as the native side takes them: (name, search or None, path), in order."""
    if isinstance(transforms, str):
        transforms = [transforms]
    steps = []
    for t in transforms:
        if isinstance(t, str):
            name, _, arg = t.partition(":")
            arg = arg if ":" in t else None
        elif isinstance(t, tuple) and len(t) == 2 and isinstance(t[0], str):
            name, arg = t
        else:
            raise type_error(f"a transform is a str or a (name, argument) tuple, not {t!r}")
        if name not in _TRANSFORMS:
            raise Error("other", f"no transform {name!r} (one of {', '.join(_TRANSFORMS)})")
        search, path = None, []
        if name == "merge_clones":
            if arg:
                raise Error("other", "merge_clones takes no argument")
        elif name == "focus_path":
            path = arg.split(";") if isinstance(arg, str) else list(arg or [])
            if not path or not all(isinstance(n, str) for n in path):
                raise Error("other", "focus_path takes names from a root: ['main', 'f'] or 'main;f'")
        else:
            if not arg:
                if name == "collapse_object":
                    raise Error("other", "collapse_object needs a pattern (an object's name)")
                arg = ""  # (every function)
            try:
                search = (arg if isinstance(arg, re.Pattern) else re.compile(arg)).search
            except (re.error, TypeError) as e:
                raise Error("other", f"{name}: bad pattern {arg!r}: {e}") from None
        steps.append((name, search, path))
    return steps


class Diagnostic(NamedTuple):
    """A problem found inside a file while it was read (the file is read on).

    ``severity`` is ``"note"``, ``"warning"`` or ``"error"``; ``code`` the stable code
    (``"likely-truncated"``, ``"malformed-number"``, ... described in format.md); ``line`` and
    ``column`` 1-based (0: the file as a whole, no column); ``message`` for people.
    """

    severity: str
    code: str
    line: int
    column: int
    message: str


def _path_bytes(path: PathLike) -> bytes:
    try:
        return os.fsencode(os.fspath(path))
    except TypeError:
        raise type_error(f"a path is a str, bytes or os.PathLike, not {type(path).__name__}") from None


def _threads(threads: Optional[int]) -> int:
    if threads is None:
        return 0
    try:
        n = operator.index(threads)
    except TypeError:
        raise type_error(f"threads is an int, not {type(threads).__name__}") from None
    if n < 1:
        raise Error("other", f"threads is at least 1, not {n}")
    return n


class ProfileWarning(UserWarning):
    """A profile that loads has problems in it: errors or warnings (a line that does not parse,
    a file cut short), kept in :attr:`Profile.diagnostics`. :func:`calltree.load` and
    :func:`calltree.merge` warn once per profile, naming the first; ``warnings.simplefilter(
    "error", calltree.ProfileWarning)`` makes such a file fail instead."""


def _warn_of_problems(profile: "Profile", stacklevel: int) -> None:
    errors, warned, _ = profile._native.counts
    if not errors and not warned and profile.complete:
        return
    where = profile.path if profile.path is not None else "merged profile"
    said = []
    if errors:
        said.append(f"{errors:,} error{'s' if errors != 1 else ''}")
    if warned:
        said.append(f"{warned:,} warning{'s' if warned != 1 else ''}")
    text = f"{where}: read with {' and '.join(said) or 'no error'}"
    if profile.state != "complete":
        text += f" ({profile.state})"
    first = next((d for d in profile.diagnostics if d.severity == "error"), None) or \
        next((d for d in profile.diagnostics if d.severity == "warning"), None)
    if first is not None:
        at = f"line {first.line}: " if first.line else ""
        text += f"; the first: {at}{first.message} [{first.code}]"
    text += "; Profile.diagnostics has them"
    warnings.warn(text, ProfileWarning, stacklevel=stacklevel + 1)


class Profile:
    """A profile read by calltree's library: its events, totals, diagnostics and functions.

    Made by :func:`calltree.load` and :func:`calltree.merge`; it never changes. Functions are
    the library's: a function is its object, file and name (a ``static`` helper of two files is
    two functions), numbered by an id (``0 .. len(functions()) - 1``), the index of
    :meth:`functions`. Costs are integers, one column per event.
    """

    __slots__ = ("_native", "_path", "_functions")

    def __init__(self, native: "_calltree.NativeProfile", path: Optional[str]) -> None:
        self._native = native
        self._path = path
        self._functions: Optional[pd.DataFrame] = None

    def __repr__(self) -> str:
        where = f"{self._path!r}" if self._path is not None else "merged"
        return (f"<calltree.Profile {where}: {self.parts} part(s), events {' '.join(self.events)}, "
                f"{len(self.functions())} functions>")

    @property
    def path(self) -> Optional[str]:
        """The path the profile was read from (None for a merge of several)."""
        return self._path

    @property
    def events(self) -> list[str]:
        """The events' names (``["Ir"]``, ``["Ir", "Dr", ...]``), in the profile's order."""
        return self._native.events

    @property
    def parts(self) -> int:
        """The number of parts (a file of several dumps or threads has one per dump or thread)."""
        return self._native.parts

    @property
    def totals(self) -> dict[str, int]:
        """``{event: total}``: the figure percentages are of.

        The stated-total rule (callgrind_annotate's, as ``calltree annotate``'s PROGRAM TOTALS
        take it): per part, the file's ``summary:`` line when it has a plausible one, else its
        ``totals:`` line, else the sum of the part's self costs; summed over the parts.
        """
        return self._native.totals

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The problems found while reading: the first 20 of each code (``counts`` has all)."""
        return [Diagnostic(*d) for d in self._native.diagnostics]

    @property
    def counts(self) -> dict[str, int]:
        """``{"errors": n, "warnings": n, "notes": n}``: every diagnostic counted."""
        errors, warnings, notes = self._native.counts
        return {"errors": errors, "warnings": warnings, "notes": notes}

    @property
    def complete(self) -> bool:
        """True when the whole file was read and it looks whole (see :attr:`state`)."""
        return self._native.complete

    @property
    def state(self) -> str:
        """How reading ended: ``"complete"``, ``"likely-truncated"`` (read to its end, but the
        end is missing: the file was cut short) or ``"stopped"`` (an I/O error, a compressed
        stream that ends early, the file changed while read, a memory limit)."""
        return self._native.state

    def functions(self) -> pd.DataFrame:
        """Every function, one row each, indexed by its id.

        Columns: ``name``, ``file``, ``object`` (str), ``calls`` (the calls into it from every
        other function), then for each event E ``self:E`` (the cost of its own code) and
        ``inclusive:E`` (with what it calls: recursion and cycles counted once, as ``calltree
        annotate`` and ``calltree serve`` count them). A new DataFrame at each call.
        """
        if self._functions is None:
            table = pd.DataFrame(self._native.functions())
            table.index.name = "id"
            self._functions = table
        return self._functions.copy()

    def function_id(self, function: Union[str, int]) -> int:
        """The id of a function given by its id or its whole name (``"main"``, ``"foo(int)"``).

        Raises :class:`calltree.Error` (code ``"other"``) for an id out of range, a name no
        function has, or a name several functions have (the message lists their ids).
        """
        if isinstance(function, str):
            ids = self._native.find(function)
            where = f"{self._path}: " if self._path is not None else ""
            if not ids:
                raise Error("other", f"{where}no function named {function!r}")
            if len(ids) > 1:
                raise Error("other", f"{where}{len(ids)} functions are named {function!r} "
                                     f"(ids {', '.join(map(str, ids))}): give the id")
            return ids[0]
        try:
            f = operator.index(function)
        except TypeError:
            raise type_error(f"a function is a name or an id, not {type(function).__name__}") from None
        count = self._native.function_count
        if not 0 <= f < count:
            raise Error("other", f"no function of id {f} (the profile has {count})")
        return f

    def _calls(self, function: Union[str, int], callers: bool) -> pd.DataFrame:
        table = pd.DataFrame(self._native.calls(self.function_id(function), callers))
        return table.set_index("id")

    def callers(self, function: Union[str, int]) -> pd.DataFrame:
        """The functions that call ``function`` (a name or an id), the heaviest first.

        One row per caller, indexed by its id: ``name``, ``file``, ``object``, ``count`` (the
        calls), ``recursive``, then ``inclusive:E`` per event (the inclusive cost of those
        calls). ``recursive`` marks a call within a cycle or of the function to itself: its
        cost counts nested calls again, so do not add it up.
        """
        return self._calls(function, True)

    def callees(self, function: Union[str, int]) -> pd.DataFrame:
        """The functions ``function`` (a name or an id) calls, the heaviest first; the columns
        of :meth:`callers`."""
        return self._calls(function, False)

    def top(self, n: int = 10, by: Optional[str] = None) -> pd.DataFrame:
        """The ``n`` functions of highest cost: rows of :meth:`functions`, the highest first.

        ``by`` is a column, ``"self:E"`` or ``"inclusive:E"`` (default: ``inclusive:`` of the
        first event, ``"inclusive:Ir"`` for Valgrind's files). Ties by id; functions without
        that cost are left out.
        """
        if by is None:
            if not self.events:
                raise Error("other", "the profile has no events")
            by = "inclusive:" + self.events[0]
        kind, _, event = by.partition(":")
        if kind not in ("self", "inclusive") or event not in self.events:
            raise Error("other", f"by={by!r}: a column self:E or inclusive:E, E one of "
                                 f"{', '.join(self.events)}")
        n = operator.index(n)
        if n < 0:
            raise Error("other", f"n is at least 0, not {n}")
        ids = self._native.top(n, self.events.index(event), kind == "inclusive")
        table = self.functions()
        return table.loc[ids]

    def stacks(self, event: Optional[str] = None,
               transforms: Iterable[Transform] = ()) -> str:
        """Folded stacks of ``event`` (default: the first): one line per call path with a self
        cost, ``root;...;function COST``, as flamegraph.pl, inferno and speedscope read them.

        A Callgrind file keeps costs per function and per call, not per stack: how a function's
        cost splits between its callers' paths is the library's estimate. Summed per last
        function, the numbers are the functions' self costs.

        ``transforms``: Firefox Profiler's call-tree transforms, applied in their order (each
        reads the stacks the ones before it made), as ``calltree export`` and ``calltree
        serve`` apply them: ``"merge_clones"``, ``("collapse_object", PATTERN)``,
        ``("collapse_recursion", PATTERN)``, ``("collapse_direct_recursion", PATTERN)`` (PATTERN
        None or "": every function), ``("focus_path", ["main", "f"])``; or serve's form
        ``"collapse_recursion:^fib$"``. A PATTERN is Python's ``re``, searched anywhere in the
        name. Only focus_path leaves stacks out; the others keep the total.
        """
        steps = _transform_steps(transforms)
        if event is None:
            if not self.events:
                raise Error("other", "the profile has no events")
            event = self.events[0]
        if event not in self.events:
            raise Error("other", f"no event {event!r} (the profile has {', '.join(self.events)})")
        return self._native.stacks(self.events.index(event), steps)

    def write(self, path: PathLike) -> None:
        """Writes the profile as a callgrind file (what ``calltree merge`` writes), all or
        nothing: a failed write leaves no half-written file.

        A profile loaded without ``positions=True`` has its costs summed per function and per
        call: the file written holds those sums (the same functions, calls and totals, no
        source lines or instruction addresses). :func:`merge` keeps every position.
        """
        self._native.write(_path_bytes(path))


def load(path: PathLike, *, threads: Optional[int] = None, positions: bool = False) -> Profile:
    """Reads a Callgrind-format profile (Valgrind's callgrind and cachegrind, Xdebug,
    pyprof2calltree, pprof -callgrind, ...), compressed or not (gzip, zstd, xz, bzip2).

    ``threads``: threads to read with (default: one per core); the result is the same. The GIL
    is released while the file is read, so other Python threads run meanwhile.

    ``positions``: keep every position column (instruction addresses, source lines) and the
    jumps, for :meth:`Profile.write` to write them. By default costs are summed per function
    and per call as the file is read (every table of the package has the same numbers either
    way), which reads a big file faster and in less memory.

    Problems inside the file are :attr:`Profile.diagnostics`, and the file is read on: a file
    with errors or warnings, or cut short, gives one :class:`calltree.ProfileWarning`
    (``warnings.warn``) naming the first. A file that cannot be read or holds no profile raises
    :class:`calltree.Error` (code ``"not-found"``, ``"permission-denied"``, ``"is-directory"``,
    ``"io-error"``: also a FileNotFoundError, ... with ``filename``; ``"no-profile"``: also a
    ValueError).
    """
    return _read(path, threads, positions, 2)


def _read(path: PathLike, threads: Optional[int], positions: bool, stacklevel: int) -> Profile:
    # load(); its warning names the line `stacklevel` frames up (1: the caller of _read).
    name = os.fsdecode(_path_bytes(path))
    try:
        native = _calltree.load(_path_bytes(path), _threads(threads), bool(positions))
    except OSError as e:  # (a calltree.Error of an OSError kind: the file it is about)
        if e.filename is None:
            e.filename = name
        raise
    profile = Profile(native, name)
    _warn_of_problems(profile, stacklevel + 1)
    return profile


def merge(paths: Iterable[PathLike], *, parts: str = "sum", threads: Optional[int] = None) -> Profile:
    """Reads several profiles into one, as ``calltree merge`` does: costs, calls and call
    counts added up by function.

    ``parts="sum"`` folds every part of every input into one part; ``"keep"`` keeps each input
    part as a part of its own. Raises :class:`calltree.Error` for the first input that cannot be
    read or holds no profile.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise type_error("merge takes a list of paths")
    if parts not in ("sum", "keep"):
        raise Error("other", f"parts is 'sum' or 'keep', not {parts!r}")
    native = _calltree.merge([_path_bytes(p) for p in paths], parts == "keep", _threads(threads))
    profile = Profile(native, None)
    _warn_of_problems(profile, 2)
    return profile
