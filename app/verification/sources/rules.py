"""The two rules about sources that the investigators and the judge must apply alike.

- **The company's word is not independent**, wherever it is printed: its own or a subsidiary's
  site, its own report or CDP response, a press release (and any page of a wire that publishes
  what companies send it), or an outlet relaying its statement ("Acme said …"). Such a source can
  show the report inconsistent, never true or false (`is_company_word`).
- **Contradictions count together** (the contradiction bar): one Tier 1 source, two of Tier 1–2,
  or three of Tier 1–3 contradict a claim; fewer are reported but decide nothing
  (`contradiction_bar_reached`). Investigators count one vote per source, the judge one per voice
  (copies of one story are one voice), then both ask this rule.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.search.domains import matches
from app.verification.sources.credibility import PRESS_WIRE_DOMAINS

#: How a source's tier was decided when the source is the company speaking for itself (its own or a
#: subsidiary's site, a press release, its own report or CDP response).
SELF_REPORTED_TIER_BASES = frozenset({"company_site", "press_release", "company_report"})


def is_company_word(tier_basis: object, relays_company: bool, url: object) -> bool:
    """Whether a source is the reporting company's own word (see the module docstring)."""
    if tier_basis in SELF_REPORTED_TIER_BASES or relays_company:
        return True
    return isinstance(url, str) and matches(url, PRESS_WIRE_DOMAINS)


def contradiction_bar_reached(tiers: Iterable[int]) -> bool:
    """Whether contradicting sources of these tiers (one per vote) reach the contradiction bar."""
    counted = list(tiers)
    return 1 in counted or sum(t <= 2 for t in counted) >= 2 or sum(t <= 3 for t in counted) >= 3
