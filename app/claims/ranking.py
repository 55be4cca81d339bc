"""The order in which the density budget keeps rule-based claims: claims with a specific figure
first, then environmental assertions by the reporting entity, the most specific and assertive of
them highest, then the rest.

Verdicts are what Sibyl delivers, and a verifier checks figures: an amount with a unit, a percentage
of something, a sum of money. A claim stating one (`specific_figure`) therefore outranks every claim
without one, whatever it is about, unless the figure is a pay award or a deal's value (a bonus,
wages, what a contract is worth, order intake, a purchase price) with no environmental subject:
those are business facts, not the sustainability performance a reader checks, and they rank as
claims with no figure. Within each tier the check-worthiness score (`app.claims.worthiness`, capped
so a pile of figures cannot dominate) and the strength of the environmental assertion
(`app.claims.environmental`) add up, graded:

- higher for the entity as the subject near the start ("we", "our", "the Group"), for a verb that
  reports something done (reduced, installed, certified, has been), and for specific environmental
  evidence (an amount in an energy, mass, volume or area unit; a percentage of something renewable,
  recycled or emitted; a certification scheme);
- lower for a hedge (may, could), for an intention with no date (will, aims to, wants to), for each
  word broken by a column or line split, and much lower for a claim with neither a specific figure
  nor an environmental subject (a governance fact or a pay award stays a claim, but ranks behind
  environmental assertions). An employee, safety or compliance figure is not marked down: it is as
  checkable as an emissions figure.

Every part is named in `rank_parts`, so a ranking can be explained.
"""

from __future__ import annotations

import re

from app.claims.environmental import HEDGE, environmental_score, topic_terms, virtue_claim
from app.claims.signals import BROKEN_WORD, CERTIFICATION, CURRENCY, FIGURE_WITH_UNIT, TARGET_YEAR, affirmed
from app.language.intentions import INTENTION_TO

_I = re.IGNORECASE

#: Above this, more check-worthiness detail does not raise the rank.
SCORE_CAP = 6.0
ENVIRONMENTAL_WEIGHT = 1.0
NO_TOPIC_PENALTY = 3.0
BONUS = 0.5
PENALTY = 0.5
BROKEN_PENALTY = 1.0

#: A claim with a specific figure ranks this much higher, so that it stays above every figure-less
#: claim: those reach at most `SCORE_CAP` + 6.2 (the strongest environmental assertion) + 1.5 (the
#: bonuses), while a figure claim has at least the check-worthiness bar and loses at most 3.
FIGURE_TIER = 15.0
#: Pay and deal values: figures a verifier of sustainability performance does not check first.
PAY_OR_DEAL = re.compile(
    r"\b(?:wages?|salar(?:y|ies)|bonus(?:es)?|pay(?:outs?)?|remuneration|compensation|stock awards?|"
    r"share awards?|contract value|order intake|purchase price)\b|"
    r"\b(?:contracts?|orders?|deals?|agreements?|acquisitions?)\b[^.]{0,40}?\b(?:worth|valued at|value of)\b",
    _I,
)
#: The reporting entity as the subject, within the first few words.
OWN_SUBJECT = re.compile(r"^(?:\W*[\w’'&.-]+\W+){0,6}?(?:we|our|the (?:group|company|business))\b", _I)
#: A verb reporting something done, not intended.
DONE = re.compile(
    r"\b(?:achieved|reduced|cut|saved|avoided|installed|completed|finished|obtained|certified|launched|"
    r"introduced|implemented|developed|recycled|diverted|planted|restored|switched|converted|"
    r"eliminated|replaced|sourced|generated|built|commissioned|opened|joined|signed|received|reached|"
    r"exceeded|lowered|decreased|invested|became|(?:has|have) been)\b",
    _I,
)
#: An amount in an environmental unit, or a share of something environmental.
ENVIRONMENTAL_FIGURE = re.compile(
    r"\b\d[\d,.]*\s?(?:[kMGT]Wh?p?|MWdc|[kMGT]J|gigajoules|t\s?CO2e?|tCO₂e?|tonnes?|tons?|m3|m³|"
    r"(?:mega|kilo)?lit(?:re|er)s?|hectares?|ha)\b|"
    r"\b\d[\d,.]*\s?(?:%|per ?cent)\s(?:\w+\s){0,3}(?:renewable|recycl\w*|reus\w*|green|clean|"
    r"certified|emissions?|waste|water|energy|electricity)",
    _I,
)
#: Each split word costs `BROKEN_PENALTY`, up to this many.
MAX_BROKEN = 2


def rank_score(text: str, score: float) -> float:
    """The budget's ranking of a claim with check-worthiness `score` (higher is kept first)."""
    return round(sum(value for _, value in rank_parts(text, score)), 2)


def has_specific_figure(text: str) -> bool:
    """Whether `text` states a figure a verifier can check, other than a pay award or a deal's
    value about no environmental subject (see the module docs)."""
    if not (FIGURE_WITH_UNIT.search(text) or CURRENCY.search(text)):
        return False
    return bool(topic_terms(text)) or not PAY_OR_DEAL.search(text)


def rank_parts(text: str, score: float) -> list[tuple[str, float]]:
    """The named parts of a claim's rank (see the module docs)."""
    environmental, _ = environmental_score(text)
    figure = has_specific_figure(text)
    parts = [
        ("check_worthiness", min(score, SCORE_CAP)),
        ("environmental_assertion", ENVIRONMENTAL_WEIGHT * environmental),
    ]
    for name, present, value in (
        ("specific_figure", figure, FIGURE_TIER),
        (
            "no_environmental_subject",
            not (figure or topic_terms(text) or virtue_claim(text)),
            -NO_TOPIC_PENALTY,
        ),
        ("own_subject", OWN_SUBJECT.search(text), BONUS),
        ("reported_as_done", DONE.search(text), BONUS),
        ("environmental_evidence", ENVIRONMENTAL_FIGURE.search(text) or affirmed(CERTIFICATION, text), BONUS),
        ("hedged", HEDGE.search(text), -PENALTY),
        # An intention with a date is a target, which is specific.
        ("undated_intention", INTENTION_TO.search(text) and not TARGET_YEAR.search(text), -PENALTY),
    ):
        if present:
            parts.append((name, value))
    broken = min(len(BROKEN_WORD.findall(text)), MAX_BROKEN)
    if broken:
        parts.append(("broken_text", -BROKEN_PENALTY * broken))
    return parts
