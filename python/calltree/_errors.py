"""calltree.Error: what every call of the package raises when it fails."""

from __future__ import annotations


class Error(Exception):
    """A failed call: a file that cannot be read, an input that holds no profile, a bad argument.

    Attributes:
        code: the library's stable code, one of ``"not-found"``, ``"permission-denied"``,
            ``"is-directory"``, ``"io-error"``, ``"no-profile"`` (the input holds no profile:
            binary bytes, empty, or no ``events:`` line) and ``"other"`` (a bad argument, an
            unknown event or function: the message says).
        message: the library's message; about a file, it begins with the file's name.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.message} [{self.code}]"

    def __repr__(self) -> str:
        return f"calltree.Error({self.code!r}, {self.message!r})"
