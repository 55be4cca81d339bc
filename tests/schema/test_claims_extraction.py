"""Claims extraction end to end without an LLM: a generated report with planted claims and planted
boilerplate is uploaded, analysed by the worker, and its claims are persisted, announced chunk by
chunk, located on their pages, mapped to IFRS paragraphs and counted in the run's stats."""

from __future__ import annotations

import hashlib

from sqlalchemy import select

from app.db.models import Claim, Event, Report, ReportPage, Verdict
from app.db.session import SessionFactory
from app.language.textmatch import normalize_for_match
from tests.fixtures.planted_report import planted_report
from tests.support.graphql import GraphQLClient
from tests.support.reports import wait_for_status

START = """
mutation Start($id: ID!) {
  startAnalysis(reportId: $id) { __typename ... on StartAnalysisError { code message } }
}
"""
ANALYSIS = """
query Analysis($id: ID!) {
  report(id: $id) { status companyName analysis { status claimsCount extractionStats } }
}
"""
FLAGS = """
query Flags($id: ID!) {
  report(id: $id) { claims(first: 100) { edges { node { text riskFlags { kind phrase explanation } } } } }
}
"""
#: The planted claims that carry a risk flag (tests/fixtures/planted_report.py, "Products and labels").
PLANTED_FLAGS = {
    "Terra cement range is eco-friendly": "GENERIC_ENVIRONMENTAL_CLAIM",
    "our own EcoBuild seal": "SELF_DECLARED_LABEL",
    "head office has been carbon neutral": "OFFSET_BASED_NEUTRALITY",
    "phase out single-use plastics": "FUTURE_COMMITMENT_WITHOUT_PLAN",
}


async def test_planted_report_claims_are_extracted_located_mapped_and_announced(
    client: GraphQLClient, worker: object, session_factory: SessionFactory
) -> None:
    planted = planted_report()
    uploaded = await client.upload_result(planted.pdf)
    report_id = uploaded["report"]["id"]
    await wait_for_status(client, report_id, "PARSED")

    started = (await client.data(START, id=report_id))["startAnalysis"]
    await wait_for_status(client, report_id, "COMPLETED", "ERROR", timeout=120)

    assert started["__typename"] == "StartAnalysisSuccess", started
    report = (await client.data(ANALYSIS, id=report_id))["report"]
    assert report["status"] == "COMPLETED"
    assert report["companyName"] == planted.company
    async with session_factory() as session:
        stored = await session.scalar(
            select(Report).where(Report.sha256 == hashlib.sha256(planted.pdf).hexdigest())
        )
        assert stored is not None
        claims = list(await session.scalars(select(Claim).where(Claim.report_id == stored.id)))
        page_rows = await session.scalars(select(ReportPage).where(ReportPage.report_id == stored.id))
        pages = {row.number: normalize_for_match(row.text) for row in page_rows}
        announced = list(
            await session.scalars(
                select(Event).where(Event.report_id == stored.id, Event.event_type == "claims_extracted")
            )
        )
    found = [p for p in planted.claims if any(c.source_page == p.page and p.found_as(c.text) for c in claims)]
    assert len(found) >= 0.9 * len(planted.claims)
    assert not [(b.text, c.text) for b in planted.boilerplate for c in claims if b.leaks_into(c.text)]
    assert all(normalize_for_match(c.text) in pages[c.source_page] for c in claims)
    assert all(c.method == "rules" and c.reasoning for c in claims)
    assert sum(bool(c.ifrs_paragraphs) for c in claims) >= 0.8 * len(claims)
    stats = report["analysis"]["extractionStats"]
    assert stats["method"] == "rules" and stats["claims"] == len(claims) == report["analysis"]["claimsCount"]
    assert stats["location"]["dropped"] == 0 and stats["mapping"]["rag_queries"] <= 100
    assert stats["chunks"] == len(announced) == -(-len(pages) // 10)
    assert sum(event.data["count"] for event in announced) >= len(claims)

    # Risk flags: stored on the rows, counted in the stats, exposed with their enum kind.
    assert stats["risk_flags"] == {
        "future_commitment_without_plan": 1,
        "generic_environmental_claim": 1,
        "offset_based_neutrality": 1,
        "self_declared_label": 1,
    }
    assert sorted(flag["kind"] for c in claims for flag in c.risk_flags) == sorted(
        kind.lower() for kind in PLANTED_FLAGS.values()
    )
    edges = (await client.data(FLAGS, id=report_id))["report"]["claims"]["edges"]
    flagged = {edge["node"]["text"]: edge["node"]["riskFlags"] for edge in edges if edge["node"]["riskFlags"]}
    assert len(flagged) == len(PLANTED_FLAGS)
    for fragment, kind in PLANTED_FLAGS.items():
        (flags,) = [flags for text, flags in flagged.items() if fragment in text]
        assert [flag["kind"] for flag in flags] == [kind]
        assert flags[0]["phrase"] and flags[0]["explanation"]
    # The judge saw the flags (carried in the pipeline state) and recorded them with its verdicts.
    flagged_ids = {c.id for c in claims if c.risk_flags}
    async with session_factory() as session:
        verdicts = list(await session.scalars(select(Verdict).where(Verdict.claim_id.in_(flagged_ids))))
    assert verdicts and {v.claim_id for v in verdicts} == flagged_ids
    assert all(v.details["evaluation"].get("risk_flags") for v in verdicts)


READING_ORDER = """
query Claims($id: ID!, $after: String, $order: ClaimOrder!) {
  report(id: $id) {
    claims(first: 3, after: $after, orderBy: $order) {
      edges { cursor node { text sourcePage priority } }
      pageInfo { hasNextPage endCursor }
    }
  }
}
"""


async def _all_claims(client: GraphQLClient, report_id: str, order: str) -> list[dict[str, object]]:
    """Every claim of the report, three to a page, following the cursors."""
    claims: list[dict[str, object]] = []
    after = None
    while True:
        page = (await client.data(READING_ORDER, id=report_id, after=after, order=order))["report"]["claims"]
        claims += [edge["node"] for edge in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            return claims
        after = page["pageInfo"]["endCursor"]


async def test_claims_list_in_reading_order_on_each_page(
    client: GraphQLClient, worker: object, session_factory: SessionFactory
) -> None:
    planted = planted_report()
    report_id = (await client.upload_result(planted.pdf))["report"]["id"]
    await wait_for_status(client, report_id, "PARSED")
    await client.data(START, id=report_id)
    await wait_for_status(client, report_id, "COMPLETED", "ERROR", timeout=120)
    async with session_factory() as session:
        stored = await session.scalar(
            select(Report).where(Report.sha256 == hashlib.sha256(planted.pdf).hexdigest())
        )
        assert stored is not None
        rows = await session.scalars(select(ReportPage).where(ReportPage.report_id == stored.id))
        pages = {row.number: normalize_for_match(row.text) for row in rows}

    def place(claim: dict[str, object]) -> tuple[int, int]:
        page = int(str(claim["sourcePage"]))
        return page, pages[page].index(normalize_for_match(str(claim["text"])))

    by_page = await _all_claims(client, report_id, "PAGE")
    assert len(by_page) >= 10 and len({claim["sourcePage"] for claim in by_page}) < len(by_page)
    assert [place(claim) for claim in by_page] == sorted(place(claim) for claim in by_page)
    by_priority = await _all_claims(client, report_id, "PRIORITY")
    rank = {"HIGH": 0, "MEDIUM": 1, "LOW": 2}
    keys = [(rank[str(claim["priority"])], *place(claim)) for claim in by_priority]
    assert keys == sorted(keys) and len(keys) == len(by_page)
