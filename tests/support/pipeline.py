"""Helpers for pipeline tests: a parsed report with known claims, and a runner in this process."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from app.config import Settings
from app.db.models import Claim, Report, ReportPage, ReportStatus
from app.db.session import SessionFactory
from app.embeddings import create_embedder
from app.events import EventLog
from app.knowledge.search import KnowledgeSearch
from app.knowledge.store import sync_registry
from app.llm import LLMClient
from app.organisations import LOCAL_ORGANISATION_ID
from app.pipeline.routing import CORROBORATING_AGENT, SEARCHING_AGENTS
from app.pipeline.runner import PipelineRunner, open_checkpointer
from app.pipeline.runtime import PipelineDeps
from app.pipeline.specialists import load_investigators, no_evidence_source
from app.services.analysis import open_analysis_run
from app.verification.contract.investigator import Investigator
from app.verification.records import SPECIALISTS

#: Claims of every type, with the agents the routing matrix (plus refinements) must give each.
KNOWN_CLAIMS: list[dict[str, Any]] = [
    {
        "text": "Our Pilbara iron ore operations cover 12 mine sites in Western Australia.",
        "claim_type": "geographic",
        "page": 1,
        "agents": {"geography", "legal"},
    },
    {
        "text": "Total water withdrawal was 412 megalitres in 2023, across all business units.",
        "claim_type": "quantitative",
        "page": 1,
        "agents": {"data_metrics", "legal"},
    },
    {
        "text": "The Sustainability Committee of the Board meets four times a year to oversee climate risk.",
        "claim_type": "legal_governance",
        "page": 2,
        "agents": {"legal"},
    },
    {
        "text": "We aim to reach net zero across Scope 1 and 2 by 2050, a target validated by the SBTi.",
        "claim_type": "strategic",
        "page": 2,
        "agents": {"legal", "academic", "news_media"},
    },
    {
        "text": "Biodiversity offsets restored native vegetation on 340 hectares near the Weipa facility.",
        "claim_type": "environmental",
        "page": 3,
        "agents": {"academic", "geography", "data_metrics"},
    },
    {
        "text": "Scope 1 emissions at the Kitimat smelter fell 6.1% to 2.3 Mt CO2e in 2023.",
        "claim_type": "geographic",
        "page": 3,
        "agents": {"geography", "legal", "data_metrics"},
    },
]


def pipeline_agents(claim: Mapping[str, Any]) -> set[str]:
    """The agents the orchestrator routes a known claim to in the first pass: the matrix's, plus
    News/Media when no searching specialist is among them (every claim meets the evidence library)."""
    agents = set(claim["agents"])
    return agents if agents & SEARCHING_AGENTS else agents | {CORROBORATING_AGENT}


@dataclass(frozen=True)
class SeededReport:
    report_id: uuid.UUID
    claim_ids: list[str]


async def seed_parsed_pages(
    session_factory: SessionFactory,
    pages: Sequence[str],
    *,
    company_name: str | None = None,
    filename: str = "report.pdf",
) -> uuid.UUID:
    """A PARSED report whose page k holds `pages[k - 1]`, as the parser would have stored it."""
    report_id = uuid.uuid4()
    async with session_factory() as session, session.begin():
        session.add(
            Report(
                id=report_id,
                organisation_id=LOCAL_ORGANISATION_ID,
                filename=filename,
                company_name=company_name,
                sha256=uuid.uuid4().hex + uuid.uuid4().hex,
                size_bytes=1000,
                status=ReportStatus.PARSED,
                page_count=len(pages),
            )
        )
        await session.flush()
        session.add_all(
            ReportPage(report_id=report_id, number=number, text=text)
            for number, text in enumerate(pages, start=1)
        )
    return report_id


async def seed_report(
    session_factory: SessionFactory,
    claims: Sequence[Mapping[str, Any]] = KNOWN_CLAIMS,
    *,
    pages: int = 3,
    company_name: str = "Example Metals plc",
    header: str = "",
) -> SeededReport:
    """A PARSED report whose pages hold the claims (after `header`, a running header on every page),
    and the claims stored (as the claims agent would)."""
    page_texts = [
        " ".join([header] * bool(header) + [claim["text"] for claim in claims if claim["page"] == number])
        or "Intentionally blank."
        for number in range(1, pages + 1)
    ]
    report_id = await seed_parsed_pages(
        session_factory, page_texts, company_name=company_name, filename="known-claims.pdf"
    )
    claim_ids = [str(uuid.uuid4()) for _ in claims]
    async with session_factory() as session, session.begin():
        session.add_all(
            Claim(
                id=uuid.UUID(claim_id),
                report_id=report_id,
                text=claim["text"],
                claim_type=claim["claim_type"],
                priority="high",
                source_page=claim["page"],
                source_context=claim["text"],
                ifrs_paragraphs=claim.get(
                    "ifrs", [{"paragraph_id": "S2.29(a)", "pillar": "metrics_targets"}]
                ),
                method="fixture",
            )
            for claim_id, claim in zip(claim_ids, claims, strict=True)
        )
    return SeededReport(report_id, claim_ids)


def investigators(**overrides: Investigator) -> dict[str, Investigator]:
    return {agent: overrides.get(agent, no_evidence_source) for agent in SPECIALISTS}


@asynccontextmanager
async def pipeline_runner(
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    *,
    agents: Mapping[str, Investigator] | None = None,
    llm: LLMClient | None = None,
) -> AsyncIterator[PipelineRunner]:
    embedder = create_embedder(settings)
    await sync_registry(session_factory, embedder)
    async with open_checkpointer(settings.require_database_url()) as checkpointer:
        deps = PipelineDeps(
            settings=settings,
            session_factory=session_factory,
            event_log=event_log,
            llm=llm,
            investigators=agents or investigators(),
            embedder=embedder,
            knowledge=KnowledgeSearch(session_factory, embedder),
        )
        yield PipelineRunner(deps, checkpointer)


async def analyse_offline(
    settings: Settings,
    session_factory: SessionFactory,
    event_log: EventLog,
    report_id: uuid.UUID,
    **options: Any,
) -> uuid.UUID:
    """Run a whole analysis of a seeded report with the built-in specialists and no LLM, as
    `make run` does offline; asserts it completed and returns the run's id. `options` go to
    `open_analysis_run` (e.g. `skip_claims_extraction`, `max_iterations`)."""
    started = await open_analysis_run(event_log, settings, report_id, **options)
    agents = load_investigators(settings)
    async with pipeline_runner(settings, session_factory, event_log, agents=agents) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail
    return started.run.id
