"""The geography specialist: offline it reports located places and that imagery is unavailable;
with a (fake) Planetary Computer it compares NDVI for vegetation claims and takes a side only then;
every provider failure is an honest finding; and the agent runs in the pipeline."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any, cast

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import Finding
from app.db.session import SessionFactory
from app.events import EventLog
from app.geo.gazetteer import load_gazetteer
from app.geo.imagery import site_bbox
from app.geo.period import claimed_period, season_windows
from app.knowledge.search import KnowledgeSearch
from app.llm import UsageTrace
from app.pipeline.runtime import NodeRecorder, PipelineTools
from app.search.web import EvidenceSearch
from app.services.analysis import open_analysis_run
from app.verification.contract.investigator import InvestigationTools
from app.verification.investigators.geography import company_names, investigate_geography
from app.verification.records import ClaimState, RoutingEntry, SpecialistTask
from tests.support.fake_imagery import FakeImagery, fake_imagery_server
from tests.support.pipeline import KNOWN_CLAIMS, investigators, pipeline_runner, seed_report

MANGROVES = "Since 2020 we have restored 200 hectares of mangroves near Mombasa, Kenya."
OFFICE = "Our regional headquarters is located in Nairobi, Kenya."
KALIMANTAN = "Our reforestation project in Central Kalimantan, Borneo has restored 5,000 hectares since 2019."
WATER = "We cut water use by 12% across all operations."
OFFLINE_REASON = "no imagery provider configured (IMAGERY_PROVIDER=none)"


class Recorder:
    """Stands in for the node's recorder: keeps the events an investigator emits."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    async def emit(self, event_type: str, data: dict[str, Any] | None = None) -> None:
        self.events.append((event_type, data or {}))


def tools_for(settings: Settings) -> tuple[InvestigationTools, Recorder]:
    """Tools for an investigator that needs only settings and `think` (no database, no LLM)."""
    recorder = Recorder()
    tools = PipelineTools(
        recorder=cast(NodeRecorder, recorder),
        settings=settings,
        llm=None,
        usage=UsageTrace(),
        session_factory=cast(SessionFactory, None),
        knowledge=cast(KnowledgeSearch, None),
        search=cast(EvidenceSearch, None),
    )
    return tools, recorder


def claim(text: str, number: int = 1, *, page: int = 4, context: str | None = None) -> ClaimState:
    return ClaimState(
        claim_id=f"c{number}",
        text=text,
        claim_type="geographic",
        priority="high",
        source_page=page,
        source_context=context or text,
    )


def task(
    *claims: ClaimState, routing: list[RoutingEntry] | None = None, company: str | None = None
) -> SpecialistTask:
    return SpecialistTask(
        report_id="00000000-0000-0000-0000-000000000001",
        run_id="00000000-0000-0000-0000-000000000002",
        agent="geography",
        iteration=1 if routing else 0,
        company_name=company,
        claims=list(claims),
        routing=routing or [],
        info_requests=[],
    )


def online(fake: FakeImagery) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        imagery_provider="planetary_computer",
        imagery_stac_url=fake.stac_url,
        imagery_data_api_url=fake.data_url,
        fetch_allow_private_addresses=True,
    )


@pytest.fixture
async def fake() -> AsyncIterator[FakeImagery]:
    async with fake_imagery_server() as server:
        yield server


# --- offline -------------------------------------------------------------------------------------


async def test_offline_reports_located_places_and_that_imagery_is_unavailable() -> None:
    tools, recorder = tools_for(Settings(_env_file=None))  # type: ignore[call-arg]
    outcome = await investigate_geography(
        task(claim(KNOWN_CLAIMS[0]["text"], 1, page=1), claim(WATER, 2), claim(MANGROVES, 3)), tools
    )
    pilbara, water, mangroves = outcome.findings

    assert (pilbara.evidence_type, pilbara.supports_claim, pilbara.confidence) == (
        "location_resolved",
        None,
        None,
    )
    assert pilbara.method == "gazetteer"
    assert [(p["name"], p["kind"], p["country_code"]) for p in pilbara.details["places"]] == [
        ("Pilbara", "region", "AU"),
        ("Western Australia", "region", "AU"),
    ]
    assert pilbara.details["imagery"]["available"] is False
    assert pilbara.details["imagery"]["reason"] == OFFLINE_REASON
    assert pilbara.details["sources"] == [
        {
            "url": None,
            "title": "The report, page 1",
            "domain": None,
            "tier": None,
            "published_date": None,
            "page": 1,
            "snippet": KNOWN_CLAIMS[0]["text"],
        }
    ]
    assert "Located Pilbara, Australia (-22.00, 118.00)" in pilbara.summary
    assert "does not verify the claim" in pilbara.summary

    assert (water.evidence_type, water.supports_claim, water.claim_id) == ("none", None, "c2")
    assert water.details["places"] == [] and water.details["searched"] == ["the claim"]

    assert mangroves.evidence_type == "location_resolved" and mangroves.supports_claim is None
    assert mangroves.details["vegetation_claim"] == "restoration"
    assert mangroves.details["period"]["start"] == "2020-01-01"

    messages = [data["message"] for kind, data in recorder.events if kind == "agent_thinking"]
    assert "no imagery provider is configured" in messages[0]
    assert any(m.startswith("Geography agent: located Pilbara, Australia (-22.00, 118.00)") for m in messages)


