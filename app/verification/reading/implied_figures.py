"""Figures a source sentence implies without stating them, written into it so that the rule reader
compares them like stated ones:

- **the change between two levels** of one quantity: "emitted 2,380 tonnes in 2023, against 2,600
  tonnes the year before" is a fall of about 8.5%, or of 220 tonnes; so is "fell from 2,600 tonnes
  in 2022 to 2,380 tonnes in 2023". Only when the sentence states no change of its own, the two
  levels are in one unit, neither is another's (`figures.set_beside`) and both are of the same thing;
- **the share a part is of its whole**, in one unit: "generated 96,000 tonnes of waste and recycled
  64,000 tonnes of it" recycled 66.7% of its waste; "used 860 GWh, of which 600 GWh was matched"
  matched 69.8% of it; "2.3 Mt of scrap … out of 6.05 Mt of input" is 38% of its input; "Of its 700
  senior managers, 224 were women" is 32% women;
- **a count from a share of counted things**: "7% of its 8,200 trucks were electric" is about 574
  electric trucks.

Each is written in as ", worked out as …" beside the figures it comes from, which stay. A change
worked out from two rounded figures is written as "about", so it is held to the looser tolerance of
a hedged figure. `implied` tells a reason that a figure was worked out, not quoted.
"""

from __future__ import annotations

import re

from app.language.figures import Figure, parse_figures
from app.language.number_words import figures_in_digits
from app.language.years import stated_year, with_last_year_named, year_right_after
from app.verification.reading.figure_subjects import role, share_base
from app.verification.reading.figures import set_beside

_I = re.IGNORECASE
#: What introduces the earlier level after the later one: "…, against 2,600 tonnes the year before".
_AGAINST = re.compile(
    r"^[^.;]{0,90}?(?:,\s)?(?:against|compared\s(?:with|to)|versus|vs\.?|(?:up|down)\sfrom|from|on)\s"
    r"(?:the\s|an?\s)?(?:(?:about|around|some|nearly|almost|roughly|just)\s)?$",
    _I,
)
#: "from 2,600 tonnes in 2022 to 2,380 tonnes": the earlier level first.
_FROM_BEFORE = re.compile(r"\bfrom\s(?:the\s|an?\s)?(?:(?:about|around|some|nearly|almost|roughly)\s)?$", _I)
_TO_BETWEEN = re.compile(r"^[^.;,]{0,40}?\bto\s(?:(?:about|around|some|nearly|almost|roughly)\s)?$", _I)
#: Words between two levels that make them levels of two different things ("disturbed 420 hectares
#: but rehabilitated only 180").
_OTHER_THING = re.compile(
    r"\b(?:but|while|whereas|of\swhich|including|and\s(?!a\b)|at\s(?:rival|its\speer))\b", _I
)
#: A part named after its whole: "64,000 tonnes of it", "of which 600 GWh".
_OF_IT_AFTER = re.compile(r"\s(?:of\s(?:it|them|this|that)|of\sthe\stotal)\b", _I)
_OF_WHICH_BEFORE = re.compile(
    r"\bof\s(?:which|whom)\s(?:(?:only|just|some|about|around|nearly|almost|roughly)\s)?$", _I
)
#: A part set within its whole: "2.3 Mt of scrap … out of 6.05 Mt of input"; "Of the 96,000 tonnes …".
_OUT_OF_BETWEEN = re.compile(
    r"^[^.;]{0,60}?\b(?:out\sof|from\sa\stotal\sof)\s"
    r"(?:(?:a\s)?total\s(?:[\w-]+\s)?of\s|the\s|its\s|their\s)?$",
    _I,
)
_OF_THE_WHOLE_BEFORE = re.compile(r"\b[Oo]f\s(?:the|its|their|(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?)\s$")
#: "Of Ostrel Bank's 700 senior managers at the close of 2022, 224 were women".
_OF_COUNT = re.compile(
    r"\b[Oo]f\s(?:its|the|their|(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?)\s(?P<whole>\d{1,3}(?:,\d{3})+|\d+)\s"
    r"[a-z][\w-]*(?:\s[a-z][\w-]*){0,2}?(?:[^.;\d]|(?:19|20)\d\d){0,60}?,\s(?:only\s|just\s)?(?P<part>\d{1,3}(?:,\d{3})+|\d+)\s"
    r"(?=(?:were|was)\b)"
)
#: A share of counted things said to be of a kind: "7% of Fenwick Freight's 8,200 trucks were electric".
_SHARE_OF_COUNT = re.compile(
    r"(?<![\d.,])(?P<share>\d+(?:\.\d+)?)%\sof\s(?:its|the|their|(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*['’]s?)\s"
    r"(?P<whole>\d{1,3}(?:,\d{3})+|\d+)\s(?P<things>[a-z][\w-]*s)\s(?:were|was|are|is)\s(?:now\s)?"
    r"(?P<kind>(?!(?:in|at|on|by|of|for|the|a|an|not|still)\b)[a-z][\w-]*)\b[^,;.]*"
)
#: The phrases written in, which `implied` recognises.
_WORKED_OUT = "worked out as"
_WRITTEN = re.compile(rf",\s{_WORKED_OUT}\s[^,;]*")


