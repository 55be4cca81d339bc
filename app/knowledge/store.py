"""Keeps the knowledge base's passages in Postgres in step with the registry and the embedder.

The registry (our own summaries) is always indexed, so search works without any official text.
When a user ingests the official S1/S2 PDFs, their paragraph text is attached to the same rows and
re-embedded. Each row remembers a hash of what was embedded and the embedder's name, so a sync
re-embeds only rows whose content or embedder changed.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import KnowledgePassage
from app.db.session import SessionFactory
from app.embeddings import Embedder, EmbeddingUnavailable
from app.knowledge.registry import REQUIREMENTS, Requirement

logger = logging.getLogger(__name__)

#: Official text beyond this many characters adds little to a paragraph's embedding.
EMBEDDED_OFFICIAL_CHARS = 2000
#: Passages looked up and inserted per statement (asyncpg allows at most 32767 parameters).
STAGE_BATCH = 500


@dataclass(frozen=True)
class PassageDraft:
    """A passage as the registry defines it, before it is stored."""

    source_type: str
    key: str
    title: str
    summary: str
    attributes: dict[str, Any] = field(default_factory=dict)


@dataclass
class SyncReport:
    """What a sync or re-index changed."""

    inserted: int = 0
    updated: int = 0
    embedded: int = 0
    unchanged: int = 0

    def __str__(self) -> str:
        return (
            f"{self.inserted} inserted, {self.updated} updated, {self.embedded} embedded, "
            f"{self.unchanged} unchanged"
        )


def requirement_draft(requirement: Requirement) -> PassageDraft:
    """The passage that indexes one registry requirement."""
    return PassageDraft(
        source_type=requirement.source_type,
        key=requirement.paragraph_id,
        title=requirement.title,
        summary=requirement.summary,
        attributes={
            "paragraph_id": requirement.paragraph_id,
            "standard": requirement.standard,
            "pillar": requirement.pillar,
            "section": requirement.section,
            "keywords": list(requirement.keywords),
        },
    )


def embedding_text(title: str, summary: str, attributes: Mapping[str, Any], official: str | None) -> str:
    """What a passage's vector represents: our words first, then (some of) the official text.

    Section and keywords are left out where a passage has none (evidence passages), rather than
    embedding empty labels.
    """
    parts = [f"{title}.", summary]
    if attributes.get("section"):
        parts.append(f"Section: {attributes['section']}.")
    if attributes.get("keywords"):
        parts.append(f"Keywords: {', '.join(attributes['keywords'])}.")
    if official:
        parts.append(official[:EMBEDDED_OFFICIAL_CHARS])
    return " ".join(part for part in parts if part.strip())


def content_hash(title: str, summary: str, attributes: Mapping[str, Any], official: str | None) -> str:
    payload = json.dumps([title, summary, dict(attributes), official or ""], sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


async def sync_registry(session_factory: SessionFactory, embedder: Embedder) -> SyncReport:
    """Upsert every registry requirement and embed the rows that need it (idempotent, cheap if current)."""
    return await upsert_passages(session_factory, embedder, [requirement_draft(r) for r in REQUIREMENTS])


async def index_knowledge_base(session_factory: SessionFactory, embedder: Embedder) -> SyncReport | None:
    """Bring the registry's passages up to date at worker start; an embedder outage only delays it.

    Without vectors of the current embedder, searches still work on full text, and the next start
    (or `sibyl corpus reindex`) embeds what is missing.
    """
    try:
        report = await sync_registry(session_factory, embedder)
    except EmbeddingUnavailable as exc:
        logger.warning("knowledge base not (re-)embedded, searches use full text until it is: %s", exc)
        return None
    if report.inserted or report.updated or report.embedded:
        logger.info("knowledge base: %s", report)
    return report


async def upsert_passages(
    session_factory: SessionFactory, embedder: Embedder, drafts: Sequence[PassageDraft]
) -> SyncReport:
    """Insert new passages, update changed ones (keeping official text), then embed what is stale."""
    async with session_factory() as session, session.begin():
        report = await stage_passages(session, drafts)
    report.embedded = await embed_stale(session_factory, embedder)
    return report


async def stage_passages(session: AsyncSession, drafts: Sequence[PassageDraft]) -> SyncReport:
    """The write half of `upsert_passages`, inside the caller's transaction (vectors left stale).

    Callers that store passages together with rows of their own (evidence documents) use this so
    both commit or neither does, then call `embed_stale` after the commit.
    """
    report = SyncReport()
    for start in range(0, len(drafts), STAGE_BATCH):
        batch = drafts[start : start + STAGE_BATCH]
        existing = {
            (row.source_type, row.key): row
            for row in await session.scalars(
                select(KnowledgePassage).where(
                    KnowledgePassage.source_type.in_({draft.source_type for draft in batch}),
                    KnowledgePassage.key.in_({draft.key for draft in batch}),
                )
            )
        }
        new_rows: list[dict[str, Any]] = []
        for draft in batch:
            row = existing.get((draft.source_type, draft.key))
            official = row.official_text if row is not None else None
            digest = content_hash(draft.title, draft.summary, draft.attributes, official)
            if row is None:
                new_rows.append(
                    {
                        "source_type": draft.source_type,
                        "key": draft.key,
                        "title": draft.title,
                        "summary": draft.summary,
                        "attributes": draft.attributes,
                        "content_hash": digest,
                    }
                )
            elif row.content_hash != digest:
                report.updated += 1
                row.title, row.summary, row.attributes = draft.title, draft.summary, draft.attributes
                row.content_hash, row.embedding_model = digest, None
            else:
                report.unchanged += 1
        if new_rows:
            report.inserted += len(new_rows)
            await session.execute(
                insert(KnowledgePassage)
                .values(new_rows)
                .on_conflict_do_nothing(index_elements=["source_type", "key"])
            )
    return report


async def attach_official_text(
    session_factory: SessionFactory, embedder: Embedder, source_type: str, texts: Mapping[str, str]
) -> SyncReport:
    """Store the official paragraph text for registry ids of one standard, then re-embed those rows."""
    report = SyncReport()
    async with session_factory() as session, session.begin():
        rows = await session.scalars(
            select(KnowledgePassage).where(
                KnowledgePassage.source_type == source_type, KnowledgePassage.key.in_(list(texts))
            )
        )
        for row in rows:
            official = texts[row.key]
            digest = content_hash(row.title, row.summary, row.attributes, official)
            if digest == row.content_hash:
                report.unchanged += 1
                continue
            report.updated += 1
            row.official_text, row.content_hash, row.embedding_model = official, digest, None
    report.embedded = await embed_stale(session_factory, embedder)
    return report


async def embed_stale(
    session_factory: SessionFactory, embedder: Embedder, *, everything: bool = False, batch: int = 64
) -> int:
    """Embed rows whose vector is missing or came from another embedder; `everything` redoes all."""
    condition = (
        KnowledgePassage.id.is_not(None)
        if everything
        else func.coalesce(KnowledgePassage.embedding_model, "") != embedder.name
    )
    async with session_factory() as session:
        rows = (
            await session.execute(
                select(
                    KnowledgePassage.id,
                    KnowledgePassage.title,
                    KnowledgePassage.summary,
                    KnowledgePassage.attributes,
                    KnowledgePassage.official_text,
                ).where(condition)
            )
        ).all()
    for start in range(0, len(rows), batch):
        chunk = rows[start : start + batch]
        vectors = await embedder.embed(
            [embedding_text(r.title, r.summary, r.attributes, r.official_text) for r in chunk]
        )
        async with session_factory() as session, session.begin():
            for row, vector in zip(chunk, vectors, strict=True):
                await session.execute(
                    update(KnowledgePassage)
                    .where(KnowledgePassage.id == row.id)
                    .values(embedding=vector, embedding_model=embedder.name)
                )
    if rows:
        logger.info("embedded %d knowledge passage(s) with %s", len(rows), embedder.name)
    return len(rows)


@dataclass(frozen=True)
class CorpusStatus:
    """One source type's rows, how many carry official text, and which embedders made their vectors."""

    source_type: str
    passages: int
    with_official_text: int
    embedding_models: dict[str, int]


async def corpus_status(session_factory: SessionFactory) -> list[CorpusStatus]:
    """A summary per source type, for `sibyl corpus status` and for tests."""
    async with session_factory() as session:
        rows = (
            await session.execute(
                select(
                    KnowledgePassage.source_type,
                    KnowledgePassage.embedding_model,
                    func.count(),
                    func.count(KnowledgePassage.official_text),
                ).group_by(KnowledgePassage.source_type, KnowledgePassage.embedding_model)
            )
        ).all()
    summary: dict[str, CorpusStatus] = {}
    for source_type, model, count, with_text in rows:
        current = summary.get(source_type) or CorpusStatus(source_type, 0, 0, {})
        models = dict(current.embedding_models)
        models[model or "none"] = models.get(model or "none", 0) + count
        summary[source_type] = CorpusStatus(
            source_type, current.passages + count, current.with_official_text + with_text, models
        )
    return [summary[key] for key in sorted(summary)]