async def test_places_come_from_the_context_or_the_judges_queries_when_the_claim_names_none() -> None:
    tools, _ = tools_for(Settings(_env_file=None))  # type: ignore[call-arg]
    from_context = claim(
        "The site restored 40 ha of wetland.",
        1,
        context="At our plant in Surabaya, Indonesia, the site restored 40 ha.",
    )
    refined = claim("The smelter cut its emissions.", 2)
    routing = [
        RoutingEntry(
            claim_id="c2",
            assigned_agents=["geography"],
            reasoning="judge",
            method="rules",
            context={
                "claim_id": "c2",
                "evidence_gap": "location",
                "refined_queries": ["Kitimat smelter British Columbia"],
                "required_evidence": None,
                "cycle_number": 1,
            },
        )
    ]
    first, second = (
        await investigate_geography(task(from_context, refined, routing=routing), tools)
    ).findings
    assert first.details["searched"] == ["the claim", "its source context"]
    assert [p["name"] for p in first.details["places"]] == ["Surabaya", "Indonesia"]
    assert second.details["searched"] == ["the claim", "the judge's refined queries"]
    assert [p["name"] for p in second.details["places"]] == ["British Columbia"]


async def test_the_company_name_is_not_located() -> None:
    tools, _ = tools_for(Settings(_env_file=None))  # type: ignore[call-arg]
    for company in ("Rio Tinto plc", "Rio Tinto"):
        work = task(claim("Rio Tinto cut emissions at its Saguenay smelter.", 1), company=company)
        (finding,) = (await investigate_geography(work, tools)).findings
        assert [p["name"] for p in finding.details["places"]] == ["Saguenay"]
    assert company_names("Rio Tinto plc") == ["Rio Tinto plc", "Rio Tinto"]
    assert company_names("Siemens AG") == ["Siemens AG", "Siemens"]
    assert company_names("Koninklijke Philips N.V.") == ["Koninklijke Philips N.V.", "Koninklijke Philips"]
    assert company_names("Volkswagen Group") == ["Volkswagen Group"]
    assert company_names(None) == []


# --- with imagery --------------------------------------------------------------------------------


async def test_rising_ndvi_supports_a_restoration_claim(fake: FakeImagery) -> None:
    fake.ndvi = lambda year: 0.30 + 0.02 * (year - 2020)
    tools, recorder = tools_for(online(fake))
    (finding,) = (await investigate_geography(task(claim(MANGROVES)), tools)).findings

    assert (finding.evidence_type, finding.supports_claim, finding.confidence) == (
        "satellite_ndvi",
        True,
        0.6,
    )
    assert finding.method == "gazetteer+stac_ndvi"
    (site,) = finding.details["imagery"]["sites"]
    assert site["place"] == "Mombasa" and site["ndvi_change"] > 0.05
    assert finding.details["imagery"]["available"] is True
    assert "consistent with the claimed restoration (indirect" in finding.summary
    page, start, end = finding.details["sources"]
    assert page["page"] == 4
    assert start["url"].startswith(f"{fake.url}/stac/collections/sentinel-2-l2a/items/S2B_MSIL2A_2020")
    assert {"item_id", "cloud_cover", "published_date", "title", "domain"} <= set(end)

    # What the fake received: the site's square, the claimed period's two seasons, the cloud limit.
    mombasa = next(p for p in finding.details["places"] if p["name"] == "Mombasa")
    bbox = site_bbox(mombasa["latitude"], mombasa["longitude"])
    windows = season_windows(
        claimed_period(MANGROVES, today=datetime.now(UTC).date()), earliest=datetime(2016, 1, 1).date()
    )
    assert windows is not None
    assert [(r["bbox"], r["datetime"], r["query"]) for r in fake.requests] == [
        (bbox, window.interval(), {"eo:cloud_cover": {"lt": 20.0}}) for window in windows
    ]
    assert [r.query["expression"] for r in fake.statistics] == [
        "(B08-B04)/(B08+B04)",
        "(B08-B04)/(B08+B04-2000)",
    ]
    assert any("NDVI around Mombasa changed by +" in data["message"] for _, data in recorder.events)


async def test_falling_ndvi_contradicts_and_a_small_change_is_inconclusive(fake: FakeImagery) -> None:
    fake.ndvi = lambda year: 0.60 - 0.03 * (year - 2020)
    tools, _ = tools_for(online(fake))
    (falling,) = (await investigate_geography(task(claim(MANGROVES)), tools)).findings
    assert (falling.supports_claim, falling.confidence) == (False, 0.6)
    assert "Vegetation decreased, at odds with the claimed restoration" in falling.summary

    fake.ndvi = lambda year: 0.50 + 0.001 * (year - 2020)
    (flat,) = (await investigate_geography(task(claim(MANGROVES)), tools)).findings
    assert (flat.evidence_type, flat.supports_claim, flat.confidence) == ("satellite_ndvi", None, None)
    assert "No clear change" in flat.summary

    no_loss = "Our concession near Mombasa, Kenya has remained deforestation-free since 2020."
    fake.ndvi = lambda year: 0.50 + 0.05 * (year - 2020)
    (steady,) = (await investigate_geography(task(claim(no_loss)), tools)).findings
    assert steady.supports_claim is None  # greener around one point does not show nothing was cleared


