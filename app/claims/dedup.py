"""The reduce phase: one claim per assertion, whichever chunk (or page) found it.

Exact duplicates (same normalised text) go first. Then claims on nearby pages whose embeddings are
very similar become candidate pairs, and each pair is confirmed: by the dedup LLM when there is one,
else (or when it fails) by a lexical rule — the same figures and mostly the same words. Confirmation
matters because "Scope 1 fell 6%" and "Scope 2 fell 6%" embed almost identically. The LLM confirms
at most `llm_budget` pairs per report (the most similar ones): a long, repetitive report can have
thousands of pairs, and each is a call; the rule decides the rest, and the stats count them.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel

from app.claims.candidates import CandidateClaim
from app.claims.prompts import DEDUP_SYSTEM_PROMPT, DEDUP_USER_PROMPT
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

    def to_dict(self) -> dict[str, object]:
        values = {key: value for key, value in self.__dict__.items() if key != "llm_failure_causes"}
        return {**values, "llm_failed": len(self.llm_failure_causes)}


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
) -> tuple[list[CandidateClaim], DedupStats]:
    """The unique claims, in their original order, and what was removed.

    With an LLM, its `llm_budget` most similar pairs go to it (None: every pair); the others to the
    lexical rule.
    """
    stats = DedupStats()
    unique = remove_exact_duplicates(claims, stats)
    try:
        vectors = await embedder.embed([claim.text for claim in unique])
    except EmbeddingUnavailable as exc:
        stats.similarity_skipped = str(exc)
        return unique, stats
    pairs = candidate_pairs(unique, vectors, threshold=threshold, page_window=page_window)
    pairs.sort(key=lambda pair: -pair.similarity)
    stats.candidate_pairs = len(pairs)
    budget = len(pairs) if llm is None or llm_budget is None else min(llm_budget, len(pairs))
    if llm is not None:
        stats.over_llm_budget = len(pairs) - budget
    verdicts = await asyncio.gather(
        *(
            _confirm(unique, pair, llm if rank < budget else None, trace, stats)
            for rank, pair in enumerate(pairs)
        )
    )
    dropped: set[int] = set()
    for pair, keep_first in sorted(
        ((pair, verdict) for pair, verdict in zip(pairs, verdicts, strict=True) if verdict is not None),
        key=lambda item: -item[0].similarity,
    ):
        if pair.first in dropped or pair.second in dropped:
            continue
        dropped.add(pair.second if keep_first else pair.first)
        stats.confirmed += 1
    return [claim for index, claim in enumerate(unique) if index not in dropped], stats


def remove_exact_duplicates(claims: Sequence[CandidateClaim], stats: DedupStats) -> list[CandidateClaim]:
    """One claim per normalised text, at the first one's position, keeping the richer context."""
    kept: dict[str, CandidateClaim] = {}
    for claim in claims:
        key = normalize_for_match(claim.text)
        previous = kept.get(key)
        if previous is None:
            kept[key] = claim
            continue
        stats.exact += 1
        if len(claim.source_context) > len(previous.source_context):
            kept[key] = claim
    return list(kept.values())


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


def lexically_duplicate(first: str, second: str) -> bool:
    """The offline rule: the same figures, and content words that mostly overlap."""
    if sorted(_NUMBER.findall(first)) != sorted(_NUMBER.findall(second)):
        return False
    words = [
        {word for word in _WORD.findall(text.lower()) if word not in _STOPWORDS} for text in (first, second)
    ]
    union = words[0] | words[1]
    return bool(union) and len(words[0] & words[1]) / len(union) >= LEXICAL_OVERLAP


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
