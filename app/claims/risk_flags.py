"""Greenwashing risk flags on claims, after the EU rules on environmental claims (Directive (EU)
2024/825, which amends the Unfair Commercial Practices Directive). In our own words, the rules
single out four patterns, and each flag names the phrase that triggered it:

- GENERIC_ENVIRONMENTAL_CLAIM: a broad label of environmental virtue ("eco-friendly", "green",
  "environmentally friendly", "sustainable", "climate friendly") applied to the company, its products
  or its operations, with no specific performance that a reader could verify (a figure with a unit,
  or a recognised certification) in the claim or in the text around it.
- OFFSET_BASED_NEUTRALITY: a claim of neutral, reduced or positive climate impact (carbon neutral,
  climate neutral, net zero) that rests on offsets or purchased credits rather than on cutting the
  company's own emissions.
- FUTURE_COMMITMENT_WITHOUT_PLAN: a commitment about future environmental performance (net zero by a
  year, a reduction by a year) when neither the claim nor any page of the report gives an earlier,
  interim target or an implementation plan (a roadmap, a transition plan, milestones).
- SELF_DECLARED_LABEL: a label, seal or certification that is the company's own (or names no
  recognisable scheme) rather than a third-party certification scheme.

Rule-based and deterministic: a flag is a reason to look harder, not a finding that a claim is false.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from app.claims.signals import CURRENCY, FIGURE_WITH_UNIT, TARGET_YEAR, affirmed, is_negated
from app.language.intentions import FUTURE_COMMITMENT
from app.language.sentences import rough_sentences

_I = re.IGNORECASE


class RiskFlagKind(StrEnum):
    GENERIC_ENVIRONMENTAL_CLAIM = "generic_environmental_claim"
    OFFSET_BASED_NEUTRALITY = "offset_based_neutrality"
    FUTURE_COMMITMENT_WITHOUT_PLAN = "future_commitment_without_plan"
    SELF_DECLARED_LABEL = "self_declared_label"


#: Flags that mean the claim itself is too vague to verify: the judge never VERIFIES such a claim.
VAGUE_KINDS = frozenset({RiskFlagKind.GENERIC_ENVIRONMENTAL_CLAIM, RiskFlagKind.SELF_DECLARED_LABEL})


@dataclass(frozen=True)
class RiskFlag:
    """One risk flag: what kind, the phrase that triggered it, and why it matters."""

    kind: RiskFlagKind
    phrase: str
    explanation: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind.value, "phrase": self.phrase, "explanation": self.explanation}

    @classmethod
    def from_dict(cls, stored: Mapping[str, Any]) -> RiskFlag | None:
        """A stored flag, or None for one this version does not know."""
        try:
            kind = RiskFlagKind(str(stored.get("kind")))
        except ValueError:
            return None
        return cls(kind, str(stored.get("phrase", "")), str(stored.get("explanation", "")))


#: Well-known third-party certification and validation schemes (a claim naming one is not self-declared).
THIRD_PARTY_SCHEMES = re.compile(
    r"\b(?:BREEAM|LEED|FSC|PEFC|ISO\s?(?:14001|14064|14067|50001|14024|14021|45001)|EU Ecolabel|"
    r"EU Eco-?label|Nordic Swan|Blue Angel|Blauer Engel|B ?Corp(?:oration)?|Fairtrade|Fair Trade|"
    r"Rainforest Alliance|Cradle to Cradle|C2C|GOTS|OEKO-TEX|Energy Star|ENERGY STAR|EMAS|SBTi|"
    r"Science[- ]Based Targets?(?: initiative)?|Carbon Trust|RSPO|MSC|ASC|bluesign|BOMA BEST|Green Star|"
    r"NABERS|DGNB|HQE|WELL|Global Recycled Standard|GRS|RCS|Better Cotton|Bonsucro|RTRS|ISCC|"
    r"Gold Standard|Verra|VCS|CDP|RE100|Green Building Council|CaGBC|USGBC|Zero Carbon Building|"
    r"Concrete Sustainability Council|ResponsibleSteel|ASI|IRMA|TCO Certified|EPEAT|Green Seal)\b"
)
_GENERIC_TERM = (
    r"eco[- ]?friendly|environment(?:ally)?[- ]friendly|environmentally (?:sound|responsible|conscious|safe)|"
    r"climate[- ]friendly|nature[- ]friendly|planet[- ]friendly|earth[- ]friendly|nature[- ]positive|"
    r"green(?:er)?|sustainabl[ey]|more sustainable|ecological|eco|conscious|responsible|"
    r"kind to the (?:planet|environment)|good for the (?:planet|environment)|gentle on the environment"
)
_GENERIC_OBJECT = (
    r"products?|solutions?|packaging|materials?|company|business|operations?|choices?|alternatives?|"
    r"range|portfolio|brand|collections?|fashion|buildings?|designs?|sourcing|technolog(?:y|ies)|"
    r"process(?:es)?|services?|offerings?|ingredients?|production|manufacturing|fleet|stores?|"
    r"way|manner|future-proof"
)
GENERIC_CLAIM = re.compile(
    rf"\b(?:{_GENERIC_TERM})[- ](?:(?:\w+)[- ])?(?:{_GENERIC_OBJECT})\b|"
    rf"\b(?:is|are|be|being|become|becoming|remain|stay)\s(?:(?:more|fully|truly|100%|a|an|the)\s)?"
    rf"(?:eco[- ]?friendly|environment(?:ally)?[- ]friendly|climate[- ]friendly|green(?:er)?|"
    rf"sustainable|planet[- ]friendly|nature[- ]friendly)\b|"
    r"\b(?:kind to the (?:planet|environment)|good for the (?:planet|environment)|"
    r"gentle on the environment)\b",
    _I,
)
# "green" is specific when it names a defined instrument or energy purchase ("green bond").
_SPECIFIC_GREEN = re.compile(
    r"\bgreen (?:bonds?|loans?|electricity|power|hydrogen|tariffs?|building council|finance framework)\b",
    _I,
)
NEUTRALITY = re.compile(
    r"\b(?:carbon|climate|CO2|CO₂|GHG|emissions?)[- ]neutral(?:ity)?\b|\bnet[- ]?zero\b|"
    r"\bclimate[- ]positive\b|\bcarbon[- ]negative\b|\bcarbon[- ]free\b|\bzero[- ](?:carbon|emissions?)\b",
    _I,
)
OFFSETS = re.compile(
    r"\b(?:offset(?:s|ting|ted)?|carbon credits?|emission(?:s)? credits?|(?:verified|voluntary) "
    r"(?:carbon|emission) (?:units|reductions)|VERs|compensat(?:e|ed|es|ing|ion)(?: for)? (?:our |the |its )?"
    r"(?:remaining |residual )?(?:emissions|CO2|carbon)|(?:purchas|buy|bought)\w* (?:\w+ )?credits)\b",
    _I,
)
PLAN = re.compile(
    r"\b(?:interim (?:targets?|goals?|milestones?)|milestones?|roadmap|transition plan|decarboni[sz]ation "
    r"(?:plan|pathway|roadmap|strategy)|(?:climate|emissions?|reduction) (?:action )?plan|"
    r"implementation plan|action plan|SBTi|Science[- ]Based Targets?|validated)\b",
    _I,
)
LABEL = re.compile(
    r"\b(?:our|own|in-house|proprietary|internal)\s(?:[\w-]+\s){0,4}?(?:label|seal|certification|"
    r"standard|mark|badge|scheme|index)\b|\b(?:certified|labell?ed)\s(?:as\s)?"
    r"(?:eco[- ]?friendly|green(?! (?:electricity|power|energy))|"
    r"sustainable|environmentally friendly|climate[- ]friendly)\b",
    _I,
)
#: A label the company introduces as its own, with the name it gives it ("our new Acme Green Seal").
OWNED_LABEL = re.compile(
    r"\b(?:[Oo]ur|[Ii]ts)\s(?:(?:own|new|in-house|proprietary|internal)\s)+"
    r"(?P<name>(?:[A-Z][\w-]*\s){1,5}?(?:[Ll]abel|[Ss]eal|[Cc]ertification|[Ss]tandard|[Mm]ark|[Bb]adge))\b"
)
SPECIFIC = FIGURE_WITH_UNIT
#: Money talk: a figure about it backs no environmental claim.
_MONEY = re.compile(
    r"\b(?:revenues?|sales|profits?|earnings|margins?|EBITDA|dividends?|turnover|share price)\b", _I
)
_YEAR = re.compile(r"20(?:2\d|[3-5]\d)")
#: Commitments this far out are the ones that need an interim target to be credible.
LONG_TERM_YEAR = 2030


def virtue_phrases(text: str) -> Iterator[re.Match[str]]:
    """Broad virtue labels ("eco-friendly products", "is green"), then own labels ("our own seal",
    "certified green") in `text`; a named green instrument ("green bond") is not one."""
    yield from (m for m in GENERIC_CLAIM.finditer(text) if not _SPECIFIC_GREEN.match(text, m.start()))
    yield from LABEL.finditer(text)


def claim_flags(text: str, context: str = "") -> list[RiskFlag]:
    """The flags a claim earns on its own words and the text around it."""
    flags = [_generic(text, context), _offset(text, context), _label(text)]
    return [flag for flag in flags if flag is not None]


def _generic(text: str, context: str) -> RiskFlag | None:
    matches = GENERIC_CLAIM.finditer(text)
    match = next((m for m in matches if not _SPECIFIC_GREEN.match(text, m.start())), None)
    if match is None:
        return None
    if _substantiated(text) or _substantiated(context):
        return None
    return RiskFlag(
        RiskFlagKind.GENERIC_ENVIRONMENTAL_CLAIM,
        match.group(),
        "A broad environmental label with no specific, verifiable performance (a figure, a recognised "
        "certification) in the claim or around it.",
    )


def _substantiated(text: str) -> bool:
    """Whether `text` states specific performance: a figure with a unit in a sentence that is not
    about money ("revenue grew 12%" backs no environmental claim), or a third-party scheme
    (`_third_party_named`)."""
    for sentence in rough_sentences(text):
        if SPECIFIC.search(sentence) and not (CURRENCY.search(sentence) or _MONEY.search(sentence)):
            return True
    return _third_party_named(text)


def _offset(text: str, context: str) -> RiskFlag | None:
    neutral = NEUTRALITY.search(text)
    offsets = OFFSETS.search(text) or OFFSETS.search(context)
    if neutral is None or offsets is None:
        return None
    return RiskFlag(
        RiskFlagKind.OFFSET_BASED_NEUTRALITY,
        f"{neutral.group()} … {offsets.group()}",
        "A neutrality or net-zero claim that rests on offsets or purchased credits, not on the company's "
        "own emission cuts.",
    )


def _label(text: str) -> RiskFlag | None:
    match = LABEL.search(text)
    if match is None or _third_party_named(text):
        return None
    return RiskFlag(
        RiskFlagKind.SELF_DECLARED_LABEL,
        match.group(),
        "A label, standard or certification of the company's own (or naming no recognised scheme), "
        "not a third-party certification scheme.",
    )


def _third_party_named(text: str) -> bool:
    """Whether a recognised scheme backs the label: named, not denied, and not merely part of the
    company's own label's name ("our new Acme Green Seal" is Acme's seal, not Green Seal)."""
    owned = [m.span("name") for m in OWNED_LABEL.finditer(text)]
    return any(
        not is_negated(text, m.start(), m.end()) and not any(start < m.start() < end for start, end in owned)
        for m in THIRD_PARTY_SCHEMES.finditer(text)
    )


_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "climate",
        re.compile(
            r"\b(?:emissions?|carbon|CO2|CO₂|GHG|climate|net[- ]?zero|neutral\w*|scope\s?[123])\b",
            _I,
        ),
    ),
    ("energy", re.compile(r"\b(?:renewable|energy|electricity|solar|wind)\b", _I)),
    ("waste", re.compile(r"\b(?:waste|landfill|recycl\w*|circular\w*|reus\w*)\b", _I)),
    ("water", re.compile(r"\bwater\b", _I)),
    ("plastics", re.compile(r"\b(?:plastics?|packaging)\b", _I)),
    (
        "nature",
        re.compile(r"\b(?:deforestation|biodiversity|nature|forests?|trees|habitats?)\b", _I),
    ),
)


