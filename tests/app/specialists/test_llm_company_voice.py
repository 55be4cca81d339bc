"""An analysis model's "supports" cannot turn the company's word or one wire story into independent
corroboration (trial s24, bugs 4 and 7), end to end: the news/media agent reads evidence-library
sources with a fake analysis model (real HTTP) that calls every source Tier 2 support, then the
judge rules.

- Three sites carrying one Reuters story ("(Reuters)" credit lines, a /news/reuters/ path) are one
  voice, not three publishers.
- reuters.com relaying the company ("Example Metals said …") is the company's word, however
  reputable the outlet.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.db.models import Finding, Verdict
from app.db.session import SessionFactory
from app.embeddings import create_embedder
from app.events import EventLog
from app.evidence.ingest import add_evidence_document
from app.llm import LLMClient
from app.services.analysis import open_analysis_run
from app.verification.investigators.news_media import investigate_news
from app.verification.investigators.prompts import QUERY_SYSTEM_PROMPT
from app.verification.reading.prompts import SOURCE_ANALYSIS_SYSTEM_PROMPT
from tests.conftest import make_settings
from tests.support.fake_llm import FakeReply, fake_llm_server, settings_for
from tests.support.pipeline import investigators, pipeline_runner, seed_report
from tests.support.services import RunningServices

CLAIM = "Our Scope 3 emissions were 14.2 Mt CO2e in 2023."
COPIES = {
    "https://www.marketscreener.com/news/example-metals-scope-3": (
        "Example Metals' Scope 3 emissions came to 14.2 Mt CO2e in 2023, up from 13.6 Mt. (Reuters)"
    ),
    "https://www.morningstar.com/news/reuters/2024/03/12/example-metals": (
        "Scope 3 emissions at Example Metals reached 14.2 Mt CO2e in 2023 against 13.6 Mt a year before."
    ),
    "https://finance.yahoo.com/news/example-metals-scope-3": (
        "For 2023, Example Metals' value-chain (Scope 3) emissions stood at 14.2 Mt CO2e. (Reuters)"
    ),
}
RELAY_URL = "https://www.reuters.com/business/example-metals-statement"
RELAY = "Example Metals said on Tuesday its Scope 3 emissions were 14.2 Mt CO2e in 2023."


def _model(payload: dict[str, Any]) -> FakeReply:
    """Writes queries, and reads every source as Tier 2 support, quoting its first sentence."""
    system, user = payload["messages"][0]["content"], payload["messages"][1]["content"]
    if system == QUERY_SYSTEM_PROMPT:
        return FakeReply(
            content={
                "company_specific": "Example Metals Scope 3 emissions 2023",
                "industry_wide": "metals Scope 3 emissions 2023",
                "controversy": "Example Metals emissions statement",
            }
        )
    if system == SOURCE_ANALYSIS_SYSTEM_PROMPT:
        quote = next((text for text in [*COPIES.values(), RELAY] if text[:40] in user), "")
        quote = quote.removesuffix(" (Reuters)")
        return FakeReply(
            content={
                "stance": "supports",
                "confidence": 0.9,
                "explanation": "The source confirms the claim.",
                "tier": 2,
                "quote": quote,
            }
        )
    return FakeReply(status=400, body='{"error": {"message": "not scripted"}}')


async def test_one_wire_story_and_a_relayed_statement_do_not_verify(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    async with fake_llm_server() as fake:
        fake.handler = _model
        settings = make_settings(services, search_providers=["library"], **settings_for(fake))
        embedder = create_embedder(settings)
        for url, text in [*COPIES.items(), (RELAY_URL, RELAY)]:
            await add_evidence_document(
                session_factory,
                embedder,
                settings,
                title="Example Metals emissions",
                text=text,
                source_url=url,
                published_date="2024-03-12",
            )
        llm = LLMClient(settings)
        seeded = await seed_report(
            session_factory, [{"text": CLAIM, "claim_type": "quantitative", "page": 1}]
        )
        started = await open_analysis_run(
            event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=1
        )
        agents = investigators(news_media=investigate_news)
        async with pipeline_runner(settings, session_factory, event_log, agents=agents, llm=llm) as runner:
            outcome = await runner.run(started.run.id)
        await llm.aclose()
    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        findings = list(await session.scalars(select(Finding).where(Finding.agent == "news_media")))
        (verdict,) = list(await session.scalars(select(Verdict).where(Verdict.is_final.is_(True))))
    by_url = {f.details["source_url"]: f for f in findings if f.details.get("source_url")}
    assert set(COPIES) | {RELAY_URL} <= set(by_url)
    for url in COPIES:
        assert by_url[url].details["voice"] == "reuters.com", url
        assert by_url[url].details["stance"] == "supports" and by_url[url].evidence_kind == "independent"
    relayed = by_url[RELAY_URL]
    assert relayed.details["source_tier"] == 2 and relayed.details["relays_company"] is True
    assert relayed.evidence_kind == "internal"
    assert "relays the company's own statement" in relayed.summary
    # One Tier 3 voice (Reuters, carried three times) is below the bar; the relay is not independent.
    assert verdict.verdict == "insufficient_evidence", verdict.reasoning
    grounding = verdict.details["evaluation"]["grounding"]
    assert [source["url"] for source in grounding["self_reported"]] == [RELAY_URL]
