"""The reduce phase: one claim per assertion, whichever chunk (or page) found it, with every page
that states it.

Repeats of one statement (`app.claims.repeats.statement_key`: case, whitespace, punctuation and
footnote markers aside, every figure kept) merge first. Then claims on nearby pages whose embeddings
are very similar become candidate pairs, and so do claims on pages further apart that are also
lexically duplicates (a summary restating a sentence of the body); each pair is confirmed: by the
dedup LLM when there is one, else (or when it fails) by a lexical rule — the same figures and mostly
the same words. Confirmation matters because "Scope 1 fell 6%" and "Scope 2 fell 6%" embed almost
identically. The LLM confirms at most `llm_budget` pairs per report (the most similar ones): a long,
repetitive report can have thousands of pairs, and each is a call; the rule decides the rest, and
the stats count them.

A merged claim keeps the earliest page as its page (the kept text and context are the ones stated
there) and lists the others in `also_on_pages`; two claims on one page keep the richer one (or the
LLM's choice). Given the report's statements (`StatementIndex`), the pages that state a claim word
for word but whose repeat no extractor returned (the rules keep a repeated sentence once) are added
too, and a claim first stated on an earlier page moves there.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pydantic import BaseModel

from app.claims.candidates import CandidateClaim
from app.claims.prompts import DEDUP_SYSTEM_PROMPT, DEDUP_USER_PROMPT
from app.claims.repeats import StatementIndex, statement_key
from app.degradation import failure_cause
from app.embeddings import Embedder, EmbeddingUnavailable, cosine
from app.language.textmatch import normalize_for_match
from app.llm import LLMClient, LLMRole, LLMUnavailable, UsageTrace

#: Two claims whose content words overlap at least this much (Jaccard) and state the same figures
#: are duplicates under the offline rule.
LEXICAL_OVERLAP = 0.6
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_WORD = re.compile(r"[a-z][a-z0-9]+")
_STOPWORDS = frozenset(
    "the a an and or of to in on for by with from at as is was were are be been our we its it this that "
    "than which who has have had".split()
)


class DuplicateAnswer(BaseModel):
    """The dedup model's verdict on one pair."""

    duplicate: bool
    keep: int = 1
    reason: str = ""


@dataclass
class DedupStats:
    """What de-duplication removed, and how pairs were confirmed."""

    exact: int = 0
    candidate_pairs: int = 0
    confirmed: int = 0
    confirmed_by_llm: int = 0
    confirmed_by_rule: int = 0
    similarity_skipped: str | None = None  # why the similarity stage could not run (embedder down)
    #: Why the dedup model failed, once per pair it could not confirm (the lexical rule decided).
    llm_failure_causes: list[str] = field(default_factory=list)
    #: Pairs the lexical rule decided because the report's LLM budget was used up.
    over_llm_budget: int = 0
    #: Candidate pairs further apart than the page window (lexical duplicates that embed alike).
    distant_pairs: int = 0
    #: Unique claims the report states on more than one page (their `also_on_pages` is not empty).
    repeated: int = 0
    #: Claims moved to an earlier page that states them word for word.
    moved_to_earlier_page: int = 0

    def to_dict(self) -> dict[str, object]:
        values = {key: value for key, value in self.__dict__.items() if key != "llm_failure_causes"}
        return {**values, "llm_failed": len(self.llm_failure_causes)}


@dataclass(frozen=True)
class UniqueClaim:
    """One statement of the report: the claim as first stated, and the other pages stating it."""

    claim: CandidateClaim
    #: The other pages (ascending, without `claim.source_page`) where the report states the claim.
    also_on_pages: tuple[int, ...] = ()

    def absorb(self, other: UniqueClaim) -> UniqueClaim:
        """This claim, also stated wherever `other` is."""
        pages = {other.claim.source_page, *other.also_on_pages, *self.also_on_pages}
        return replace(self, also_on_pages=tuple(sorted(pages - {self.claim.source_page})))


@dataclass(frozen=True)
class _Pair:
    first: int
    second: int
    similarity: float


