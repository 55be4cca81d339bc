"""Emission reduction targets as a claim or SBTi's target wording states them: scope, percentage,
base year, target year.

The same reader serves both sides, so "reduce absolute Scope 1 and 2 GHG emissions 90% by FY2030
from a FY2019 base year" reads alike in a report and in SBTi's `target_wording`. A text may state
several targets ("... Scope 1 and 2 ... 42% ...; Scope 3 ... 25% within the same timeframe"): each
sentence is cut at every scope named, and a part missing its years takes the sentence's (or, for
"within the same timeframe", the previous target's). A percentage that is hedged ("at least 50%"), a
share ("70% of its suppliers") or not unique in its part is not stated; a Scope 3 target limited to
some categories ("from purchased goods") is not a Scope 3 target.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from app.language.intentions import TARGET
from app.language.years import YEAR
from app.verification.checks.change_statements import change_percents
from app.verification.reading.figures import quantity_marks

_I = re.IGNORECASE
_BY = re.compile(
    r"\b(?:by|until|before|no later than|through)\s(?:the\s)?(?:end of\s)?"
    r"(?:(?:fiscal|financial)\s(?:year\s)?)?$",
    _I,
)
_TO = re.compile(r"\bto\s$", _I)
_BASE_BEFORE = re.compile(
    r"(?:\bfrom|\bagainst|\bvs\.?|\bversus|\bcompared (?:to|with)|\brelative to|\bbelow|\bover)\s"
    r"(?:(?:a|an|the|our|its)\s)?(?:(?:base(?:line)?\s?year|baseline)\s(?:of\s)?)?$"
    r"|\bbase(?:line)?(?:\s?year)?(?:\sof)?:?\s$",
    _I,
)
_BASE_AFTER = re.compile(r"^\s?(?:base(?:line)?(?:[\s-]?year)?|levels?)\b", _I)
_SAME_TIMEFRAME = re.compile(r"\b(?:within|over|in|by) the same (?:time ?frame|period|target year)\b", _I)
_INTENSITY = re.compile(r"\bintensity\b|\bper\s(?!cent\b)", _I)
_HEDGED = re.compile(
    r"\b(?:at least|more than|over|around|about|approximately|roughly|nearly|almost|up to|some)\s?$", _I
)
_PARTIAL_SCOPE_3 = re.compile(
    r"\bscope 3\b[^.;]{0,40}?\b(?:from(?!\s(?:an?\s|the\s)?(?:FY\s?)?(?:19|20)\d\d)|categor\w*|covering|"
    r"purchased|sold|travel|commuting|upstream|"
    r"downstream|suppliers?|customers?)\b",
    _I,
)
#: Words of a reduction already made: a sentence with them reports progress, not a target.
_DONE = re.compile(
    r"\b(?:achieved|delivered|reached|realised|realized|so far|to date|progress|fell|decreased|declined|"
    r"(?:have|has|had) (?:reduced|cut|lowered)|we (?:reduced|cut|lowered))\b",
    _I,
)
#: Sentence ends, also after a footnote marker ("base year.* The company also commits ...") and
#: before a sentence that opens with a digit ("2 Sisters Food Group commits ...").
_SENTENCE = re.compile(r"(?<=[.;])[*†‡¹²³]*\s+(?=[A-Z0-9])")


@dataclass(frozen=True)
class TargetParts:
    """What a reduction target states (None: not stated)."""

    scopes: frozenset[str]
    percent: float | None
    percent_half: float  # the rounding half-width of the percentage as written
    base_year: int | None
    target_year: int | None
    intensity: bool


@dataclass(frozen=True)
class _Year:
    year: int
    start: int
    end: int
    role: str | None  # "base", "target" or None


def claimed_targets(text: str) -> list[TargetParts]:
    """The reduction targets a claim states as targets, stating a percentage or a target year; none
    when it reports progress ("we have achieved a 37% reduction against 2019"), whose years and
    percentages are no target's."""
    if not TARGET.search(text) or _DONE.search(text):
        return []
    return [target for target in read_targets(text) if target.percent is not None or target.target_year]


def read_targets(text: str) -> list[TargetParts]:
    """The reduction targets `text` states, one per scope group named, in order."""
    targets: list[TargetParts] = []
    for sentence in _SENTENCE.split(text):
        previous = targets[-1] if targets else None
        for target in _sentence_targets(sentence):
            if previous is not None and _SAME_TIMEFRAME.search(sentence):
                target = replace(
                    target,
                    base_year=target.base_year or previous.base_year,
                    target_year=target.target_year or previous.target_year,
                )
            targets.append(target)
    return targets


def _sentence_targets(sentence: str) -> list[TargetParts]:
    named = quantity_marks(sentence.rstrip(". "))  # "Scopes 1, 2 and 3." is all three
    marks = [mark for mark in named if "scope" in sentence[mark.start : mark.end].lower()]
    if not marks:
        return []
    years = _years(sentence)
    whole_base = _only(year.year for year in years if year.role == "base")
    whole_target = _only(year.year for year in years if year.role == "target")
    targets = []
    for index, mark in enumerate(marks):
        start = mark.start if index else 0  # "a 42% reduction in Scope 1 and 2 ..." belongs to the first
        end = marks[index + 1].start if index + 1 < len(marks) else len(sentence)
        part = sentence[start:end]
        if "3" in mark.scopes and _PARTIAL_SCOPE_3.search(part):
            continue
        inside = [year for year in years if start <= year.start < end]
        percent, half = _percent(part)
        targets.append(
            TargetParts(
                scopes=mark.scopes,
                percent=percent,
                percent_half=half,
                base_year=_only(y.year for y in inside if y.role == "base") or whole_base,
                target_year=_only(y.year for y in inside if y.role == "target") or whole_target,
                intensity=bool(_INTENSITY.search(part)),
            )
        )
    return targets


def _years(sentence: str) -> list[_Year]:
    years: list[_Year] = []
    for match in YEAR.finditer(sentence):
        year = 2000 + int(match["fy"]) if match["fy"] else int(match["year"])
        before, after = sentence[max(0, match.start() - 40) : match.start()], sentence[match.end() :]
        role = None
        if _BASE_BEFORE.search(before) or _BASE_AFTER.match(after):
            role = "base"
        elif _BY.search(before) or (_TO.search(before) and years and years[-1].role == "base"):
            role = "target"
        years.append(_Year(year, match.start(), match.end(), role))
    return years


def _percent(part: str) -> tuple[float | None, float]:
    """The part's one reduction percentage, unhedged, with its rounding half-width."""
    percents = change_percents(part)
    if len(percents) != 1 or _HEDGED.search(part[: percents[0].start]):
        return None, 0.0
    return abs(percents[0].value), percents[0].half_unit


def _only(values: Iterable[int]) -> int | None:
    distinct = set(values)
    return distinct.pop() if len(distinct) == 1 else None
