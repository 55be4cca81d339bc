"""Rule-based routing: the default matrix of which specialists each claim type needs
(`app.verification.catalog`), its content refinements (an extra agent for a claim whose text calls for
it), and the keyword table that routes the specialists' info requests."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from app.verification.catalog import AGENT_LABELS, DEFAULT_MATRIX, FALLBACK_AGENTS
from app.verification.records import SPECIALISTS, ClaimState, RoutingEntry


def _words(*patterns: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])(?:" + "|".join(patterns) + r")", re.IGNORECASE)


@dataclass(frozen=True)
class Refinement:
    """An extra agent a claim gets when its text matches `pattern`."""

    agent: str
    pattern: re.Pattern[str]
    reason: str


_FIGURE = (
    r"\d[\d,.]*\s*(?:%|per ?cent|t\b|kt|mt|tonnes?|tons?|tco2e?|co2e|mwh|gwh|twh|kwh|m3|litres?|megalitres?|"
    r"hectares?|ha\b)"
)
REFINEMENTS: tuple[Refinement, ...] = (
    Refinement(
        "data_metrics",
        re.compile(
            r"(?=.*(?:emission|scope\s*[123]|ghg|co2|carbon|energy|water|waste))(?=.*" + _FIGURE + ")",
            re.IGNORECASE | re.DOTALL,
        ),
        "it states figures about emissions or resources, which can be checked arithmetically",
    ),
    Refinement(
        "news_media",
        _words(
            r"lawsuits?",
            r"litigation",
            r"fines?\b",
            r"penalt",
            r"violations?",
            r"controvers",
            r"spills?\b",
            r"accidents?",
            r"fatalit",
            r"protests?",
            r"deforestation",
            r"investigation",
            r"sanction",
            r"pledge",
            r"commit(?:s|ted|ting|ments?)?\b",
            r"net[- ]zero",
            r"(?:us\$|\$|€|£|eur|usd)\s?\d[\d,.]*\s*(?:billion|bn|million|m\b)",
            r"\d[\d,.]*\s*(?:billion|bn)\b",
        ),
        "it concerns a public commitment, a large sum or a controversial topic the press may have covered",
    ),
    Refinement(
        "academic",
        _words(
            r"sbti",
            r"science[- ]based",
            r"net[- ]zero",
            r"paris[- ]aligned",
            r"paris agreement",
            r"1\.5\s?°?\s?c",
            r"well[- ]below 2",
            r"reduction pathway",
            r"decarboni[sz]ation pathway",
            r"carbon neutral",
            r"methodolog",
            r"ghg protocol",
        ),
        "it refers to science-based targets, net zero or a reduction methodology that research can benchmark",
    ),
    Refinement(
        "geography",
        _words(
            r"facilit(?:y|ies)",
            r"plants?\b",
            r"sites?\b",
            r"mines?\b",
            r"smelters?",
            r"refiner(?:y|ies)",
            r"factor(?:y|ies)",
            r"mills?\b",
            r"warehouses?",
            r"distribution cent(?:re|er)s?",
            r"located",
            r"hectares?",
            r"forests?",
            r"wetlands?",
            r"rehabilitat",
            r"reforest",
            r"land use",
        ),
        "it names a facility, site or piece of land that can be located and observed",
    ),
)


def rule_route(claim: ClaimState) -> RoutingEntry:
    """The default matrix for the claim's type plus every content refinement that applies."""
    primary = DEFAULT_MATRIX.get(claim["claim_type"], FALLBACK_AGENTS)
    agents = list(primary)
    reasons = [
        f"{claim['claim_type']} claims go to {', '.join(AGENT_LABELS[a] for a in primary)} (default matrix)"
    ]
    for refinement in REFINEMENTS:
        if refinement.agent not in agents and refinement.pattern.search(claim["text"]):
            agents.append(refinement.agent)
            reasons.append(f"{AGENT_LABELS[refinement.agent]} added because {refinement.reason}")
    return RoutingEntry(
        claim_id=claim["claim_id"], assigned_agents=agents, reasoning="; ".join(reasons) + ".", method="rules"
    )


