"""Every claim meets the evidence: claims the routing matrix sends to no searching specialist are
searched too, one query each, in the evidence library always and on the web (fake Tavily, real
HTTP) only within the report's budget."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.db.models import Finding, RoutingAssignment
from app.db.session import SessionFactory
from app.events import EventLog
from app.pipeline.routing import rule_route, with_corroboration
from tests.conftest import make_settings
from tests.support.fake_tavily import FakeTavily
from tests.support.pipeline import analyse_offline, seed_report
from tests.support.services import RunningServices

ONE_PASS_OF_STORED_CLAIMS: dict[str, Any] = {"skip_claims_extraction": True, "max_iterations": 1}
QUANTITATIVE = [
    {"text": f"Total water withdrawal at site {n} was {400 + n} megalitres in 2023.", "page": 1}
    for n in range(3)
]


def test_a_claim_no_searcher_was_routed_to_goes_to_news_media_too() -> None:
    claim: Any = {
        "claim_id": "c",
        "text": "Board met 4 times.",
        "claim_type": "legal_governance",
        "priority": "low",
    }
    entry = with_corroboration(rule_route({**claim, "source_page": 1}))
    assert entry["assigned_agents"] == ["legal", "news_media"]
    assert entry["corroborating_agents"] == ["news_media"]
    assert "every claim meets the evidence library" in entry["reasoning"]
    strategic = rule_route({**claim, "claim_type": "strategic", "source_page": 1})
    assert with_corroboration(strategic) == strategic  # already searched


async def test_corroboration_searches_the_web_only_within_the_reports_budget(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    tavily: FakeTavily,
) -> None:
    settings = make_settings(
        services,
        tavily_api_key="tvly-test",
        tavily_api_base_url=tavily.url,
        search_max_retries=0,
        corroboration_web_searches_per_report=1,
    )
    claims = [{**claim, "claim_type": "quantitative"} for claim in QUANTITATIVE]
    seeded = await seed_report(session_factory, claims, pages=1)
    await analyse_offline(settings, session_factory, event_log, seeded.report_id, **ONE_PASS_OF_STORED_CLAIMS)

    async with session_factory() as session:
        routed = list(
            await session.scalars(select(RoutingAssignment).where(RoutingAssignment.agent == "news_media"))
        )
        summaries = list(
            await session.scalars(
                select(Finding).where(Finding.agent == "news_media", Finding.claim_id.is_not(None))
            )
        )
    assert len(routed) == len(claims)
    assert len(tavily.queries) == 1  # one claim's query reached the web; the budget was then spent
    queries = [query for finding in summaries for query in finding.details.get("queries", [])]
    assert len(queries) == len(claims) and all(query["query_type"] == "corroboration" for query in queries)
    assert sorted(query["library_only"] for query in queries) == [False, True, True]
    assert all("library" in query["providers"] for query in queries)
