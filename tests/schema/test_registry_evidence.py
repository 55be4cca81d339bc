"""Registry evidence end to end: registries imported (one by the command line), a report of a company
they list analysed offline by the built-in specialists, verdicts and their deciding sources read
back through GraphQL.

The registry files are written here in the real downloads' shape with a made-up company, Karoo
Metals AG: SBTi lists it with a validated 42% target, NGER with 7,405,060 t CO2-e of Scope 1 for
2021-22, and the Net Zero Tracker with the company's own net-zero year.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from strawberry.relay import GlobalID

from app.config import Settings
from app.db.models import Finding, Report, RoutingAssignment, Verdict
from app.db.session import SessionFactory
from app.events import EventLog
from app.llm import LLMClient
from app.organisations import ensure_organisation
from app.pipeline.specialists import load_investigators
from app.registries.importer import import_registry
from app.registries.records import RegistryKind
from app.services.analysis import open_analysis_run
from tests.app.registries import files
from tests.conftest import make_settings, new_api_key
from tests.support.fake_llm import FakeReply, fake_llm_server, settings_for
from tests.support.graphql import GraphQLClient
from tests.support.pipeline import analyse_offline, pipeline_runner, seed_parsed_pages, seed_report
from tests.support.services import RunningServices

pytestmark = pytest.mark.usefixtures("no_registries")

COMPANY = "Karoo Metals AG"
ROUTE_MODEL = "test/route-model"
HEADER = "Karoo Metals AG Sustainability Report 2023. Our year 2023 in review; 2023 highlights."
VALIDATED = (
    "Karoo Metals AG commits to reduce absolute scope 1 and 2 GHG emissions 42% by FY2030 from a FY2019 "
    "base year."
)
CLAIMS: dict[str, dict[str, Any]] = {
    "validated_target": {
        "text": "Our target to reduce absolute Scope 1 and 2 GHG emissions 42% by FY2030 from a FY2019 base "
        "year has been validated by the Science Based Targets initiative (SBTi).",
        "claim_type": "strategic",
        "verdict": "VERIFIED",
        "stance": "supports",
    },
    "another_percentage": {
        "text": "The SBTi validated our target to reduce absolute Scope 1 and 2 GHG emissions 55% by FY2030 "
        "from a FY2019 base year.",
        "claim_type": "strategic",
        "verdict": "CONTRADICTED",
        "stance": "contradicts",
    },
    "below_the_regulator": {
        "text": "Scope 1 emissions from our Australian operations were 6.1 million tonnes CO2-e in FY2022.",
        "claim_type": "quantitative",
        "verdict": "CONTRADICTED",
        "stance": "contradicts",
    },
    "another_period": {
        "text": "Our Scope 2 emissions were 0.4 Mt CO2e in calendar year 2019.",
        "claim_type": "quantitative",
        "verdict": "UNVERIFIED",
        "stance": None,
    },
}

QUERY = """
query Registry($id: ID!) {
  report(id: $id) {
    registryMatches { entityKey registry entityName basis certain used decision }
    claims(first: 50) { edges { node {
      text riskFlags { kind phrase }
      verdict { verdict reasoning
        decidingSources { agent side publisher tier tierBasis evidenceKind quote quoteVerified
          registry { registry title snapshotDate period recordKeys entityNames matchBasis coverage } } }
      findings { agent evidenceType evidenceKind supportsClaim details }
    } } }
  }
}
"""


def sbti_rows(wording: str, updated: datetime) -> files.Rows:
    return [
        files.SBTI_HEADER,
        [40000001.0, COMPANY, "DE0000000001", None, "Corporate", "Germany", "Europe", "Mining",
         "Targets set", "1.5°C", "FY2030", None, None, None, "Committed", None, wording, None, None,
         None, None, updated],
        [40000009.0, "Karoo Metals Energy AG", None, None, "Corporate", "Germany", "Europe", "Energy",
         "Committed", None, None, None, None, None, None, None, None, None, None, None, None,
         datetime(2025, 1, 9)],
    ]  # fmt: skip


def sibyl(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args], env=env, capture_output=True, text=True, timeout=300
    )


async def import_karoo(settings: Settings, session_factory: SessionFactory, folder: Path) -> None:
    """SBTi by the command line as an operator runs it; NGER and the tracker by the importer."""
    sbti = files.write_xlsx(
        folder / "sbti-companies-taking-action-2026-03-05.xlsx",
        {"Data": sbti_rows(VALIDATED, datetime(2022, 5, 1))},
    )
    env = {**os.environ, "DATABASE_URL": settings.require_database_url()}
    imported = await asyncio.to_thread(sibyl, env, "registry", "import", "sbti", str(sbti))
    assert imported.returncode == 0, imported.stderr
    nger = files.write_csv(folder / "au-nger-corporate-emissions-2021-22.csv", files.nger_rows())
    await import_registry(session_factory, RegistryKind.NGER, [nger])
    tracker = files.write_xlsx(
        folder / "net-zero-tracker-companies-2025-11-09.xlsx", {"Current Snapshot": files.nzt_rows()}
    )
    await import_registry(session_factory, RegistryKind.NET_ZERO_TRACKER, [tracker])


async def analyse(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, claims: list[dict[str, Any]]
) -> str:
    seeded = await seed_report(
        session_factory,
        [{**claim, "page": 1} for claim in claims],
        pages=2,
        company_name=COMPANY,
        header=HEADER,
    )
    await analyse_offline(settings, session_factory, event_log, seeded.report_id, skip_claims_extraction=True)
    return str(GlobalID("Report", str(seeded.report_id)))


def by_text(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {edge["node"]["text"]: edge["node"] for edge in report["claims"]["edges"]}


async def test_registries_decide_what_they_prove(
    client: GraphQLClient,
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    tmp_path: Path,
) -> None:
    await import_karoo(settings, session_factory, tmp_path)
    report_id = await analyse(settings, session_factory, event_log, list(CLAIMS.values()))

    report = (await client.data(QUERY, id=report_id))["report"]
    claims = by_text(report)
    assert {name: claims[case["text"]]["verdict"]["verdict"] for name, case in CLAIMS.items()} == {
        name: case["verdict"] for name, case in CLAIMS.items()
    }
    for name, case in CLAIMS.items():
        registry = [f for f in claims[case["text"]]["findings"] if f["evidenceType"] == "registry_record"]
        stances = {
            finding["details"]["registry"]["registry"]: finding["details"]["stance"] for finding in registry
        }
        assert (stances.get("sbti") or stances.get("nger")) == (
            None if case["stance"] is None else case["stance"]
        ), name

    [validated_by] = claims[CLAIMS["validated_target"]["text"]]["verdict"]["decidingSources"]
    assert (validated_by["side"], validated_by["tier"], validated_by["tierBasis"]) == (
        "SUPPORTS",
        1,
        "REGISTRY",
    )
    assert validated_by["publisher"] == "sciencebasedtargets.org" and validated_by["quoteVerified"] is True
    assert validated_by["registry"] == {
        "registry": "SBTI",
        "title": "SBTi Companies Taking Action",
        "snapshotDate": "2026-03-05",
        "period": None,
        "recordKeys": ["id:40000001"],
        "entityNames": [COMPANY],
        "matchBasis": "name",
        "coverage": None,
    }
    assert "42%" in validated_by["quote"]

    [below_by] = claims[CLAIMS["below_the_regulator"]["text"]]["verdict"]["decidingSources"]
    assert below_by["side"] == "CONTRADICTS" and below_by["registry"]["registry"] == "NGER"
    assert below_by["registry"]["period"] == "2021-22" and below_by["registry"]["entityNames"] == [
        "KAROO METALS LIMITED"
    ]
    assert "7,405,060" in claims[CLAIMS["below_the_regulator"]["text"]]["verdict"]["reasoning"]

    matches = {(m["registry"], m["entityName"]): m for m in report["registryMatches"]}
    assert matches[("SBTI", COMPANY)]["certain"] and matches[("NGER", "KAROO METALS LIMITED")]["used"]
    assert ("SBTI", "Karoo Metals Energy AG") not in matches  # another company sharing a word


#: One company per registry: (company, claim, expected verdict, the registry that decides it).
JURISDICTIONS = [
    ("Glen Power Limited", "Scope 1 emissions from our UK installations were 5,000 t CO2e in 2022.",
     "VERIFIED", "UK_ETS"),
    ("Karoo Energy Corp", "Scope 1 emissions from our US facilities were 500,000 t CO2e in 2020.",
     "CONTRADICTED", "EPA_GHGRP"),
    (COMPANY, "Our global Scope 1 emissions were 9.8 Mt CO2e in FY2022.", "INSUFFICIENT_EVIDENCE", "NGER"),
    (COMPANY, "We aim to reach net zero across our operations by 2045.", "INSUFFICIENT_EVIDENCE",
     "NET_ZERO_TRACKER"),
]  # fmt: skip


async def test_each_registry_decides_its_own_jurisdiction_and_no_more(
    client: GraphQLClient,
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    tmp_path: Path,
) -> None:
    await import_karoo(settings, session_factory, tmp_path)
    uk_ets = files.write_xlsx(
        tmp_path / "uk-ets-compliance-report-2025-06-11.xlsx", {"Data": files.uk_ets_rows()}
    )
    summary = files.write_xlsx(tmp_path / "us-epa-ghgrp-2020-data-summary.xlsx", files.ghgrp_summary_sheets())
    parents = files.write_xlsx(tmp_path / "us-epa-ghgrp-parent-companies.xlsx", files.ghgrp_parent_sheets())
    await import_registry(session_factory, RegistryKind.UK_ETS, [uk_ets])
    await import_registry(session_factory, RegistryKind.EPA_GHGRP, [summary, parents])

    for company, text, verdict, registry in JURISDICTIONS:
        claim = {"text": text, "claim_type": "quantitative"}
        seeded = await seed_report(
            session_factory, [{**claim, "page": 1}], pages=2, company_name=company, header=HEADER
        )
        await analyse_offline(
            settings, session_factory, event_log, seeded.report_id, skip_claims_extraction=True
        )
        report = (await client.data(QUERY, id=str(GlobalID("Report", str(seeded.report_id)))))["report"]
        node = by_text(report)[text]
        assert node["verdict"]["verdict"] == verdict, (company, node["verdict"]["reasoning"])
        [source, *_] = node["verdict"]["decidingSources"]
        assert source["registry"]["registry"] == registry, source
        if registry == "NET_ZERO_TRACKER":  # the company's own word: an internal doubt, not evidence
            assert (source["side"], source["evidenceKind"]) == ("WEAKLY_CONTRADICTS", "INTERNAL")
            # ... and its integrity fields raise the claim's greenwashing risk flags.
            assert {
                "kind": "OFFSET_BASED_NEUTRALITY",
                "phrase": "Net Zero Tracker: relies on carbon credits",
            } in (node["riskFlags"])
        if registry == "NGER":
            assert (source["side"], source["registry"]["coverage"]) == ("WEAKLY_SUPPORTS", "partial")
        if registry == "EPA_GHGRP":
            assert source["registry"]["matchBasis"] == "parent_company"


async def test_registries_are_read_whatever_the_routing_model_decides(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    tmp_path: Path,
    clean_db: None,
) -> None:
    """In LLM mode too: the model routes every claim to Legal alone, and the registries still decide."""
    claim = CLAIMS["validated_target"]

    def answer(request: dict[str, Any]) -> FakeReply:
        if request["model"] != ROUTE_MODEL:
            return FakeReply(status=500)  # every other step takes its rule path
        user = request["messages"][-1]["content"]
        claims = json.loads(re.search(r"\[.*\]", user, re.DOTALL).group(0))  # type: ignore[union-attr]
        assignments = [
            {"claim_id": c["claim_id"], "assigned_agents": ["legal"], "reasoning": "IFRS"} for c in claims
        ]
        return FakeReply(content={"assignments": assignments, "routing_summary": "ok", "agent_workload": {}})

    async with fake_llm_server() as fake:
        fake.handler = answer
        settings = make_settings(services, **settings_for(fake, llm_model_routing=ROUTE_MODEL))
        await import_karoo(settings, session_factory, tmp_path)
        seeded = await seed_report(
            session_factory, [{**claim, "page": 1}], pages=2, company_name=COMPANY, header=HEADER
        )
        started = await open_analysis_run(event_log, settings, seeded.report_id, skip_claims_extraction=True)
        llm = LLMClient(settings)
        try:
            async with pipeline_runner(
                settings, session_factory, event_log, llm=llm, agents=load_investigators(settings)
            ) as runner:
                outcome = await runner.run(started.run.id)
        finally:
            await llm.aclose()

    assert outcome.result.value == "completed", outcome.detail
    assert fake.requests_for(ROUTE_MODEL)
    async with session_factory() as session:
        routed = set(await session.scalars(select(RoutingAssignment.agent)))
        verdict = await session.scalar(select(Verdict.verdict).where(Verdict.is_final.is_(True)))
        registry = await session.scalar(
            select(func.count()).where(Finding.evidence_type == "registry_record")
        )
    assert {"legal", "data_metrics"} <= routed and verdict == "verified" and registry == 1


async def test_a_target_changed_after_the_report_is_no_contradiction(
    client: GraphQLClient,
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    tmp_path: Path,
) -> None:
    wording = (
        "Karoo Metals AG commits to reduce absolute scope 1 and 2 GHG emissions 60% by FY2030 from a FY2019 "
        "base year."
    )
    sbti = files.write_xlsx(
        tmp_path / "sbti-companies-taking-action-2026-03-05.xlsx",
        {"Data": sbti_rows(wording, datetime(2025, 6, 1))},
    )
    await import_registry(session_factory, RegistryKind.SBTI, [sbti])
    claim = CLAIMS["validated_target"]
    report_id = await analyse(settings, session_factory, event_log, [claim])

    node = by_text((await client.data(QUERY, id=report_id))["report"])[claim["text"]]
    assert node["verdict"]["verdict"] == "UNVERIFIED"
    [finding] = [f for f in node["findings"] if f["evidenceType"] == "registry_record"]
    assert finding["supportsClaim"] is None and "after the report" in finding["details"]["relevance_summary"]


async def test_uncertain_matches_wait_for_the_owner_and_decisions_stay_with_the_report(
    client: GraphQLClient,
    api_url: str,
    settings: Settings,
    session_factory: SessionFactory,
    tmp_path: Path,
) -> None:
    await import_karoo(settings, session_factory, tmp_path)
    ours = await seed_parsed_pages(session_factory, ["Page."], company_name="Karoo Metals Holding AG")
    theirs = await seed_parsed_pages(session_factory, ["Page."], company_name="Karoo Metals Holding AG")
    outsider = GraphQLClient(api_url, await new_api_key(session_factory, "Another Org"))
    await move_to_organisation(session_factory, theirs, "Another Org")
    ours_id, theirs_id = (str(GlobalID("Report", str(report))) for report in (ours, theirs))
    try:
        matches = (await client.data(QUERY, id=ours_id))["report"]["registryMatches"]
        variant = next(m for m in matches if m["registry"] == "SBTI")
        assert (variant["basis"], variant["certain"], variant["used"]) == ("NAME_VARIANT", False, False)

        confirmed = await client.data(CONFIRM, reportId=ours_id, entityKey=variant["entityKey"])
        assert confirmed["confirmRegistryMatch"] == {
            "__typename": "RegistryMatchSuccess",
            "match": {"decision": "CONFIRMED", "used": True},
        }
        key = variant["entityKey"]
        after = {
            m["entityKey"]: m for m in (await client.data(QUERY, id=ours_id))["report"]["registryMatches"]
        }
        others = (await outsider.data(QUERY, id=theirs_id))["report"]["registryMatches"]
        assert after[key]["used"] and after[key]["decision"] == "CONFIRMED"
        # The same registries serve the other organisation's report; our decision does not.
        assert [(m["entityKey"], m["used"], m["decision"]) for m in others if m["entityKey"] == key] == [
            (key, False, None)
        ]
        stolen = await outsider.data(REJECT, reportId=ours_id, entityKey=key)
        assert stolen["rejectRegistryMatch"]["code"] == "NOT_FOUND"

        rejected = await client.data(REJECT, reportId=ours_id, entityKey=key)
        assert rejected["rejectRegistryMatch"]["match"] == {"decision": "REJECTED", "used": False}
        unknown = await client.data(REJECT, reportId=ours_id, entityKey="sbti:nobody")
        assert unknown["rejectRegistryMatch"] == {
            "__typename": "RegistryMatchError",
            "code": "UNKNOWN_MATCH",
            "field": "entityKey",
        }
    finally:
        await outsider.aclose()


async def move_to_organisation(session_factory: SessionFactory, report_id: uuid.UUID, name: str) -> None:
    async with session_factory() as session, session.begin():
        organisation = await ensure_organisation(session, name)
        report = await session.get(Report, report_id)
        assert report is not None
        report.organisation_id = organisation.id


CONFIRM = """
mutation Confirm($reportId: ID!, $entityKey: String!) {
  confirmRegistryMatch(reportId: $reportId, entityKey: $entityKey) {
    __typename
    ... on RegistryMatchSuccess { match { decision used } }
    ... on RegistryMatchError { code field }
  }
}
"""
REJECT = CONFIRM.replace("Confirm(", "Reject(").replace("confirmRegistryMatch", "rejectRegistryMatch")
