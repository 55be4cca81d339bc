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
    python -m bench.verdict_quality --cross-talk              # … listing documents read for other claims
    python -m bench.verdict_quality --build                   # regenerate the labelled set
    python -m bench.verdict_quality --check                   # the builder still makes the committed set
                                                              # (also `python -m bench.verdict_cases`)
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

from app.config import Settings
from app.db.models import AnalysisRun, Claim, Event, Report, Verdict
from app.db.models.organisations import Organisation
from app.db.session import SessionFactory, create_engine, create_session_factory
from app.events import EventLog
from app.evidence.ingest import add_evidence_document
from app.language.company_names import search_name
from app.pipeline.runner import PipelineRunner
from app.pipeline.runtime import PipelineDeps
from app.pipeline.specialists import load_investigators
from app.services.analysis import open_analysis_run
from app.verification.reading.contradictions import assess_by_rules
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
    offline: dict[int, str] = field(default_factory=dict)  # case index -> rule reading of its document


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
) -> dict[int, str]:
    """Add each case's document to the organisation's library. Returns, per planted case, how the
    rule reader reads the document against its claim on its own (no search, no judge)."""
    offline: dict[int, str] = {}
    for index, case in indexed:
        found = locate(case, claims)
        if not found:
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
        offline[index] = assess_by_rules(
            found[0].text, search_name(company), document.title, document.text
        ).stance
    return offline


async def run_report(stack: Stack, path: Path, company: str, indexed: Sequence[tuple[int, Case]]) -> Outcome:
    """Seed the report, plant its cases' documents, analyse it, and match the labelled claims."""
    report_id, organisation_id = await seeded_report(stack, path, company)
    async with offline_runner(stack) as runner:
        claims, _ = await extract_claims(
            stack.settings, runner.deps.embedder, runner.deps.knowledge, report_pages(path)
        )
        offline = await plant(stack, organisation_id, indexed, claims, company, runner.deps)
        outcome = await analyse(stack, runner, report_id, path.stem)
    outcome.offline = offline
    ids = {claim: claim_id for claim_id, claim in outcome.claims}
    for index, case in indexed:
        found = locate(case, list(ids))
        if found and index in offline:
            outcome.matched[index] = ids[found[0]]
        else:
            outcome.missing.append(index)
    return outcome


# --- the figures ---------------------------------------------------------------------------------


def ratio(part: int, whole: int) -> str:
    return f"{part / whole:.3f}" if whole else "n/a"


@dataclass(frozen=True)
class Row:
    """A labelled claim's outcome: its verdict, how its own document was read, and the other planted
    documents read as support or contradiction for it."""

    case: Case
    actual: str
    own: str
    others: str
    offline: str

    def cells(self) -> list[object]:
        case = self.case
        return [
            case.report[:20],
            case.page,
            case.figure[:30],
            case.year,
            case.kind,
            case.expected,
            self.actual,
            self.own,
            self.others,
        ]


def labelled_rows(cases: Sequence[Case], outcomes: Sequence[Outcome]) -> list[Row]:
    by_url = {case.url: case for case in cases}
    rows = []
    for outcome in outcomes:
        for index, claim_id in outcome.matched.items():
            case = cases[index]
            others = [
                f"{by_url[url].kind}@p{by_url[url].page}:{reading}"
                for (reader, url), reading in sorted(outcome.readings.items())
                if reader == claim_id
                and url != case.url
                and url in by_url
                and reading in ("supports", "contradicts")
            ]
            own = outcome.readings.get((claim_id, case.url), "not retrieved")
            verdict = outcome.verdicts.get(claim_id, "no verdict")
            rows.append(Row(case, verdict, own, " ".join(others) or "-", outcome.offline[index]))
    return rows


def headline(rows: Sequence[Row]) -> dict[str, str]:
    actual_verified = [row.case for row in rows if row.actual == "verified"]
    actual_contradicted = [row.case for row in rows if row.actual == "contradicted"]
    planted = [row.actual for row in rows if row.case.kind == "contradicting"]
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


def print_confusion(rows: Sequence[Row]) -> None:
    columns = [*VERDICTS, "no verdict"]
    counts = Counter((row.case.expected, row.actual) for row in rows)
    print_table(
        "Labelled claims: expected (rows) x actual final verdict (columns)",
        ["expected", *columns, "total"],
        [[e, *(counts[(e, a)] for a in columns), sum(counts[(e, a)] for a in columns)] for e in VERDICTS],
    )