async def deduplicate(
    claims: Sequence[CandidateClaim],
    *,
    embedder: Embedder,
    llm: LLMClient | None,
    threshold: float,
    page_window: int,
    trace: UsageTrace,
    llm_budget: int | None = None,
    report: StatementIndex | None = None,
) -> tuple[list[UniqueClaim], DedupStats]:
    """The unique claims in page order, each with its other pages, and what was merged.

    With an LLM, its `llm_budget` most similar pairs go to it (None: every pair); the others to the
    lexical rule. `report` (the report's statements) adds the pages no extractor returned a repeat on.
    """
    stats = DedupStats()
    unique = merge_repeats(claims, stats)
    try:
        vectors = await embedder.embed([item.claim.text for item in unique])
    except EmbeddingUnavailable as exc:
        stats.similarity_skipped = str(exc)
    else:
        unique = await _merge_similar(unique, vectors, llm, threshold, page_window, trace, llm_budget, stats)
    if report is not None:
        unique = [_with_report_pages(item, report, stats) for item in unique]
    unique.sort(key=lambda item: item.claim.source_page)
    stats.repeated = sum(bool(item.also_on_pages) for item in unique)
    return unique, stats


async def _merge_similar(
    unique: list[UniqueClaim],
    vectors: Sequence[Sequence[float]],
    llm: LLMClient | None,
    threshold: float,
    page_window: int,
    trace: UsageTrace,
    llm_budget: int | None,
    stats: DedupStats,
) -> list[UniqueClaim]:
    """`unique` less the claims a confirmed pair merged into another (the most similar pairs first)."""
    claims = [item.claim for item in unique]
    distant = distant_pairs(claims, vectors, threshold=threshold, page_window=page_window)
    pairs = candidate_pairs(claims, vectors, threshold=threshold, page_window=page_window) + distant
    pairs.sort(key=lambda pair: -pair.similarity)
    stats.candidate_pairs, stats.distant_pairs = len(pairs), len(distant)
    budget = len(pairs) if llm is None or llm_budget is None else min(llm_budget, len(pairs))
    if llm is not None:
        stats.over_llm_budget = len(pairs) - budget
    verdicts = await asyncio.gather(
        *(
            _confirm(claims, pair, llm if rank < budget else None, trace, stats)
            for rank, pair in enumerate(pairs)
        )
    )
    merged = list(unique)
    dropped: set[int] = set()
    for pair, keep_first in sorted(
        ((pair, verdict) for pair, verdict in zip(pairs, verdicts, strict=True) if verdict is not None),
        key=lambda item: -item[0].similarity,
    ):
        if pair.first in dropped or pair.second in dropped:
            continue
        kept, gone = (
            (pair.first, pair.second) if _keeps_first(claims, pair, keep_first) else (pair.second, pair.first)
        )
        merged[kept] = merged[kept].absorb(merged[gone])
        dropped.add(gone)
        stats.confirmed += 1
    return [item for index, item in enumerate(merged) if index not in dropped]


def _keeps_first(claims: Sequence[CandidateClaim], pair: _Pair, keep_first: bool) -> bool:
    """The earlier page's claim stays; on one page, the confirmation's choice."""
    first, second = claims[pair.first].source_page, claims[pair.second].source_page
    return keep_first if first == second else first < second


def merge_repeats(claims: Sequence[CandidateClaim], stats: DedupStats) -> list[UniqueClaim]:
    """One claim per statement, at the first one's position: the earliest page's (the richer context
    among those on that page), stating the others' pages too."""
    groups: dict[str, list[CandidateClaim]] = {}
    for claim in claims:
        groups.setdefault(statement_key(claim.text) or normalize_for_match(claim.text), []).append(claim)
    unique: list[UniqueClaim] = []
    for group in groups.values():
        stats.exact += len(group) - 1
        first = min(group, key=lambda claim: (claim.source_page, -len(claim.source_context)))
        pages = {claim.source_page for claim in group} - {first.source_page}
        unique.append(UniqueClaim(first, tuple(sorted(pages))))
    return unique


def _with_report_pages(item: UniqueClaim, report: StatementIndex, stats: DedupStats) -> UniqueClaim:
    """`item` with every page of the report that states its text word for word; stated on an earlier
    page, it moves there, with the statement as it reads there for context."""
    stated = report.pages_stating(item.claim.text)
    if not stated:
        return item
    claim = item.claim
    earliest = min(stated)
    if earliest < claim.source_page:
        stats.moved_to_earlier_page += 1
        claim = replace(claim, source_page=earliest, source_context=stated[earliest])
    pages = {item.claim.source_page, *item.also_on_pages, *stated} - {claim.source_page}
    return UniqueClaim(claim, tuple(sorted(pages)))


