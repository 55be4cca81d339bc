"""Preliminary IFRS mapping in two phases: suggest, then validate against the knowledge base.

Phase 1 suggests paragraph ids per claim: the extraction LLM's own guesses (kept only when they are
real registry ids) or, without an LLM, the registry's keywords found in the claim. Phase 2 checks the
suggestions with hybrid search, batched: claims of one type and topic share one query made of their
key terms, and a claim gets its own query only when its group's results neither confirm nor replace
its suggestions, all within a per-report query budget. The legal agent refines this.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NotRequired, TypedDict

from app.claims.candidates import CandidateClaim
from app.claims.ifrs_subjects import by_subject, fits_subject
from app.knowledge.ifrs_sentences import without_scenario_names
from app.knowledge.keywords import TextIndex, tokens
from app.knowledge.registry import REQUIREMENTS, Requirement, is_under, parse_paragraph_id, requirement
from app.knowledge.search import KnowledgeSearch, SearchHit

IFRS_SOURCE_TYPES = ("ifrs_s1", "ifrs_s2")
GROUP_SIZE = 5
GROUP_TOP_K = 8
CLAIM_TOP_K = 3
#: The most requirements (one per section) a claim is mapped to: an assurance statement about the
#: Scope 1, 2 and 3 emissions and the progress against a plan's targets touches four sections.
MAX_SUGGESTIONS = 4
#: A keyword counts once, plus this much per extra word (a phrase is more telling than a word), times
#: its rarity across the registry (log inverse document frequency: "scope 1" beats "target").
PHRASE_BONUS = 0.25
#: Requirements scoring this share of the best score are suggested too (the best one per section),
#: so a Scope 1 target maps to both emissions and targets.
RELATIVE_SCORE = 0.25
QUERY_TERMS = 24
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]{2,}")
_STOPWORDS = frozenset(
    "the and for with from that this which our their its was were are has have had been will would "
    "than into per over under also more less all each year years total compared".split()
)


class IfrsParagraph(TypedDict):
    """One IFRS paragraph a claim speaks to, as extraction maps it (stored with the claim)."""

    paragraph_id: str
    pillar: NotRequired[str | None]
    relevance: NotRequired[str | None]
    confirmed: NotRequired[bool]  # whether the knowledge base supported the mapping


@dataclass
class MappingStats:
    """How claims got their mapping, and how many queries it cost."""

    rag_queries: int = 0
    group_queries: int = 0
    claim_queries: int = 0
    confirmed: int = 0
    from_search: int = 0
    unconfirmed: int = 0
    unmapped: int = 0
    budget_exhausted: bool = False

    def to_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


@dataclass
class _Work:
    claim: CandidateClaim
    suggestions: list[Requirement]
    source: str
    mapping: list[IfrsParagraph] = field(default_factory=list)


def suggest(claim: CandidateClaim) -> tuple[list[Requirement], str]:
    """Phase 1: the extractor's valid ids, else the registry's keywords; with where they came from."""
    from_llm = [
        found
        for found in (requirement(parse_paragraph_id(raw) or "") for raw in claim.suggested_ifrs)
        if found is not None
    ]
    if from_llm:
        return by_subject(claim.text, _dedupe(from_llm))[:MAX_SUGGESTIONS], "llm"
    return keyword_suggestions(claim.text), "keywords"


def keyword_suggestions(text: str) -> list[Requirement]:
    """Registry requirements whose keywords the text uses; most matched words, then most specific.

    Keywords are matched as token sequences, overlaps included, so "Scope 1, 2 and 3" counts for
    both the "scope 1" and the "scope 1, 2 and 3" keywords. A net-zero scenario's name is read as a
    scenario, and the result is corrected for what the sentence is about (`ifrs_subjects`: pay linked
    to emissions is pay, another party's target is not the company's).
    """
    keyword_index = _keyword_index()
    count = len(REQUIREMENTS)
    present = TextIndex(without_scenario_names(text))
    scores: dict[str, float] = {}
    for keyword, paragraph_ids in keyword_index.items():
        if present.has_tokens(keyword):
            for paragraph_id in paragraph_ids:
                weight = (1 + PHRASE_BONUS * (len(keyword) - 1)) * math.log(1 + count / len(paragraph_ids))
                scores[paragraph_id] = scores.get(paragraph_id, 0.0) + weight
    if not scores:
        return by_subject(text, [])[:MAX_SUGGESTIONS]
    ranked = sorted(scores, key=lambda pid: (-scores[pid], -_depth(pid), pid))
    floor = scores[ranked[0]] * RELATIVE_SCORE
    candidates = _most_specific([req for pid in ranked if scores[pid] >= floor and (req := requirement(pid))])
    return by_subject(text, _best_per_section(candidates))[:MAX_SUGGESTIONS]


async def map_claims(
    claims: Sequence[CandidateClaim], search: KnowledgeSearch, *, budget: int
) -> tuple[list[list[IfrsParagraph]], MappingStats]:
    """Phase 1 and 2 for every claim; returns one mapping per claim (same order) and the stats."""
    stats = MappingStats()
    work = [_Work(claim, *suggest(claim)) for claim in claims]
    for group in _groups(work):
        if stats.rag_queries >= budget:
            stats.budget_exhausted = True
            break
        hits = await search.search(_group_query(group), top_k=GROUP_TOP_K, source_types=IFRS_SOURCE_TYPES)
        stats.rag_queries += 1
        stats.group_queries += 1
        for item in group:
            item.mapping = _checked(item, hits)
    for item in work:
        if not _settled(item.mapping):
            await _map_alone(item, search, budget, stats)
        stats.confirmed += _settled(item.mapping)
        stats.unmapped += not item.mapping
    return [item.mapping for item in work], stats


async def _map_alone(item: _Work, search: KnowledgeSearch, budget: int, stats: MappingStats) -> None:
    """A claim whose group search confirmed none of its suggestions: its own query, within budget.

    Suggestions are always kept (the keyword or model evidence holds), each marked confirmed or not;
    when the claim's own search confirms none of them, its best supported hit is added.
    """
    hits: list[SearchHit] = []
    if stats.rag_queries < budget:
        hits = await search.search(item.claim.text, top_k=CLAIM_TOP_K, source_types=IFRS_SOURCE_TYPES)
        stats.rag_queries += 1
        stats.claim_queries += 1
    else:
        stats.budget_exhausted = True
    item.mapping = _checked(item, hits)
    if _settled(item.mapping):
        return
    suggested = {req.paragraph_id for req in item.suggestions}
    found = [entry for entry in _from_search(item, hits) if entry["paragraph_id"] not in suggested]
    # A search result is held to what the sentence is about, as suggestions are (another party's
    # target found by "carbon neutral" is still not the company's target).
    found = [
        entry
        for entry in found
        if (req := requirement(entry["paragraph_id"])) and fits_subject(item.claim.text, req)
    ]
    item.mapping += found
    stats.unconfirmed += bool(item.suggestions)
    stats.from_search += bool(found)


def _settled(mapping: Sequence[IfrsParagraph]) -> bool:
    return any(entry.get("confirmed") for entry in mapping)


def _checked(item: _Work, hits: Sequence[SearchHit]) -> list[IfrsParagraph]:
    """Every suggestion, marked confirmed when a search hit supports it (the same id, a parent or
    child, or the same section)."""
    mapping: list[IfrsParagraph] = []
    for req in item.suggestions:
        support = next((hit for hit in hits if _related(req, hit)), None)
        if support is None:
            mapping.append(
                _entry(req, f"Suggested by {item.source}; not confirmed by search.", confirmed=False)
            )
        else:
            relevance = f"Suggested by {item.source}; search found {support.key} ({support.title})."
            mapping.append(_entry(req, relevance))
    return mapping


def _from_search(item: _Work, hits: Sequence[SearchHit]) -> list[IfrsParagraph]:
    """With nothing confirmed, the best hit that both search branches found, or that shares a keyword."""
    words = item.claim.text.lower()
    for hit in hits:
        keywords = hit.attributes.get("keywords") or []
        if (hit.vector_rank and hit.text_rank) or any(keyword.lower() in words for keyword in keywords):
            req = requirement(hit.key)
            if req is not None:
                return [_entry(req, f"Found by knowledge-base search ({hit.title}).")]
    return []


def _related(req: Requirement, hit: SearchHit) -> bool:
    return (
        hit.key == req.paragraph_id
        or is_under(hit.key, req.paragraph_id)
        or is_under(req.paragraph_id, hit.key)
        or (hit.attributes.get("section") == req.section and hit.attributes.get("standard") == req.standard)
    )


def _entry(req: Requirement, relevance: str, *, confirmed: bool = True) -> IfrsParagraph:
    return IfrsParagraph(
        paragraph_id=req.paragraph_id, pillar=req.pillar, relevance=relevance, confirmed=confirmed
    )


def _groups(work: Sequence[_Work]) -> list[list[_Work]]:
    """Claims of the same type and first suggested section, in groups of at most GROUP_SIZE."""
    ordered = sorted(
        work,
        key=lambda item: (item.claim.claim_type, item.suggestions[0].section if item.suggestions else ""),
    )
    groups: list[list[_Work]] = []
    for item in ordered:
        last = groups[-1] if groups else None
        if last is not None and len(last) < GROUP_SIZE and _group_key(last[0]) == _group_key(item):
            last.append(item)
        else:
            groups.append([item])
    return groups


def _group_key(item: _Work) -> tuple[str, str]:
    return item.claim.claim_type, item.suggestions[0].section if item.suggestions else ""


def _group_query(group: Sequence[_Work]) -> str:
    """The group's most frequent content words: one query that stands for all its claims. Words as
    frequent as each other come in reading order (a set's order changes with the hash seed, and
    with it the query and the paragraphs it confirms)."""
    counts: Counter[str] = Counter()
    for item in group:
        words = dict.fromkeys(word.lower() for word in _WORD.findall(item.claim.text))
        counts.update(word for word in words if word not in _STOPWORDS)
    return " ".join(word for word, _ in counts.most_common(QUERY_TERMS))


def _best_per_section(requirements: Sequence[Requirement]) -> list[Requirement]:
    """A claim often touches several requirements (a Scope 1 target: emissions and targets); one each."""
    seen: set[tuple[str, str]] = set()
    chosen: list[Requirement] = []
    for req in requirements:
        if (req.standard, req.section) not in seen:
            seen.add((req.standard, req.section))
            chosen.append(req)
    return chosen


def _depth(paragraph_id: str) -> int:
    return paragraph_id.count("(")


def _most_specific(requirements: Sequence[Requirement]) -> list[Requirement]:
    """Drop a requirement when a more specific one under it is also chosen."""
    return [
        req
        for req in requirements
        if not any(
            other is not req and is_under(other.paragraph_id, req.paragraph_id) for other in requirements
        )
    ]


def _dedupe(requirements: Sequence[Requirement]) -> list[Requirement]:
    return list({req.paragraph_id: req for req in reversed(requirements)}.values())[::-1]


@lru_cache(maxsize=1)
def _keyword_index() -> dict[tuple[str, ...], tuple[str, ...]]:
    """Each registry keyword, as tokens, with the requirements that list it."""
    index: dict[tuple[str, ...], list[str]] = {}
    for req in REQUIREMENTS:
        for keyword in req.keywords:
            keyword_tokens = tokens(keyword)
            if keyword_tokens and req.paragraph_id not in index.setdefault(keyword_tokens, []):
                index[keyword_tokens].append(req.paragraph_id)
    return {tokens: tuple(ids) for tokens, ids in index.items()}
