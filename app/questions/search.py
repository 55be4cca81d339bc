"""Hybrid search over one report's question index: pgvector cosine and Postgres full text, fused by
reciprocal rank (as the knowledge base does), then weighted by passage kind for the question type.

A passage counts as `relevant` when it contains most of the question's words or its cosine similarity
is high: both branches return *something* (one shared word is enough for the OR full-text query), and
an answer must not quote what merely ranked.
"""

from __future__ import annotations

import logging
import math
import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ReportPassage
from app.db.models.knowledge import TEXT_SEARCH_CONFIG
from app.embeddings import Embedder, EmbeddingUnavailable
from app.knowledge.search import reciprocal_rank_scores
from app.questions.types import Passage, PassageKind

logger = logging.getLogger(__name__)

#: Candidates each branch returns before fusion.
CANDIDATES = 40
#: Cosine similarity from which a hit counts as relevant without sharing enough words.
MIN_SIMILARITY = 0.4
#: Share of the query's words (those the report uses) a passage must contain to count as relevant.
MIN_COVERAGE = 0.6

#: Words every question about a report uses; searching for them would match every claim and verdict.
NOISE_WORDS = frozenset(
    """claim claims claimed report reports reported evidence verdict verdicts finding findings say says said
    state states stated mention mentions mentioned tell show list please about company document does
    page pages what which how many much where when why who whose""".split()
)
_WORD = re.compile(r"[\w][\w.\-]*", re.UNICODE)

# Any word of the query may match (OR), as in the knowledge base search; passages that contain more of
# the query's words rank first, then by cover density. `matched` / `total` count the query's lexemes
# that occur in the report at all: a word the report never uses ("company's") cannot tell passages apart.
_TEXT_RANKS = text(
    """
    WITH q AS (
        SELECT ARRAY(
            SELECT lexeme
            FROM unnest(tsvector_to_array(to_tsvector(CAST(:config AS regconfig), :query))) AS lexeme
        ) AS lexemes
    ), present AS (
        SELECT ARRAY(
            SELECT lexeme FROM unnest(q.lexemes) AS lexeme
            WHERE EXISTS (
                SELECT 1 FROM report_passages AS r
                WHERE r.report_id = :report_id
                  AND r.search_vector @@ to_tsquery('simple', quote_literal(lexeme))
            )
        ) AS lexemes
        FROM q
    ), tq AS (
        SELECT lexemes, to_tsquery('simple', coalesce(nullif(array_to_string(ARRAY(
            SELECT quote_literal(lexeme) FROM unnest(lexemes) AS lexeme
        ), ' | '), ''), '')) AS query
        FROM present
    )
    SELECT p.id,
           (SELECT count(*) FROM unnest(tq.lexemes) AS lexeme
            WHERE p.search_vector @@ to_tsquery('simple', quote_literal(lexeme))) AS matched,
           cardinality(tq.lexemes) AS total
    FROM report_passages AS p, tq
    WHERE p.report_id = :report_id AND p.search_vector @@ tq.query
      AND (CAST(:kinds AS text[]) IS NULL OR p.kind = ANY(CAST(:kinds AS text[])))
    ORDER BY matched DESC, ts_rank_cd(p.search_vector, tq.query) DESC, p.position
    LIMIT :limit
    """
)


@dataclass(frozen=True)
class SearchQuery:
    """What to search for: the words (noise removed), the question's vector if any, and filters."""

    words: str
    vector: Sequence[float] | None
    embedder_name: str
    kinds: Sequence[PassageKind] | None = None


@dataclass
class QueryVectors:
    """Embeds each distinct search once, and remembers whether the embedder failed (for a caveat).

    `embedder` is None when the index has no vectors of it: then every search is full text only.
    """

    embedder: Embedder | None
    failed: bool = False
    _cache: dict[str, list[float] | None] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.embedder.name if self.embedder is not None else ""

    async def of(self, words: str) -> list[float] | None:
        """The vector of `words`; None when there is no embedder, it fails, or the text has no features."""
        if self.embedder is None or self.failed or not words.strip():
            return None
        if words not in self._cache:
            try:
                vector = (await self.embedder.embed([words]))[0]
            except EmbeddingUnavailable as exc:
                logger.warning("question not embedded, searching full text only: %s", exc)
                self.failed = True
                return None
            self._cache[words] = vector if any(vector) else None
        return self._cache[words]


def search_words(question: str, extra_noise: Iterable[str] = ()) -> str:
    """`question` without the words every question about a report shares; the whole question when
    nothing else is left."""
    noise = NOISE_WORDS | {word.lower() for word in extra_noise}
    kept = [word for word in _WORD.findall(question) if word.lower() not in noise]
    return " ".join(kept)


