"""Grounded verdicts through the API: a report whose claims each meet one planted evidence-library
document (or none), analysed by the built-in specialists offline, read back through GraphQL.

Every claim is quantitative, so the routing matrix sends none of them to a searching specialist:
they meet the library only because every claim is searched for independent evidence.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from strawberry.relay import GlobalID

from app.config import Settings
from app.db.models import Finding, RoutingAssignment
from app.db.session import SessionFactory
from app.embeddings import create_embedder
from app.events import EventLog
from app.evidence.ingest import add_evidence_document
from tests.support.evidence import article
from tests.support.graphql import GraphQLClient
from tests.support.pipeline import analyse_offline, seed_report

COMPANY = "Example Metals"  # seed_report's report is "Example Metals plc"
CLAIMS: dict[str, dict[str, Any]] = {
    "contradicted_by_tier_1": {
        "text": "Our Scope 1 and 2 emissions totalled 16.2 Mt CO2e in 2021.",
        "document": (
            "Example Metals under-reported its emissions",
            "Regulatory filings show Example Metals' Scope 1 and 2 emissions totalled 19.8 Mt CO2e in 2021.",
            "https://www.reuters.com/investigates/special-report/example-metals-emissions",
        ),
        "verdict": "CONTRADICTED",
    },
    "verified_by_tier_2": {
        "text": "Total water withdrawal was 412 megalitres in 2023.",
        "document": (
            "Example Metals water use steady",
            "Example Metals' total water withdrawal was 412 megalitres in 2023, regulator records show.",
            "https://www.reuters.com/sustainability/example-metals-water",
        ),
        "verdict": "VERIFIED",
    },
    "own_website_is_not_independent": {
        "text": "Renewable electricity reached 38% of our electricity use in 2023.",
        "document": (
            "Example Metals renewable electricity",
            "Renewable electricity reached 38% of Example Metals' electricity use in 2023.",
            "https://www.examplemetals.com/news/renewable-electricity-2023",
        ),
        "verdict": "UNVERIFIED",
    },
    "blog_is_below_the_bar": {
        "text": "We recycled 120 kt of mineral waste in 2023.",
        "document": (
            "Mining notes",
            "Example Metals recycled 120 kt of mineral waste in 2023, a respectable figure.",
            "https://mining-notes.medium.com/example-metals-waste",
        ),
        "verdict": "INSUFFICIENT_EVIDENCE",
    },
    "another_company_says_nothing": {
        "text": "Our total energy consumption was 5.2 TWh in 2022.",
        "document": (
            "Northwind energy use",
            "Northwind Mining's total energy consumption was 7.9 TWh in 2022, up on the year before.",
            "https://www.ft.com/content/northwind-energy",
        ),
        "verdict": "UNVERIFIED",
    },
    "another_year_says_nothing": {
        "text": "Our Scope 3 emissions were 410 Mt CO2e in 2022.",
        "document": (
            "Example Metals value chain emissions",
            "Example Metals' Scope 3 emissions were 455 Mt CO2e in 2019, its annual filing shows.",
            "https://www.bloomberg.com/news/example-metals-scope-3",
        ),
        "verdict": "UNVERIFIED",
    },
    "unrelated_story_says_nothing": {
        "text": "Hazardous waste sent to landfill was 3,200 t in 2023.",
        "document": (
            "Example Metals opens a canteen",
            "Example Metals opened a new staff canteen at its head office, serving local produce.",
            "https://www.theguardian.com/business/example-metals-canteen",
        ),
        "verdict": "UNVERIFIED",
    },
    "paraphrase_verifies": {
        "text": "Our Scope 2 emissions were 3.1 Mt CO2e in 2023.",
        "document": (
            "Example Metals electricity emissions",
            # The outlet's own finding, in other units: relaying "Example Metals reported ..." would be
            # the company's word (app.verification.sources.attribution), not an independent confirmation.
            "A Carbon Brief analysis of grid and smelter data puts Example Metals' Scope 2 emissions for "
            "2023 at 3.1 million tonnes of CO2e.",
            "https://www.carbonbrief.org/example-metals-scope-2",
        ),
        "verdict": "VERIFIED",
    },
    "report_contradicts_itself": {
        "text": "Scope 1 emissions at the smelter fell 6.1% to 2.60 Mt CO2e from 2.45 Mt CO2e.",
        "document": None,
        "verdict": "CONTRADICTED",
    },
}

QUERY = """
query Grounded($id: ID!) {
  report(id: $id) {
    claims(first: 50) { edges { node {
      text
      verdict { verdict reasoning
        decidingSources { publisher url tier quote quoteVerified evidenceKind pages publishedDate } }
      findings { agent evidenceKind supportsClaim details iteration }
    } } }
    analysis { ifrsCompliance { paragraphId disclosureCoverage claimsStanding claims } }
  }
}
"""


async def _plant(session_factory: SessionFactory, settings: Settings) -> None:
    embedder = create_embedder(settings)
    for case in CLAIMS.values():
        if case["document"] is None:
            continue
        title, sentence, url = case["document"]
        await add_evidence_document(
            session_factory,
            embedder,
            settings,
            title=title,
            text=article([sentence], seed=len(url)),
            source_url=url,
            published_date="2025-02-01",
        )


async def _analyse(settings: Settings, session_factory: SessionFactory, event_log: EventLog) -> str:
    claims = [
        {"text": case["text"], "claim_type": "quantitative", "page": index + 1}
        for index, case in enumerate(CLAIMS.values())
    ]
    seeded = await seed_report(session_factory, claims, pages=len(claims))
    await analyse_offline(settings, session_factory, event_log, seeded.report_id, skip_claims_extraction=True)
    return str(GlobalID("Report", str(seeded.report_id)))


async def test_each_planted_document_has_its_expected_effect(
    client: GraphQLClient, settings: Settings, session_factory: SessionFactory, event_log: EventLog
) -> None:
    await _plant(session_factory, settings)
    report_id = await _analyse(settings, session_factory, event_log)

    report = (await client.data(QUERY, id=report_id))["report"]
    claims = {edge["node"]["text"]: edge["node"] for edge in report["claims"]["edges"]}
    verdicts = {name: claims[case["text"]]["verdict"] for name, case in CLAIMS.items()}
    assert {name: verdict["verdict"] for name, verdict in verdicts.items()} == {
        name: case["verdict"] for name, case in CLAIMS.items()
    }

    [verified_by] = verdicts["verified_by_tier_2"]["decidingSources"]
    assert (verified_by["publisher"], verified_by["tier"], verified_by["quoteVerified"]) == (
        "reuters.com",
        2,
        True,
    )
    assert verified_by["evidenceKind"] == "INDEPENDENT" and verified_by["publishedDate"] == "2025-02-01"
    assert "412 megalitres" in verified_by["quote"]
    assert "reuters.com (Tier 2, 2025-02-01)" in verdicts["verified_by_tier_2"]["reasoning"]

    [contradicted_by] = verdicts["contradicted_by_tier_1"]["decidingSources"]
    assert (contradicted_by["publisher"], contradicted_by["tier"]) == ("reuters.com", 1)
    assert contradicted_by["url"] == CLAIMS["contradicted_by_tier_1"]["document"][2]

    itself = verdicts["report_contradicts_itself"]["decidingSources"]
    assert [(source["evidenceKind"], source["url"]) for source in itself] == [("INTERNAL", None)]

    own_site = claims[CLAIMS["own_website_is_not_independent"]["text"]]
    assert verdicts["own_website_is_not_independent"]["decidingSources"] == []
    heading = "Self-reported by the company, or relaying its statement (not independent evidence):"
    assert heading in own_site["verdict"]["reasoning"]
    site_findings = [
        f for f in own_site["findings"] if f["details"].get("source_domain") == "examplemetals.com"
    ]
    assert site_findings and {f["evidenceKind"] for f in site_findings} == {"INTERNAL"}

    for claim in claims.values():
        kinds = {finding["agent"]: finding["evidenceKind"] for finding in claim["findings"]}
        assert kinds["legal"] == "DISCLOSURE"
        assert "news_media" in kinds  # every claim met the evidence library
        assert all(f["supportsClaim"] is None for f in claim["findings"] if f["agent"] == "legal")

    compliance = report["analysis"]["ifrsCompliance"]
    assert compliance and all(
        item["disclosureCoverage"] != "NOT_ASSESSED" for item in compliance if item["claims"]
    )
    assert {item["claimsStanding"] for item in compliance} <= {
        "SUPPORTED",
        "PARTIALLY_SUPPORTED",
        "UNSUPPORTED",
        "CONTRADICTED",
        "NO_CLAIMS",
    }
    assert all((item["claimsStanding"] == "NO_CLAIMS") == (item["claims"] == 0) for item in compliance)


async def test_a_later_pass_does_not_store_an_unchanged_finding_again(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    await _plant(session_factory, settings)
    await _analyse(settings, session_factory, event_log)  # the judge sends weak claims back to the library

    async with session_factory() as session:
        findings = list(await session.scalars(select(Finding)))
        routed_again = await session.scalar(select(func.count()).where(RoutingAssignment.iteration > 0))
    assert routed_again  # re-investigation happened
    contents = [
        (f.agent, f.claim_id, f.evidence_type, f.summary, f.supports_claim, str(sorted(f.details.items())))
        for f in findings
    ]
    assert len(contents) == len(set(contents))
