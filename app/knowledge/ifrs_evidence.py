"""What counts as evidence that a report text addresses an IFRS requirement, beyond its keywords.

The registry's keywords are tuned to map claims to paragraphs; they are too loose to say a
requirement is met. "ISSB" in "aligned with frameworks that are now part of the ISSB standards" is
not a statement of compliance, and "progress" in "we continue to make progress" is not performance
against a target. So the legal agent grades each keyword match:

- a phrase (two or more words) or one of `SPECIFIC_WORDS` (named standards, methods, scenarios, gases)
  *addresses* a requirement;
- any other single word only *mentions* it: a mention can make a paragraph partial, never full;
- a requirement with an `EvidenceRule` is addressed only by a sentence the rule accepts, whatever its
  keywords say, since its keywords are generic words that any report uses in other senses.

Every test here is a rule over one sentence, so the findings built on it stay labelled "rules".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from app.documents.statements import statements

_I = re.IGNORECASE

#: Single words that name one thing only, so finding one addresses the requirement listing it.
SPECIFIC_WORDS = frozenset(
    {
        "cdp", "ch4", "esrs", "gri", "gwp", "iea", "ipcc", "methane", "ndc", "ngfs", "nze", "pcaf", "rcp",
        "redd+", "sasb", "sbti", "sda", "sics", "ssp", "tcfd", "verra",
    }
)  # fmt: skip

# --- S1.72: an explicit statement of compliance ---------------------------------------------------

_ISSB_STANDARDS = re.compile(
    r"\b(?:IFRS\s?S[12]\b|IFRS Sustainability Disclosure Standards?|ISSB(?:'s)? (?:Standards?|requirements))",
    _I,
)
_COMPLIES = re.compile(
    r"\b(?:compl(?:y|ies|ied|iance|iant)|(?:prepared |presented )?in (?:full )?accordance with|"
    r"conforms? (?:with|to))\b",
    _I,
)
# Words that turn the sentence into something less than an unreserved statement: an alignment, a
# reference, an intention, a partial or negated compliance.
_RESERVED = re.compile(
    r"\b(?:align\w*|with reference to|referenc\w+|informed by|inspired by|guided by|consistent with|"
    r"in line with|intend\w*|plan\w*|will|expect\w*|aim\w*|prepar(?:e|ing) (?:for|to)|working towards?|"
    r"ahead of|readiness|not|no|partial\w*|where (?:possible|practicable)|except|selected|some of)\b",
    _I,
)


def states_compliance(sentence: str) -> bool:
    """An explicit, unreserved statement that the disclosures comply with the ISSB's standards."""
    return bool(
        _ISSB_STANDARDS.search(sentence) and _COMPLIES.search(sentence) and not _RESERVED.search(sentence)
    )


# --- S1.51(f): performance against a target -------------------------------------------------------

_TARGET = re.compile(r"\b(?:targets?|goals?|commit(?:ment|ments|ted)?|ambitions?|pledge[ds]?)\b", _I)
_STATUS = re.compile(
    r"\b(?:on track|off track|ahead of (?:schedule|plan|target)|behind (?:schedule|plan|target)|"
    r"(?<!to )(?<!to have )(?:achieved|met|exceeded|surpassed|missed|reached)\b)",
    _I,
)
_PROGRESS = re.compile(
    r"\b(?:progress|so far|to date|achieved|reduction of|reduced|cut|lowered|increased|delivered)\b", _I
)
_FIGURE = re.compile(
    r"\d+(?:[.,]\d+)?\s?(?:%|per ?cent|percent|percentage points?|pp)|\d\s?(?:k?t|Mt|MWh|GWh)\b"
)
_FUTURE_ONLY = re.compile(r"\b(?:will|aims? to|plans? to|intends? to|seeks? to|strives? to)\b", _I)


def reports_target_progress(sentence: str) -> bool:
    """A stated target together with a status ("on track", "met") or a progress figure ("18% so far")."""
    if not _TARGET.search(sentence):
        return False
    status = _STATUS.search(sentence)
    if status and not _FUTURE_ONLY.search(sentence[: status.start()]):
        return True
    return bool(_PROGRESS.search(sentence) and _FIGURE.search(sentence))


@dataclass(frozen=True)
class EvidenceRule:
    """What a requirement needs to be addressed, said in words, and the sentence test that checks it."""

    needs: str
    label: str
    test: Callable[[str], bool]

    def first_sentence(self, text: str) -> str | None:
        """The first sentence of `text` the rule accepts, whitespace collapsed."""
        for statement in statements(text):
            sentence = statement.strip()
            if sentence and self.test(sentence):
                return sentence
        return None


RULES: dict[str, EvidenceRule] = {
    "S1.72": EvidenceRule(
        "an explicit, unreserved statement of compliance with IFRS Sustainability Disclosure Standards",
        "statement of compliance",
        states_compliance,
    ),
    "S1.51(f)": EvidenceRule(
        "a figure or status of progress against a stated target",
        "progress against a target",
        reports_target_progress,
    ),
}


def rule_for(paragraph_id: str) -> EvidenceRule | None:
    """The evidence rule a requirement needs beyond its keywords, if it has one."""
    return RULES.get(paragraph_id)