async def hybrid_search(
    session: AsyncSession,
    report_id: uuid.UUID,
    query: SearchQuery,
    weights: Mapping[str, float] | None = None,
    limit: int = 12,
) -> list[Passage]:
    """The report's passages best matching `query`, best first, scores weighted by kind."""
    if not query.words.strip() and query.vector is None:
        return []
    by_text = await _text_ranks(session, report_id, query) if query.words.strip() else []
    by_vector = await _vector_ranks(session, report_id, query) if query.vector is not None else []
    scores = reciprocal_rank_scores(
        [passage_id for passage_id, _ in by_text], [passage_id for passage_id, _ in by_vector]
    )
    if not scores:
        return []
    similarity = dict(by_vector)
    matched = {passage_id for passage_id, covered in by_text if covered}
    passages = await fetch_passages(session, report_id, ids=list(scores))
    ranked = [
        replace(
            passage,
            score=scores[passage.id] * (weights or {}).get(passage.kind, 1.0),
            relevant=passage.id in matched or similarity.get(passage.id, 0.0) >= MIN_SIMILARITY,
        )
        for passage in passages
    ]
    ranked.sort(key=lambda passage: (-passage.score, passage.page_number or 0))
    return ranked[:limit]


async def fetch_passages(
    session: AsyncSession,
    report_id: uuid.UUID,
    *,
    ids: Sequence[uuid.UUID] | None = None,
    kinds: Sequence[PassageKind] | None = None,
    claim_ids: Sequence[uuid.UUID] | None = None,
    pages: Sequence[int] | None = None,
) -> list[Passage]:
    """The report's passages matching every filter given, in index order (pages, claims, ...)."""
    statement = select(ReportPassage).where(ReportPassage.report_id == report_id)
    if ids is not None:
        statement = statement.where(ReportPassage.id.in_(list(ids)))
    if kinds is not None:
        statement = statement.where(ReportPassage.kind.in_(list(kinds)))
    if claim_ids is not None:
        statement = statement.where(ReportPassage.claim_id.in_(list(claim_ids)))
    if pages is not None:
        statement = statement.where(ReportPassage.page_number.in_(list(pages)))
    rows = await session.scalars(statement.order_by(ReportPassage.position))
    return [to_passage(row) for row in rows]


def to_passage(row: ReportPassage) -> Passage:
    """The stored row as the pipeline's value type."""
    return Passage(
        id=row.id,
        kind=cast(PassageKind, row.kind),
        text=row.text,
        page_number=row.page_number,
        claim_id=row.claim_id,
        attributes=dict(row.attributes or {}),
    )


async def _text_ranks(
    session: AsyncSession, report_id: uuid.UUID, query: SearchQuery
) -> list[tuple[uuid.UUID, bool]]:
    """Passage ids best first, each with whether it contains enough of the query's words."""
    params: dict[str, Any] = {
        "config": TEXT_SEARCH_CONFIG,
        "query": query.words,
        "report_id": report_id,
        "kinds": list(query.kinds) if query.kinds else None,
        "limit": CANDIDATES,
    }
    rows = (await session.execute(_TEXT_RANKS, params)).all()
    return [(passage_id, matched >= math.ceil(total * MIN_COVERAGE)) for passage_id, matched, total in rows]


async def _vector_ranks(
    session: AsyncSession, report_id: uuid.UUID, query: SearchQuery
) -> list[tuple[uuid.UUID, float]]:
    assert query.vector is not None
    return await vector_ranks(session, report_id, query.vector, query.embedder_name, query.kinds, CANDIDATES)


async def vector_ranks(
    session: AsyncSession,
    report_id: uuid.UUID,
    vector: Sequence[float],
    embedder_name: str,
    kinds: Sequence[PassageKind] | None,
    limit: int,
) -> list[tuple[uuid.UUID, float]]:
    """Passage ids nearest `vector` (among those embedded by `embedder_name`), each with its cosine
    similarity, best first."""
    distance = ReportPassage.embedding.cosine_distance(list(vector))
    statement = (
        select(ReportPassage.id, distance)
        .where(ReportPassage.report_id == report_id, ReportPassage.embedding_model == embedder_name)
        .order_by(distance)
        .limit(limit)
    )
    if kinds:
        statement = statement.where(ReportPassage.kind.in_(list(kinds)))
    rows = (await session.execute(statement)).all()
    return [(passage_id, 1.0 - float(dist)) for passage_id, dist in rows if dist is not None]
