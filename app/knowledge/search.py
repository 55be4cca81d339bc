"""Hybrid search over the knowledge base: pgvector similarity and Postgres full-text, fused by rank.

Reciprocal rank fusion (score = Σ 1 / (k + rank)) needs no score calibration between the two
branches, so a passage that both branches rank well wins, and either branch alone still finds
what the other misses (exact terms such as "Scope 3" vs paraphrases).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy import Select, case, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import KnowledgePassage
from app.db.models.knowledge import TEXT_SEARCH_CONFIG
from app.db.session import SessionFactory
from app.embeddings import Embedder, EmbeddingUnavailable

logger = logging.getLogger(__name__)

SearchMode = Literal["hybrid", "vector", "text"]

#: The usual RRF constant: damps the weight of the very first ranks.
RRF_K = 60
#: Each branch returns this many candidates per requested hit before fusion.
CANDIDATES_PER_HIT = 4
MIN_CANDIDATES = 20

# Any word of the query may match (OR), ranked by cover density; plain/websearch queries would AND
# every word, and a claim sentence never contains all of a requirement's words. The query's lexemes
# are already stemmed by the English configuration, so the 'simple' one only assembles them.
_TEXT_RANKS = text(
    """
    WITH q AS (
        SELECT to_tsquery('simple', coalesce(nullif(array_to_string(ARRAY(
            SELECT quote_literal(lexeme)
            FROM unnest(tsvector_to_array(to_tsvector(CAST(:config AS regconfig), :query))) AS lexeme
        ), ' | '), ''), '')) AS query
    )
    SELECT p.id FROM knowledge_passages AS p, q
    WHERE p.search_vector @@ q.query
      AND (CAST(:source_types AS text[]) IS NULL OR p.source_type = ANY(CAST(:source_types AS text[])))
      AND (CAST(:attributes AS jsonb) IS NULL OR p.attributes @> CAST(:attributes AS jsonb))
    ORDER BY ts_rank_cd(p.search_vector, q.query) DESC, p.attributes ->> 'source_url',
      CASE WHEN p.attributes ? 'document_id' THEN p.title || chr(31) || p.summary END, p.key
    LIMIT :limit
    """
)

#: Equally ranked passages in an order of their content, so that which of them a search returns, and
#: so which documents an agent reads, never depends on ids: an evidence passage's key holds its
#: document's random id, and a vector tie had no order at all. Evidence passages go by address, then
#: title and text (the same evidence ingested again gets new ids, and must be read the same way);
#: the others (IFRS) by their key, a paragraph id, as before. Same order in `_TEXT_RANKS`.
_TIES = (
    KnowledgePassage.attributes["source_url"].astext,
    case(
        (
            KnowledgePassage.attributes.has_key("document_id"),
            KnowledgePassage.title + chr(31) + KnowledgePassage.summary,
        )
    ),
    KnowledgePassage.key,
)


@dataclass(frozen=True)
class SearchHit:
    """One passage found, with its fused score and the rank each branch gave it (None: not found)."""

    source_type: str
    key: str
    title: str
    summary: str
    official_text: str | None
    attributes: dict[str, Any]
    score: float
    vector_rank: int | None
    text_rank: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form for tools and LLM prompts."""
        return {
            "source_type": self.source_type,
            "paragraph_id": self.key,
            "title": self.title,
            "summary": self.summary,
            "text": self.official_text,
            "pillar": self.attributes.get("pillar"),
            "section": self.attributes.get("section"),
            "score": round(self.score, 6),
        }