def print_kinds(rows: Sequence[Row]) -> dict[str, Any]:
    by_kind: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_kind[row.case.kind].append(row)
    table, summary = [], {}
    for kind, expected in KINDS.items():
        found = by_kind.get(kind, [])
        correct = sum(row.actual == expected for row in found)
        summary[kind] = {"cases": len(found), "accuracy": ratio(correct, len(found))}
        table.append(
            [kind, expected, len(found), correct, summary[kind]["accuracy"]]
            + [_counts(Counter(getattr(row, name) for row in found)) for name in ("actual", "offline", "own")]
        )
    print_table(
        "Per case kind (own document: how the planted document was read for its claim, alone by the "
        "rule reader / in the run)",
        ["kind", "expected", "cases", "correct", "accuracy", "actual verdicts", "read alone", "read in run"],
        table,
    )
    return summary


def _counts(counter: Counter[str]) -> str:
    return " ".join(f"{key}:{value}" for key, value in counter.most_common()) or "-"


def cross_talk(cases: Sequence[Case], outcomes: Sequence[Outcome]) -> Counter[str]:
    """Planted documents read as support or contradiction for a claim other than their own."""
    return Counter(f"{case.kind} {reading}" for case, _, reading in cross_talk_readings(cases, outcomes))


def cross_talk_readings(
    cases: Sequence[Case], outcomes: Sequence[Outcome]
) -> list[tuple[Case, ReportClaim, str]]:
    """Each planted document read as support or contradiction for a claim other than its own: the
    document's case, the claim it was read for, and the reading."""
    own = {(claim_id, cases[i].url) for outcome in outcomes for i, claim_id in outcome.matched.items()}
    by_url = {case.url: case for case in cases}
    found = []
    for outcome in outcomes:
        claims = dict(outcome.claims)
        for (claim_id, url), reading in outcome.readings.items():
            if url in by_url and (claim_id, url) not in own and reading in ("supports", "contradicts"):
                found.append((by_url[url], claims[claim_id], reading))
    return found


def print_cross_talk(cases: Sequence[Case], outcomes: Sequence[Outcome]) -> None:
    """The cross-talk readings one by one: which claim each planted document was read for."""
    rows = [
        [
            case.report[:20],
            case.page,
            case.kind,
            case.planted_figure or "-",
            claim.page,
            claim.text[:70],
            reading,
        ]
        for case, claim, reading in cross_talk_readings(cases, outcomes)
    ]
    print_table(
        "Planted documents read for another claim",
        ["report", "own page", "kind", "planted figure", "claim page", "claim", "reading"],
        rows,
    )


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


def print_misjudged(rows: Sequence[Row]) -> None:
    """The labelled claims whose verdict is not the expected one, by locator (no report text)."""
    wrong = [row.cells() for row in rows if row.actual != row.case.expected]
    headers = ["report", "page", "figure", "year", "kind", "expected", "actual", "own document", "others"]
    print_table(f"Misjudged labelled claims ({len(wrong)})", headers, wrong)


HEADLINES = {
    "verified_precision": "VERIFIED precision (labelled)",
    "contradicted_precision": "CONTRADICTED precision (labelled)",
    "contradiction_recall": "recall of planted contradictions",
}


def print_headline(figures: dict[str, str], unsupported: int, kind_column: bool) -> None:
    rows: list[list[object]] = [
        [HEADLINES[key], value, f">= {TARGETS[key]}"] for key, value in figures.items()
    ]
    rows.append(["VERIFIED without independent support (all claims)", unsupported, "0"])
    print_table("Headline figures", ["figure", "value", "target"], rows)
    basis = (
        "evidence_kind = 'independent'"
        if kind_column
        else "agent in news_media/academic/geography (no findings.evidence_kind column)"
    )
    print(f"  independent support = a finding of the run with supports_claim true and {basis}")


