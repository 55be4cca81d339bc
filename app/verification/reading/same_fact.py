"""Whether a source's sentence states THE SAME FACT as the claim, so that it may verify or contradict it.

Every reading of a source (the analysis model's and the rule reader's, `source_reading.read_source`)
ends in a sentence it relies on. Sharing the claim's figure or subject is not enough, as these
sentences show: "Nordavia Mining said its Scope 3 emissions were 14.2 Mt CO2e in 2023" is about another
company than Nordavia Metals; "… were 14.2 Mt CO2e in 2018" about another year; "expects its Scope 3
emissions could be around 14.2 Mt" a forecast; "combined Scope 1, 2 and 3 emissions were 14.2 Mt"
another quantity; "auditors rejected the company's statement that its Scope 3 emissions were 14.2 Mt"
a dispute. A sentence like that decides nothing, and the finding says why (docs/decisions.md, the
same fact).

Checks, for support and contradiction alike unless said otherwise:

- **company**: the sentence names another company sharing the first word of the company's name and
  not the company itself (`company_mentions`);
- **period**: the sentence names years and none of the claim's, or the figure it shares with the
  claim is stated for another year (`years.parse_years`, `years.stated_year`, the rule reader's
  own year logic). For a target or commitment a different year is the contradiction ("pushed its net
  zero goal back to 2050"), so there this applies to support only. A figure of a month, quarter or
  half is not a figure of the year ("a PUE of 1.31 in July 2023"), and a year to March is not the
  calendar year of the same number;
- **publication date** (support of an achieved outcome only): a source published before the claimed
  year ended cannot report it (a plain year ends on 31 December; a year named by the month it ends,
  "the year to March 2024", ends that month; another fiscal year, "FY2023" or "2022-23", is taken to
  end no earlier than 31 March). A sentence naming no year may stand for a claim's year only
  when its title names that year, or when the source was published after that year ended and within
  `UNDATED_GRACE_MONTHS` of it: news reports a year's figures in the following months (annual
  reports, CDP cycles), and an undated "emissions are 14.2 Mt" from years later, or from an undated
  source, cannot be tied to the claimed year;
- **mood** (for an achieved outcome): the figure the sentence shares with the claim is hedged or
  intended ("expects", "could be", "if output holds", "aims", "plans", "set a goal of", "target",
  "forecast", "projected"; `change_mood.intended`); a claim that itself states a target may be
  corroborated by a source stating that target;
- **quantity**: the figure is for another emissions quantity ("combined Scope 1, 2 and 3" is the
  total, not Scope 3; `figures.quantity_at`), or, without a comparable figure, the sentence names only
  other emissions quantities than the claim;
- **dispute** (support only): the sentence disputes the figure or statement it reports, or negates
  the figure ("rejected the company's statement that …", "did not", "contrary to", "understated";
  `denials`).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from app.language.figures import Figure, parse_figures
from app.language.intentions import FORECAST, INTENTION
from app.language.years import MONTH, MONTH_NAMES, YEAR_ENDING, parse_years, stated_year, with_last_year_named
from app.verification.reading.change_mood import intended, targets_measured_against, within
from app.verification.reading.contradictions import same_value
from app.verification.reading.denials import disputes, negated
from app.verification.reading.figures import quantities, quantity_at
from app.verification.sources.company_mentions import other_company

#: How long after a claimed year a source may report it without naming the year.
UNDATED_GRACE_MONTHS = 18

_I = re.IGNORECASE
#: Hedges and forward-looking words that make a figure a forecast or a condition, not an outcome
#: ("projects" is left out: it is mostly the noun, "decarbonisation projects").
HEDGE = re.compile(
    # "could be recycled" says what can be done with a thing, not what may happen
    r"\b(?:could(?!(?:\snot)?\sbe\s(?:recycled|reused|composted|repaired|verified|traced|confirmed|certified))|might|"
    r"(?-i:may)\s(?:be|have|well|reach|total|exceed|fall|rise)|if|unless|"
    r"expect(?:s|ed|ing)?|forecast\w*|project(?:ed|ions?)|predict\w*|"
    r"anticipat\w*|estimated\sto|likely|outlook|guidance|on\s(?:track|course)|set\sa\s(?:goal|target)|"
    r"targets?|targeted|goals?|aim(?:s|ed|ing)?|plan(?:s|ned|ning)?|intend\w*|ambition\w*|pledg\w*)\b",
    _I,
)
#: A claim that reports a target as achieved is an outcome, whatever target words it uses ("will be
#: achieved" is not).
_ACHIEVED = re.compile(
    r"(?<!will be )(?<!to be )(?<!would be )(?<!will have )"
    r"\b(?:achieved|reached|met|exceeded|surpassed|delivered|completed)\b",
    _I,
)
#: Words that state a change or amount over a period that is over: "were", "fell", "spent".
_PAST = re.compile(
    r"\b(?:was|were|had|fell|rose|grew|declined|decreased|increased|reduced|cut|spent|invested|emitted|"
    r"reached|achieved|totall?ed|amounted|came|generated|consumed|used|produced|saved|avoided|delivered|"
    r"improved|dropped|climbed|accounted|made|recorded|reported|sourced|purchased|bought|recycled)\b",
    _I,
)
#: A year that bounds or starts a period rather than naming it ("by 2030", "from 2024", "since 2019").
_BOUND_YEAR = re.compile(
    r"\b(?:by|until|till|to|through|between|and|from|since|starting|beginning|before|after|versus|vs\.?|"
    r"compared\s(?:with|to))\s(?:the\s)?(?:end\sof\s)?(?:FY\s?)?$",
    _I,
)
#: What bounds the clause a hedge must stand in: "Nordavia, which aims to reach net zero by 2040,
#: said its Scope 3 emissions were 14.2 Mt" does not hedge the figure.
_CLAUSE_BREAK = re.compile(r",(?!\d)|[;:()\[\]—–]|\s-\s")
#: A condition after the figure hedges it even past a comma ("14.2 Mt, if output holds").
_CONDITION = re.compile(r"\b(?:if|unless|provided|assuming)\b", _I)
_FISCAL = re.compile(r"\bFY\s?\d{2,4}\b|\bfiscal\b|\b20\d\d[-/–]\d\d\b", _I)
_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")


@dataclass(frozen=True)
class NotSameFact:
    """Why a sentence does not state the claim's fact: `kind` (for details and tests) and `reason`
    (a clause for the finding's text: "… , so this source decides nothing")."""

    kind: str
    reason: str


def not_same_fact(
    claim: str,
    company: str,
    sentence: str,
    stance: str,
    *,
    published: str | None = None,
    title: str = "",
    goes_on: bool = False,
) -> NotSameFact | None:
    """Why `sentence` cannot decide `claim` with `stance` ("supports" / "contradicts"), or None when
    it states the same fact (see the module docstring); other stances decide nothing anyway. With
    `goes_on` (the sentence says that what the claim says ended goes on), a later year is the point:
    only a sentence about earlier years only is of another period."""
    if stance not in {"supports", "contradicts"} or not sentence:
        return None
    sentence = with_last_year_named(sentence, published)  # "last year" in a dated source names a year
    supports = stance == "supports"
    outcome = not intention_claim(claim)
    other = other_company(sentence, company)
    if other is not None:
        return NotSameFact("other_company", f"the quoted sentence is about {other}, not {company}")
    checks = [
        _other_years(claim, sentence, applies=supports or outcome, later=goes_on),
        _part_of_the_year(claim, sentence),
        _financial_year_for_calendar(claim, sentence),
        _figure_mismatch(claim, sentence, supports=supports, outcome=outcome),
    ]
    if supports:
        checks.append(_disputed(claim, sentence))
    if supports and outcome:
        checks.append(_publication(claim, sentence, published, title))
    return next((check for check in checks if check is not None), None)


def intention_claim(claim: str) -> bool:
    """Whether the claim states a target, commitment or plan rather than an achieved outcome: every
    figure it states is intended (`change_mood.intended`), or, without figures, it uses intention
    words; a claim reporting a target as achieved ("we met our target") is an outcome."""
    if _ACHIEVED.search(claim):
        return False
    if FORECAST.search(claim):
        return True
    figures = parse_figures(claim)
    if figures:
        return all(intended(claim, figure.start, figure.end) for figure in figures)
    return INTENTION.search(claim) is not None


def outcome_year(claim: str) -> int | None:
    """The year whose outcome the claim reports ("Scope 3 emissions were 14.2 Mt in 2023": 2023), or
    None: a target or forecast, a present state ("are assigned a 10% weighting in 2024"), or a claim
    whose years only bound a period ("from 2024", "by 2030", "between 2022 and 2030")."""
    if intention_claim(claim) or not _PAST.search(claim):
        return None
    years = [year for year, at in parse_years(claim) if not _BOUND_YEAR.search(claim[max(0, at - 30) : at])]
    return max(years) if years else None


def _years(text: str) -> set[int]:
    return {year for year, _ in parse_years(text)}


def _other_years(claim: str, sentence: str, *, applies: bool, later: bool = False) -> NotSameFact | None:
    """The sentence names years, none of them the claim's (with `later`, only years before the
    claim's)."""
    mine, theirs = _years(claim), _years(sentence)
    if not applies or not mine or not theirs or mine & theirs:
        return None
    if later and max(theirs) > min(mine):
        return None
    return NotSameFact(
        "other_period",
        f"the quoted sentence is about {_listing(theirs)}, not {_listing(mine)}",
    )


#: Part of a year: a month, a quarter or a half ("in July 2023", "its worst month", "Q3").
_PART_OF_YEAR = re.compile(
    rf"\bin\s{MONTH}\b|"
    r"\b(?:first|second|third|fourth)\squarter\b|\bQ[1-4]\b|\b(?:first|second)\shalf\b|\bH[12]\b|"
    r"\b(?:worst|best|peak|busiest)\smonth\b",
    _I,
)


def _part_of_the_year(claim: str, sentence: str) -> NotSameFact | None:
    """A figure of a month, quarter or half against a claim's figure of the whole year ("a PUE of
    1.31 in July 2023" is no annual average); a claim naming part of a year itself is compared."""
    if not parse_figures(claim) or not parse_figures(sentence) or _PART_OF_YEAR.search(claim):
        return None
    parts = [
        match
        for match in _PART_OF_YEAR.finditer(sentence)
        if not _YEAR_ENDS_BEFORE.search(sentence, 0, match.start())  # "which ended in March 2022"
    ]
    if not parts:
        return None
    return NotSameFact("other_period", f"the quoted sentence is about part of a year ({parts[0].group()})")


def _financial_year_for_calendar(claim: str, sentence: str) -> NotSameFact | None:
    """A year ending in another month than December ("the year to March 2022") against a claim's
    plain calendar year ("in 2022"): another twelve months."""
    ending = YEAR_ENDING.search(sentence)
    if (
        ending is None
        or ending["month"].lower() == "december"
        or _FISCAL.search(claim)
        or YEAR_ENDING.search(claim)
    ):
        return None
    if int(ending["year"]) not in _years(claim):
        return None
    return NotSameFact(
        "other_period",
        f"the quoted sentence is about the year to {ending['month']} {ending['year']}, not the calendar year",
    )


_YEAR_ENDS_BEFORE = re.compile(r"\b(?:end(?:ed|ing|s)?|closed|to)\s$", _I)


def _comparable(claim: str, sentence: str) -> list[tuple[Figure, Figure]]:
    return [
        (mine, theirs)
        for mine in parse_figures(claim)
        for theirs in parse_figures(sentence)
        if mine.same_kind(theirs)
    ]


def _figure_mismatch(claim: str, sentence: str, *, supports: bool, outcome: bool) -> NotSameFact | None:
    """The figures the sentence could decide the claim by are for another year or emissions quantity,
    or hedged (see the module docstring). For support these are the figures stating the claim's value;
    for a contradiction every comparable figure."""
    pairs = _comparable(claim, sentence)
    if supports:
        pairs = [(mine, theirs) for mine, theirs in pairs if same_value(mine, theirs)]
    if not pairs:
        return None if supports else _other_quantity_only(claim, sentence)
    reasons = [_pair_reason(claim, sentence, mine, theirs, outcome) for mine, theirs in pairs]
    if all(reason is not None for reason in reasons):
        return reasons[0]
    return None


def _pair_reason(
    claim: str, sentence: str, mine: Figure, theirs: Figure, outcome: bool
) -> NotSameFact | None:
    """Why one source figure is not the claim figure's fact: another emissions quantity, another
    year, or (for an outcome) a hedge or an intention."""
    my_quantity, their_quantity = quantity_at(claim, mine.start), quantity_at(sentence, theirs.start)
    if my_quantity and their_quantity and my_quantity != their_quantity:
        return NotSameFact(
            "other_quantity",
            f"its figure {theirs.text} is for {_quantity_name(their_quantity)}, "
            f"not {_quantity_name(my_quantity)}",
        )
    my_year, their_year = stated_year(claim, mine), stated_year(sentence, theirs)
    if my_year and their_year and my_year != their_year:
        return NotSameFact("other_period", f"its figure {theirs.text} is for {their_year}, not {my_year}")
    if outcome and _hedged(sentence, theirs):
        return NotSameFact(
            "forecast",
            f"it states {theirs.text} as a forecast, condition or target, not as an achieved outcome",
        )
    return None


#: The plan a share is of: "15% of its executives' long-term incentive plan".
_PLAN_OF_THE_SHARE = re.compile(
    r"\s?of\s[^,;.]{0,60}?\b(?:incentive|pension|share|bonus|savings|award)\s(?P<plan>plans?)\b", _I
)


def _hedged(sentence: str, figure: Figure) -> bool:
    """Whether the figure is intended (`change_mood.intended`) or the sentence hedges it ("expects",
    "could be", "if output holds"), a relative clause about the company aside."""
    if intended(sentence, figure.start, figure.end):
        return True
    begin, end = 0, len(sentence)
    for cut in _CLAUSE_BREAK.finditer(sentence):
        if cut.end() <= figure.start:
            begin = cut.end()
        elif cut.start() >= figure.end:
            end = cut.start()
            break
    clause = sentence[begin:end]
    # targets a figure is measured against, and the plan the share is of ("15% of its incentive plan"),
    # hedge nothing
    named = targets_measured_against(clause)
    plan = _PLAN_OF_THE_SHARE.match(sentence, figure.end)
    if plan is not None:
        named.append((plan.start("plan") - begin, plan.end("plan") - begin))
    if any(not within(hedge.start(), named) for hedge in HEDGE.finditer(clause)):
        return True
    return _CONDITION.search(sentence[figure.end :]) is not None


def _other_quantity_only(claim: str, sentence: str) -> NotSameFact | None:
    """Without a comparable figure: the sentence names emissions quantities, none of the claim's."""
    mine, theirs = quantities(claim), quantities(sentence)
    if not mine or not theirs or mine & theirs:
        return None
    return NotSameFact(
        "other_quantity",
        f"the quoted sentence is about {_quantity_names(theirs)}, not {_quantity_names(mine)}",
    )


def _disputed(claim: str, sentence: str) -> NotSameFact | None:
    """The sentence disputes what it reports, or negates the claim's figure in it."""
    if disputes(sentence):
        return NotSameFact("disputed", "the quoted sentence disputes the figure or statement it reports")
    same = [theirs for mine, theirs in _comparable(claim, sentence) if same_value(mine, theirs)]
    if same and all(negated(sentence, theirs.start) for theirs in same):
        return NotSameFact("disputed", "the quoted sentence denies the claim's figure")
    return None


def _publication(claim: str, sentence: str, published: str | None, title: str) -> NotSameFact | None:
    """A source published before the claimed period ended, or a sentence naming no year that cannot
    be tied to the claim's year (see the module docstring)."""
    year = outcome_year(claim)
    if year is None:
        return None
    # A sentence giving the figure of one of the claim's years ("387 Mt in 2022" of a claim that
    # emissions rose from 387 Mt in 2022 to 400 Mt in 2023) can confirm it once that year has ended.
    year = max(_years(sentence) & _years(claim), default=year)
    period_end = _period_end(claim, year)
    date = parse_date(published)
    if date is not None and date <= period_end:
        return NotSameFact(
            "stale",
            f"it was published on {published}, before the claimed period ({year}) ended, so it cannot "
            "report its outcome",
        )
    if _years(sentence) or year in _years(title):
        return None
    if date is None:
        return NotSameFact(
            "undated",
            f"the quoted sentence names no year and the source has no publication date, so it cannot "
            f"be tied to {year}",
        )
    limit = _add_months(dt.date(year, 12, 31), UNDATED_GRACE_MONTHS)
    if date > limit:
        return NotSameFact(
            "undated",
            f"the quoted sentence names no year and the source was published on {published}, more than "
            f"{UNDATED_GRACE_MONTHS} months after {year}, so it cannot be tied to {year}",
        )
    return None


def _period_end(claim: str, year: int) -> dt.date:
    """The last day of the claim's period `year`: the month a year "to" or "ended" names, March for
    another financial year ("FY2024", "2023-24"), else December."""
    named = YEAR_ENDING.search(claim)
    if named is not None and int(named["year"]) == year:
        month = MONTH_NAMES.index(named["month"].capitalize()) + 1
        return _add_months(dt.date(year, month, 1), 1) - dt.timedelta(days=1)
    return dt.date(year, 3, 31) if _FISCAL.search(claim) else dt.date(year, 12, 31)


def parse_date(value: str | None) -> dt.date | None:
    """A publication date as the latest day it may mean ("2024" -> 31 Dec 2024); None if unreadable."""
    match = _DATE.match((value or "").strip())
    if match is None:
        return None
    year = int(match.group(1))
    month = int(match.group(2)) if match.group(2) else 12
    try:
        if match.group(3):
            return dt.date(year, month, int(match.group(3)))
        return _add_months(dt.date(year, month, 1), 1) - dt.timedelta(days=1)
    except ValueError:
        return None


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return dt.date(year, month, min(day.day, 28))


def _listing(years: set[int]) -> str:
    return " and ".join(str(year) for year in sorted(years))


def _quantity_names(labels: frozenset[str]) -> str:
    return " and ".join(_quantity_name(label) for label in sorted(labels))


def _quantity_name(label: str) -> str:
    """ "scope 1+2" -> "Scope 1+2"; "total" -> "the total of all scopes"."""
    return "the total of all scopes" if label == "total" else label.replace("scope", "Scope")
