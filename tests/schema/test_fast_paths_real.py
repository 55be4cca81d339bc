"""The API's schema, with its executor shortcuts, answers a page of claims exactly as Strawberry's
own execution of the same types does (ids, enums, nulls, nested objects and lists, arguments, and
claims whose rows were prefetched or come from DataLoaders)."""

from __future__ import annotations

import uuid
from types import SimpleNamespace
from typing import Any

import strawberry
from sqlalchemy import insert, update
from strawberry.relay import GlobalID

from app.config import Settings
from app.db.models import Claim, Finding
from app.db.session import SessionFactory
from app.metrics.labels import FirstCome
from app.organisations import LOCAL_ORGANISATION_ID
from app.organisations.keys import Principal
from schema import schema
from schema.context import Context
from schema.types.reports import ReportQuery
from tests.support.analysed import seed_analysed_report

PAGE = """
query Claims($id: ID!, $agent: String) {
  report(id: $id) {
    id filename
    claims(first: 50) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { cursor node {
        id text claimType priority sourcePage sourceContext method reasoning
        ifrsParagraphs { paragraphId pillar relevance confirmed }
        riskFlags { kind phrase }
        verdict { id verdict confidence reasoning isFinal iteration reportId
                  ifrsMapping { paragraphId source status relationship } }
        verdicts { id iteration isFinal }
        findings { id agent evidenceType evidenceKind summary supportsClaim confidence iteration }
        chosen: findings(agent: $agent) { agent confidence }
        legal: findings(agent: "legal") { agent }
        routing { agent iteration reasoning method }
        back: findings { claim { id verdict { verdict isFinal } findings(agent: $agent) { agent } } }
      } }
    }
  }
}
"""


async def _seed(session_factory: SessionFactory) -> uuid.UUID:
    """A report whose claims have verdicts and findings, some findings with null fields, and one
    claim with neither."""
    seeded = await seed_analysed_report(session_factory, 6)
    async with session_factory() as session, session.begin():
        await session.execute(
            update(Finding)
            .where(Finding.agent == "news_media")
            .values(supports_claim=None, confidence=None, evidence_kind="unknown")
        )
        await session.execute(
            insert(Claim).values(
                id=uuid.uuid4(),
                report_id=seeded.report_id,
                text="A claim nobody checked.",
                claim_type="strategic",
                priority="low",
                source_page=9,
                method="rules",
                risk_flags=[{"kind": "generic_wording", "phrase": "green", "explanation": "vague"}],
            )
        )
    return seeded.report_id


def _context(settings: Settings, session_factory: SessionFactory) -> Context:
    services = SimpleNamespace(
        settings=settings, session_factory=session_factory, operation_names=FirstCome()
    )
    principal = Principal(organisation_id=LOCAL_ORGANISATION_ID)
    return Context(services=services, request=None, principal=principal)  # type: ignore[arg-type]


async def test_a_claims_page_answers_as_strawberry_answers_it(
    settings: Settings, session_factory: SessionFactory, clean_db: None
) -> None:
    report_id = await _seed(session_factory)
    reference = strawberry.Schema(query=ReportQuery)  # Strawberry's own execution, no shortcuts
    results: list[Any] = []
    for agent in ("news_media", None):
        variables = {"id": str(GlobalID("Report", str(report_id))), "agent": agent}
        for runner in (schema, reference):
            result = await runner.execute(
                PAGE, variable_values=variables, context_value=_context(settings, session_factory)
            )
            assert result.errors is None, result.errors
            results.append(result.data)

    assert results[0] == results[1]
    assert results[2] == results[3]
    edges = results[0]["report"]["claims"]["edges"]
    assert len(edges) == 7
    assert edges[-1]["node"]["verdict"] is None and edges[-1]["node"]["findings"] == []
    assert GlobalID.from_id(edges[0]["node"]["id"]).type_name == "Claim"
    back = edges[0]["node"]["back"][0]["claim"]  # a claim without prefetched rows: its DataLoaders
    assert back["id"] == edges[0]["node"]["id"]
    assert back["verdict"]["verdict"] == edges[0]["node"]["verdict"]["verdict"]
    assert {f["confidence"] for f in edges[0]["node"]["chosen"]} == {None}
    assert results[2]["report"]["claims"]["edges"][0]["node"]["chosen"] != edges[0]["node"]["chosen"]
