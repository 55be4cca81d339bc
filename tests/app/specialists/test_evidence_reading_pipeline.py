"""Verdicts from evidence-library documents read by rule, end to end (offline pipeline, real
Postgres): a total is not a scope, a commitment is not a reported cut, a denied count contradicts,
a document about another company is no evidence, and a verdict lists each source once."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.db.models import Event, Finding, Verdict
from app.db.session import SessionFactory
from app.embeddings import create_embedder
from app.events import EventLog
from app.evidence.ingest import add_evidence_document
from schema.types.verdict_sources import deciding_sources
from tests.conftest import make_settings
from tests.support.pipeline import analyse_offline, seed_report
from tests.support.services import RunningServices

CLAIMS: list[dict[str, Any]] = [
    {
        "text": "Our emissions across all three scopes came to 41.5 Mt CO2e in FY24, up 9% on FY23.",
        "claim_type": "strategic",
        "page": 1,
    },
    {"text": "Scope 3 emissions increased 9% in FY24, driven by higher purchased goods.", "page": 1},
    {"text": "Scope 1 emissions increased 14% in FY24 as two new furnaces started.", "page": 2},
    {
        "text": "Example Metals is committed to doing its part to reduce emissions across its value chain.",
        "claim_type": "strategic",
        "page": 2,
    },
    {"text": "We fitted efficient LED lighting at 212 depots in FY24, lowering wattage by 30%.", "page": 3},
]
REUTERS_URL = "https://www.reuters.com/business/example-metals-furnaces"
BBC_URL = "https://www.bbc.co.uk/news/business-example-metals"
BLOG_URL = "https://someone.medium.com/example-metals-lighting"
OTHER_URL = "https://www.reuters.com/business/northwind-emissions"
#: The outlets' own findings ("Example Metals said …" would relay the company's word, which never
#: verifies: test_self_reported_library).
LIBRARY = [
    (
        "Example Metals furnaces lift emissions",
        "Example Metals' Scope 1 emissions increased 14% in fiscal 2024 after two new furnaces started, "
        "plant data reviewed by this newsroom show.",
        REUTERS_URL,
    ),
    (
        "Example Metals footprint grows",
        "Example Metals' total emissions across all three scopes increased 9% in fiscal 2024, a BBC "
        "review of plant data found. The company says it is committed to cutting emissions.",
        BBC_URL,
    ),
    (
        "What I saw at the depots",
        "Example Metals fitted LED lighting at only 75 depots, not 212, drivers told me.",
        BLOG_URL,
    ),
    (
        "Northwind footprint grows",
        "Northwind said its Scope 3 emissions increased 9% in fiscal 2024 and that it is committed to "
        "cutting emissions; it fitted LED lighting at 212 depots.",
        OTHER_URL,
    ),
]


async def test_library_sources_decide_only_what_they_say(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    # given: a report of Example Metals and four library documents, one about another company
    settings = make_settings(services)
    embedder = create_embedder(settings)
    for title, text, url in LIBRARY:
        await add_evidence_document(
            session_factory,
            embedder,
            settings,
            title=title,
            text=text,
            source_url=url,
            published_date="2025-01-10",
        )
    claims = [{"claim_type": "quantitative", **claim} for claim in CLAIMS]
    seeded = await seed_report(session_factory, claims, pages=3)
    # when
    await analyse_offline(
        settings, session_factory, event_log, seeded.report_id, skip_claims_extraction=True, max_iterations=1
    )
    # then
    async with session_factory() as session:
        verdicts = {str(v.claim_id): v for v in await session.scalars(select(Verdict))}
        findings = list(await session.scalars(select(Finding).where(Finding.claim_id.is_not(None))))
        thoughts = [
            str(event.data)
            for event in await session.scalars(select(Event).where(Event.event_type == "agent_thinking"))
        ]
    total, scope3, scope1, commitment, led = seeded.claim_ids
    readings = _readings(findings)
    assert verdicts[total].verdict == "verified"
    assert readings[(total, BBC_URL)] == {"supports"}
    assert readings.get((total, REUTERS_URL), set()) <= {"neutral"}  # Scope 1's 14% is not the total's figure
    assert verdicts[scope3].verdict != "verified"
    assert readings.get((scope3, BBC_URL), set()) <= {"neutral"}  # the total's 9% is not Scope 3's
    assert verdicts[scope1].verdict == "verified"
    assert readings[(scope1, REUTERS_URL)] == {"supports"}
    assert readings.get((scope1, BBC_URL), set()) <= {"neutral"}  # no contradiction from the total
    assert verdicts[commitment].verdict not in {"verified", "contradicted"}
    assert all(stances <= {"neutral"} for (claim, _), stances in readings.items() if claim == commitment)
    assert readings[(led, BLOG_URL)] == {"contradicts"}
    assert verdicts[led].verdict == "insufficient_evidence"  # one Tier 4 blog is below the bar
    # a document about another company is evidence for none of this report's claims
    assert not any(url == OTHER_URL for _, url in readings)
    # the total claim was read by two searching agents; its verdict still names the BBC once
    sources = deciding_sources("verified", verdicts[total].details)
    urls = [source.url for source in sources if source.url]
    assert urls.count(BBC_URL) == 1
    assert sum(f.details.get("source_url") == BBC_URL and str(f.claim_id) == total for f in findings) == 2
    # progress lines name the agent once
    assert any("News/Media agent: 1 supporting" in thought for thought in thoughts)
    assert not any(
        "agent: News/Media agent" in thought or "agent: Academic" in thought for thought in thoughts
    )


def _readings(findings: list[Finding]) -> dict[tuple[str, str], set[str]]:
    """Each (claim, source URL) with the stances the searching agents read it as."""
    readings: dict[tuple[str, str], set[str]] = {}
    for finding in findings:
        url = finding.details.get("source_url")
        if url and "stance" in finding.details:
            readings.setdefault((str(finding.claim_id), url), set()).add(finding.details["stance"])
    return readings
