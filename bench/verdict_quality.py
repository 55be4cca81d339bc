"""Whether verdicts mean what they say, offline: labelled claims of the real reports, each with one
planted evidence-library document, run through the whole pipeline (rule-based claims agent, the
built-in investigators, no LLM, no web search, max_iterations 3).

Each labelled claim (`verdict_quality_cases.json`, built by `bench.verdict_cases`) gets a document
in its report's organisation: a Tier 1 investigation with another figure (-> contradicted), a Tier 2
restatement or paraphrase (-> verified), another company's or another year's figure, an unrelated
story, the company's own press release (-> unverified), or a blog post (-> insufficient evidence).
Printed: the confusion matrix expected x actual, VERIFIED and CONTRADICTED precision, recall of the
planted contradictions, accuracy per kind, whether each planted document reached its claim and how
it was read, and, over every claim of every run, the VERIFIED verdicts without independent support.

    python -m bench.verdict_quality [--report rio-tinto]     # the quality run (all reports)
    python -m bench.verdict_quality --build                   # regenerate the labelled set
    python -m bench.verdict_quality --timing [--report siemens]  # wall time, empty library
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redis.asyncio import Redis
from sqlalchemy import select, text, update

from app.agents.pipeline import PipelineRunner
from app.agents.runtime import PipelineDeps
from app.agents.specialists import load_investigators
from app.config import Settings
from app.db.models import AnalysisRun, Claim, Event, Report, Verdict
from app.db.models.organisations import Organisation
from app.db.session import SessionFactory, create_engine, create_session_factory
from app.events import EventLog
from app.evidence.ingest import add_evidence_document
from app.services.analysis import open_analysis_run
from bench.common import bench_settings, print_summary, print_table
from bench.verdict_cases import (
    KINDS,
    OTHER_COMPANIES,
    REPORTS,
    Case,
    ReportClaim,
    build_cases,
    extract_claims,
    locate,
    planted_document,
    read_cases,
    write_cases,
)
from tests.support.pipeline import pipeline_runner, seed_parsed_pages
from tests.support.reports import SHARED_REPORTS, report_pages
from tests.support.services import RunningServices, running_services

VERDICTS = ("verified", "unverified", "contradicted", "insufficient_evidence")
SEARCHING_AGENTS = ("news_media", "academic", "geography")
TARGETS = {"verified_precision": 0.95, "contradicted_precision": 0.9, "contradiction_recall": 0.8}
HAS_EVIDENCE_KIND = text(
    "SELECT EXISTS (SELECT 1 FROM information_schema.columns "
    "WHERE table_name = 'findings' AND column_name = 'evidence_kind')"
)
INDEPENDENT_SUPPORT = text(
    "SELECT DISTINCT claim_id FROM findings WHERE analysis_run_id = :run AND supports_claim IS TRUE "
    "AND evidence_kind = 'independent'"
)
SEARCHED_SUPPORT = text(
    "SELECT DISTINCT claim_id FROM findings WHERE analysis_run_id = :run AND supports_claim IS TRUE "
    "AND agent IN ('news_media', 'academic', 'geography')"
)


@dataclass
class Stack:
    """What a run needs: settings, a session factory and the event log."""

    settings: Settings
    session_factory: SessionFactory
    event_log: EventLog


@asynccontextmanager
async def open_stack(services: RunningServices) -> AsyncIterator[Stack]:
    settings = bench_settings(services, tavily_api_key=None, specialist_plugins=None)
    engine = create_engine(settings.require_database_url())
    session_factory = create_session_factory(engine)
    redis = Redis.from_url(settings.require_redis_url())
    try:
        yield Stack(settings, session_factory, EventLog(session_factory, redis))
    finally:
        await redis.aclose()
        await engine.dispose()


# --- one analysed report -------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one pipeline run produced."""

    report: str
    run_id: uuid.UUID
    claims: list[tuple[uuid.UUID, ReportClaim]]
    verdicts: dict[uuid.UUID, str]
    supported: set[uuid.UUID]  # claims with independent support
    kind_column: bool
    readings: dict[tuple[uuid.UUID, str], str]  # (claim, source URL) -> how the source was read
    seconds: float
    iterations: int
    matched: dict[int, uuid.UUID] = field(default_factory=dict)  # case index -> claim id
    missing: list[int] = field(default_factory=list)  # case indexes not found among the claims


