"""Reading and removing evidence documents (adding is `app.evidence.ingest`)."""

from __future__ import annotations

import uuid

from sqlalchemy import delete, select

from app.db.models import EvidenceDocument, KnowledgePassage
from app.db.models.evidence import EVIDENCE_SOURCE_TYPE
from app.db.session import SessionFactory


async def list_evidence_documents(session_factory: SessionFactory) -> list[EvidenceDocument]:
    """Every document, newest first (for `sibyl evidence list`; the API pages instead)."""
    async with session_factory() as session:
        rows = await session.scalars(
            select(EvidenceDocument).order_by(EvidenceDocument.created_at.desc(), EvidenceDocument.id.desc())
        )
        return list(rows)


async def delete_evidence_document(
    session_factory: SessionFactory, document_id: uuid.UUID
) -> EvidenceDocument | None:
    """Remove a document and its passages together; the removed document, or None if there was none.

    Passages are keyed `"<document id>/<chunk>"` in `knowledge_passages` (no foreign key, the table
    serves every source), so they are deleted explicitly in the same transaction.
    """
    async with session_factory() as session, session.begin():
        document = await session.get(EvidenceDocument, document_id, with_for_update=True)
        if document is None:
            return None
        await session.execute(
            delete(KnowledgePassage).where(
                KnowledgePassage.source_type == EVIDENCE_SOURCE_TYPE,
                KnowledgePassage.key.startswith(f"{document_id}/", autoescape=True),
            )
        )
        await session.delete(document)
    return document
