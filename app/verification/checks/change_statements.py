"""Reading a stated percentage change and the two levels it lies between, in any common word order.

Reports write one change many ways, and the arithmetic check must read them all:

- "fell 12% to 2.3 Mt, from 2.6 Mt" and "decreased from 2.6 Mt to 2.3 Mt (-12%)": a from/to pair;
- "were 2.3 Mt in 2023, down 12% from 2.6 Mt in 2022": the new level first, the old after "from";
- "2.3 Mt, a 12% decrease on 2.6 Mt", "2.3 Mt compared with 2.6 Mt, a reduction of 12%";
- "12% lower than 2.6 Mt, at 2.3 Mt": the old level after "than", the new after "at".

Precision comes first, because a misread pair makes a false internal contradiction: both levels must
carry a unit of the same kind (a bare number only in "from 2.45 to 2.30 Mt"), the percentage must
be worded as a change ("down", "a ... decrease", "(-12%)") for every order but the from/to pair,
and a level written before the change is taken only when nothing but plain words (no other figure,
scope, site or second clause) separates it from the change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.language.figures import BARE_NUMBER, Figure, parse_figures, parse_number
from app.language.years import year_right_after
from app.verification.reading.figures import attributed_elsewhere

_I = re.IGNORECASE
DECREASE = re.compile(r"\b(?:fell|fall\w*|decreas\w*|reduc\w*|declin\w*|down|lower\w*|cut|drop\w*)\b", _I)
INCREASE = re.compile(r"\b(?:rose|ris(?:e|es|ing)|increas\w*|gr[eo]w\w*|growth|up|higher)\b", _I)
_FROM = re.compile(r"\bfrom\b", _I)
_TO = re.compile(r"\bto\b", _I)
_RANGE_GAP = re.compile(r"\s*(?:to|-|\u2013)\s*", _I)
# "emissions from the refineries were 5.8 Mt": a "from" that names a source, not an earlier level.
_NOT_A_LEVEL_GAP = re.compile(r"\b(?:were|was|is|are|been|amounted|totall?(?:ed|ing)|reached|stood)\b", _I)
# "5.8 Mt or 18% of the Group's emissions": a share, not a change.
_SHARE_AFTER = re.compile(r"^\s?(?:of\b|share\b)", _I)
_IS_YEAR = re.compile(r"(?:19[89]|20[0-6])\d")
# The earlier level of a comparison follows one of these; the later one may follow "to" or "at".
_OLD_MARK = re.compile(r"\b(?:from|on|than|compared (?:with|to)|versus|vs\.?|against|relative to)\s", _I)
_NEW_MARK = re.compile(r"\b(?:to|at)\s", _I)
# Words that make the change wording around a percentage ("fell 12%", "a 12% decrease", "(-12%)").
_HEDGE = r"(?:(?:about|around|almost|nearly|some|over|more than|approximately|roughly)\s)?"
_CUE_BEFORE = re.compile(
    r"(?:\b(?:fell|falls?|falling|dropped|drops?|declined|decreased|reduced|lowered|cut|down|rose|rises?|"
    r"rising|increased|grew|(?<!made\s)(?<!makes\s)(?<!make\s)up|climbed)\s(?:by\s)?"
    r"|\b(?:reduction|decrease|decline|drop|fall|increase|rise|growth|change)\s(?:of\s)?)" + _HEDGE + r"$",
    _I,
)
_CUE_AFTER = re.compile(
    r"^\s?(?:decrease|reduction|decline|drop|fall|cut|lower|less|increase|rise|growth|higher|more)\b", _I
)
_SIGNED_IN_BRACKETS = re.compile(r"\(\s?[+\-\u2212\u2013]?$")
_BRACKET_CLOSE = re.compile(r"^\s?\)")
# Between a level written first and its change only plain words may stand: another clause, scope
# or comparison means the level may belong to something else.
_GAP_BREAK = re.compile(
    r"[;:]|\b(?:while|whilst|whereas|but|and|with|scope|of which|including|excluding|per)\b", _I
)
MAX_LEVEL_GAP = 70


@dataclass(frozen=True)
class Quantity:
    """A number in running text, with the unit of the figure it belongs to if one was written."""

    value: float
    half: float
    start: int
    end: int
    figure: Figure | None

    @property
    def dimension(self) -> str | None:
        return self.figure.dimension if self.figure else None


@dataclass(frozen=True)
class ChangeStatement:
    """A stated change and the levels it is between, as read from one sentence.

    Attributes:
        percent: The stated change as written (its sign is not the direction; see `direction`).
        direction: -1 for a stated fall, +1 for a rise, 0 when the wording does not say.
        old: The earlier (reference) level.
        new: The later level.
        old_year: The year written right after the old level, if any.
        new_year: The year written right after the new level, if any.
        order: Which word order was read ("from_to", "level_then_old", "old_then_new").
        percents: Every change-like percentage in the text (to tell whether another one fits).
    """

    percent: Figure
    direction: int
    old: Quantity
    new: Quantity
    old_year: int | None
    new_year: int | None
    order: str
    percents: tuple[Figure, ...]


def quantities(text: str) -> list[Quantity]:
    """Every number in `text` that is not a year, attached to its unit when it has one."""
    figures = {figure.start: figure for figure in parse_figures(text)}
    found: list[Quantity] = []
    for match in BARE_NUMBER.finditer(text):
        start = match.start()
        figure = figures.get(start) or figures.get(start - 1)  # a currency symbol precedes the number
        if figure is None and (_IS_YEAR.fullmatch(match["num"]) or text[max(0, start - 2) : start] == "FY"):
            continue
        value, half = parse_number(match["num"])
        if figure is not None:
            found.append(Quantity(figure.value, figure.half_unit, figure.start, figure.end, figure))
        else:
            found.append(Quantity(-value if match["sign"] else value, half, start, match.end(), None))
    return found


def change_cue(text: str, figure: Figure) -> str | None:
    """The change wording around a percentage ("down 5%", "a 12% decrease", "(-12%)"), if any."""
    before, after = text[max(0, figure.start - 40) : figure.start], text[figure.end : figure.end + 20]
    cue = _CUE_BEFORE.search(before)
    if cue:
        return text[figure.start - len(before) + cue.start() : figure.end]
    cue = _CUE_AFTER.match(after)
    if cue:
        return text[figure.start : figure.end + cue.end()]
    signed = _SIGNED_IN_BRACKETS.search(before)
    close_bracket = _BRACKET_CLOSE.match(after)
    if signed and close_bracket and (figure.value < 0 or signed.group(0).endswith("+")):
        return text[figure.start - len(before) + signed.start() : figure.end + close_bracket.end()]
    return None


def stated_change(text: str) -> str | None:
    """The first change the text states in percent or percentage points as the company's own
    ("down 5%", "up 9 percentage points"), so a claim that states one is never said to state none."""
    for figure in parse_figures(text):
        if figure.dimension in {"percent", "pp"} and not attributed_elsewhere(text, figure.start, weak=False):
            cue = change_cue(text, figure)
            if cue is not None:
                return " ".join(cue.split())
    return None


def direction_of(text: str, percent: Figure) -> int:
    """-1 for a stated fall, +1 for a rise, 0 when the text does not say (nearest wording wins)."""
    if percent.value < 0:
        return -1
    if re.search(r"\+\s?$", text[max(0, percent.start - 2) : percent.start]):
        return 1
    down = [match.start() for match in DECREASE.finditer(text)]
    up = [match.start() for match in INCREASE.finditer(text)]
    if down and not up:
        return -1
    if up and not down:
        return 1
    if not down and not up:
        return 0
    nearest = min(down + up, key=lambda offset: abs(offset - percent.start))
    return -1 if nearest in down else 1


def _first_after(items: list[Quantity], offset: int, window: int, text: str | None = None) -> Quantity | None:
    """The first quantity within `window` characters after `offset` (with `text`: not after a verb)."""
    for item in items:
        if offset <= item.start <= offset + window:
            if text is not None and _NOT_A_LEVEL_GAP.search(text[offset : item.start]):
                return None
            return item
    return None


def _compatible(a: Quantity, b: Quantity) -> bool:
    if a.figure is None or b.figure is None:
        return True
    if (a.figure.ambiguous or b.figure.ambiguous) and a.figure.unit != b.figure.unit:
        return False
    return a.figure.same_kind(b.figure)


def _from_to(text: str, values: list[Quantity]) -> tuple[Quantity, Quantity] | None:
    """The "from A ... to B" (or "to B ... from A") pair of levels in `text`, if any."""
    for origin in _FROM.finditer(text):
        first = _first_after(values, origin.end(), 40, text)
        if first is None:
            continue
        targets = [_first_after(values, to.end(), 30) for to in _TO.finditer(text)]
        second = next((item for item in targets if item is not None and item is not first), None)
        if second is not None and _compatible(first, second) and _units_written(text, first, second):
            return first, second
    return None


def _units_written(text: str, first: Quantity, second: Quantity) -> bool:
    """The later level has a unit, and a bare earlier one is written right before it ("2.45 to 2.30 Mt")."""
    if second.figure is None:
        return False
    return first.figure is not None or bool(_RANGE_GAP.fullmatch(text[first.end : second.start]))


def _level_before(text: str, values: list[Quantity], anchor: int, old: Quantity) -> Quantity | None:
    """The level written just before a change or comparison starting at `anchor`, if only plain
    words separate them ("410 kt CO2e in 2023, down 5% ...")."""
    before = [item for item in values if item.end <= anchor and item is not old]
    if not before:
        return None
    level = before[-1]
    gap = text[level.end : anchor]
    if level.figure is None or len(gap) > MAX_LEVEL_GAP or _GAP_BREAK.search(gap):
        return None
    return level if _compatible(level, old) else None


def _broken(gap: str) -> bool:
    """Whether the words between a comparison word and a level leave it unclear that the level is the
    one compared with ("from 2022 and 30% from 3.3 Mt in 2019")."""
    return bool(_GAP_BREAK.search(gap) or "," in gap or "%" in gap)


def _comparison(text: str, values: list[Quantity], percent: Figure) -> tuple[Quantity, Quantity, str] | None:
    """(old, new, order) for a cued percentage whose old level follows "from", "on", "than", ..."""
    for mark in _OLD_MARK.finditer(text):
        if not percent.start - 80 <= mark.start() <= percent.end + 30:
            continue
        old = _first_after(values, mark.end(), 40, text)
        if old is None or old.figure is None or _broken(text[mark.end() : old.start]):
            continue
        between = (
            text[percent.end : mark.start()] if mark.start() >= percent.end else text[old.end : percent.start]
        )
        if _GAP_BREAK.search(between) or _OLD_MARK.search(between):
            continue  # another comparison or clause stands between the change and this level
        later = [_first_after(values, to.end(), 25) for to in _NEW_MARK.finditer(text, old.end, old.end + 12)]
        new = next((item for item in later if item is not None and item.figure is not None), None)
        if new is not None and _compatible(new, old):
            return old, new, "old_then_new"
        new = _level_before(text, values, min(mark.start(), percent.start), old)
        if new is not None:
            return old, new, "level_then_old"
    return None


def change_percents(text: str) -> list[Figure]:
    """Percentages in `text` that are not shares ("18% of emissions") and not someone else's."""
    return [
        figure
        for figure in parse_figures(text)
        if figure.dimension == "percent"
        and not _SHARE_AFTER.match(text[figure.end :])
        and not attributed_elsewhere(text, figure.start, weak=False)
    ]


