"""Analyst wording to report wording, per TCFD / IFRS S2 topic: Sibyl's own small thesaurus.

Reviewers ask "is executive pay tied to climate objectives?"; reports write "the long-term incentive
includes an emissions reduction target". The IFRS registry (`expansion`) finds the requirement a
question is about; this module bridges the words themselves. Each `Concept` lists

- `same`: words and phrases a report uses *for the question's own word*. A window holding any of
  them holds that word, for the "addressed at all" threshold as well as for ranking;
- `related`: words of the topic that only help ranking (like the registry's expansion words).

A concept applies when any of its `same` entries occurs in the question (compared as `tokenize`
stems, phrases as consecutive stems). Written for Sibyl from the TCFD recommendations' and IFRS S2's
topics, in our own words; no report's wording was copied.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from app.embeddings.tokens import stem, tokenize

_WORD = re.compile(r"[^\W_]+(?:[.'][^\W_]+)*")
_POSSESSIVE = re.compile(r"['’]s\b")


@dataclass(frozen=True)
class Concept:
    """Interchangeable words for one idea, and the topic words around it."""

    name: str
    same: tuple[str, ...]
    related: tuple[str, ...] = ()
    asks: tuple[str, ...] = ()  # analyst phrasings that name the concept but are never searched

    @property
    def action(self) -> bool:
        """Whether the concept names what is done with a subject ("manage", "identify", "how
        often"), not a subject: a passage holding only such words is about nothing in particular."""
        return self.name in ACTION_CONCEPTS


def _split(words: str) -> tuple[str, ...]:
    return tuple(word.strip() for word in words.split(",") if word.strip())


def _c(name: str, same: str, related: str = "", asks: str = "") -> Concept:
    return Concept(name, _split(same), _split(related), _split(asks))


#: Concepts that name an action or a manner, not a subject (`Concept.action`).
ACTION_CONCEPTS = frozenset(
    {"handle", "identify", "integrate", "often", "brief", "responsible", "tied", "most", "align", "test"}
)

CONCEPTS: tuple[Concept, ...] = (
    # Governance: who oversees, who manages, how often they hear about it.
    _c(
        "oversee",
        "oversee, oversees, oversight, overseen, supervise, supervising, supervision, supervisory",
        "board, committee, directors, trustees, chair, governance",
    ),
    _c(
        "governing_body",
        "board, boards, board of directors, board of trustees, directors, trustees, committee, "
        "committees, board committee",
        "chair, chairman, governance, oversight",
        asks="governance body, governing body, governance bodies, governing bodies, oversight body",
    ),
    _c(
        "responsible",
        "responsible, responsibility, responsibilities, accountable, accountability, charged, "
        "tasked, mandate, in charge",
        "delegated, reports to, role, roles",
    ),
    _c(
        "brief",
        "briefed, briefing, briefings, informed, informs, updates, updated, reports to, presented",
        "agenda, meeting, meetings",
    ),
    _c(
        "often",
        "how often, often, frequency, frequently, regularly, quarterly, annually, times per year, "
        "times a year",
        "meets, meeting, each year",
    ),
    _c(
        "executive",
        "executive, executives, management, managers, senior management, officer, officers, "
        "chief, leadership team, managing board, executive committee",
        "ceo, cfo, cso, head of sustainability, sustainability department",
        asks="management bodies, management body, executive bodies",
    ),
    _c(
        "handle",
        "handle, handling, manage, managing, address, addressing",
        "day-to-day, operational, implementation",
        asks="day to day, day-to-day, daily basis",
    ),
    # Risk management.
    _c(
        "integrate",
        "integrate, integrated, integration, folded, embedded, incorporated, built into, part of",
        "considered within, aligned",
    ),
    _c(
        "erm",
        "enterprise risk management, erm, risk management, risk process, risk framework, "
        "principal risks, group risk",
        "risk register, risk assessment, risk appetite, heat map",
    ),
    _c(
        "identify",
        "identify, identifies, identified, identification, assess, assessed, assessment, "
        "evaluate, evaluates, evaluated, evaluation",
        "prioritise, materiality, likelihood, magnitude",
    ),
    # Strategy: time horizons, scenarios, resilience, effects on planning.
    _c(
        "horizon",
        "time horizon, time horizons, horizon, horizons, short term, medium term, long term, "
        "short-term, medium-term, long-term, near term",
        "years, timeframe, 2030, 2040, 2050",
    ),
    _c(
        "scenario",
        "scenario, scenarios, scenario analysis, scenario analyses, stress test, stress testing",
        "pathway, pathways, 1.5°C, 2°C, 3°C, 4°C, warming, iea, ngfs, ipcc, rcp, ssp, "
        "net zero emissions, paris, "
        "temperature, orderly, disorderly, hot house",
    ),
    _c("resilience", "resilience, resilient, withstand", "adapt, adaptation, business continuity"),
    _c(
        "adapt",
        "adapt, adapts, adapted, adapting, adaptation, adaptive, resilience, resilient, climate-proof, "
        "climate proofing, preparedness",
        "business continuity, hardening, retrofit, retrofits, upgrade, protect, protection, withstand, "
        "extreme weather, physical risk",
    ),
    _c(
        "business_model",
        "business model, business models, operating model, strategy, strategic, strategies, "
        "value proposition",
        "portfolio, capital allocation, growth, decision making, decision-making, planning, markets",
    ),
    _c(
        "synergy",
        "synergy, synergies, co-benefit, co-benefits, benefits, complement, complements, "
        "mutually reinforcing, trade-off, trade-offs",
        "biodiversity, water, soil, nature, communities, also, as well as",
    ),
    _c("test", "test, tested, testing, stress test", "assess, analyse, analysis, model, modelled, simulate"),
    _c(
        "exposure",
        "exposed, exposure, exposures, vulnerable, vulnerability, susceptible",
        "at risk, hazard, insurer, insurance",
    ),
    _c(
        "sites",
        "sites, site, assets, asset, locations, location, facilities, facility, plants, properties, "
        "buildings, factories, warehouses, warehouse, depots, depot, stores",
        "operations, portfolio, infrastructure, real estate",
    ),
    _c(
        "acute",
        "acute, extreme weather, flood, flooding, floods, storm, storms, cyclone, hurricane, wildfire, "
        "wildfires, forest fires, heatwave, heatwaves, heavy precipitation, natural hazards",
        "typhoon, hail, landslide, natural catastrophe, weather events",
    ),
    _c(
        "chronic",
        "chronic, sea level, rising temperatures, drought, water stress, water scarcity, heat stress, "
        "precipitation patterns",
        "temperature rise, sea-level rise, water risk",
    ),
    # Physical hazards are the acute and chronic events themselves: a report names floods and fires.
    _c(
        "physical",
        "physical, physical risk, physical risks, natural hazards, extreme weather, flood, floods, "
        "flooding, wildfire, wildfires, forest fires, storms, heatwaves, sea level, drought",
        "adaptation, hazards",
    ),
    _c(
        "hazard",
        "hazard, hazards, perils, extreme weather, flood, floods, flooding, wildfire, wildfires, "
        "forest fires, storms, heatwaves, sea level, drought",
        "natural hazards, exposure",
    ),
    _c(
        "financial",
        "financial planning, business planning, budget, budgeting, capital allocation, "
        "capital expenditure, capex, operating expenditure, opex, spending, spend, investment, investments",
        "financial position, financial performance, cash flows, funding, financing, costs, invest",
    ),
    _c(
        "opportunity",
        "opportunity, opportunities, commercial opportunities, business opportunities",
        "market, markets, growth, revenue, revenues, demand, customers",
    ),
    _c(
        "low_carbon",
        "low-carbon, low carbon, green, energy-efficient, energy efficiency, sustainable",
        "products, solutions, services, portfolio, offerings, technologies, avoided emissions, "
        "taxonomy-aligned, electrification, renewable",
    ),
    # Metrics and targets, transition plan.
    _c(
        "value_chain",
        "value chain, scope 3, supply chain, upstream, downstream",
        "suppliers, customers, purchased goods, use of sold products, transportation, business travel",
    ),
    _c(
        "category",
        "category, categories, broken down, breakdown, by source, per category",
        "split, share, purchased goods, capital goods, use of sold products, commuting",
    ),
    _c(
        "most",
        "most, majority, largest, biggest, mainly, mostly, primarily, predominantly, bulk",
        "share, percent, proportion",
        asks="make up most, makes up most, account for most, accounts for most",
    ),
    _c(
        "roadmap",
        "roadmap, transition plan, pathway, trajectory, action plan, decarbonisation plan, "
        "decarbonization plan, programme, program",
        "levers, milestones, interim targets, net zero, abatement",
    ),
    _c(
        "decarbonise",
        "decarbonisation, decarbonization, decarbonise, decarbonize, emission reduction, "
        "emissions reduction, abatement, net zero, net-zero, carbon neutral",
        "reduce emissions, renewable electricity, electrification, offsets",
    ),
    _c(
        "objective",
        "objectives, objective, targets, target, goals, goal, ambitions, kpis",
        "performance, progress, baseline",
    ),
    _c(
        "pay",
        "pay, compensation, remuneration, incentive, incentives, bonus, bonuses",
        "variable, stock awards, long-term incentive, short-term incentive, lti, sti, ltip, stip, "
        "weighting, scorecard",
    ),
    _c(
        "tied",
        "tied, linked, link, based on, weighted, weighting, anchored, depends on",
        "criteria, measure, measures, metric, performance condition",
    ),
    _c(
        "carbon_price",
        "carbon price, carbon prices, carbon pricing, internal carbon price, shadow price, "
        "price on carbon, cost of carbon, co2 price, co2e price, internal co2e price",
        "investment decisions, per tonne, emissions trading, carbon tax",
        asks="price carbon, prices carbon, pricing carbon, put a price on carbon",
    ),
    _c("internal", "internal, internally, shadow", "investment decisions, business cases"),
    # Engagement: peers, associations, policy.
    _c(
        "peers",
        "peers, industry peers, peer companies, competitors, industry associations, "
        "trade associations, business associations, industry bodies, coalition, coalitions, alliance, "
        "alliances, industry initiatives, working group, working groups, industry partners, "
        "partnerships, consortium, consortia",
        "sector, industry, initiative, initiatives, partnership, partnerships, forum, council, memberships",
        asks="other firms, other companies, other businesses, its sector, their sector, same sector",
    ),
    _c(
        "engage",
        "engage, engages, engaged, engaging, engagement, dialogue, work with, working with, "
        "partner with, partnering",
        "partners, partnership, partnerships, initiatives, initiative, collaboration, stakeholders, "
        "associations, members",
    ),
    _c(
        "together",
        "collaborate, collaborates, collaboration, cooperate, cooperation, partnering, jointly",
        "member, membership, participate, joined, founding member, partnership, partnerships",
        asks="work together, working together, works together",
    ),
    _c(
        "trade_group",
        "trade groups, trade group, trade associations, industry associations, "
        "business associations, industry bodies, chambers of commerce",
        "memberships, member, associations, advocacy",
    ),
    _c(
        "lobby",
        "lobby, lobbying, advocacy, advocate, advocates, policy engagement, public policy, "
        "political, policymakers, government affairs",
        "positions, paris agreement, climate policy, legislation, regulation",
    ),
    _c(
        "align",
        "in line, aligned, alignment, consistent, consistency, misaligned",
        "review, reviews, comply or explain, compare, positions",
    ),
)

#: Words that tell the topic only in a few reports: they weigh this much of their rarity, so that a
#: window about "climate" in a climate report, or "change" anywhere, does not decide relevance.
GENERIC_WEIGHTS: dict[str, float] = {
    word: 0.3
    for word in tokenize(
        "climate climate-related change changes related matters matter issues topics area areas"
    )
}


@dataclass(frozen=True)
class WordGroup:
    """Words that count as one word of the question: its own stems, and the concept's `same` entries."""

    covered: tuple[str, ...]  # the question's stems this group stands for
    alternatives: tuple[str, ...]  # words and phrases any one of which holds the group
    related: tuple[str, ...]
    asked: tuple[str, ...] = ()  # the alternatives the question itself uses
    action: bool = False  # the concept names an action, not a subject (`Concept.action`)


def concept_groups(question: str) -> list[WordGroup]:
    """The concepts whose `same` entries occur in `question` (as stems, in order), one group each.

    Longer entries claim their stems first, and each occurrence of a stem belongs to one group
    only, so "enterprise risk management" is one word group, not also a "management" one; a stem
    the question uses twice ("management's role in managing ...") may stand for two concepts.
    """
    question_words = _words(question)
    available = Counter(question_words)
    claimed: Counter[str] = Counter()
    covered: dict[str, list[str]] = {}
    for name, entry in _entries_longest_first():
        if not _contains(question_words, entry):
            continue
        needed = Counter(entry)
        if all(claimed[stem] + count <= available[stem] for stem, count in needed.items()):
            claimed.update(needed)
            covered.setdefault(name, []).extend(entry)
    return [
        WordGroup(
            tuple(dict.fromkeys(covered[concept.name])),
            concept.same,
            concept.related,
            tuple(same for same in concept.same if _contains(question_words, tuple(_words(same)))),
            concept.action,
        )
        for concept in CONCEPTS
        if concept.name in covered
    ]


#: Derivational endings the full-text stemmer leaves apart ("consume" / "consumption"): a word
#: ending in one of a pair is also searched with the other ending.
DERIVATIONS: tuple[tuple[str, str], ...] = (
    ("ume", "umption"),
    ("umes", "umption"),
    ("uce", "uction"),
    ("uces", "uction"),
    ("ibe", "iption"),
    ("ibes", "iption"),
)


def variants(word: str) -> tuple[str, ...]:
    """Other derivations of `word` a report may use instead ("consume" -> "consumption")."""
    lower = word.lower()
    found: list[str] = []
    for short, long in DERIVATIONS:
        for this, other in ((short, long), (long, short)):
            if lower.endswith(this) and len(lower) > len(this) + 2:
                found.append(lower[: -len(this)] + other)
    return tuple(dict.fromkeys(variant for variant in found if variant != lower))


def derivation_groups(words: list[str]) -> list[WordGroup]:
    """One group for each of `words` that has other derivations: the word or any of them."""
    return [
        WordGroup(tuple(tokenize(word)), (word, *others), (), (word,))
        for word in words
        if (others := variants(word))
    ]


def _words(text: str) -> list[str]:
    """Stems of every word, stopwords kept: "other firms" must not shrink to "firms"; possessives
    dropped: "management's role" names management."""
    text = _POSSESSIVE.sub("", text.lower().replace("-", " "))
    return [stem(word) for word in _WORD.findall(text)]


def _contains(words: list[str], phrase: tuple[str, ...]) -> bool:
    width = len(phrase)
    return width > 0 and any(tuple(words[i : i + width]) == phrase for i in range(len(words) - width + 1))


@lru_cache(maxsize=1)
def _entries_longest_first() -> tuple[tuple[str, tuple[str, ...]], ...]:
    entries = [
        (concept.name, tuple(_words(entry)))
        for concept in CONCEPTS
        for entry in (*concept.same, *concept.asks)
    ]
    return tuple(sorted((item for item in entries if item[1]), key=lambda item: -len(item[1])))