@dataclass(frozen=True)
class Milestone:
    """A sentence of the report that sets a dated target or names a plan, and what it is about."""

    topics: frozenset[str]
    years: frozenset[int]
    plan: str


def topics_of(text: str) -> frozenset[str]:
    return frozenset(name for name, pattern in _TOPICS if pattern.search(text))


def report_milestones(pages: Sequence[tuple[int, str]]) -> list[Milestone]:
    """Every sentence of the report with a target year or a plan phrase, by environmental topic."""
    found = []
    for _, text in pages:
        for sentence in rough_sentences(" ".join(text.split())):
            plan = affirmed(PLAN, sentence)  # "we have not adopted SBTi" names no plan
            years = frozenset(int(_YEAR.findall(m.group())[-1]) for m in TARGET_YEAR.finditer(sentence))
            topics = topics_of(sentence)
            if topics and (plan or years):
                found.append(Milestone(topics, years, plan.group() if plan else ""))
    return found


def future_flag(text: str, milestones: Sequence[Milestone]) -> RiskFlag | None:
    """FUTURE_COMMITMENT_WITHOUT_PLAN for a dated environmental commitment when neither the claim nor
    any sentence of the report on the same subject gives an earlier target or names a plan."""
    target = TARGET_YEAR.search(text)
    topics = topics_of(text)
    if target is None or not topics or not (NEUTRALITY.search(text) or FUTURE_COMMITMENT.search(text)):
        return None
    year = max(int(found) for found in _YEAR.findall(" ".join(m.group() for m in TARGET_YEAR.finditer(text))))
    if year < LONG_TERM_YEAR or affirmed(PLAN, text):
        return None
    if any(int(other) < year for other in _YEAR.findall(text)):
        return None
    for milestone in milestones:
        if milestone.topics & topics and (milestone.plan or any(other < year for other in milestone.years)):
            return None
    return RiskFlag(
        RiskFlagKind.FUTURE_COMMITMENT_WITHOUT_PLAN,
        target.group(),
        "A future environmental commitment with no interim target or implementation plan on the same "
        "subject anywhere in the report.",
    )


def flag_claims(claims: Sequence[tuple[str, str]], pages: Sequence[tuple[int, str]]) -> list[list[RiskFlag]]:
    """Flags for each `(text, context)` claim of a report whose pages are `pages`."""
    milestones = report_milestones(pages)
    flagged = []
    for text, context in claims:
        flags = claim_flags(text, context)
        future = future_flag(text, milestones)
        flagged.append([*flags, future] if future is not None else flags)
    return flagged


def flags_of(claim: Mapping[str, Any]) -> list[RiskFlag]:
    """The risk flags carried by a claim (its `risk_flags` entry), skipping kinds this version lacks."""
    stored = claim.get("risk_flags") or []
    flags = [RiskFlag.from_dict(item) for item in stored if isinstance(item, Mapping)]
    return [flag for flag in flags if flag is not None]