#: The specialists that search for independent evidence (the evidence library and the web).
SEARCHING_AGENTS = frozenset({"news_media", "academic"})
#: Which of them a claim no searcher was routed to goes to, so that it still meets the evidence.
CORROBORATING_AGENT = "news_media"


def with_corroboration(entry: RoutingEntry) -> RoutingEntry:
    """Every claim meets the evidence, whatever its routing: a claim routed to no searching
    specialist also goes to News/Media, which searches the evidence library for it (and the web,
    within `CORROBORATION_WEB_SEARCHES_PER_REPORT`). Without this, quantitative and governance claims
    (the matrix sends them to Data/Metrics and Legal only) could never meet independent evidence."""
    if SEARCHING_AGENTS & set(entry["assigned_agents"]):
        return entry
    return RoutingEntry(
        claim_id=entry["claim_id"],
        assigned_agents=[*entry["assigned_agents"], CORROBORATING_AGENT],
        reasoning=f"{entry['reasoning'].rstrip('.')}; {AGENT_LABELS[CORROBORATING_AGENT]} added so that "
        "the claim is searched for independent evidence (every claim meets the evidence library).",
        method=entry["method"],
        corroborating_agents=[CORROBORATING_AGENT],
    )


#: The specialist that checks claims against the imported public registries (targets, SBTi
#: validation, verified emissions), whatever else the claim was routed to.
REGISTRY_AGENT = "data_metrics"


def with_registry_check(entry: RoutingEntry, about_registries: bool) -> RoutingEntry:
    """A claim that registries can decide (`app.verification.registries.about_registries`) is also
    checked against them by Data/Metrics, when any registry is imported. Data/Metrics added only for
    this is listed in `corroborating_agents`: it reads the registries for the claim, not its
    arithmetic."""
    if not about_registries:
        return entry
    routed = REGISTRY_AGENT in entry["assigned_agents"]
    checked = RoutingEntry(
        claim_id=entry["claim_id"],
        assigned_agents=entry["assigned_agents"] if routed else [*entry["assigned_agents"], REGISTRY_AGENT],
        reasoning=f"{entry['reasoning'].rstrip('.')}; {AGENT_LABELS[REGISTRY_AGENT]} checks it against the "
        "imported public registries (targets, their validation, verified emissions).",
        method=entry["method"],
        registry_check=True,
    )
    corroborating = [*entry.get("corroborating_agents", []), *([] if routed else [REGISTRY_AGENT])]
    if corroborating:
        checked["corroborating_agents"] = corroborating
    if "context" in entry:
        checked["context"] = entry["context"]
    return checked


INFO_REQUEST_KEYWORDS: dict[str, re.Pattern[str]] = {
    "geography": _words(
        r"locations?",
        r"coordinates",
        r"satellite",
        r"imagery",
        r"land use",
        r"facility sites?",
        r"sites?\b",
        r"geograph",
        r"ndvi",
    ),
    "legal": _words(
        r"ifrs", r"s1\b", r"s2\b", r"complian", r"paragraph", r"regulat", r"governance", r"legal"
    ),
    "news_media": _words(
        r"news",
        r"media",
        r"public reporting",
        r"press",
        r"controvers",
        r"journalis",
        r"coverage",
    ),
    "academic": _words(
        r"research",
        r"academic",
        r"benchmark",
        r"sbti",
        r"methodolog",
        r"peer[- ]reviewed",
        r"scientific",
    ),
    "data_metrics": _words(
        r"numbers?",
        r"calculat",
        r"emissions data",
        r"scope\s*[123]?",
        r"metrics?",
        r"consisten",
        r"figures?",
        r"totals?",
    ),
}


def route_info_request(description: str, *, exclude: Iterable[str] = ()) -> list[str]:
    """Agents whose keywords match the request best (ties all kept); empty when nothing matches."""
    excluded = set(exclude)
    scores = {
        agent: len(pattern.findall(description))
        for agent, pattern in INFO_REQUEST_KEYWORDS.items()
        if agent not in excluded
    }
    best = max(scores.values(), default=0)
    if best == 0:
        return []
    return [agent for agent in SPECIALISTS if scores.get(agent) == best]
