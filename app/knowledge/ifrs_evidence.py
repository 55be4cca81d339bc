"""What counts as evidence that a report text addresses an IFRS requirement, beyond its keywords.

The registry's keywords are tuned to map claims to paragraphs; they are too loose to say a
requirement is met. "ISSB" in "aligned with frameworks that are now part of the ISSB standards" is
not a statement of compliance, and "progress" in "we continue to make progress" is not performance
against a target. So the legal agent grades each keyword match:

- a phrase (two or more words) or one of `SPECIFIC_WORDS` (named standards, methods, scenarios, gases)
  *addresses* a requirement;
- any other single word only *mentions* it: a mention can make a paragraph partial, never full;
- a requirement with an `EvidenceRule` is addressed only by a sentence the rule accepts, whatever its
  keywords say, since its keywords are generic words that any report uses in other senses ("EUR" in
  an amount is not the presentation currency, "by 2050" in a country's pledge is not our target
  period); an additive rule (`only=False`) is one more way to address it besides its keywords ("met six
  times" is the frequency of briefings, though no keyword says so);
- a paragraph in `SELF_LEAVES` asks something of its own beyond its sub-paragraphs (S2.6(a): identify
  the body that oversees), so it is assessed as a sub-requirement of itself;
- a requirement in `CLAIM_ONLY` is addressed only by the claim's own sentence: which scope a claim
  reports, or by when its target is to be met, is the claim's, never a neighbouring sentence's.

Every test here is a rule over one sentence, so the findings built on it stay labelled "rules".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from app.knowledge import ifrs_sentences as read
from app.language.intentions import INTENTION_TO
from app.language.sentences import statements

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


def reports_target_progress(sentence: str) -> bool:
    """A stated target together with a status ("on track", "met") or a progress figure ("18% so far")."""
    if not _TARGET.search(sentence):
        return False
    status = _STATUS.search(sentence)
    if status and not INTENTION_TO.search(sentence[: status.start()]):
        return True
    return bool(_PROGRESS.search(sentence) and _FIGURE.search(sentence))


@dataclass(frozen=True)
class EvidenceRule:
    """What a requirement needs to be addressed, said in words, and the sentence test that checks it."""

    needs: str
    label: str
    test: Callable[[str], bool]
    #: False when the requirement's keywords still count besides the rule.
    only: bool = True

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
    "S1.24": EvidenceRule(
        "a statement of the currency the report's amounts are presented in (an amount is not one)",
        "presentation currency",
        read.states_presentation_currency,
    ),
    "S2.33(d)": EvidenceRule(
        "the company's own target with the year it is to be met by",
        "target period",
        read.states_target_period,
    ),
    "S2.36(c)": EvidenceRule(
        "the company's own target said to be net (net zero, carbon neutral) or gross; a scenario's name "
        "is not one",
        "net or gross target",
        read.states_net_or_gross_target,
    ),
    "S2.29(g)(i)": EvidenceRule(
        "executive pay linked to a climate measure",
        "pay linked to climate",
        read.links_pay_to_climate,
        only=False,
    ),
    "S2.29(g)(ii)": EvidenceRule(
        "the share of pay linked to climate",
        "share of pay linked to climate",
        read.states_climate_pay_share,
        only=False,
    ),
    **{
        paragraph_id: EvidenceRule(
            "a named board-level body overseeing climate or sustainability matters",
            "oversight body named",
            read.names_oversight_body,
        )
        for paragraph_id in ("S1.27(a)", "S2.6(a)")
    },
    **{
        paragraph_id: EvidenceRule(
            "the body's responsibility for climate or sustainability matters",
            "oversight remit",
            read.names_oversight_body,
            only=False,
        )
        for paragraph_id in ("S1.27(a)(i)", "S2.6(a)(i)")
    },
    **{
        paragraph_id: EvidenceRule(
            "how often the body meets on or is briefed about the matters",
            "meeting frequency",
            read.states_oversight_frequency,
            only=False,
        )
        for paragraph_id in ("S1.27(a)(iii)", "S2.6(a)(iii)")
    },
}

#: Paragraphs with sub-paragraphs that also ask something themselves (identify the oversight body).
SELF_LEAVES = frozenset({"S1.27(a)", "S2.6(a)"})
#: Requirements only the claim's own sentence addresses (which scope it reports; its target's year
#: and whether that target is net); another sentence's, in its context or on its page, is about
#: another figure or target, so there they are only mentioned.
CLAIM_ONLY = frozenset({"S2.29(a)(i)(1)", "S2.29(a)(i)(2)", "S2.29(a)(i)(3)", "S2.33(d)", "S2.36(c)"})


def rule_for(paragraph_id: str) -> EvidenceRule | None:
    """The evidence rule a requirement needs beyond its keywords, if it has one."""
    return RULES.get(paragraph_id)