async def test_claims_about_other_things_or_only_regions_are_located_without_imagery(
    fake: FakeImagery,
) -> None:
    tools, _ = tools_for(online(fake))
    office, kalimantan = (
        await investigate_geography(task(claim(OFFICE, 1), claim(KALIMANTAN, 2)), tools)
    ).findings
    assert (office.evidence_type, office.supports_claim) == ("location_resolved", None)
    assert "asserts no change in vegetation" in office.details["imagery"]["reason"]
    assert (kalimantan.evidence_type, kalimantan.supports_claim) == ("location_resolved", None)
    assert "names no town" in kalimantan.details["imagery"]["reason"]
    assert fake.requests == [] and fake.statistics == []


@pytest.mark.parametrize(
    ("failure", "reason"),
    [
        ("stac_500", "HTTP 500"),
        ("stac_garbage", "invalid JSON"),
        ("no_scenes", "no sentinel-2-l2a scene"),
        ("data_garbage", "invalid JSON"),
    ],
)
async def test_imagery_failures_give_an_honest_finding_with_the_places(
    fake: FakeImagery, failure: Any, reason: str
) -> None:
    fake.failure = failure
    tools, recorder = tools_for(online(fake))
    (finding,) = (await investigate_geography(task(claim(MANGROVES)), tools)).findings
    assert (finding.evidence_type, finding.supports_claim, finding.method) == (
        "location_resolved",
        None,
        "gazetteer",
    )
    assert finding.details["imagery"]["available"] is False
    assert reason in finding.details["imagery"]["reason"] and reason in finding.summary
    assert [p["name"] for p in finding.details["places"]] == ["Mombasa", "Kenya"]
    assert any("imagery unavailable for Mombasa" in data["message"] for _, data in recorder.events)


async def test_slow_imagery_is_cut_off_within_the_agents_time_limit(fake: FakeImagery) -> None:
    fake.delay = 20.0  # imagery answers long after the agent's limit
    settings = online(fake).model_copy(update={"agent_timeout_seconds": 1.0})
    tools, _ = tools_for(settings)
    # Indexed once per process (seconds on a slow machine), by whichever test comes first: not part
    # of what is timed here.
    await asyncio.to_thread(load_gazetteer)
    started = asyncio.get_running_loop().time()
    (finding,) = (await investigate_geography(task(claim(MANGROVES)), tools)).findings
    # Imagery was given up at its budget and the agent went on without it. Locating places is CPU
    # work that a loaded machine slows down, so the bound is 10x the limit (waiting for the imagery
    # would take 20 s); the summary says it was the budget that stopped it.
    assert asyncio.get_running_loop().time() - started < 10.0
    assert (finding.evidence_type, finding.supports_claim) == ("location_resolved", None)
    assert "imagery time budget (0.6 s of the agent's time limit) ran out" in finding.summary


async def test_one_comparison_serves_every_claim_about_the_same_town(fake: FakeImagery) -> None:
    fake.ndvi = lambda year: 0.30 + 0.02 * (year - 2020)
    tools, _ = tools_for(online(fake))
    again = MANGROVES.replace("200 hectares", "another 50 ha")
    findings = (await investigate_geography(task(claim(MANGROVES, 1), claim(again, 2)), tools)).findings
    assert [f.supports_claim for f in findings] == [True, True]
    assert len(fake.requests) == 2 and len(fake.statistics) == 2


# --- in the pipeline -----------------------------------------------------------------------------


async def test_pipeline_records_geography_findings_offline(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    seeded = await seed_report(session_factory)
    started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
    async with pipeline_runner(
        settings, session_factory, event_log, agents=investigators(geography=investigate_geography)
    ) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        findings = list(await session.scalars(select(Finding).where(Finding.agent == "geography")))
    by_claim = {str(f.claim_id): f for f in findings if f.iteration == 0}
    pilbara = by_claim[seeded.claim_ids[0]]
    assert (pilbara.evidence_type, pilbara.supports_claim, pilbara.method) == (
        "location_resolved",
        None,
        "gazetteer",
    )
    assert pilbara.details["imagery"]["reason"] == OFFLINE_REASON
    assert pilbara.evidence_kind == "context"  # where the claim is, not whether it is true
    # Weipa and Kitimat are towns of fewer than 15,000 people: not in the gazetteer, honestly "none".
    assert {by_claim[seeded.claim_ids[i]].evidence_type for i in (4, 5)} == {"none"}
    assert all(f.evidence_type != "error" for f in findings)