async def seeded_report(stack: Stack, path: Path, company: str | None) -> tuple[uuid.UUID, uuid.UUID]:
    """A PARSED report of the PDF's pages, in an organisation of its own; (report, organisation)."""
    pages = [page for _, page in report_pages(path)]
    report_id = await seed_parsed_pages(
        stack.session_factory, pages, company_name=company, filename=path.name
    )
    organisation_id = uuid.uuid4()
    async with stack.session_factory() as session, session.begin():
        session.add(Organisation(id=organisation_id, name=f"bench {path.stem} {organisation_id.hex[:8]}"))
        await session.flush()
        await session.execute(
            update(Report).where(Report.id == report_id).values(organisation_id=organisation_id)
        )
    return report_id, organisation_id


async def analyse(stack: Stack, runner: PipelineRunner, report_id: uuid.UUID, report: str) -> Outcome:
    """Run the whole offline pipeline on the report (max_iterations as the default) and read its outcome."""
    started = await open_analysis_run(stack.event_log, stack.settings, report_id)
    began = time.perf_counter()
    await runner.run(started.run.id)
    seconds = time.perf_counter() - began
    return await read_outcome(stack.session_factory, report, report_id, started.run.id, seconds)


@asynccontextmanager
async def offline_runner(stack: Stack) -> AsyncIterator[PipelineRunner]:
    """The pipeline with the built-in investigators (`load_investigators`), no LLM."""
    agents = load_investigators(stack.settings)
    async with pipeline_runner(
        stack.settings, stack.session_factory, stack.event_log, agents=agents
    ) as runner:
        yield runner


async def read_outcome(
    session_factory: SessionFactory, report: str, report_id: uuid.UUID, run_id: uuid.UUID, seconds: float
) -> Outcome:
    async with session_factory() as session:
        claims = (
            await session.execute(
                select(Claim.id, Claim.source_page, Claim.text)
                .where(Claim.report_id == report_id)
                .order_by(Claim.source_page, Claim.id)
            )
        ).all()
        verdicts = (
            await session.execute(
                select(Verdict.claim_id, Verdict.verdict).where(
                    Verdict.analysis_run_id == run_id, Verdict.is_final
                )
            )
        ).all()
        kind_column = bool(await session.scalar(HAS_EVIDENCE_KIND))
        supported = await session.scalars(
            INDEPENDENT_SUPPORT if kind_column else SEARCHED_SUPPORT, {"run": run_id}
        )
        events = await session.scalars(
            select(Event.data).where(Event.analysis_run_id == run_id, Event.event_type == "source_evaluated")
        )
        run = await session.get(AnalysisRun, run_id)
        return Outcome(
            report=report,
            run_id=run_id,
            claims=[(row.id, ReportClaim(row.source_page, row.text)) for row in claims],
            verdicts={row.claim_id: row.verdict for row in verdicts},
            supported=set(supported),
            kind_column=kind_column,
            readings={
                (uuid.UUID(data["claim_id"]), data["source_url"]): data["relevance"] for data in events
            },
            seconds=seconds,
            iterations=run.iteration_count if run else 0,
        )


async def plant(
    stack: Stack,
    organisation_id: uuid.UUID,
    indexed: Sequence[tuple[int, Case]],
    claims: Sequence[ReportClaim],
    company: str,
    runner_deps: PipelineDeps,
) -> list[int]:
    """Add each case's document to the organisation's library; the cases whose claim was not found."""
    missing = []
    for index, case in indexed:
        found = locate(case, claims)
        if not found:
            missing.append(index)
            continue
        document = planted_document(case, found[0].text, claims, company, OTHER_COMPANIES[case.report], index)
        await add_evidence_document(
            stack.session_factory,
            runner_deps.embedder,
            stack.settings,
            title=document.title,
            text=document.text,
            source_url=document.url,
            published_date=document.published,
            organisation_id=organisation_id,
        )
    return missing