def candidate_pairs(
    claims: Sequence[CandidateClaim],
    vectors: Sequence[Sequence[float]],
    *,
    threshold: float,
    page_window: int,
) -> list[_Pair]:
    """Pairs of claims at most `page_window` pages apart whose embeddings reach `threshold`."""
    order = sorted(range(len(claims)), key=lambda index: claims[index].source_page)
    pairs: list[_Pair] = []
    for position, first in enumerate(order):
        for second in order[position + 1 :]:
            if claims[second].source_page - claims[first].source_page > page_window:
                break
            similarity = cosine(vectors[first], vectors[second])
            if similarity >= threshold:
                pairs.append(_Pair(min(first, second), max(first, second), similarity))
    return pairs


def distant_pairs(
    claims: Sequence[CandidateClaim],
    vectors: Sequence[Sequence[float]],
    *,
    threshold: float,
    page_window: int,
) -> list[_Pair]:
    """Pairs of claims more than `page_window` pages apart that are lexical duplicates and whose
    embeddings reach `threshold`: a statement restated far from where it was first made.

    Only claims stating the same figures can be lexical duplicates, so pairs are sought within those
    groups, and the embeddings compared only for the lexical duplicates.
    """
    by_figures: dict[tuple[str, ...], list[int]] = {}
    for index, claim in enumerate(claims):
        by_figures.setdefault(tuple(sorted(_NUMBER.findall(claim.text))), []).append(index)
    words = [_content_words(claim.text) for claim in claims]
    pairs: list[_Pair] = []
    for group in by_figures.values():
        for position, first in enumerate(group):
            for second in group[position + 1 :]:
                if abs(claims[second].source_page - claims[first].source_page) <= page_window:
                    continue
                if not _overlapping(words[first], words[second]):
                    continue
                similarity = cosine(vectors[first], vectors[second])
                if similarity >= threshold:
                    pairs.append(_Pair(first, second, similarity))
    return pairs


def lexically_duplicate(first: str, second: str) -> bool:
    """The offline rule: the same figures, and content words that mostly overlap."""
    if sorted(_NUMBER.findall(first)) != sorted(_NUMBER.findall(second)):
        return False
    return _overlapping(_content_words(first), _content_words(second))


def _content_words(text: str) -> frozenset[str]:
    return frozenset(word for word in _WORD.findall(text.lower()) if word not in _STOPWORDS)


def _overlapping(first: frozenset[str], second: frozenset[str]) -> bool:
    """Content words that overlap at least `LEXICAL_OVERLAP` (Jaccard)."""
    union = len(first | second)
    return bool(union) and len(first & second) / union >= LEXICAL_OVERLAP


async def _confirm(
    claims: Sequence[CandidateClaim], pair: _Pair, llm: LLMClient | None, trace: UsageTrace, stats: DedupStats
) -> bool | None:
    """None: not duplicates; True/False: duplicates, keep the first/second."""
    first, second = claims[pair.first], claims[pair.second]
    keep_first = len(first.source_context) >= len(second.source_context)
    if llm is not None:
        try:
            answer = await llm.complete_json(
                LLMRole.DEDUP,
                system=DEDUP_SYSTEM_PROMPT,
                user=DEDUP_USER_PROMPT.format(
                    page_1=first.source_page,
                    text_1=first.text,
                    context_1=first.source_context,
                    page_2=second.source_page,
                    text_2=second.text,
                    context_2=second.source_context,
                ),
                schema=DuplicateAnswer,
                trace=trace,
                max_tokens=256,
                temperature=0.0,
            )
        except LLMUnavailable as exc:
            stats.llm_failure_causes.append(failure_cause(exc))
        else:
            if answer.duplicate:
                stats.confirmed_by_llm += 1
                return answer.keep != 2
            return None
    if lexically_duplicate(first.text, second.text):
        stats.confirmed_by_rule += 1
        return keep_first
    return None
