"""Claim type (geographic, quantitative, legal_governance, strategic, environmental: it decides
which specialists check the claim) and priority (high, medium, low), and a one-line reason a claim
is check-worthy.

Most claims carry cues of several types (a figure, a place, a topic), so the type is decided by
ordered rules, each asking what a verifier would check first: a governance fact (board, pay,
assurance), then a forward commitment (target year, net zero, SBTi), then a named site or land
area, then an environmental topic (renewables, waste, water, nature, certifications), and only
then the figure itself, which makes the claim quantitative (emissions, energy, money, people).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.claims.environmental import topic_terms
from app.claims.signals import (
    ASSURANCE,
    CADENCE,
    CERTIFICATION,
    CHAIRED,
    COMPANY_BOARD,
    COUNT,
    CURRENCY,
    DATE,
    EMISSIONS,
    FIGURE_WITH_UNIT,
    NET_ZERO,
    PLACE,
    REMUNERATION,
    TARGET_YEAR,
    affirmed,
)
from app.language.intentions import FUTURE_ACTION, TARGET
from app.language.years import YEAR

_I = re.IGNORECASE
CLAIM_TYPES = ("geographic", "quantitative", "legal_governance", "strategic", "environmental")
PRIORITIES = ("high", "medium", "low")

_GOVERNANCE = re.compile(
    rf"(?<!on ){COMPANY_BOARD}\b|\b(?:committees?|directors|trustees|supervisory|remuneration|bonus|"
    r"incentive plan|STIP|LTIP|shareholders?|annual general meeting|AGM|code of conduct|"
    r"whistleblow\w*|anti-corruption|bribery|executive (?:pay|compensation))\b",
    _I,
)
_GOVERNANCE_WEAK = re.compile(
    r"\b(?:compliance|compliant|policy|policies|governance|regulat\w+|law|legal|audit\w*|assurance|"
    r"due diligence|risk management|oversight|fines?|penalt(?:y|ies))\b",
    _I,
)
_STRATEGY = re.compile(
    r"\bSBTi\b|\bScience[- ]Based Targets?\b|\bscenario analysis\b|\btransition plan\b|"
    r"\b(?:plans?|intends?) to invest\b|\bwill invest\b",
    _I,
)
_GEO_CUE = re.compile(
    r"\b(?:sites?|plants?|mines?|quarr(?:y|ies)|facilit(?:y|ies)|factor(?:y|ies)|works|smelters?|"
    r"refiner(?:y|ies)|terminals?|depots?|mills?|concessions?|warehouses?|ports?|farms?|parks?|"
    r"hectares?|ha|acres?|land|deforest\w*|reforest\w*|rehabilitat\w*|water[- ]stress\w*|"
    r"catchment|basin|watershed|region|coast\w*|wetlands?|located|lies|sits)\b",
    _I,
)
_ENVIRONMENT = re.compile(
    r"\b(?:renewable|solar|wind|green electricity|clean energy|waste|landfill|recycl\w*|circular\w*|"
    r"reuse|biodiversity|habitat|species|ecosystems?|nature|trees|(?:fresh)?water|wastewater|effluent|"
    r"packaging|plastics?|alternative fuels?|biomass|energy efficien\w*|refrigerants?|HFCs?|"
    r"certification|certified|ISO\s?14001|ISO\s?50001|RE100|LEED|BREEAM|BOMA BEST|FSC|PEFC|"
    r"CDP(?: Climate| Water| Forests)? (?:score|rating)|A-list)\b",
    _I,
)
# A figure "as verified by" someone: the claim is about the figure, the assurance only backs it.
_AS_VERIFIED = re.compile(r"\bas (?:verified|certified|assured|audited)\b", _I)
_ACHIEVED = re.compile(
    r"\b(?:has|have) been\b|"
    r"\b(?:is|are|was|were|became|remain(?:s|ed)?) (?:\w+ )?(?:carbon|climate|CO2)[- ]neutral\b",
    _I,
)
_INTERNAL_ONLY = re.compile(r"\b(?:internal(?:ly)?|confidential|proprietary|employees? survey)\b", _I)


def classify_claim_type(sentence: str) -> str:
    """The claim type of `sentence`, by the first rule that applies (see module docs)."""
    text = sentence
    if _GOVERNANCE.search(text) or CADENCE.search(text) or REMUNERATION.search(text):
        return "legal_governance"
    if CHAIRED.search(text) or (ASSURANCE.search(text) and not _AS_VERIFIED.search(text)):
        return "legal_governance"
    if _is_strategic(text):
        return "strategic"
    if PLACE.search(text) and _GEO_CUE.search(text):
        return "geographic"
    if _ENVIRONMENT.search(text) and not EMISSIONS.search(text):
        return "environmental"
    if FIGURE_WITH_UNIT.search(text) or CURRENCY.search(text) or COUNT.search(text):
        return "quantitative"
    if _GOVERNANCE_WEAK.search(text):
        return "legal_governance"
    return "strategic" if TARGET.search(text) else "environmental"


def _is_strategic(text: str) -> bool:
    """A forward commitment: a target date, net zero or 1.5°C as a goal, SBTi, a plan to invest, a
    scenario. Neutrality stated as already achieved ("has been carbon neutral") is a present fact."""
    if TARGET_YEAR.search(text) or _STRATEGY.search(text):
        return True
    if NET_ZERO.search(text) and not _ACHIEVED.search(text):
        return True
    return bool(TARGET.search(text) and FUTURE_ACTION.search(text))


def assign_priority(sentence: str, claim_type: str, signals: Iterable[str]) -> str:
    """How much the claim matters to a reader, by how directly it can be checked.

    High: figures that can be checked arithmetically or against core IFRS S2 metrics (emissions
    figures, numeric targets with a date, a figure with its comparison). Medium: governance and
    site facts, dated commitments, single dated figures. Low: general assertions, and claims only
    internal data could verify.
    """
    names = set(signals)
    figure = bool(names & {"figure_with_unit", "currency_amount"})
    dated = bool(names & {"year", "target_year", "date"})
    core = claim_type not in ("legal_governance", "geographic")
    if figure and core and "emissions_topic" in names:
        return "high"
    if figure and claim_type == "strategic" and names & {"target_year", "net_zero"}:
        return "high"
    if (
        figure
        and claim_type == "quantitative"
        and (names & {"comparison", "change"} or _figure_count(sentence) > 1)
    ):
        return "high"
    if claim_type in ("legal_governance", "geographic") or "certification" in names:
        return "medium"
    if (claim_type == "strategic" and (dated or figure)) or (figure and dated):
        return "low" if _INTERNAL_ONLY.search(sentence) else "medium"
    return "low"


def _figure_count(sentence: str) -> int:
    return len(FIGURE_WITH_UNIT.findall(sentence)) + len(CURRENCY.findall(sentence))


_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Scope 1 and 2 emissions", re.compile(r"\bscope\s?1\s?(?:and|&|\+)\s?2\b", _I)),
    ("Scope 1 emissions", re.compile(r"\bscope\s?1\b", _I)),
    ("Scope 2 emissions", re.compile(r"\bscope\s?2\b", _I)),
    ("Scope 3 emissions", re.compile(r"\bscope\s?3\b", _I)),
    ("greenhouse gas emissions", EMISSIONS),
    ("renewable energy", re.compile(r"\brenewable|solar|wind\b", _I)),
    ("energy use", re.compile(r"\benergy|electricity\b", _I)),
    ("water", re.compile(r"\bwater\b", _I)),
    ("waste", re.compile(r"\bwaste|landfill|recycl", _I)),
    ("biodiversity and land", re.compile(r"\bbiodiversity|habitat|hectares?|restor|trees\b", _I)),
    ("board oversight", re.compile(rf"{COMPANY_BOARD}|committee\b", _I)),
    ("executive pay", re.compile(r"\bremuneration|compensation|bonus|incentive\b", _I)),
    ("investment", re.compile(r"\binvest|capital|capex|expenditure\b", _I)),
    ("safety", re.compile(r"\bsafety|injur|fatalit", _I)),
)


def build_reasoning(sentence: str, claim_type: str, signals: Iterable[str]) -> str:
    """A one-sentence reason naming the checkable elements actually found in `sentence`."""
    names = set(signals)
    parts: list[str] = []
    figures = _figures(sentence)
    if figures:
        plural = "figures with units" if len(figures) > 1 else "a figure with a unit"
        parts.append(f"{plural} ({', '.join(figures)})")
    year = TARGET_YEAR.search(sentence) if "target_year" in names else None
    if year:
        parts.append(f"a target date ({year.group()})")
    else:
        when = DATE.search(sentence) or YEAR.search(sentence)
        if when:
            parts.append(f"a year ({when.group()})")
    parts.extend(_named_elements(sentence, names))
    if "environmental_claim" in names:
        terms = ", ".join(topic_terms(sentence)[:2])
        parts.append(f"an environmental assertion by the company ({terms})")
    topic = next((label for label, pattern in _TOPICS if pattern.search(sentence)), None)
    what = "States " + _join(parts) if parts else "Makes a specific assertion"
    about = f" about {topic}" if topic else ""
    kind = claim_type.replace("_", "/")
    article = "an" if kind[0] in "aeiou" else "a"
    return f"{what}{about}; checkable as {article} {kind} claim."


def _figures(sentence: str, limit: int = 2) -> list[str]:
    """The first `limit` distinct amounts in `sentence`, in reading order."""
    matches = sorted(
        [*FIGURE_WITH_UNIT.finditer(sentence), *CURRENCY.finditer(sentence)], key=lambda match: match.start()
    )
    found: list[str] = []
    covered = -1
    for match in matches:
        if match.start() >= covered and len(found) < limit:
            found.append(match.group().strip())
        covered = max(covered, match.end())
    return found


def _named_elements(sentence: str, names: set[str]) -> list[str]:
    parts: list[str] = []
    if "net_zero" in names:
        match = NET_ZERO.search(sentence)
        parts.append(f"a net-zero or 1.5°C commitment ({match.group() if match else 'net zero'})")
    elif "target" in names:
        parts.append("a target or commitment")
    place = PLACE.search(sentence)
    if place and "named_place" in names:
        parts.append(f"a named location ({place.group()})")
    for signal, label, pattern in (
        ("meeting_cadence", "a meeting cadence", CADENCE),
        ("remuneration_link", "a remuneration link", REMUNERATION),
        ("chaired_by", "who chairs it", CHAIRED),
        ("assurance_named", "external assurance", ASSURANCE),
        ("certification", "a certification or validation", CERTIFICATION),
    ):
        match = affirmed(pattern, sentence) if signal in names else None
        if match:
            parts.append(f"{label} ({_clip(match.group())})")
    return parts


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
