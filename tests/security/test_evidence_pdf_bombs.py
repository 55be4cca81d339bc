"""An evidence-library PDF is read under the same limits as a report: its text is capped by its
size and page count, and its reading counts against its organisation's share of the document
processes, so one organisation's library cannot hold every process or fill the database."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import EvidenceDocument
from app.db.session import SessionFactory
from app.documents.processes import DocumentProcesses
from app.embeddings import HashingEmbedder
from app.evidence import ingest
from app.evidence.ingest import EvidenceOutcome, EvidenceProblem, EvidenceRejected, add_evidence_document
from app.organisations.keys import LOCAL_ORGANISATION_ID
from tests.fixtures import pdfs
from tests.fixtures.bomb_pdfs import text_bomb_pdf


class RecordingProcesses(DocumentProcesses):
    """Document processes that remember whom each call was for."""

    def __init__(self) -> None:
        super().__init__(size=1, timeout_seconds=60.0, memory_mb=1024)
        self.organisations: list[object] = []

    async def call(self, function: Any, *args: Any, organisation: Any = None) -> Any:
        self.organisations.append(organisation)
        return await super().call(function, *args, organisation=organisation)


async def add_pdf(session_factory: SessionFactory, settings: Settings, content: bytes) -> EvidenceOutcome:
    return await add_evidence_document(
        session_factory,
        HashingEmbedder(),
        settings,
        content=content,
        filename="evidence.pdf",
        organisation_id=LOCAL_ORGANISATION_ID,
    )


@pytest.fixture
def processes(monkeypatch: pytest.MonkeyPatch) -> Any:
    pool = RecordingProcesses()
    monkeypatch.setattr(ingest, "document_processes", lambda settings: pool)
    yield pool
    pool.close()


async def test_a_text_bomb_is_refused_and_nothing_is_stored(
    clean_db: None, session_factory: SessionFactory, settings: Settings, processes: RecordingProcesses
) -> None:
    bomb = text_bomb_pdf(4)  # 15 KB on disk, 4 MB of text on its one page

    with pytest.raises(EvidenceRejected) as refused:
        await add_pdf(session_factory, settings, bomb)

    assert (refused.value.code, refused.value.field) == (EvidenceProblem.TOO_LARGE, "file")
    assert "far more text" in refused.value.message
    async with session_factory() as session:
        assert await session.scalar(select(func.count()).select_from(EvidenceDocument)) == 0


async def test_a_library_pdf_is_read_on_its_organisations_share(
    clean_db: None, session_factory: SessionFactory, settings: Settings, processes: RecordingProcesses
) -> None:
    content = pdfs.make_report_pdf([["Notice of violation issued to Karoo Metals."]])

    await add_pdf(session_factory, settings, content)

    assert processes.organisations == [LOCAL_ORGANISATION_ID]
