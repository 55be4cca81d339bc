"""What a claim is about, beyond the IFRS keywords it uses: corrections to a keyword mapping.

Keywords pick up every topic a sentence touches. "Executive bonuses are linked 15% to emissions
reduction targets" uses "emissions" and "executive", yet it discloses climate-linked pay (S2.29(g)),
not an emissions figure (S2.29(a)) or management's role (S2.6(b)). "Countries that have pledged to be
carbon neutral by 2050" uses a target's words, yet the target is theirs, not the company's. These
corrections, by one-sentence rules (`app.knowledge.ifrs_sentences`), apply to the suggestions of
both the keyword and the LLM path.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.knowledge import ifrs_sentences as read
from app.knowledge.registry import Requirement, is_under, requirement

#: Paragraphs about the reporting company's own targets.
TARGET_PARAGRAPHS = ("S2.33", "S2.36", "S2.28(c)", "S1.51")
#: Climate-linked remuneration, assessed as a whole: pay linked to climate, and the share linked.
_PAY = "S2.29(g)"
_MANAGEMENT = ("S2.6(b)", "S1.27(b)")


def by_subject(text: str, suggestions: Sequence[Requirement]) -> list[Requirement]:
    """The suggestions corrected for what the sentence is about (pay, another party's target)."""
    chosen = list(suggestions)
    if read.others_target(text):
        chosen = [req for req in chosen if not _under_any(req, TARGET_PARAGRAPHS)]
    if read.links_pay_to_climate(text):
        objects = [*_pay_objects(text), _PAY]
        pay = requirement(_PAY)
        chosen = ([pay] if pay else []) + [req for req in chosen if not _under_any(req, objects)]
    return chosen


def _pay_objects(text: str) -> list[str]:
    """What a pay sentence links pay to: emissions and targets, unless it also reports an emissions
    figure or a target with its year, and the executives whose pay it is (not management's role)."""
    objects = list(_MANAGEMENT)
    if not read.EMISSIONS_QUANTITY.search(text):
        objects.append("S2.29(a)")
    if not read.states_target_period(text):
        objects.extend(TARGET_PARAGRAPHS)
    return objects


def fits_subject(text: str, req: Requirement) -> bool:
    """Whether `by_subject` keeps the requirement for this sentence (used for search results)."""
    return req in by_subject(text, [req])


def _under_any(req: Requirement, ancestors: Sequence[str]) -> bool:
    return any(is_under(req.paragraph_id, ancestor) for ancestor in ancestors)