def read_change(text: str) -> ChangeStatement | None:
    """The change `text` states between two stated levels, in whichever word order it is written."""
    percents = change_percents(text)
    if not percents:
        return None
    values = [item for item in quantities(text) if item.dimension not in {"percent", "pp"}]
    pair = _from_to(text, values)
    if pair is not None:
        old, new = pair
        near = [figure for figure in percents if _same_clause(text, figure.start, old.start, new.start)]
        if not near:
            return None  # the percentage belongs to another clause ("up 5%; gas fell from ... to ...")
        stated = min(near, key=lambda f: min(abs(f.start - old.start), abs(f.start - new.start)))
        return _statement(text, stated, old, new, "from_to", percents)
    for percent in percents:
        if change_cue(text, percent) is None:
            continue
        found = _comparison(text, values, percent)
        if found is not None:
            old, new, order = found
            return _statement(text, percent, old, new, order, percents)
    return None


def _same_clause(text: str, *offsets: int) -> bool:
    """Whether no semicolon separates the offsets (a semicolon joins two statements)."""
    return ";" not in text[min(offsets) : max(offsets)]


def _statement(
    text: str, percent: Figure, old: Quantity, new: Quantity, order: str, percents: list[Figure]
) -> ChangeStatement:
    return ChangeStatement(
        percent=percent,
        direction=direction_of(text, percent),
        old=old,
        new=new,
        old_year=year_right_after(text[old.end :]),
        new_year=year_right_after(text[new.end :]),
        order=order,
        percents=tuple(percents),
    )