async def run_report(stack: Stack, path: Path, company: str, indexed: Sequence[tuple[int, Case]]) -> Outcome:
    """Seed the report, plant its cases' documents, analyse it, and match the labelled claims."""
    report_id, organisation_id = await seeded_report(stack, path, company)
    async with offline_runner(stack) as runner:
        claims, _ = await extract_claims(
            stack.settings, runner.deps.embedder, runner.deps.knowledge, report_pages(path)
        )
        not_planted = await plant(stack, organisation_id, indexed, claims, company, runner.deps)
        outcome = await analyse(stack, runner, report_id, path.stem)
    ids = {claim: claim_id for claim_id, claim in outcome.claims}
    for index, case in indexed:
        found = locate(case, list(ids))
        if found and index not in not_planted:
            outcome.matched[index] = ids[found[0]]
        else:
            outcome.missing.append(index)
    return outcome


# --- the figures ---------------------------------------------------------------------------------


def ratio(part: int, whole: int) -> str:
    return f"{part / whole:.3f}" if whole else "n/a"


def labelled_rows(cases: Sequence[Case], outcomes: Sequence[Outcome]) -> list[tuple[Case, str, str]]:
    """(case, actual verdict, how its own document was read) for every labelled claim found."""
    rows = []
    for outcome in outcomes:
        for index, claim_id in outcome.matched.items():
            case = cases[index]
            reading = outcome.readings.get((claim_id, case.url), "not retrieved")
            rows.append((case, outcome.verdicts.get(claim_id, "no verdict"), reading))
    return rows


def headline(rows: Sequence[tuple[Case, str, str]]) -> dict[str, str]:
    actual_verified = [case for case, actual, _ in rows if actual == "verified"]
    actual_contradicted = [case for case, actual, _ in rows if actual == "contradicted"]
    planted = [actual for case, actual, _ in rows if case.kind == "contradicting"]
    return {
        "verified_precision": ratio(
            sum(c.expected == "verified" for c in actual_verified), len(actual_verified)
        ),
        "contradicted_precision": ratio(
            sum(c.expected == "contradicted" for c in actual_contradicted), len(actual_contradicted)
        ),
        "contradiction_recall": ratio(planted.count("contradicted"), len(planted)),
    }


def verified_without_independent(outcomes: Sequence[Outcome]) -> int:
    return sum(
        verdict == "verified" and claim_id not in outcome.supported
        for outcome in outcomes
        for claim_id, verdict in outcome.verdicts.items()
    )


def print_confusion(rows: Sequence[tuple[Case, str, str]]) -> None:
    columns = [*VERDICTS, "no verdict"]
    counts = Counter((case.expected, actual) for case, actual, _ in rows)
    print_table(
        "Labelled claims: expected (rows) x actual final verdict (columns)",
        ["expected", *columns, "total"],
        [[e, *(counts[(e, a)] for a in columns), sum(counts[(e, a)] for a in columns)] for e in VERDICTS],
    )


def print_kinds(rows: Sequence[tuple[Case, str, str]]) -> dict[str, Any]:
    by_kind: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for case, actual, reading in rows:
        by_kind[case.kind].append((actual, reading))
    table, summary = [], {}
    for kind, expected in KINDS.items():
        found = by_kind.get(kind, [])
        correct = sum(actual == expected for actual, _ in found)
        actuals = Counter(actual for actual, _ in found)
        readings = Counter(reading for _, reading in found)
        table.append(
            [
                kind,
                expected,
                len(found),
                correct,
                ratio(correct, len(found)),
                _counts(actuals),
                _counts(readings),
            ]
        )
        summary[kind] = {"cases": len(found), "accuracy": ratio(correct, len(found))}
    print_table(
        "Per case kind (own document: how the planted document was read for its claim)",
        ["kind", "expected", "cases", "correct", "accuracy", "actual verdicts", "own document"],
        table,
    )
    return summary


