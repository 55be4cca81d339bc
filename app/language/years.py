"""Years and fiscal years as a text writes them ("2023", "FY2023", "FY23", "fiscal year 2023"), and
the year a figure is stated for."""

from __future__ import annotations

import re

from app.language.figures import Stated

_I = re.IGNORECASE

#: The months in calendar order, and a pattern matching any of them by name.
MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December",
)  # fmt: skip
MONTH = rf"(?:{'|'.join(MONTH_NAMES)})"
#: A year named by the month it ends: "the year to March 2024", "the year ended 30 June 2023".
YEAR_ENDING = re.compile(
    rf"\byear\s(?:to|ended|ending)\s(?:\d{{1,2}}\s)?(?P<month>{MONTH})\s(?P<year>20\d\d)\b", re.IGNORECASE
)

YEAR = re.compile(
    r"\b(?:FY\s?(?P<fy>\d{2})\b|(?:FY\s?)?(?P<year>(?:19[89]|20[0-6])\d)(?:\s?[/\u2013-]\s?(?P<ends>\d{2})(?!\d))?)\b",
    _I,
)
_YEAR_LABEL = re.compile(r"\b(?:FY\s?)?(20\d\d)\s?:\s*$")
#: What a figure is of, before the year it is stated for ("62% of the electricity consumed in 2022",
#: "19.7 Mt of Scope 1 and Scope 2 emissions in FY2021").
_SHARE_OF_PHRASE = re.compile(
    r"\s?(?:of\s(?:(?!\b(?:19|20)\d\d\b)[^,;:.()]){1,60}?"
    # what an intensity is per, in a few words ("per tonne of steel produced in 2023"), not a standard
    # of another year it is measured under ("per tonne under the method it adopted in 2021")
    r"|per\s(?:(?!(?:under|from|since|it|its|they|adopted|against|versus|vs|compared|than|lower|higher|"
    r"above|below|up|down)\b)[a-z][\w-]*\s?){1,5}?)(?=\s(?:in|for|during)\s)",
    _I,
)
#: "… in 2023", "…, for FY2023" right after a figure: the year it is stated for.
YEAR_RIGHT_AFTER = re.compile(
    # a rate's time unit may come first ("142 Ml/d in the 2022/23 reporting year", "38 GWh a year in 2023")
    r"^(?:\s?/\s?(?:d|day|yr|year)\b|\s(?:a|per)\s(?:day|year)\b)?"
    r"\s*,?\s*(?:in|for|during)\s(?:the\s)?(?:FY\s?|fiscal\s(?:year\s)?)?(20\d\d(?:\s?[/\u2013-]\s?\d\d(?!\d))?)\b",
    _I,
)


def parse_years(text: str) -> list[tuple[int, int]]:
    """`(year, offset)` for every year or fiscal year ("2023", "FY2023", "FY23") in `text`.

    A split year ("2021/22", "2021-22") is one financial year, named by the year it ends in (2022),
    as "FY2022" names it: a report's "2021/22" and a source's "the year to March 2022" then meet."""
    years: list[tuple[int, int]] = []
    for match in YEAR.finditer(text):
        year = 2000 + int(match["fy"]) if match["fy"] else int(match["year"])
        if match["ends"] and int(match["ends"]) == (year + 1) % 100:
            year += 1
        years.append((year, match.start()))
    return years


#: "… electric at the end of 2021", "… by the close of 2023", "… as of December 2022": a year's end
#: soon after a figure, one or two words between.
_YEAR_END_AFTER = re.compile(
    rf"^(?:\s(?!(?:than|from|since|compared|against|versus|vs|on|over)\b)[a-z-]+){{0,2}}?\s*,?\s*"
    rf"(?:(?:at|by)\s(?:the\s)?(?:end|close)\sof|as\s(?:of|at))\s"
    rf"(?:{MONTH}\s(?:\d{{1,2}},?\s)?)?(?:FY\s?|fiscal\s(?:year\s)?)?(20\d\d)\b",
    _I,
)


