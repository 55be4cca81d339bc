"""Reduction targets and reductions achieved: the arithmetic of "cut 42% by 2030 from 2019".

A sentence with a reduction, a "by <year>" and a baseline year is either a target ("we aim to cut
... by 2030") or an achievement ("by the end of 2023 we achieved a 37% reduction ... relative to
2008 levels"). A target is assessed against the progress stated with it; an achievement is not a
target at all, and the progress it states ("up from 30% by the end of 2022") is reported as stated
rather than as missing. Both are assessments (`supports_claim` None), never contradictions.
"""

from __future__ import annotations

import re
from typing import Any

from app.language.figures import parse_figures
from app.language.intentions import FORWARD_LOOKING
from app.language.years import parse_years
from app.verification.checks.check_result import CheckResult
from app.verification.reading.figures import attributed_elsewhere

_I = re.IGNORECASE
_TARGET_PCT = re.compile(
    r"\b(?:reduc\w*|cut\w*|lower\w*|decreas\w*)\b[^.]{0,80}?\bby\s(?P<pct>\d+(?:\.\d+)?)\s?(?:%|per\s?cent)"
    r"|(?P<pct2>\d+(?:\.\d+)?)\s?(?:%|per\s?cent)\s(?:absolute\s)?(?:reduction|cut|decrease)",
    _I,
)
_TARGET_YEAR = re.compile(r"\bby\s(?:the end of\s)?(?:FY\s?)?(?P<year>20[2-6]\d)\b", _I)
_BASE_YEAR = re.compile(
    r"(?:baseline|base year|from|against|vs\.?|versus|compared (?:to|with)|relative to)\s(?:a\s|the\s|our\s)?"
    r"(?:FY\s?)?(?P<year>(?:19[89]|20[0-2])\d)\b"
    r"|\b(?P<year2>(?:19[89]|20[0-2])\d)\s(?:baseline|base year|levels?)",
    _I,
)
_ACHIEVED = re.compile(
    r"\b(?:achieved|so far|to date|already|reduced|down|decrease|reduction|cut|lowered|progress)\b", _I
)
_DONE = re.compile(
    r"\b(?:achieved|delivered|reached|realised|realized|(?:have|has|had) (?:reduced|cut|lowered|achieved)|"
    r"we (?:reduced|cut|lowered))\b",
    _I,
)


def check_target(text: str, page: int, context: str = "") -> CheckResult | None:
    """A reduction target ("cut 42% by 2030 vs 2019") against the reduction achieved so far, or an
    achievement stated in the same words, with the earlier progress it states.

    The target must be in `text` (the claim); the achieved reduction may also come from `context`.
    """
    target_year = _TARGET_YEAR.search(text)
    base = _BASE_YEAR.search(text)
    # "Global emissions would fall 70% by 2050" or a scenario's pathway is not the company's target.
    targets = [
        match
        for match in _TARGET_PCT.finditer(text)
        if not attributed_elsewhere(text, match.start("pct") if match["pct"] else match.start("pct2"))
    ]
    if not targets or target_year is None or base is None:
        return None
    target = min(targets, key=lambda match: abs(match.end() - target_year.start()))
    goal = float(target["pct"] or target["pct2"])
    end, start = int(target_year["year"]), int(base["year"] or base["year2"])
    if end <= start:
        return None
    # A sentence that looks forward states a target; one with a completed verb and no forward word
    # states what was done ("we achieved a 37% reduction by the end of 2023").
    if _DONE.search(text) and not FORWARD_LOOKING.search(text):
        return _achievement(text, page, goal, target.start(), start, end)
    return _target(text, page, context, goal, target.start(), start, end)