def _counts(counter: Counter[str]) -> str:
    return " ".join(f"{key}:{value}" for key, value in counter.most_common()) or "-"


def cross_talk(cases: Sequence[Case], outcomes: Sequence[Outcome]) -> Counter[str]:
    """Planted documents read as support or contradiction for a claim other than their own."""
    own = {(claim_id, cases[i].url) for outcome in outcomes for i, claim_id in outcome.matched.items()}
    urls = {case.url: case.kind for case in cases}
    talk: Counter[str] = Counter()
    for outcome in outcomes:
        for (claim_id, url), reading in outcome.readings.items():
            if url in urls and (claim_id, url) not in own and reading in ("supports", "contradicts"):
                talk[f"{urls[url]} {reading}"] += 1
    return talk


def print_reports(cases: Sequence[Case], outcomes: Sequence[Outcome]) -> None:
    rows = []
    for outcome in outcomes:
        verdicts = Counter(outcome.verdicts.values())
        rows.append(
            [
                outcome.report[:34],
                len(outcome.claims),
                len(outcome.matched),
                len(outcome.missing),
                f"{outcome.seconds:.1f}",
                outcome.iterations,
                *(verdicts[v] for v in VERDICTS),
            ]
        )
    print_table(
        "Runs (all claims)",
        ["report", "claims", "labelled found", "not found", "run s", "iteration_count", *VERDICTS],
        rows,
    )
    for outcome in outcomes:
        for index in outcome.missing:
            case = cases[index]
            print(f"  not found: {case.report} p.{case.page} {case.figure!r} {case.year} ({case.kind})")


def print_misjudged(rows: Sequence[tuple[Case, str, str]]) -> None:
    """The labelled claims whose verdict is not the expected one, by locator (no report text)."""
    wrong = [(case, actual, reading) for case, actual, reading in rows if actual != case.expected]
    print_table(
        f"Misjudged labelled claims ({len(wrong)})",
        ["report", "page", "figure", "year", "kind", "expected", "actual", "own document"],
        [[c.report[:20], c.page, c.figure, c.year, c.kind, c.expected, a, r] for c, a, r in wrong],
    )


def print_quality(cases: Sequence[Case], outcomes: Sequence[Outcome]) -> None:
    rows = labelled_rows(cases, outcomes)
    print_reports(cases, outcomes)
    print_confusion(rows)
    print_misjudged(rows)
    kinds = print_kinds(rows)
    figures = headline(rows)
    unsupported = verified_without_independent(outcomes)
    basis = (
        "evidence_kind = independent"
        if all(o.kind_column for o in outcomes)
        else ("no evidence_kind column: a supporting news/academic/geography finding")
    )
    print_table(
        "Headline figures",
        ["figure", "value", "target"],
        [
            [
                "VERIFIED precision (labelled)",
                figures["verified_precision"],
                f">= {TARGETS['verified_precision']}",
            ],
            [
                "CONTRADICTED precision (labelled)",
                figures["contradicted_precision"],
                f">= {TARGETS['contradicted_precision']}",
            ],
            [
                "recall of planted contradictions",
                figures["contradiction_recall"],
                f">= {TARGETS['contradiction_recall']}",
            ],
            ["VERIFIED without independent support (all claims)", unsupported, "0"],
        ],
    )
    print(f"  independent support read as: {basis}")
    talk = cross_talk(cases, outcomes)
    print(f"  planted documents bearing on other claims: {_counts(talk)}")
    print_summary(
        {
            "bench": "verdict_quality",
            "labelled": len(rows),
            "missing": sum(len(o.missing) for o in outcomes),
            **figures,
            "verified_without_independent": unsupported,
            "kinds": kinds,
            "cross_talk": dict(talk),
        }
    )


