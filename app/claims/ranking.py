"""The order in which the density budget keeps rule-based claims: environmental claims by the
reporting entity first, the most specific and assertive of them highest.

The check-worthiness score (`app.claims.worthiness`) says whether a sentence is a claim at all; it
rewards any checkable detail, so a pay award, a contract's value or an acreage outranks a company
saying what it did about its emissions. A verifier of a sustainability report wants the reverse when
only some claims can be kept. The rank therefore adds the strength of the environmental assertion
(`app.claims.environmental`) to the check-worthiness score (capped, so a pile of figures cannot
dominate), and grades it:

- higher for the entity as the subject near the start ("we", "our", "the Group"), for a verb that
  reports something done (reduced, installed, certified, has been), and for specific environmental
  evidence (an amount in an energy, mass, volume or area unit; a percentage of something renewable,
  recycled or emitted; a certification scheme);
- lower for a hedge (may, could), for an intention with no date (will, aims to, wants to), for each
  word broken by a column or line split, and much lower when no environmental subject is named
  at all (governance, people and money facts stay claims, but rank behind environmental ones).

Every part is named in `rank_parts`, so a ranking can be explained.
"""

from __future__ import annotations

import re

from app.claims.environmental import HEDGE, environmental_score, topic_terms
from app.claims.signals import CERTIFICATION, TARGET_YEAR

_I = re.IGNORECASE

#: Above this, more check-worthiness detail does not raise the rank.
SCORE_CAP = 6.0
ENVIRONMENTAL_WEIGHT = 1.0
NO_TOPIC_PENALTY = 3.0
BONUS = 0.5
PENALTY = 0.5
BROKEN_PENALTY = 1.0

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
#: An intention (a date makes it a target, which is specific).
INTENTION = re.compile(
    r"\b(?:will|aims? to|wants? to|plans? to|intends? to|seeks? to|strives? to|hopes? to)\b", _I
)
#: A word split by a hyphen and a space ("environ- ment"): two columns or lines run together. A
#: shared ending ("short- and long-term") is not a split.
BROKEN_WORD = re.compile(r"[a-z]- (?!(?:and|or|to|nor)\b)[a-z]")
#: Each split word costs `BROKEN_PENALTY`, up to this many.
MAX_BROKEN = 2


def rank_score(text: str, score: float) -> float:
    """The budget's ranking of a claim with check-worthiness `score` (higher is kept first)."""
    return round(sum(value for _, value in rank_parts(text, score)), 2)


def rank_parts(text: str, score: float) -> list[tuple[str, float]]:
    """The named parts of a claim's rank (see the module docs)."""
    environmental, _ = environmental_score(text)
    parts = [
        ("check_worthiness", min(score, SCORE_CAP)),
        ("environmental_assertion", ENVIRONMENTAL_WEIGHT * environmental),
    ]
    for name, present, value in (
        ("no_environmental_subject", not topic_terms(text), -NO_TOPIC_PENALTY),
        ("own_subject", OWN_SUBJECT.search(text), BONUS),
        ("reported_as_done", DONE.search(text), BONUS),
        ("environmental_evidence", ENVIRONMENTAL_FIGURE.search(text) or CERTIFICATION.search(text), BONUS),
        ("hedged", HEDGE.search(text), -PENALTY),
        ("undated_intention", INTENTION.search(text) and not TARGET_YEAR.search(text), -PENALTY),
    ):
        if present:
            parts.append((name, value))
    broken = min(len(BROKEN_WORD.findall(text)), MAX_BROKEN)
    if broken:
        parts.append(("broken_text", -BROKEN_PENALTY * broken))
    return parts
