"""The knowledge base: passages the agents search (IFRS requirements and users' evidence documents).

Each passage is indexed twice: a generated `tsvector` for Postgres full-text search and a pgvector
embedding. The vector column has no fixed dimension because the embedder is a setting (a hashing
embedder offline, an API or local model otherwise); `embedding_model` records which one produced
each vector, and searches compare only vectors of the current model. The corpus is a few hundred
rows, so an exact scan is fast and no HNSW index (which needs a fixed dimension) is declared.
"""

from __future__ import annotations

import uuid
from typing import Any

from pgvector.sqlalchemy import Vector
from sqlalchemy import Computed, Index, String, Text, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB, TSVECTOR
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, Timestamped

#: The text search configuration of every passage and query.
TEXT_SEARCH_CONFIG = "english"


class KnowledgePassage(Timestamped, Base):
    """One searchable passage, keyed by `(source_type, key)` (e.g. `("ifrs_s2", "S2.29(a)(i)")`)."""

    __tablename__ = "knowledge_passages"
    __table_args__ = (
        UniqueConstraint("source_type", "key"),
        Index("ix_knowledge_passages_search_vector", "search_vector", postgresql_using="gin"),
    )

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    source_type: Mapped[str] = mapped_column(String(32), index=True)
    key: Mapped[str] = mapped_column(String(128))
    title: Mapped[str] = mapped_column(Text)
    summary: Mapped[str] = mapped_column(Text)
    official_text: Mapped[str | None] = mapped_column(Text)
    attributes: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default="{}")
    content_hash: Mapped[str] = mapped_column(String(64))
    embedding: Mapped[list[float] | None] = mapped_column(Vector())
    embedding_model: Mapped[str | None] = mapped_column(String(128))
    search_vector: Mapped[str] = mapped_column(
        TSVECTOR,
        Computed(
            f"to_tsvector('{TEXT_SEARCH_CONFIG}', title || ' ' || summary || ' ' || "
            "coalesce(attributes->>'keywords', '') || ' ' || coalesce(official_text, ''))",
            persisted=True,
        ),
    )
