"""A specialist checks several claims at once (`claim_pool`); what it stores for each claim must not
depend on which claim's searches came back first.

The fake Tavily (real HTTP) answers each claim's searches after a delay chosen per run, so the
claims finish in a different order each time; the same web page is a result for both claims, with
the text Tavily retrieved for that claim's query, and the page itself cannot be fetched (a private
address), so each claim's quote is checked against its own result's retrieved text.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import select
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.db.models import Finding, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.services.analysis import open_analysis_run
from app.verification.investigators.news_media import investigate_news
from tests.conftest import make_settings
from tests.support.fake_tavily import FakeTavily
from tests.support.http_server import serve_asgi
from tests.support.pipeline import investigators, pipeline_runner, seed_report
from tests.support.services import RunningServices

EMISSIONS = "Example Metals cut its Scope 1 emissions by 12% in 2024 to 2.30 Mt CO2e."
WATER = "Example Metals reduced its water withdrawal by 8% in 2024 across its smelters."
CLAIMS: list[dict[str, Any]] = [
    {"text": EMISSIONS, "claim_type": "strategic", "page": 1},
    {"text": WATER, "claim_type": "strategic", "page": 2},
]
EMISSIONS_SENTENCE = "Example Metals cut its Scope 1 emissions by 12% in 2024 to 2.30 Mt CO2e, filings show."
WATER_SENTENCE = (
    "Example Metals reduced its water withdrawal by 8% in 2024 across its smelters, filings show."
)
IDS = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


class DelayedTavily(FakeTavily):
    """Answers a query about water after `delays["water"]` seconds, any other after `delays["other"]`."""

    def __init__(self) -> None:
        super().__init__()
        self.delays = {"water": 0.0, "other": 0.0}

    async def search(self, request: Request) -> Response:
        query = str((await request.json()).get("query", "")).lower()
        await asyncio.sleep(self.delays["water" if "water" in query else "other"])
        return await super().search(request)


@asynccontextmanager
async def delayed_tavily() -> AsyncIterator[DelayedTavily]:
    fake = DelayedTavily()
    app = Starlette(routes=[Route("/search", fake.search, methods=["POST"])])
    async with serve_asgi(app) as url:
        fake.url = url
        yield fake


def _script(fake: DelayedTavily) -> None:
    """One company page found for both claims, with what the provider retrieved for each query."""
    page = f"{fake.url}/articles/example-metals-2024"

    def result(sentence: str) -> dict[str, Any]:
        return {
            "title": "Example Metals in 2024",
            "url": page,
            "content": sentence,
            "raw_content": f"Example Metals published its 2024 figures. {sentence}",
            "score": 0.8,
        }

    fake.results_for("scope 1", [result(EMISSIONS_SENTENCE)])
    fake.results_for("water", [result(WATER_SENTENCE)])


async def _stored(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, fake: DelayedTavily
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """One analysis: each claim's news/media findings (ids left out) and verdict, by claim text."""
    settings = make_settings(
        services,
        tavily_api_key="tvly-test",
        tavily_api_base_url=fake.url,
        search_providers=["tavily"],
        search_backoff_seconds=0.0,
        llm_max_concurrency=4,
    )
    seeded = await seed_report(session_factory, CLAIMS, pages=2)
    started = await open_analysis_run(
        event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=1
    )
    agents = investigators(news_media=investigate_news)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail
    text_of = {claim_id: claim["text"] for claim_id, claim in zip(seeded.claim_ids, CLAIMS, strict=True)}
    async with session_factory() as session:
        rows = await session.scalars(
            select(Finding).where(Finding.analysis_run_id == started.run.id, Finding.agent == "news_media")
        )
        findings: dict[str, list[str]] = {text: [] for text in text_of.values()}
        for row in rows:
            said = [row.evidence_type, row.summary, row.supports_claim, row.confidence, row.details]
            findings[text_of[str(row.claim_id)]].append(IDS.sub("<id>", json.dumps(said, sort_keys=True)))
        verdicts = await session.scalars(select(Verdict).where(Verdict.analysis_run_id == started.run.id))
        return (
            {text: sorted(found) for text, found in findings.items()},
            {text_of[str(verdict.claim_id)]: verdict.verdict for verdict in verdicts},
        )


async def test_stored_findings_do_not_depend_on_which_claim_finished_first(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    rng = random.Random(20261124)
    orders = [(0.0, 0.3), (0.3, 0.0)] + [(rng.uniform(0, 0.2), rng.uniform(0, 0.2)) for _ in range(2)]
    outcomes = []
    async with delayed_tavily() as fake:
        _script(fake)
        for water, other in orders:
            fake.delays = {"water": water, "other": other}
            outcomes.append(await _stored(services, session_factory, event_log, fake))
    first_findings, first_verdicts = outcomes[0]
    for findings, verdicts in outcomes[1:]:
        assert verdicts == first_verdicts
        for text in first_findings:
            assert findings[text] == first_findings[text], text
    # each claim's quote was checked against the text retrieved for its own result, and found
    for text, found in first_findings.items():
        sources = [json.loads(item)[4] for item in found if "source_url" in json.loads(item)[4]]
        assert sources, text
        assert {(s["quote_verified"], s["quote_checked_against"]) for s in sources} == {
            (True, "provider_content")
        }, text
