# Type stubs of the calltree package (docs/python.md is the reference).
import os
import re
from typing import Iterable, NamedTuple, Optional, Sequence, Tuple, Union

import pandas as pd

PathLike = Union[str, bytes, os.PathLike[str], os.PathLike[bytes]]

__version__: str

class Error(Exception):
    """A failed call; ``code`` is the library's ("not-found", "no-profile", "other", ...). Also
    the built-in exception of its kind: FileNotFoundError, PermissionError, IsADirectoryError,
    OSError, ValueError or TypeError."""

    code: str
    message: str
    def __init__(self, code: str, message: str, *, errno: Optional[int] = None,
                 filename: Optional[str] = None) -> None: ...

class ProfileWarning(UserWarning):
    """A profile that loads has errors or warnings in it (Profile.diagnostics)."""

class Diagnostic(NamedTuple):
    """A problem found inside a file while it was read."""

    severity: str
    code: str
    line: int
    column: int
    message: str

class Profile:
    """A profile read by calltree's library."""

    @property
    def path(self) -> Optional[str]: ...
    @property
    def events(self) -> list[str]: ...
    @property
    def parts(self) -> int: ...
    @property
    def totals(self) -> dict[str, int]: ...
    @property
    def diagnostics(self) -> list[Diagnostic]: ...
    @property
    def counts(self) -> dict[str, int]: ...
    @property
    def complete(self) -> bool: ...
    @property
    def state(self) -> str: ...
    def functions(self) -> pd.DataFrame: ...
    def function_id(self, function: Union[str, int]) -> int: ...
    def callers(self, function: Union[str, int]) -> pd.DataFrame: ...
    def callees(self, function: Union[str, int]) -> pd.DataFrame: ...
    def top(self, n: int = 10, by: Optional[str] = None) -> pd.DataFrame: ...
    def stacks(self, event: Optional[str] = None,
               transforms: Iterable[Union[str, Tuple[str, Union[str, re.Pattern[str], Sequence[str], None]]]] = ()) -> str: ...
    def write(self, path: PathLike) -> None: ...

def load(path: PathLike, *, threads: Optional[int] = None, positions: bool = False) -> Profile:
    """Reads a Callgrind-format profile; raises Error."""

def merge(paths: Iterable[PathLike], *, parts: str = "sum", threads: Optional[int] = None) -> Profile:
    """Reads several profiles into one, as `calltree merge` does."""

def diff(
    old: Union[Profile, PathLike],
    new: Union[Profile, PathLike],
    *,
    threshold: float = 0.1,
    limit: int = 0,
    sort: Union[str, Iterable[str], None] = None,
    inclusive: bool = False,
    mod_filename: Union[str, Iterable[str]] = (),
    mod_funcname: Union[str, Iterable[str]] = (),
    ignore_object: bool = False,
    strip_recursion: bool = False,
    part: Optional[int] = None,
    threads: Optional[int] = None,
) -> pd.DataFrame:
    """The functions whose cost changed, as `calltree diff --json` lists them."""
