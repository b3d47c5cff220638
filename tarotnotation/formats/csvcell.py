"""The one rule for a text cell of a CSV file: a spreadsheet shows it, and never runs it.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (a tab or a carriage
return too, in some), so a player named ``=HYPERLINK("http://…")`` or a tag ``@SUM(A1)``
would run when the file is opened. Every CSV ``tarot`` writes (the score sheet of
``convert``, ``query --format csv``, ``new --to csv``, ``split --to csv``; the tables of
``query --fields``, ``stats`` and ``standings``) passes each text through
:func:`protected`: such a text gets a leading ``'``, which spreadsheets take as "this is
text" and do not show, as OWASP advises. Numbers (``-12``, ``+5``, ``39,5``) are left as
they are. A text that already starts with ``'`` gets one more, so that reading gives
back what was written: the CSV reader passes each cell through :func:`unprotected`,
which takes off the one ``'`` the writer added.

>>> protected("=HYPERLINK(A1)"), protected("@SUM(A1)"), protected("+1+1")
("'=HYPERLINK(A1)", "'@SUM(A1)", "'+1+1")
>>> protected("-12"), protected("39,5"), protected("Bruno"), protected("'t Hoen")
('-12', '39,5', 'Bruno', "''t Hoen")
>>> all(unprotected(protected(t)) == t for t in ("=1+1", "'=x", "''", "'", "-", "-12", "A"))
True
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["FORMULA_STARTS", "protected", "unprotected"]

#: What a cell starts with that a spreadsheet may run as a formula.
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
_NUMBER: Final = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def protected(text: str) -> str:
    """``text`` as a CSV cell: a leading ``'`` when it starts like a formula and is not a
    number, or starts with ``'`` itself; else as it is."""
    if text.startswith("'") or (text.startswith(FORMULA_STARTS)
                                and not _NUMBER.fullmatch(text)):
        return "'" + text
    return text


def unprotected(cell: str) -> str:
    """A CSV cell's text as it was before :func:`protected`: the ``'`` it added taken off
    (one ``'`` before a formula's start or another ``'``)."""
    if cell.startswith("'") and (cell[1:2] == "'" or cell[1:].startswith(FORMULA_STARTS)):
        return cell[1:]
    return cell
