"""Which sentence windows of a page are a table of contents, so disclosure answers do not cite them.

A contents page names nearly every topic of the report ("Climate policy engagement 35", "Scope 3
emissions 29"), so it matches almost any reviewer question while answering none: it took one of the
three cited pages from several answers. It is recognised by what it is made of rather than by
words: headings each followed by a page number, the numbers rising through the window. A chart's
axis also rises ("0 20 40 60 80"), so a page only counts as contents when it says so ("Contents")
and several of its windows look like entries; data tables (decimals, percentages, years) and
numbered labels ("Scope 1", "Category 3") are not page numbers and never count.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

#: A window whose page numbers rise at least this many times in a row reads as contents entries.
MIN_ENTRIES = 6
#: A page is a contents page when at least this many of its windows read as entries.
MIN_WINDOWS = 3

_CONTROL = re.compile(r"[\x00-\x1f]")
# A bare integer of one to three digits (a page number), not part of a decimal, a percentage, a
# date or a unit, and not a numbered label ("Scope 1", "Category 3", "SDG 13").
_PAGE_NUMBER = re.compile(
    r"(?<![\w.,/%°-])(?<!Cat )(?<!Tier )(?<!Step )(?<!Page )(?<!Goal )(?<!SDG )(?<!Scope )(?<!Category )"
    r"(\d{1,3})(?![\w.,%/:°-])"
)
_CONTENTS = re.compile(r"\bcontents\b", re.IGNORECASE)


def entry_run(text: str) -> int:
    """The longest run of rising page numbers in `text` (not necessarily adjacent)."""
    numbers = [int(found) for found in _PAGE_NUMBER.findall(_CONTROL.sub(" ", text))]
    tails: list[int] = []
    for number in numbers:
        index = bisect.bisect_left(tails, number)
        if index == len(tails):
            tails.append(number)
        else:
            tails[index] = number
    return len(tails)


def contents_windows(page_text: str, windows: Sequence[str]) -> set[int]:
    """The indexes of `windows` (a page's sentence windows) that are its table of contents; none
    unless the page says "contents" and at least `MIN_WINDOWS` windows read as entries."""
    if not _CONTENTS.search(page_text):
        return set()
    entries = {index for index, window in enumerate(windows) if entry_run(window) >= MIN_ENTRIES}
    return entries if len(entries) >= MIN_WINDOWS else set()
