"""The exports and the Python client keep what decided a verdict: each deciding source's side, tier and
how it was decided, who read it (rules or a model), its quote and whether the quote was found, an
internal check's finding, and the claim's IFRS mapping; the Markdown keeps the reasoning's lines."""

from __future__ import annotations

import json
from typing import Any

from strawberry.relay import GlobalID

from app.config import Settings
from app.db.session import SessionFactory
from app.events import EventLog
from clients.console.export import render_markdown
from clients.sibyl import SibylClient
from clients.sibyl.models import Claim, Report
from tests.support.graphql import GraphQLClient
from tests.support.mixed_evidence import DISPUTING_URL, MIXED, SUPPORTING_URL, analysed_report

EXPORT = "query Export($id: ID!, $format: ExportFormat!) { report(id: $id) { export(format: $format) } }"


async def test_exports_and_client_carry_each_sources_side_and_the_ifrs_mapping(
    api_url: str,
    api_key: str,
    client: GraphQLClient,
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
) -> None:
    report_id = str(GlobalID("Report", str(await analysed_report(settings, session_factory, event_log))))

    async with SibylClient(api_url, api_key) as sibyl:
        page = await sibyl.claims_page(report_id)
    [mixed] = [claim for claim in page.claims if claim.text == MIXED]
    assert mixed.verdict is not None and mixed.verdict.verdict == "INSUFFICIENT_EVIDENCE"
    by_url = {source.url: source for source in mixed.verdict.deciding_sources}
    supporting, disputing, check = by_url[SUPPORTING_URL], by_url[DISPUTING_URL], by_url[None]
    assert (supporting.side, supporting.tier_basis, supporting.method, supporting.quote_verified) == (
        "SUPPORTS",
        "DOMAIN",
        "rules",
        True,
    )
    assert (disputing.side, disputing.tier, disputing.agent) == ("WEAKLY_CONTRADICTS", 4, "news_media")
    assert (check.side, check.evidence_kind, check.pages) == ("WEAKLY_CONTRADICTS", "INTERNAL", (1,))
    assert "do not agree after unit conversion" in check.summary and check.finding_id
    paragraphs = {mapping.paragraph_id for mapping in mixed.verdict.ifrs_mapping}
    assert "S2.29(a)" in paragraphs  # the judge's mapping, as the API has it

    exported = json.loads((await client.data(EXPORT, id=report_id, format="JSON"))["report"]["export"])
    [claim] = [item for item in exported["claims"] if item["text"] == MIXED]
    sources = {source["url"]: source for source in claim["verdict"]["decidingSources"]}
    assert {
        key: sources[SUPPORTING_URL][key] for key in ("side", "tierBasis", "method", "quoteVerified")
    } == {
        "side": "SUPPORTS",
        "tierBasis": "DOMAIN",
        "method": "rules",
        "quoteVerified": True,
    }
    assert "3.1 Mt CO2e" in sources[SUPPORTING_URL]["quote"]
    assert sources[DISPUTING_URL]["side"] == "WEAKLY_CONTRADICTS"
    assert sources[None]["summary"] == check.summary and sources[None]["agent"] == "data_metrics"
    ifrs = claim["verdict"]["ifrsMapping"]
    assert {item["paragraphId"] for item in ifrs} == paragraphs
    assert all(set(item) == {"paragraphId", "source", "status", "relationship"} for item in ifrs)

    markdown = (await client.data(EXPORT, id=report_id, format="MARKDOWN"))["report"]["export"]
    section = markdown[markdown.index("Claim has INSUFFICIENT EVIDENCE") :]
    assert (
        "\n\nIndependent support (does not decide on its own):\n\n- reuters.com (Tier 2, 2025-02-01)"
        in section
    )
    assert (
        "- **weakly contradicts** — data\\_metrics (internal check, page 1, read by the rule reader): "
        f"{check.summary}\n"
    ) in section
    assert (
        "- **supports** — reuters.com: Example Metals electricity emissions (tier 2 from the domain table, "
        f"2025-02-01, read by the rule reader) <{SUPPORTING_URL}> — “Registry records show Example "
        "Metals' Scope 2 emissions were 3.1 Mt CO2e in 2023.” (quote found in the source)\n"
    ) in section
    first_mapping = mixed.verdict.ifrs_mapping[0]
    assert f"**IFRS mapping:**\n\n- {first_mapping.paragraph_id} ({first_mapping.source}" in section


def _claim(verdict: dict[str, Any]) -> Claim:
    return Claim.from_json(
        {"id": "c", "text": "A claim.", "claimType": "QUANTITATIVE", "priority": "HIGH", "sourcePage": 3}
        | {"verdict": verdict}
    )


def test_markdown_keeps_the_reasonings_lines_and_escapes_what_would_become_markup() -> None:
    reasoning = (
        "Claim is CONTRADICTED: the evidence below shows it.\n"
        "Contradicted by the report itself:\n"
        "- Data/Metrics agent (report pages 1, 2): Scope 1 is 2.3 Mt on page 1 but 2.5 Mt on page 2.\n"
        "- # not a heading\n"
        "2023. A line that is not a numbered list.\n"
        "What is missing: nothing."
    )
    claim = _claim({"verdict": "CONTRADICTED", "confidence": 0.9, "reasoning": reasoning})
    markdown = render_markdown(Report(id="r", status="COMPLETED"), [claim])

    assert (
        "**Reasoning.** Claim is CONTRADICTED: the evidence below shows it.\n\n"
        "Contradicted by the report itself:\n\n"
        "- Data/Metrics agent (report pages 1, 2): Scope 1 is 2.3 Mt on page 1 but 2.5 Mt on page 2.\n"
        "- \\# not a heading\n\n"
        "2023\\. A line that is not a numbered list.\n\n"
        "What is missing: nothing.\n"
    ) in markdown


def test_a_source_from_a_server_without_sides_renders_as_before() -> None:
    source = {
        "publisher": "data_metrics",
        "evidenceKind": "INTERNAL",
        "pages": [1, 2],
        "summary": "Totals differ.",
    }
    claim = _claim({"verdict": "CONTRADICTED", "reasoning": "", "decidingSources": [source]})
    markdown = render_markdown(Report(id="r", status="COMPLETED"), [claim])

    assert "- data\\_metrics (internal check, pages 1, 2): Totals differ.\n" in markdown
    assert "**Reasoning.**" not in markdown and "**IFRS mapping:**" not in markdown
