"""Verdicts name only independent voices, end to end (offline pipeline, rule reader, real Postgres):
evidence-library documents that are the company speaking for itself — its subsidiary's site, its own
sustainability report, its CDP response, a press release on a Tier 2 domain, an outlet relaying its
statement — never corroborate or contradict its report, and one wire story on two sites is one
voice (trial s24, bugs 4, 5, 5b and 7)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.db.models import Finding, Verdict
from app.db.session import SessionFactory
from app.embeddings import create_embedder
from app.events import EventLog
from app.evidence.ingest import add_evidence_document
from tests.conftest import make_settings
from tests.support.pipeline import analyse_offline, seed_report
from tests.support.services import RunningServices

CLAIMS: list[dict[str, Any]] = [
    {"text": "Our Kiruna smelter ran on 100% hydropower in 2023.", "page": 1},
    {"text": "Our Scope 3 emissions were 14.2 Mt CO2e in 2023.", "page": 1},
    {"text": "We spent EUR 140 million on decarbonisation projects in 2023.", "page": 2},
    {"text": "Scope 1 emissions fell 12% to 2.3 Mt CO2e in 2023.", "page": 2},
    {"text": "Scope 2 emissions were 410 kt CO2e in 2023.", "page": 3},
    {"text": "Renewable electricity made up 64% of our electricity use in 2023.", "page": 3},
]
SUBSIDIARY_SITE = "https://www.example-energy.se/news/kiruna"
SUBSIDIARY_TEXT = "https://kirunapower.se/2024/hydropower"
CDP_RESPONSE = "https://www.cdp.net/en/responses/example-metals-2023"
PRESS_RELEASE_ON_TIER_2 = "https://www.spglobal.com/commodityinsights/example-metals-spend"
RELAYED_SUPPORT = "https://www.reuters.com/business/example-metals-scope-1"
RELAYED_CONTRADICTION = "https://www.bbc.co.uk/news/business-example-metals-scope-2"
WIRE_COPY = "https://www.marketscreener.com/news/example-metals-renewables"
WIRE_COPY_BY_PATH = "https://www.morningstar.com/news/reuters/2024/03/12/example-metals"
LIBRARY: list[tuple[str, str, str | None]] = [
    (
        "Kiruna update",
        "Example Energy AB confirms that Example Metals' Kiruna smelter ran on 100% hydropower in 2023.",
        SUBSIDIARY_SITE,
    ),
    (
        "Hydropower at Kiruna",
        "Kiruna Power AB, an Example Metals subsidiary, confirms that the Kiruna smelter ran on 100% "
        "hydropower in 2023.",
        SUBSIDIARY_TEXT,
    ),
    # The company's own report dropped into the library: no address at all.
    ("Example Metals Sustainability Report 2023", "Our Scope 3 emissions were 14.2 Mt CO2e in 2023.", None),
    (
        "Example Metals climate questionnaire answers",
        "C6.5 Our Scope 3 emissions were 14.2 Mt CO2e in 2023.",
        CDP_RESPONSE,
    ),
    (
        "Example Metals spending",
        "STOCKHOLM -- Example Metals today said it spent EUR 140 million on decarbonisation projects in "
        "2023. Contact: investor relations, Example Metals.",
        PRESS_RELEASE_ON_TIER_2,
    ),
    (
        "Example Metals trims Scope 1",
        "Example Metals said its Scope 1 emissions fell 12% to 2.3 Mt CO2e in 2023.",
        RELAYED_SUPPORT,
    ),
    (
        "Example Metals Scope 2",
        "Example Metals said its Scope 2 emissions were 520 kt CO2e in 2023.",
        RELAYED_CONTRADICTION,
    ),
    (
        "Example Metals renewables",
        "Renewables supplied 64% of Example Metals' electricity use in 2023, up from 55% a year before. "
        "(Reuters)",
        WIRE_COPY,
    ),
    (
        "Example Metals power mix",
        "Example Metals' renewable share of electricity use reached 64% in 2023 against 55% in 2022.",
        WIRE_COPY_BY_PATH,
    ),
]


async def test_the_companys_own_word_never_decides_and_one_wire_story_is_one_voice(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    # given: a report of Example Metals and library documents in which the company speaks for itself
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
            published_date="2024-03-12",
        )
    seeded = await seed_report(session_factory, [{"claim_type": "quantitative", **claim} for claim in CLAIMS])
    # when
    await analyse_offline(
        settings, session_factory, event_log, seeded.report_id, skip_claims_extraction=True, max_iterations=1
    )
    # then
    async with session_factory() as session:
        verdicts = {
            str(v.claim_id): v for v in await session.scalars(select(Verdict).where(Verdict.is_final))
        }
        findings = list(await session.scalars(select(Finding).where(Finding.claim_id.is_not(None))))
    kiruna, scope3, spend, scope1, scope2, renewables = seeded.claim_ids
    read = _readings(findings)

    # Bug 5: the subsidiary's site (own domain prefix) and a site saying it is a subsidiary.
    for url in (SUBSIDIARY_SITE, SUBSIDIARY_TEXT):
        (finding,) = read[(kiruna, url)]
        assert finding.details["stance"] == "supports"
        assert finding.details["tier_basis"] == "company_site", url
        assert finding.evidence_kind == "internal"
    assert verdicts[kiruna].verdict == "unverified", verdicts[kiruna].reasoning

    # Bug 5b: its own report (no address) and its CDP response (cdp.net is Tier 2 research otherwise).
    own_report = [
        f for (claim, url), fs in read.items() if claim == scope3 and url.startswith("library://") for f in fs
    ]
    assert own_report and all(f.details["tier_basis"] == "company_report" for f in own_report)
    (cdp,) = read[(scope3, CDP_RESPONSE)]
    assert cdp.details["tier_basis"] == "company_report" and cdp.evidence_kind == "internal"
    assert verdicts[scope3].verdict == "unverified", verdicts[scope3].reasoning

    # Bug 4b: a press release on a Tier 2 domain is self-reported.
    (release,) = read[(spend, PRESS_RELEASE_ON_TIER_2)]
    assert (release.details["source_tier"], release.details["tier_basis"]) == (3, "press_release")
    assert verdicts[spend].verdict == "unverified", verdicts[spend].reasoning

    # Bug 4: an outlet relaying the company's statement is marked, and is not corroboration.
    (relayed,) = read[(scope1, RELAYED_SUPPORT)]
    assert relayed.details["source_tier"] == 2 and relayed.details["relays_company"] is True
    assert relayed.evidence_kind == "internal"
    assert "relays the company's own statement" in relayed.summary
    assert verdicts[scope1].verdict == "unverified", verdicts[scope1].reasoning
    assert "Self-reported by the company" in verdicts[scope1].reasoning

    # ...and one that contradicts the report is an internal doubt, not an independent contradiction.
    (other,) = read[(scope2, RELAYED_CONTRADICTION)]
    assert other.details["stance"] == "contradicts" and other.details["relays_company"] is True
    grounding = verdicts[scope2].details["evaluation"]["grounding"]
    assert [s["url"] for s in grounding["internal_doubts"]] == [RELAYED_CONTRADICTION]
    assert not grounding["contradicting"] and not grounding["weak_contradiction"]
    assert verdicts[scope2].verdict == "insufficient_evidence"

    # Bug 7: two Tier 3 copies of one Reuters story (credit line, /news/reuters/ path) are one voice.
    copies = [read[(renewables, url)][0] for url in (WIRE_COPY, WIRE_COPY_BY_PATH)]
    assert [f.details["voice"] for f in copies] == ["reuters.com", "reuters.com"]
    assert all(f.details["stance"] == "supports" and f.evidence_kind == "independent" for f in copies)
    assert verdicts[renewables].verdict == "insufficient_evidence", verdicts[renewables].reasoning


def _readings(findings: list[Finding]) -> dict[tuple[str, str], list[Finding]]:
    """Each (claim, source URL) with the news/media agent's findings on it."""
    readings: dict[tuple[str, str], list[Finding]] = {}
    for finding in findings:
        url = finding.details.get("source_url")
        if url and "stance" in finding.details and finding.agent == "news_media":
            readings.setdefault((str(finding.claim_id), url), []).append(finding)
    return readings
