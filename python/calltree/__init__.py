"""calltree: Callgrind-format profiles as pandas DataFrames, read by calltree's C++ library.

    >>> import calltree
    >>> p = calltree.load("callgrind.out.1234")
    >>> p.top(10)                      # the 10 functions of highest inclusive cost
    >>> p.callers("malloc")            # who calls malloc, how often, at what cost
    >>> calltree.diff("base.out", "new.out")   # the numbers of `calltree diff --json`

Every call that fails raises calltree.Error, whose ``code`` is the library's
(``not-found``, ``no-profile``, ...). docs/python.md (installed as
share/doc/calltree/python.md) is the reference.
"""

from __future__ import annotations

from ._calltree import version as __version__
from ._diff import diff
from ._errors import Error
from ._profile import Diagnostic, Profile, ProfileWarning, load, merge

__all__ = ["Diagnostic", "Error", "Profile", "ProfileWarning", "diff", "load", "merge"]

for _name in __all__:  # (shown as calltree.Error, not calltree._errors.Error, in tracebacks)
    globals()[_name].__module__ = __name__
del _name
