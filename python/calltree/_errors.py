"""calltree.Error: what every call of the package raises when it fails."""

from __future__ import annotations

import errno as _errno
from typing import Optional


class Error(Exception):
    """A failed call: a file that cannot be read, an input that holds no profile, a bad argument.

    Attributes:
        code: the library's stable code, one of ``"not-found"``, ``"permission-denied"``,
            ``"is-directory"``, ``"io-error"``, ``"no-profile"`` (the input holds no profile:
            binary bytes, empty, or no ``events:`` line) and ``"other"`` (a bad argument, an
            unknown event or function: the message says).
        message: the library's message; about a file, it begins with the file's name.

    An error is also the built-in exception of its kind, so ``except FileNotFoundError`` (or
    ``OSError``, ``ValueError``) catches it as it would the same problem from ``open()``:
    ``not-found`` is a :class:`FileNotFoundError`, ``permission-denied`` a
    :class:`PermissionError`, ``is-directory`` an :class:`IsADirectoryError`, ``io-error`` an
    :class:`OSError` (these four with ``errno``, and ``filename`` from :func:`calltree.load`); ``no-profile``
    and ``other`` a :class:`ValueError`, and an argument of the wrong type a :class:`TypeError`.
    """

    code: str
    message: str

    def __new__(cls, code: str, message: str, *args: object, **kwargs: object) -> "Error":
        if cls is Error:
            cls = _KINDS.get(code, cls)
        return super().__new__(cls, code, message)

    def __init__(self, code: str, message: str, *, errno: Optional[int] = None,
                 filename: Optional[str] = None) -> None:
        super().__init__(message)
        self.args = (message,)
        self.code = code
        self.message = message
        if isinstance(self, OSError):
            self.errno = errno or _ERRNO.get(code)
            self.strerror = message
            self.filename = filename

    def __str__(self) -> str:
        return f"{self.message} [{self.code}]"

    def __repr__(self) -> str:
        return f"calltree.Error({self.code!r}, {self.message!r})"

    def __reduce__(self):  # (pickled as calltree.Error, made again of its kind)
        return (Error, (self.code, self.message))


def _kind(base: type) -> type:
    # Shown as calltree.Error in tracebacks, whatever its kind.
    kind = type("Error", (Error, base), {"__module__": "calltree", "__doc__": Error.__doc__})
    kind.__qualname__ = "Error"
    return kind


_ERRNO = {"not-found": _errno.ENOENT, "permission-denied": _errno.EACCES,
          "is-directory": _errno.EISDIR}
_KINDS = {
    "not-found": _kind(FileNotFoundError),
    "permission-denied": _kind(PermissionError),
    "is-directory": _kind(IsADirectoryError),
    "io-error": _kind(OSError),
    "no-profile": _kind(ValueError),
    "other": _kind(ValueError),
}
_WRONG_TYPE = _kind(TypeError)


def type_error(message: str) -> Error:
    """An argument of the wrong type: calltree.Error (code ``"other"``), also a TypeError."""
    return _WRONG_TYPE("other", message)