def _achievement(text: str, page: int, done: float, at: int, start: int, year: int) -> CheckResult:
    """ "By the end of 2023 we achieved a 37% reduction ... relative to 2008 (up from 30% by 2022)"."""
    details: dict[str, Any] = {
        "check": "achieved_reduction",
        "achieved_percent": done,
        "baseline_year": start,
        "achieved_year": year,
        "average_annual_pp_since_baseline": round(done / (year - start), 3),
        "sources": [{"report_page": page, "snippet": text[:300]}],
    }
    summary = (
        f"An achievement, not a target: a {done:g}% reduction by {year} against {start} "
        f"({details['average_annual_pp_since_baseline']} pp a year on average since {start})"
    )
    earlier = _achieved(text, at, done, {start, year})
    if earlier is not None and earlier[1] < year:
        before, when = earlier
        details |= {
            "earlier_percent": before,
            "earlier_year": when,
            "progress_pp": round(done - before, 3),
            "progress_annual_pp": round((done - before) / (year - when), 3),
            "status": "progress stated",
        }
        summary += (
            f"; up from {before:g}% by {when}: {done - before:+g} pp in {year - when} year(s), as stated."
        )
    else:
        details["status"] = "no earlier figure stated"
        summary += "."
    return CheckResult("achieved_reduction", "calculation", None, 0.5, summary, details)


def _target(text: str, page: int, context: str, goal: float, at: int, start: int, end: int) -> CheckResult:
    details: dict[str, Any] = {
        "check": "target_arithmetic",
        "target_percent": goal,
        "baseline_year": start,
        "target_year": end,
        "required_annual_pp": round(goal / (end - start), 3),
        "required_annual_compound_percent": round((1 - (1 - goal / 100) ** (1 / (end - start))) * 100, 3),
        "sources": [{"report_page": page, "snippet": text[:300]}],
    }
    achieved = _achieved(text, at, goal, {start, end})
    if achieved is None and context and context != text:
        achieved = _achieved(context, -10, goal, {start, end})
    if achieved is None:
        details["status"] = "no progress figure stated"
        summary = (
            f"Target of {goal:g}% by {end} from {start} needs {details['required_annual_pp']} pp a year; "
            "no progress figure was stated."
        )
        return CheckResult("target_arithmetic", "calculation", None, 0.3, summary, details)
    done, year = achieved
    expected = goal * (year - start) / (end - start)
    on_track = done + 0.5 >= expected
    details |= {
        "achieved_percent": done,
        "achieved_year": year,
        "achieved_annual_pp": round(done / (year - start), 3) if year > start else None,
        "linear_expected_percent_by_achieved_year": round(expected, 2),
        "remaining_annual_pp": round((goal - done) / (end - year), 3) if end > year else None,
        "formula": "on track if achieved >= target * (year - baseline) / (target_year - baseline)",
        "status": "on track" if on_track else "behind",
    }
    summary = (
        f"{done:g}% achieved by {year} against {expected:.1f}% expected on a straight line to "
        f"{goal:g}% by {end} (baseline {start}): {details['status']}."
    )
    return CheckResult("target_arithmetic", "calculation", None, 0.5, summary, details)


_EARLIER_CUE = re.compile(r"\b(?:up|down|increas\w*|rose|compared|from|versus|vs\.?)\b[^.%]{0,20}$", _I)


def _achieved(text: str, target_at: int, goal: float, skip_years: set[int]) -> tuple[float, int] | None:
    """The reduction achieved so far and the year it was achieved by, if the text states both."""
    for figure in parse_figures(text):
        if figure.dimension != "percent" or abs(figure.start - target_at) < 3 or figure.value == goal:
            continue
        window = text[max(0, figure.start - 60) : figure.end + 40]
        if not (
            _ACHIEVED.search(window) or _EARLIER_CUE.search(text[max(0, figure.start - 30) : figure.start])
        ):
            continue
        years = [y for y, _ in parse_years(text) if y not in skip_years and y < max(skip_years)]
        if years:
            nearest = min(
                parse_years(text), key=lambda item: abs(item[1] - figure.start) if item[0] in years else 10**6
            )
            return abs(figure.value), nearest[0]
    return None
