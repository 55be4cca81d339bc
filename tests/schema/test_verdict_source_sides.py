"""`Verdict.decidingSources` says which way each source bears on the claim (`side`), how its tier was
decided (`tierBasis`), how the finding read it (`method`) and, for a check of the report against
itself, what the check found (`summary`): a dashboard can count "for" and "against" and an auditor
can cite what decided a verdict without parsing the reasoning.

The report (`tests.support.mixed_evidence`) is analysed offline by the built-in specialists against
documents planted in the evidence library; the verdicts are read back through GraphQL.
"""

from __future__ import annotations

import copy
import uuid
from typing import Any

from sqlalchemy import select, update
from strawberry.relay import GlobalID

from app.config import Settings
from app.db.models import Finding, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from schema.types.verdict_sources import SourceSide, TierBasis, deciding_sources
from tests.support.graphql import GraphQLClient
from tests.support.mixed_evidence import MIXED, SELF_CONTRADICTED, analysed_report
from tests.support.pipeline import analyse_offline

SOURCES = """
  decidingSources {
    findingId agent side evidenceKind publisher url tier tierBasis method quote quoteVerified pages summary
  }
"""
QUERY = f"""
query Sides($id: ID!) {{
  report(id: $id) {{ claims(first: 10) {{ edges {{ node {{ text verdict {{ id verdict {SOURCES} }} }} }} }} }}
}}
"""
VERDICT = f"query One($id: ID!) {{ node(id: $id) {{ ... on Verdict {{ verdict {SOURCES} }} }} }}"


async def _verdicts(client: GraphQLClient, report_id: uuid.UUID) -> dict[str, dict[str, Any]]:
    data = await client.data(QUERY, id=str(GlobalID("Report", str(report_id))))
    return {edge["node"]["text"]: edge["node"]["verdict"] for edge in data["report"]["claims"]["edges"]}


def _by_publisher(verdict: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {source["publisher"]: source for source in verdict["decidingSources"]}


async def test_a_mixed_verdict_lists_each_source_with_its_side_and_how_it_was_read(
    client: GraphQLClient, settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> None:
    verdicts = await _verdicts(client, await analysed_report(settings, session_factory, event_log))

    mixed = verdicts[MIXED]
    assert mixed["verdict"] == "INSUFFICIENT_EVIDENCE"
    sources = _by_publisher(mixed)
    assert set(sources) == {"reuters.com", "mining-notes.medium.com", "data_metrics"}
    reuters, blog, check = sources["reuters.com"], sources["mining-notes.medium.com"], sources["data_metrics"]
    assert (reuters["side"], reuters["tier"], reuters["tierBasis"]) == ("SUPPORTS", 2, "DOMAIN")
    assert (blog["side"], blog["tier"], blog["tierBasis"]) == ("WEAKLY_CONTRADICTS", 4, "DOMAIN")
    assert reuters["quoteVerified"] is True and "3.1 Mt CO2e" in reuters["quote"]
    assert blog["quoteVerified"] is True and "4.4 Mt CO2e" in blog["quote"]
    assert {source["method"] for source in sources.values()} == {"rules"}  # offline: the rule reader
    # The internal check carries what it found, not only its agent's name.
    assert (check["side"], check["evidenceKind"], check["tier"], check["tierBasis"]) == (
        "WEAKLY_CONTRADICTS",
        "INTERNAL",
        None,
        None,
    )
    assert "3,400 kt CO2e" in check["summary"] and "do not agree" in check["summary"]
    assert check["pages"] == [1] and check["quote"] is None and check["quoteVerified"] is None

    itself = verdicts[SELF_CONTRADICTED]
    assert itself["verdict"] == "CONTRADICTED"
    [arithmetic] = itself["decidingSources"]
    assert (arithmetic["side"], arithmetic["evidenceKind"], arithmetic["pages"]) == (
        "CONTRADICTS",
        "INTERNAL",
        [2],
    )
    assert "6.1%" in arithmetic["summary"] and "does not match" in arithmetic["summary"]


async def test_method_and_tier_basis_come_from_what_is_stored_also_for_older_verdicts(
    client: GraphQLClient, settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> None:
    report_id = await analysed_report(settings, session_factory, event_log)
    first = (await _verdicts(client, report_id))[MIXED]
    reuters = _by_publisher(first)["reuters.com"]
    reuters_finding = uuid.UUID(GlobalID.from_id(reuters["findingId"]).node_id)
    async with session_factory() as session, session.begin():
        # As if a model had read the source (the stance's method is the finding's column).
        await session.execute(update(Finding).where(Finding.id == reuters_finding).values(method="llm"))
        # A verdict stored before citations recorded their tier basis and method.
        verdict_id = uuid.UUID(GlobalID.from_id(first["id"]).node_id)
        stored = await session.scalar(select(Verdict.details).where(Verdict.id == verdict_id))
        assert stored is not None
        details = copy.deepcopy(stored)
        grounding = details["evaluation"]["grounding"]
        for citation in grounding["corroborating"] + grounding["weak_contradiction"]:
            del citation["tier_basis"]
            citation.pop("method", None)
        await session.execute(update(Verdict).where(Verdict.id == verdict_id).values(details=details))

    again = _by_publisher((await _verdicts(client, report_id))[MIXED])
    assert (again["reuters.com"]["method"], again["mining-notes.medium.com"]["method"]) == ("llm", "rules")
    assert again["reuters.com"]["tierBasis"] is None and again["reuters.com"]["side"] == "SUPPORTS"

    # A second analysis: the first run's verdict still names its own findings' methods.
    await analyse_offline(settings, session_factory, event_log, report_id, skip_claims_extraction=True)
    async with session_factory() as session:
        runs = set(await session.scalars(select(Finding.analysis_run_id).distinct()))
    assert len(runs) >= 2
    old = (await client.data(VERDICT, id=first["id"]))["node"]
    assert _by_publisher(old)["reuters.com"]["method"] == "llm"


def test_stored_citations_read_with_their_list_side_and_unknown_values_as_null() -> None:
    def cite(finding_id: str, url: str | None, **extra: Any) -> dict[str, Any]:
        return {"finding_id": finding_id, "agent": "news_media", "kind": "independent", "url": url, **extra}

    details = {
        "evaluation": {
            "grounding": {
                "corroborating": [cite("a", "https://x.example/1", tier_basis="domain")],
                "weak_support": [cite("b", "https://y.example/2", tier_basis="a future basis")],
                # Read the other way by another agent: listed once, where it first appears.
                "weak_contradiction": [cite("c", "https://x.example/1")],
                "internal_doubts": [cite("d", None, method="rules")],
                "self_reported": [cite("e", "https://company.example/news")],
            }
        }
    }
    sources = deciding_sources("insufficient_evidence", details)
    assert [(s.finding_uuid, s.side, s.tier_basis, s.method) for s in sources] == [
        ("a", SourceSide.SUPPORTS, TierBasis.DOMAIN, None),
        ("b", SourceSide.WEAKLY_SUPPORTS, None, None),
        ("d", SourceSide.WEAKLY_CONTRADICTS, None, "rules"),
    ]
    assert [s.side for s in deciding_sources("verified", details)] == [SourceSide.SUPPORTS]
    assert deciding_sources("unverified", details) == []
