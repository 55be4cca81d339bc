"""Reading and removing evidence documents (adding is `app.evidence.ingest`)."""

from __future__ import annotations

import uuid

from sqlalchemy import delete, select

from app.db.models import EvidenceDocument, KnowledgePassage
from app.db.models.evidence import EVIDENCE_SOURCE_TYPE
from app.db.session import SessionFactory
from app.organisations.keys import LOCAL_ORGANISATION_ID


async def list_evidence_documents(
    session_factory: SessionFactory, organisation_id: uuid.UUID = LOCAL_ORGANISATION_ID
) -> list[EvidenceDocument]:
    """Every document of the organisation, newest first (for `sibyl evidence list`; the API pages)."""
    async with session_factory() as session:
        rows = await session.scalars(
            select(EvidenceDocument)
            .where(EvidenceDocument.organisation_id == organisation_id)
            .order_by(EvidenceDocument.created_at.desc(), EvidenceDocument.id.desc())
        )
        return list(rows)


async def delete_evidence_document(
    session_factory: SessionFactory,
    document_id: uuid.UUID,
    organisation_id: uuid.UUID = LOCAL_ORGANISATION_ID,
) -> EvidenceDocument | None:
    """Remove a document and its passages together; the removed document, or None if there was none.

    Passages are keyed `"<document id>/<chunk>"` in `knowledge_passages` (no foreign key, the table
    serves every source), so they are deleted explicitly in the same transaction.
    """
    async with session_factory() as session, session.begin():
        document = await session.get(EvidenceDocument, document_id, with_for_update=True)
        if document is None or document.organisation_id != organisation_id:
            return None
        await session.execute(
            delete(KnowledgePassage).where(
                KnowledgePassage.source_type == EVIDENCE_SOURCE_TYPE,
                KnowledgePassage.key.startswith(f"{document_id}/", autoescape=True),
            )
        )
        await session.delete(document)
    return document
