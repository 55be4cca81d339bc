"""Statements: the sentences and semicolon clauses of a text, for rules that read one at a time.

Rules that decide something from one statement (a metric stated for a year, a statement of
compliance) need a cut that never splits a number ("2.3 Mt") or an address ("sibyl.example"), and
that ends a statement at a semicolon, since a report's lists and table rows join separate facts
with one. A stop (. ; ! ?) ends a statement only when white space follows it or the text ends.
This is coarser than `app.claims.sentences`, which cuts a page's layout into the sentences claims
are taken from; here the text is read as running words only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_STATEMENT = re.compile(r"(?:[^.;!?]|[.;!?](?=\S))+[.;!?]?")


def statements(text: str) -> Iterator[str]:
    """The statements of `text`, its white space collapsed, in order; each but the first keeps the
    space before it."""
    for match in _STATEMENT.finditer(" ".join(text.split())):
        yield match.group(0)