def year_right_after(text: str) -> int | None:
    """The year `text` opens with as the year of what precedes it ("…, in 2023", "… at the end of
    2021"), if it does."""
    after = YEAR_RIGHT_AFTER.match(text) or _YEAR_END_AFTER.match(text)
    return parse_years(after.group(1))[0][0] if after else None


def stated_year(sentence: str, figure: Stated) -> int | None:
    """The year a figure is stated for: "2022: 2.4 Mt", "2.3 Mt in 2023", else the only year."""
    label = _YEAR_LABEL.search(sentence[: figure.start])
    if label:
        return int(label.group(1))
    rest = sentence[figure.end :]
    share_of = _SHARE_OF_PHRASE.match(rest)  # "62% of the electricity we consumed in 2022"
    after = year_right_after(rest[share_of.end() :] if share_of else rest)
    if after is not None:
        return after
    if re.search(r"\b20\d\d\s?:", sentence):
        return None  # a table-like "2022: ..." sentence: the year of an unlabelled figure is unclear
    distinct = {year for year, _ in parse_years(sentence)}
    if len(distinct) != 1:
        return None
    if _YEAR_BEFORE.match(rest):
        # "rose to 4.2 TWh in 2022 from 3.9 TWh the year before": the year before the one named
        return distinct.pop() - 1
    if is_baseline(sentence, figure):
        return None  # "…, up from 51%": a baseline of no stated year is not the only year's
    return distinct.pop()


def is_baseline(text: str, figure: Stated) -> bool:
    """Whether `figure` is the level a change starts from, of no year of its own ("up from 51%", "fell
    from 6,000 tonnes"; not "down from 1.7 Mt in 2022", a level stated for that year)."""
    rest = text[figure.end :]
    return (
        _BASELINE_BEFORE.search(text, 0, figure.start) is not None
        and year_right_after(rest) is None
        and not _YEAR_BEFORE.match(rest)  # "from 3.9 TWh the year before" names its year
    )


#: A level a change starts from, right before it: "up from 51%", "from about 6,000 tonnes".
_BASELINE_BEFORE = re.compile(
    r"\b(?:up|down|rose|fell|increased|decreased|climbed|dropped)?\s?from\s(?:about\s|around\s)?$", _I
)
_YEAR_BEFORE = re.compile(
    r"\s?,?\s?(?:in\s)?(?:the\syear\sbefore|a\syear\s(?:earlier|before)|the\s(?:previous|prior)\syear)\b",
    re.IGNORECASE,
)


#: "last year" in a dated text: the year before the one it was published in ("fell 9% last year").
_LAST_YEAR = re.compile(r"\blast\s(?:calendar\s)?year(?P<owner>['’]s)?\b", _I)
#: Words before "last year" that make it no period of a figure: a comparison or a baseline ("compared
#: with last year"), a part of it ("the same period last year"), or when someone spoke ("said last
#: year", "published last year").
_NOT_THE_PERIOD_BEFORE = re.compile(
    r"\b(?:the|of|until|till|since|than|on|from|with|to|against|versus|over|by|before|after|for|in|"
    r"period|quarter|month|half|week|said|says|reported|found|published|wrote|noted|announced|"
    r"estimated|calculated|stated|disclosed|told|showed|added|warned|released|issued)\s$",
    _I,
)


def with_last_year_named(text: str, published: str | None) -> str:
    """`text` with "last year" as the period of a figure written as the year before `published` (an
    ISO date), as a reader of a dated article takes it: "fell 9% last year" in a 2024 article fell in
    2023. Unchanged when the date is unknown, and where "last year" is a comparison, a baseline or
    when someone spoke (`_NOT_THE_PERIOD_BEFORE`)."""
    year = _year_of(published)
    if year is None:
        return text

    def named(match: re.Match[str]) -> str:
        if _NOT_THE_PERIOD_BEFORE.search(text, 0, match.start()):
            return match.group(0)
        return f"{year - 1}{match['owner']}" if match["owner"] else f"in {year - 1}"

    return _LAST_YEAR.sub(named, text)


def _year_of(date: str | None) -> int | None:
    match = re.match(r"\s*((?:19|20)\d\d)\b", date or "")
    return int(match.group(1)) if match else None