@dataclass
class KnowledgeSearch:
    """Searches the knowledge base; counts its queries so callers can keep to a budget."""

    session_factory: SessionFactory
    embedder: Embedder
    queries: int = field(default=0, init=False)
    embedding_failures: int = field(default=0, init=False)

    async def search(
        self,
        query: str,
        *,
        top_k: int = 5,
        source_types: Sequence[str] | None = None,
        attributes: Mapping[str, str] | None = None,
        mode: SearchMode = "hybrid",
    ) -> list[SearchHit]:
        """The `top_k` passages most relevant to `query`, best first.

        `attributes` keeps only passages whose attributes include these values (evidence passages
        carry their organisation's id, so one organisation never searches another's library).

        When the embedder fails (an embeddings API down), the search goes on with full text alone.
        """
        if not query.strip():
            return []
        vector = await self._embed(query) if mode != "text" else None
        self.queries += 1
        limit = max(MIN_CANDIDATES, top_k * CANDIDATES_PER_HIT)
        scope = _Scope(source_types, attributes)
        async with self.session_factory() as session:
            by_vector = await self._vector_ranks(session, vector, limit, scope) if vector is not None else []
            by_text = await self._text_ranks(session, query, limit, scope) if mode != "vector" else []
            return await self._fuse(session, by_vector, by_text, top_k)

    async def _embed(self, query: str) -> list[float] | None:
        try:
            return (await self.embedder.embed([query]))[0]
        except EmbeddingUnavailable as exc:
            self.embedding_failures += 1
            logger.warning("knowledge search falls back to full text: %s", exc)
            return None

    async def _vector_ranks(
        self, session: AsyncSession, vector: Sequence[float], limit: int, scope: _Scope
    ) -> list[Any]:
        statement = scope.applied_to(
            select(KnowledgePassage.id)
            .where(KnowledgePassage.embedding_model == self.embedder.name)
            .order_by(KnowledgePassage.embedding.cosine_distance(list(vector)), *_TIES)
            .limit(limit)
        )
        return list(await session.scalars(statement))

    async def _text_ranks(self, session: AsyncSession, query: str, limit: int, scope: _Scope) -> list[Any]:
        result = await session.execute(
            _TEXT_RANKS,
            {
                "config": TEXT_SEARCH_CONFIG,
                "query": query,
                "source_types": list(scope.source_types) if scope.source_types else None,
                "attributes": json.dumps(dict(scope.attributes)) if scope.attributes else None,
                "limit": limit,
            },
        )
        return list(result.scalars())

    async def _fuse(
        self, session: AsyncSession, by_vector: list[Any], by_text: list[Any], top_k: int
    ) -> list[SearchHit]:
        scores = reciprocal_rank_scores(by_vector, by_text)
        best = sorted(scores, key=lambda passage_id: -scores[passage_id])[:top_k]
        if not best:
            return []
        rows = {
            row.id: row
            for row in await session.scalars(select(KnowledgePassage).where(KnowledgePassage.id.in_(best)))
        }
        vector_rank = {passage_id: rank for rank, passage_id in enumerate(by_vector, start=1)}
        text_rank = {passage_id: rank for rank, passage_id in enumerate(by_text, start=1)}
        return [
            SearchHit(
                source_type=rows[passage_id].source_type,
                key=rows[passage_id].key,
                title=rows[passage_id].title,
                summary=rows[passage_id].summary,
                official_text=rows[passage_id].official_text,
                attributes=dict(rows[passage_id].attributes or {}),
                score=scores[passage_id],
                vector_rank=vector_rank.get(passage_id),
                text_rank=text_rank.get(passage_id),
            )
            for passage_id in best
        ]


def reciprocal_rank_scores(*rankings: Sequence[Hashable]) -> dict[Any, float]:
    """Each item's fused score, Σ 1 / (RRF_K + rank) over the rankings (best first) it appears in."""
    scores: dict[Any, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (RRF_K + rank)
    return scores


@dataclass(frozen=True)
class _Scope:
    """Which passages a search may return: of these source types, with these attribute values."""

    source_types: Sequence[str] | None
    attributes: Mapping[str, str] | None

    def applied_to(self, statement: Select[Any]) -> Select[Any]:
        if self.source_types:
            statement = statement.where(KnowledgePassage.source_type.in_(list(self.source_types)))
        if self.attributes:
            statement = statement.where(KnowledgePassage.attributes.contains(dict(self.attributes)))
        return statement


async def rag_lookup(
    search: KnowledgeSearch, query: str, top_k: int = 3, source_types: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """The agents' retrieval tool: the passages relevant to `query`, as plain JSON-ready dicts."""
    return [hit.to_dict() for hit in await search.search(query, top_k=top_k, source_types=source_types)]
