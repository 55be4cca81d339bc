"""Searching the evidence library: the best passage of each relevant document.

Agents cite documents, so one document must not fill every slot with its neighbouring passages;
and a vector search always returns *something*, so a passage counts only if its full text matches
a word of the query: an unrelated document is never offered as evidence for being the nearest.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from app.db.models import EvidenceDocument
from app.db.models.evidence import EVIDENCE_SOURCE_TYPE
from app.db.session import SessionFactory
from app.evidence.fields import source_domain
from app.knowledge.search import KnowledgeSearch, SearchHit
from app.organisations.keys import LOCAL_ORGANISATION_ID

#: Passages asked of the knowledge base per hit wanted, so per-document de-duplication still fills it.
CANDIDATES_PER_HIT = 8
MIN_CANDIDATES = 20


@dataclass(frozen=True)
class EvidenceHit:
    """One document's best passage for a query."""

    document_id: str
    chunk_index: int
    title: str
    source_url: str | None
    source_domain: str | None
    published_date: datetime.date | None
    text: str  # the passage text
    score: float  # fused RRF score from KnowledgeSearch


async def search_evidence(
    knowledge: KnowledgeSearch,
    query: str,
    limit: int,
    organisation_id: uuid.UUID = LOCAL_ORGANISATION_ID,
) -> list[EvidenceHit]:
    """Best passages for `query` among the organisation's evidence documents, one hit per document.

    Each document is represented by its best passage, and only passages whose full text matches at
    least one query word (`text_rank is not None`) count, so an unrelated document is never
    returned just for being the nearest vector. Best first; at most `limit` hits.
    """
    if limit <= 0 or not query.strip():
        return []
    hits = await knowledge.search(
        query,
        top_k=max(MIN_CANDIDATES, limit * CANDIDATES_PER_HIT),
        source_types=[EVIDENCE_SOURCE_TYPE],
        attributes={"organisation_id": str(organisation_id)},
    )
    best: dict[str, EvidenceHit] = {}
    for hit in hits:
        document_id = str(hit.attributes.get("document_id") or "")
        if hit.text_rank is None or not document_id or document_id in best:
            continue
        best[document_id] = _evidence_hit(document_id, hit)
        if len(best) == limit:
            break
    return list(best.values())


async def load_document_texts(session_factory: SessionFactory, document_ids: Sequence[str]) -> dict[str, str]:
    """Full text of each document (for quote verification)."""
    wanted: dict[uuid.UUID, str] = {}
    for document_id in document_ids:
        try:
            wanted[uuid.UUID(str(document_id))] = document_id
        except ValueError:
            continue
    if not wanted:
        return {}
    async with session_factory() as session:
        rows = await session.execute(
            select(EvidenceDocument.id, EvidenceDocument.text).where(EvidenceDocument.id.in_(list(wanted)))
        )
        return {wanted[row.id]: row.text for row in rows}


def _evidence_hit(document_id: str, hit: SearchHit) -> EvidenceHit:
    attributes: dict[str, Any] = hit.attributes
    url = attributes.get("source_url")
    return EvidenceHit(
        document_id=document_id,
        chunk_index=int(attributes.get("chunk_index") or 0),
        title=hit.title,
        source_url=url,
        source_domain=attributes.get("source_domain") or source_domain(url),
        published_date=_date(attributes.get("published_date")),
        text=hit.summary,
        score=hit.score,
    )


def _date(value: Any) -> datetime.date | None:
    if not value:
        return None
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        return None


async def library_is_empty(session_factory: SessionFactory, organisation_id: uuid.UUID) -> bool:
    """Whether the organisation has no evidence document at all (then every search finds nothing)."""
    async with session_factory() as session:
        found = await session.scalar(
            select(EvidenceDocument.id).where(EvidenceDocument.organisation_id == organisation_id).limit(1)
        )
    return found is None