def print_quality(cases: Sequence[Case], outcomes: Sequence[Outcome]) -> None:
    rows = labelled_rows(cases, outcomes)
    print_reports(cases, outcomes)
    print_confusion(rows)
    print_misjudged(rows)
    kinds = print_kinds(rows)
    figures = headline(rows)
    unsupported = verified_without_independent(outcomes)
    print_headline(figures, unsupported, all(outcome.kind_column for outcome in outcomes))
    talk = cross_talk(cases, outcomes)
    print(f"  planted documents read as support/contradiction of another claim: {_counts(talk)}")
    missing = sum(len(outcome.missing) for outcome in outcomes)
    summary = {"bench": "verdict_quality", "labelled": len(rows), "missing": missing, **figures}
    print_summary(
        {**summary, "verified_without_independent": unsupported, "kinds": kinds, "cross_talk": talk}
    )


# --- modes ---------------------------------------------------------------------------------------


async def quality(stack: Stack, reports_dir: Path, wanted: str | None, show_cross_talk: bool = False) -> None:
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
    if show_cross_talk:
        print_cross_talk(cases, outcomes)


async def build(stack: Stack, reports_dir: Path, *, write: bool = True) -> None:
    """Build the labelled set from the reports' claims: write it, or (not `write`) check that the
    committed set is what the builder makes today."""
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
    per = Counter((case.report, case.kind) for case in cases)
    rows = [
        [report[:34], len(claims[report]), *(per[(report, kind)] for kind in KINDS)] for report in REPORTS
    ]
    if write:
        write_cases(cases, companies)
        print_table(f"Labelled set written ({len(cases)} cases)", ["report", "claims", *KINDS], rows)
        return
    _, committed = read_cases()
    differing = len(set(committed) ^ set(cases))
    print_table(f"Labelled set rebuilt ({len(cases)} cases)", ["report", "claims", *KINDS], rows)
    print(f"  the committed set: {'reproduced' if not differing else f'{differing} case(s) differ'}")
    print_summary({"bench": "verdict_cases", "cases": len(cases), "differing_from_committed": differing})


async def timing(stack: Stack, path: Path) -> None:
    """The whole offline pipeline on one report, empty library, max_iterations 3: wall time."""
    pages = [page for _, page in report_pages(path)]
    report_id = await seed_parsed_pages(stack.session_factory, pages, filename=path.name)
    async with offline_runner(stack) as runner:
        outcome = await analyse(stack, runner, report_id, path.stem)
    verdicts = Counter(outcome.verdicts.values())
    figures = [len(outcome.claims), outcome.iterations, f"{outcome.seconds:.1f}"]
    print_table(
        f"Offline pipeline wall time ({path.stem}, {len(pages)} pages, empty library)",
        ["report", "claims", "iteration_count", "wall s", *VERDICTS],
        [[path.stem[:34], *figures, *(verdicts[v] for v in VERDICTS)]],
    )
    summary = {"bench": "verdict_quality_timing", "report": path.stem, "pages": len(pages)}
    figures_json = {
        "claims": len(outcome.claims),
        "iteration_count": outcome.iterations,
        "wall_s": round(outcome.seconds, 2),
    }
    print_summary({**summary, **figures_json, "verdicts": dict(verdicts)})


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--build", action="store_true", help="regenerate verdict_quality_cases.json")
    parser.add_argument(
        "--check", action="store_true", help="rebuild the labelled set and compare it with the committed one"
    )
    parser.add_argument("--timing", action="store_true", help="time the offline pipeline on one report")
    parser.add_argument(
        "--cross-talk", action="store_true", help="list each planted document read for another claim"
    )
    parser.add_argument("--report", help="part of a report's file name (timing: default siemens)")
    parser.add_argument("--reports-dir", type=Path, default=SHARED_REPORTS, help="the shared report PDFs")
    return parser.parse_args(argv)


async def dispatch(args: argparse.Namespace, services: RunningServices) -> None:
    async with open_stack(services) as stack:
        if args.build or args.check:
            await build(stack, args.reports_dir, write=args.build)
        elif args.timing:
            paths = sorted(args.reports_dir.glob(f"*{args.report or 'siemens'}*.pdf"))
            if not paths:
                raise SystemExit(f"no report matching {args.report or 'siemens'!r} in {args.reports_dir}")
            await timing(stack, paths[0])
        else:
            await quality(stack, args.reports_dir, args.report, args.cross_talk)


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    if not args.reports_dir.is_dir():
        print(f"verdict_quality skipped: the shared reports are not present ({args.reports_dir})")
        return
    with running_services() as services:
        asyncio.run(dispatch(args, services))


if __name__ == "__main__":
    main()