def as_read(quote: str, published: str | None = None) -> str:
    """A source's sentence as the rule reader reads it: "last year" named by the date the source was
    `published` (`years.with_last_year_named`), its figures in digits, "all of" as 100%
    (`number_words.figures_in_digits`) and the figures it implies written in."""
    digits = figures_in_digits(with_last_year_named(quote, published), whole_as_share=True)
    return with_implied_figures(digits)


def with_implied_figures(sentence: str) -> str:
    """`sentence` with the changes, shares and counts it implies written in (see the module
    docstring)."""
    sentence = _SHARE_OF_COUNT.sub(_count_of_share, sentence)
    sentence = _OF_COUNT.sub(_count_share, sentence)
    sentence = _with_shares(sentence)
    return _with_changes(sentence)


def implied(sentence: str, figure: Figure) -> bool:
    """Whether `figure` (read from a sentence `with_implied_figures`) was worked out, not stated."""
    return any(match.start() <= figure.start < match.end() for match in _WRITTEN.finditer(sentence))


def a_part_of_which(sentence: str, figure: Figure) -> bool:
    """Whether `figure` is a part named after its whole ("46,000 tonnes, of which 38,000 tonnes were
    Scope 2"): not the whole's value."""
    return _OF_WHICH_BEFORE.search(sentence, 0, figure.start) is not None


def _levels(sentence: str) -> list[Figure]:
    """The sentence's figures that may be levels of one quantity: not percentages, not changes, not
    another's."""
    return [
        figure
        for figure in parse_figures(sentence)
        if figure.dimension not in {"percent", "pp"}
        and role(sentence, figure.start, figure.end) != "change"
        and not set_beside(sentence, figure.start, figure.end)
    ]


def _with_changes(sentence: str) -> str:
    if any(
        figure.dimension in {"percent", "pp"} or role(sentence, figure.start, figure.end) == "change"
        for figure in parse_figures(sentence)
        if not set_beside(sentence, figure.start, figure.end)
    ):
        return sentence  # the source states a change of its own
    levels = _levels(sentence)
    for first, second in zip(levels, levels[1:], strict=False):
        pair = _earlier_and_later(sentence, first, second)
        if pair is not None:
            return _write_change(sentence, *pair, after=second)
    return sentence


def _earlier_and_later(sentence: str, first: Figure, second: Figure) -> tuple[Figure, Figure] | None:
    """The two levels in time order, when the sentence sets one against the other as levels of the
    same thing in the same unit; else None."""
    if not _same_unit(first, second) or not _same_thing(sentence, first, second):
        return None
    between = sentence[first.end : second.start]
    if _OTHER_THING.search(between):
        return None
    if _FROM_BEFORE.search(sentence, 0, first.start) and _TO_BETWEEN.match(between):
        earlier, later = first, second
    elif _AGAINST.match(between):
        earlier, later = second, first
    else:
        return None
    years = year_right_after(sentence[earlier.end :]), stated_year(sentence, later)
    if years[0] is not None and years[1] is not None and years[0] >= years[1]:
        return None  # two levels of one year, or stated the other way round: no change over time
    return earlier, later


def _same_unit(first: Figure, second: Figure) -> bool:
    """One dimension and currency: "1.82 Mt CO2e, against 2.0 Mt" need not repeat "CO2e"."""
    return first.same_kind(second) and not first.ambiguous and not second.ambiguous


def _same_thing(sentence: str, first: Figure, second: Figure) -> bool:
    """Not levels of two things named ("3 Mt of ore" against "2 Mt of coal")."""
    mine, theirs = share_base(sentence, first.end), share_base(sentence, second.end)
    return not mine or not theirs or bool(mine & theirs)


def _write_change(sentence: str, earlier: Figure, later: Figure, *, after: Figure) -> str:
    """The sentence with the change from `earlier` to `later` written in after the clause of the
    second level (`after`): ", worked out as a fall of about 8.5% in 2023, a fall of 220 tonnes in
    2023,"."""
    if not earlier.base or earlier.bound or later.bound:
        return sentence
    change = 100 * (later.base - earlier.base) / abs(earlier.base)
    noun = "fall" if change < 0 else "rise"
    year = stated_year(sentence, later)
    when = f" in {year}" if year else ""
    amount = _amount(earlier, later)
    written = f", {_WORKED_OUT} a {noun} of about {abs(change):.1f}%{when}" + (
        f" and a {noun} of {amount}{when}" if amount else ""
    )
    clause_end = re.search(r"[,;.](?!\d)", sentence[after.end :])
    at = after.end + clause_end.start() if clause_end else len(sentence)
    return sentence[:at] + written + sentence[at:]


