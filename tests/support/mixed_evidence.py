"""A report whose verdicts rest on sources of every side, analysed offline: one claim supported by a
Tier 2 outlet, disputed by a blog and doubted by the report's own figures (INSUFFICIENT_EVIDENCE),
and one the report contradicts with its own arithmetic (CONTRADICTED). The planted evidence-library
documents are in my own wording."""

from __future__ import annotations

import uuid

from app.config import Settings
from app.db.session import SessionFactory
from app.embeddings import create_embedder
from app.events import EventLog
from app.evidence.ingest import add_evidence_document
from tests.support.evidence import article
from tests.support.pipeline import analyse_offline, seed_report

#: Supported by a Tier 2 outlet, disputed by a blog, and the report's two renderings of the figure disagree.
MIXED = "Our Scope 2 emissions were 3.1 Mt CO2e (3,400 kt CO2e) in 2023."
#: The stated change cannot come from the stated values.
SELF_CONTRADICTED = "Scope 1 emissions at the smelter fell 6.1% to 2.60 Mt CO2e from 2.45 Mt CO2e."
SUPPORTING_URL = "https://www.reuters.com/sustainability/example-metals-scope-2"
DISPUTING_URL = "https://mining-notes.medium.com/example-metals-scope-2"
DOCUMENTS = [
    (
        "Example Metals electricity emissions",
        "Registry records show Example Metals' Scope 2 emissions were 3.1 Mt CO2e in 2023.",
        SUPPORTING_URL,
    ),
    (
        "Counting Example Metals",
        "Example Metals' Scope 2 emissions were 4.4 Mt CO2e in 2023, by this blog's count.",
        DISPUTING_URL,
    ),
]


async def analysed_report(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> uuid.UUID:
    """Plant the documents, seed the two claims (pages 1 and 2) and analyse them offline."""
    embedder = create_embedder(settings)
    for seed, (title, sentence, url) in enumerate(DOCUMENTS):
        await add_evidence_document(
            session_factory,
            embedder,
            settings,
            title=title,
            text=article([sentence], seed=seed),
            source_url=url,
            published_date="2025-02-01",
        )
    claims = [
        {"text": text, "claim_type": "quantitative", "page": page}
        for page, text in enumerate([MIXED, SELF_CONTRADICTED], 1)
    ]
    seeded = await seed_report(session_factory, claims, pages=2)
    await analyse_offline(settings, session_factory, event_log, seeded.report_id, skip_claims_extraction=True)
    return seeded.report_id
