"""Evidence documents users add (news articles, NGO reports, regulator notices...).

A document keeps its full extracted text (quotes the agents cite are verified against it); its
searchable passages live in `knowledge_passages` with `source_type="evidence"` and keys
`"<document id>/<chunk index>"`, so the knowledge base's hybrid search covers them unchanged.
"""

from __future__ import annotations

import uuid
from datetime import date

from sqlalchemy import Date, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, Timestamped

#: `KnowledgePassage.source_type` of evidence passages.
EVIDENCE_SOURCE_TYPE = "evidence"


class EvidenceDocument(Timestamped, Base):
    """One evidence document of an organisation, unique there by the SHA-256 of its extracted text."""

    __tablename__ = "evidence_documents"
    __table_args__ = (UniqueConstraint("organisation_id", "sha256"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    organisation_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("organisations.id", ondelete="CASCADE"), index=True
    )
    title: Mapped[str] = mapped_column(Text)
    source_url: Mapped[str | None] = mapped_column(Text)
    source_domain: Mapped[str | None] = mapped_column(String(255), index=True)
    published_date: Mapped[date | None] = mapped_column(Date)
    media_type: Mapped[str] = mapped_column(String(64))
    filename: Mapped[str | None] = mapped_column(String(255))
    # Deferred: lists and lookups never need the (possibly megabytes of) text.
    text: Mapped[str] = mapped_column(Text, deferred=True)
    sha256: Mapped[str] = mapped_column(String(64))
    char_count: Mapped[int] = mapped_column(Integer)
    chunk_count: Mapped[int] = mapped_column(Integer)
