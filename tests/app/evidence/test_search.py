"""Searching the evidence library: the planted passage is found, unrelated documents are not."""

from __future__ import annotations

import uuid
from datetime import date

from sqlalchemy import select

from app.config import Settings
from app.db.models import KnowledgePassage
from app.db.session import SessionFactory
from app.embeddings import HashingEmbedder
from app.evidence.ingest import add_evidence_document
from app.evidence.library import delete_evidence_document, list_evidence_documents
from app.evidence.search import EvidenceHit, load_document_texts, search_evidence
from app.knowledge.search import KnowledgeSearch
from tests.conftest import make_settings
from tests.support.evidence import article
from tests.support.services import RunningServices

EMBEDDER = HashingEmbedder(384)
SPILL = "Tailings from the Karoo nickel smelter spilled into the Vaal river in March 2024."
FOOTBALL = "The home side won the cup final three goals to one after extra time."


async def add_text(
    session_factory: SessionFactory, settings: Settings, text: str, **kwargs: object
) -> uuid.UUID:
    outcome = await add_evidence_document(session_factory, EMBEDDER, settings, text=text, **kwargs)  # type: ignore[arg-type]
    return outcome.document.id


def small(services: RunningServices) -> Settings:
    return make_settings(services, evidence_chunk_chars=300)


async def test_the_planted_passage_is_found_and_an_unrelated_document_is_not(
    clean_db: None, session_factory: SessionFactory, services: RunningServices
) -> None:
    settings = small(services)
    spill = await add_text(
        session_factory,
        settings,
        article([SPILL], before=20, after=20),
        title="River pollution",
        source_url="https://www.groundup.org.za/article/spill",
        published_date=date(2024, 3, 20),
    )
    await add_text(session_factory, settings, article([FOOTBALL], seed=7), title="Cup final")
    knowledge = KnowledgeSearch(session_factory, EMBEDDER)

    hits = await search_evidence(knowledge, "nickel smelter tailings spill", 5)
    nothing = await search_evidence(knowledge, "quantum chromodynamics lattice", 5)

    assert [hit.document_id for hit in hits] == [str(spill)]
    hit = hits[0]
    assert isinstance(hit, EvidenceHit)
    assert SPILL in hit.text
    assert hit.title == "River pollution"
    assert hit.source_url == "https://www.groundup.org.za/article/spill"
    assert hit.source_domain == "groundup.org.za"
    assert hit.published_date == date(2024, 3, 20)
    assert hit.chunk_index > 0 and hit.score > 0
    assert nothing == []  # vectors alone always find a nearest passage; it must not count


async def test_each_document_gives_at_most_its_best_passage(
    clean_db: None, session_factory: SessionFactory, services: RunningServices
) -> None:
    settings = small(services)
    methane = [f"Methane leak number {n} was found at the Ridge compressor station." for n in range(1, 9)]
    many = await add_text(session_factory, settings, "\n\n".join(methane), title="Leak survey")
    other = await add_text(session_factory, settings, article(["A methane leak was also reported."], seed=3))
    knowledge = KnowledgeSearch(session_factory, EMBEDDER)

    hits = await search_evidence(knowledge, "methane leak compressor station", 5)
    one = await search_evidence(knowledge, "methane leak compressor station", 1)

    assert len(await _passages(session_factory)) > 4
    assert [hit.document_id for hit in hits] == [str(many), str(other)]
    assert [hit.document_id for hit in one] == [str(many)]
    assert await search_evidence(knowledge, "methane", 0) == []
    assert await search_evidence(knowledge, "   ", 3) == []


async def test_full_texts_load_by_id_and_deleting_removes_the_passages(
    clean_db: None, session_factory: SessionFactory, settings: Settings
) -> None:
    text = article([SPILL])
    document_id = await add_text(session_factory, settings, text)
    knowledge = KnowledgeSearch(session_factory, EMBEDDER)

    texts = await load_document_texts(session_factory, [str(document_id), str(uuid.uuid4()), "not-a-uuid"])
    deleted = await delete_evidence_document(session_factory, document_id)

    assert texts == {str(document_id): text}
    assert deleted is not None and deleted.id == document_id
    assert await _passages(session_factory) == []
    assert await search_evidence(knowledge, "nickel smelter", 3) == []
    assert await list_evidence_documents(session_factory) == []
    assert await delete_evidence_document(session_factory, document_id) is None


async def test_evidence_passages_do_not_leak_into_other_searches(
    clean_db: None, session_factory: SessionFactory, settings: Settings
) -> None:
    await add_text(session_factory, settings, article([SPILL]))
    knowledge = KnowledgeSearch(session_factory, EMBEDDER)

    ifrs_hits = await knowledge.search(
        "nickel smelter tailings", top_k=5, source_types=["ifrs_s1", "ifrs_s2"]
    )

    assert all(hit.source_type != "evidence" for hit in ifrs_hits)


async def _passages(session_factory: SessionFactory) -> list[str]:
    async with session_factory() as session:
        keys = await session.scalars(
            select(KnowledgePassage.key).where(KnowledgePassage.source_type == "evidence")
        )
        return list(keys)
