"""The evidence library gives the same documents for the same evidence, however it was ingested.

Passages that rank equally used to come back in the order of their keys, which hold each
document's random id (and a vector tie had no order at all), so the same documents ingested again
could give an agent other sources to read, and a claim another verdict. Here the same documents
go into several libraries, in a different order each time, and every library must answer alike.
"""

from __future__ import annotations

import random
import uuid

from app.db.models.organisations import Organisation
from app.db.session import SessionFactory
from app.embeddings import HashingEmbedder
from app.evidence.ingest import add_evidence_document
from app.evidence.search import search_evidence
from app.knowledge.search import KnowledgeSearch
from tests.conftest import make_settings
from tests.support.services import RunningServices

EMBEDDER = HashingEmbedder(384)
PUBLISHERS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
QUERY = "Example Metals water withdrawal figures"


def _documents() -> list[tuple[str, str, str]]:
    """Ten notes alike in everything the query matches: the same words, said the same way."""
    return [
        (
            f"Example Metals note by {name}",
            f"Example Metals published its water withdrawal figures. The note was written by {name}.",
            f"https://news-{name}.example/example-metals-water",
        )
        for name in PUBLISHERS
    ]


async def _library(session_factory: SessionFactory, services: RunningServices, seed: int) -> uuid.UUID:
    """A new organisation's library holding the notes, added in an order set by `seed`."""
    organisation_id = uuid.uuid4()
    async with session_factory() as session, session.begin():
        session.add(Organisation(id=organisation_id, name=f"library order {organisation_id.hex[:8]}"))
    settings = make_settings(services)
    for title, text, url in random.Random(seed).sample(_documents(), len(PUBLISHERS)):
        await add_evidence_document(
            session_factory,
            EMBEDDER,
            settings,
            title=title,
            text=text,
            source_url=url,
            organisation_id=organisation_id,
        )
    return organisation_id


async def test_the_same_evidence_ingested_again_is_found_in_the_same_order(
    services: RunningServices, session_factory: SessionFactory, clean_db: None
) -> None:
    knowledge = KnowledgeSearch(session_factory, EMBEDDER)
    answers = []
    for seed in range(4):
        organisation_id = await _library(session_factory, services, seed)
        hits = await search_evidence(knowledge, QUERY, 4, organisation_id)
        ranked = await knowledge.search(
            QUERY, top_k=len(PUBLISHERS), attributes={"organisation_id": str(organisation_id)}
        )
        answers.append(
            (
                [hit.source_url for hit in hits],
                [(hit.attributes["source_url"], hit.vector_rank, hit.text_rank) for hit in ranked],
            )
        )
    assert len(answers[0][0]) == 4
    assert len(answers[0][1]) == len(PUBLISHERS)
    for answer in answers[1:]:
        assert answer == answers[0]