def _amount(earlier: Figure, later: Figure) -> str | None:
    """The difference of two levels in their unit as written ("220 tonnes"), when both are written
    as a number and a unit after it."""
    unit_of = [_unit_after_number(figure.text) for figure in (earlier, later)]
    if unit_of[0] is None or unit_of[0] != unit_of[1]:
        return None
    decimals = max(_decimals(figure.text) for figure in (earlier, later))
    return f"{abs(later.value - earlier.value):,.{decimals}f} {unit_of[0]}"


def _unit_after_number(text: str) -> str | None:
    match = re.fullmatch(
        r"(?:about\s|around\s|some\s|nearly\s|almost\s|roughly\s)?[\d,]+(?:\.\d+)?\s(\D+)", text, _I
    )
    return match.group(1) if match else None


def _decimals(text: str) -> int:
    number = re.search(r"\d[\d,]*(?:\.(\d+))?", text)
    return len(number.group(1) or "") if number else 0


def _with_shares(sentence: str) -> str:
    """The share each part is of its whole in one unit (`_part_and_whole`), written in after the later
    of the two as a share of what the whole is of, when it says ("…, worked out as 66.7% of its
    waste"); a part named after a whole that does not say is a share "of it", right after the part."""
    figures = [figure for figure in parse_figures(sentence) if figure.dimension not in {"percent", "pp"}]
    for first, second in reversed(list(zip(figures, figures[1:], strict=False))):
        found = _part_and_whole(sentence, first, second)
        if found is None:
            continue
        part, whole = found
        share = ("about " if part.approximate or whole.approximate else "") + _percent(
            100 * part.base / whole.base
        )
        of_what = _words_of(sentence, whole)
        if not of_what and (
            _OF_IT_AFTER.match(sentence, part.end) or _OF_WHICH_BEFORE.search(sentence, 0, part.start)
        ):
            # "of which 600 GWh, worked out as 69.8% of it, was matched": right after the part
            sentence = sentence[: part.end] + f", {_WORKED_OUT} {share} of it," + sentence[part.end :]
            continue
        written = f", {_WORKED_OUT} {share}" + (f" of its {of_what}" if of_what else "")
        clause_end = re.search(r"[,;.](?!\d)", sentence[second.end :])
        at = second.end + clause_end.start() if clause_end else len(sentence)
        sentence = sentence[:at] + written + sentence[at:]
    return sentence


def _part_and_whole(sentence: str, first: Figure, second: Figure) -> tuple[Figure, Figure] | None:
    """The part and the whole, when two figures in one unit are set as one within the other: "96,000
    tonnes … and recycled 64,000 tonnes of it", "860 GWh, of which 600 GWh", "Of the 96,000 tonnes of
    waste …, it recycled 78,000 tonnes", "2.3 Mt of scrap … out of 6.05 Mt of input"."""
    if not _same_unit(first, second) or first.bound or second.bound:
        return None
    between = sentence[first.end : second.start]
    if _OUT_OF_BETWEEN.match(between):
        part, whole = first, second
    elif (
        _OF_IT_AFTER.match(sentence, second.end)
        or _OF_WHICH_BEFORE.search(sentence, 0, second.start)
        or (_OF_THE_WHOLE_BEFORE.search(sentence, 0, first.start) and "," in between)
    ):
        part, whole = second, first
    else:
        return None
    return (part, whole) if 0 < part.base <= whole.base else None


def _words_of(sentence: str, whole: Figure) -> str:
    """What the whole is of, in the sentence's words and order ("metallic input"), or ""."""
    base = share_base(sentence, whole.end)
    words = re.findall(r"[\w-]+", sentence[whole.end : whole.end + 60])
    return " ".join(dict.fromkeys(word for word in words if word.lower() in base))


def _count_of_share(match: re.Match[str]) -> str:
    """ "7% of its 8,200 trucks were electric" -> "…, worked out as about 574 electric trucks": a
    share of a count, rounded as the share is, is a hedged count."""
    count = round(float(match["share"]) * int(match["whole"].replace(",", "")) / 100)
    if count <= 0:
        return match.group(0)
    return f"{match.group(0)}, {_WORKED_OUT} about {count:,} {match['kind']} {match['things']}"


def _count_share(match: re.Match[str]) -> str:
    whole, part = (int(match[name].replace(",", "")) for name in ("whole", "part"))
    if not 0 < part <= whole:
        return match.group(0)
    return f"{match.group(0).rstrip()}, {_WORKED_OUT} {_percent(100 * part / whole)}, "


def _percent(value: float) -> str:
    return f"{value:.1f}%".replace(".0%", "%")