# --- modes ---------------------------------------------------------------------------------------


async def quality(stack: Stack, reports_dir: Path, wanted: str | None) -> None:
    companies, cases = read_cases()
    outcomes = []
    for report in companies:
        if wanted and wanted not in report:
            continue
        indexed = [(index, case) for index, case in enumerate(cases) if case.report == report]
        print(f"running {report}: {len(indexed)} labelled claims ...", flush=True)
        outcomes.append(
            await run_report(stack, reports_dir / f"{report}.pdf", companies[report]["company"], indexed)
        )
    print_quality(cases, outcomes)


async def build(stack: Stack, reports_dir: Path) -> None:
    claims: dict[str, list[ReportClaim]] = {}
    companies: dict[str, str] = {}
    async with pipeline_runner(stack.settings, stack.session_factory, stack.event_log) as runner:
        for report in REPORTS:
            found, company = await extract_claims(
                stack.settings,
                runner.deps.embedder,
                runner.deps.knowledge,
                report_pages(reports_dir / f"{report}.pdf"),
            )
            claims[report], companies[report] = found, company or report
    cases = build_cases(claims, companies)
    write_cases(cases, companies)
    per = Counter((case.report, case.kind) for case in cases)
    print_table(
        f"Labelled set written ({len(cases)} cases)",
        ["report", "claims", "cases", *KINDS],
        [
            [
                report[:34],
                len(claims[report]),
                sum(per[(report, k)] for k in KINDS),
                *(per[(report, k)] for k in KINDS),
            ]
            for report in REPORTS
        ],
    )


async def timing(stack: Stack, path: Path) -> None:
    """The whole offline pipeline on one report, empty library, max_iterations 3: wall time."""
    pages = [page for _, page in report_pages(path)]
    report_id = await seed_parsed_pages(stack.session_factory, pages, filename=path.name)
    async with offline_runner(stack) as runner:
        outcome = await analyse(stack, runner, report_id, path.stem)
    verdicts = Counter(outcome.verdicts.values())
    print_table(
        f"Offline pipeline wall time ({path.stem}, {len(pages)} pages, empty library)",
        ["report", "claims", "iteration_count", "wall s", *VERDICTS],
        [
            [
                path.stem[:34],
                len(outcome.claims),
                outcome.iterations,
                f"{outcome.seconds:.1f}",
                *(verdicts[v] for v in VERDICTS),
            ]
        ],
    )
    print_summary(
        {
            "bench": "verdict_quality_timing",
            "report": path.stem,
            "pages": len(pages),
            "claims": len(outcome.claims),
            "iteration_count": outcome.iterations,
            "wall_s": round(outcome.seconds, 2),
            "verdicts": dict(verdicts),
        }
    )


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--build", action="store_true", help="regenerate verdict_quality_cases.json")
    parser.add_argument("--timing", action="store_true", help="time the offline pipeline on one report")
    parser.add_argument("--report", help="part of a report's file name (timing: default siemens)")
    parser.add_argument("--reports-dir", type=Path, default=SHARED_REPORTS, help="the shared report PDFs")
    return parser.parse_args()


async def dispatch(args: argparse.Namespace, services: RunningServices) -> None:
    async with open_stack(services) as stack:
        if args.build:
            await build(stack, args.reports_dir)
        elif args.timing:
            paths = sorted(args.reports_dir.glob(f"*{args.report or 'siemens'}*.pdf"))
            if not paths:
                raise SystemExit(f"no report matching {args.report or 'siemens'!r} in {args.reports_dir}")
            await timing(stack, paths[0])
        else:
            await quality(stack, args.reports_dir, args.report)


def main() -> None:
    args = arguments()
    if not args.reports_dir.is_dir():
        print(f"verdict_quality skipped: the shared reports are not present ({args.reports_dir})")
        return
    with running_services() as services:
        asyncio.run(dispatch(args, services))


if __name__ == "__main__":
    main()
