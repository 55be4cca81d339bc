"""Parse throughput: pages per second for real sustainability reports (target: >= 100 pages/s).

Measures, for the Siemens (158 pages) and Volkswagen (136 pages) reports in
../shared/data/sustainability-reports:

1. Pure text extraction in this thread (as the parse job did before crash isolation): `open_pdf` then
   `read_pages` in batches of 10 pages over the whole document, from bytes already in memory; and the
   same through document processes, as the parse job does it now, with its ratio to the first
   (target >= 0.8x). Best and median of 3 runs.
2. End to end: embedded Postgres + Redis, an in-process uvicorn API and ARQ worker (production
   settings: progress every 10 pages). Each PDF is uploaded through the GraphQL multipart
   `uploadReport` mutation; the clock runs from sending the upload until the `analysisEvents`
   subscription delivers `parse_completed` (the report is then PARSED). A synthetic 12-page report is
   uploaded first to warm everything up; the tables are emptied between the 3 runs so the same
   bytes make a new report each time. Best and median of 3 runs.

Run: `cd /work/main && .venv/bin/python -m bench.parse_throughput`. Reports that are absent are
skipped (exit 0).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redis.asyncio import Redis
from sqlalchemy import text

from app.config import Settings
from app.db.session import create_engine
from app.documents.pdf import open_pdf, read_pages
from app.documents.processes import DocumentProcesses
from app.documents.reading import count_pages, read_page_range
from bench.common import api_stack, bench_settings, local_api_key, print_summary, print_table
from tests.conftest import TABLES, wait_for_idle_queue
from tests.fixtures import pdfs
from tests.support.graphql import GraphQLClient
from tests.support.reports import SHARED_REPORTS
from tests.support.services import running_services

REPORTS = {
    "Siemens": "siemens-sustainability-report-fy2023.pdf",
    "Volkswagen": "volkswagen-sustainability-report-2023.pdf",
}
BATCH_PAGES = 10
RUNS = 3
TARGET_PAGES_PER_S = 100.0
PARSE_TIMEOUT_S = 120.0

EVENTS = """
subscription Events($reportId: ID!) { analysisEvents(reportId: $reportId) { sequence eventType data } }
"""


@dataclass(frozen=True)
class Run:
    """One measured run; `upload_s` and `parse_job_s` only for end-to-end runs."""

    pages: int
    total_s: float
    upload_s: float = 0.0
    parse_job_s: float = 0.0
    status: str = "ok"


@dataclass(frozen=True)
class Figures:
    """Best and median over the runs of one report."""

    pages: int
    best_s: float
    median_s: float
    median_upload_s: float
    median_parse_job_s: float
    status: str

    @classmethod
    def of(cls, runs: list[Run]) -> Figures:
        problems = [run.status for run in runs if run.status != "ok"]
        return cls(
            pages=runs[0].pages,
            best_s=min(run.total_s for run in runs),
            median_s=statistics.median(run.total_s for run in runs),
            median_upload_s=statistics.median(run.upload_s for run in runs),
            median_parse_job_s=statistics.median(run.parse_job_s for run in runs),
            status=problems[0] if problems else "ok",
        )

    @property
    def best_rate(self) -> float:
        return self.pages / self.best_s

    @property
    def median_rate(self) -> float:
        return self.pages / self.median_s

    def verdict(self) -> str:
        return "ok" if self.median_rate >= TARGET_PAGES_PER_S else "BELOW TARGET"

    def summary(self) -> dict[str, Any]:
        return {
            "pages": self.pages,
            "best_s": round(self.best_s, 3),
            "median_s": round(self.median_s, 3),
            "best_pages_per_s": round(self.best_rate, 1),
            "median_pages_per_s": round(self.median_rate, 1),
            "meets_target": self.median_rate >= TARGET_PAGES_PER_S,
        }


def extract_once(content: bytes) -> Run:
    """One full extraction, batch by batch like the parse job's `_parse_content`."""
    started = time.perf_counter()
    with open_pdf(content) as document:
        pages: list[tuple[int, str]] = []
        for start in range(1, document.page_count + 1, BATCH_PAGES):
            pages.extend(read_pages(document, start, start + BATCH_PAGES - 1))
    return Run(pages=len(pages), total_s=time.perf_counter() - started)


def extract_isolated(processes: DocumentProcesses, content: bytes) -> Run:
    """The same extraction as the parse job now does it: in a document process, batch by batch."""
    started = time.perf_counter()
    pages: list[tuple[int, str]] = []
    with tempfile.NamedTemporaryFile(suffix=".pdf") as file:  # as parsing.pdf_file does
        file.write(content)
        file.flush()
        for start in range(1, processes.run(count_pages, file.name) + 1, BATCH_PAGES):
            pages.extend(processes.run(read_page_range, file.name, start, start + BATCH_PAGES - 1).pages)
    return Run(pages=len(pages), total_s=time.perf_counter() - started)


async def upload_until_parsed(client: GraphQLClient, name: str, content: bytes) -> Run:
    """Upload `content`, then follow its events until parse_completed (or parse_failed)."""
    started = time.perf_counter()
    result = await client.upload_result(content, filename=f"{name.lower()}.pdf")
    uploaded = time.perf_counter()
    if result["__typename"] != "UploadReportSuccess" or not result["created"]:
        raise RuntimeError(f"{name}: upload not stored as a new report: {result}")
    async with client.subscribe(EVENTS, reportId=str(result["report"]["id"])) as subscription:
        while True:
            event = (await subscription.next(timeout=PARSE_TIMEOUT_S))["analysisEvents"]
            if event["eventType"] in ("parse_completed", "parse_failed"):
                break
    finished = time.perf_counter()
    data: dict[str, Any] = event["data"]
    return Run(
        pages=int(data.get("pageCount", 0)),
        total_s=finished - started,
        upload_s=uploaded - started,
        parse_job_s=float(data.get("seconds", 0.0)),
        status="ok" if event["eventType"] == "parse_completed" else f"FAILED: {data.get('message')}",
    )


async def forget_reports(settings: Settings) -> None:
    """Empty the tables once the worker is idle, so the same bytes upload as a new report again."""
    redis = Redis.from_url(settings.require_redis_url())
    engine = create_engine(settings.require_database_url())
    try:
        await wait_for_idle_queue(redis)
        async with engine.begin() as connection:
            await connection.execute(text(f"TRUNCATE {TABLES} CASCADE"))
    finally:
        await engine.dispose()
        await redis.aclose()


async def measure_end_to_end(settings: Settings, contents: dict[str, bytes]) -> dict[str, list[Run]]:
    runs: dict[str, list[Run]] = {name: [] for name in contents}
    key = await local_api_key(settings)
    async with api_stack(settings, worker=True) as url:
        client = GraphQLClient(url, key)
        try:
            await upload_until_parsed(client, "warmup", pdfs.synthetic_report(page_count=12).pdf)
            for _ in range(RUNS):
                for name, data in contents.items():
                    runs[name].append(await upload_until_parsed(client, name, data))
                await forget_reports(settings)
        finally:
            await client.aclose()
    return runs


def load_reports() -> dict[str, bytes]:
    contents: dict[str, bytes] = {}
    for name, filename in REPORTS.items():
        path = Path(SHARED_REPORTS) / filename
        if path.is_file():
            contents[name] = path.read_bytes()
        else:
            print(f"skipping {name}: {path} is absent")
    return contents


def main() -> None:
    contents = load_reports()
    if not contents:
        print("no report PDFs found; nothing to measure")
        print_summary({"benchmark": "parse_throughput", "skipped": True})
        return

    extraction = {
        name: Figures.of([extract_once(data) for _ in range(RUNS)]) for name, data in contents.items()
    }
    print_table(
        f"Text extraction: open_pdf + read_pages in batches of {BATCH_PAGES} ({RUNS} runs)",
        ["report", "pages", "best s", "median s", "best p/s", "median p/s", "vs 100 p/s"],
        [
            (name, f.pages, f"{f.best_s:.3f}", f"{f.median_s:.3f}", f"{f.best_rate:.1f}",
             f"{f.median_rate:.1f}", f.verdict())
            for name, f in extraction.items()
        ],
    )  # fmt: skip

    processes = DocumentProcesses(size=2, timeout_seconds=PARSE_TIMEOUT_S, memory_mb=2048)
    try:
        processes.run(count_pages, pdfs.synthetic_report(page_count=2).pdf)  # start a process first
        isolated = {
            name: Figures.of([extract_isolated(processes, data) for _ in range(RUNS)])
            for name, data in contents.items()
        }
    finally:
        processes.close()
    print_table(
        f"Text extraction in document processes (crash-isolated), batches of {BATCH_PAGES} ({RUNS} runs)",
        ["report", "pages", "best s", "median s", "best p/s", "median p/s", "vs in-thread"],
        [
            (name, f.pages, f"{f.best_s:.3f}", f"{f.median_s:.3f}", f"{f.best_rate:.1f}",
             f"{f.median_rate:.1f}", f"{f.median_rate / extraction[name].median_rate:.2f}x")
            for name, f in isolated.items()
        ],
    )  # fmt: skip

    with running_services(prefix="sibyl-bench-") as services:  # migrates with its own asyncio.run
        runs = asyncio.run(measure_end_to_end(bench_settings(services), contents))
    end_to_end = {name: Figures.of(results) for name, results in runs.items()}
    print_table(
        f"End to end: GraphQL upload -> parse_completed on analysisEvents ({RUNS} runs)",
        ["report", "pages", "upload s", "parse job s", "best s", "median s", "best p/s", "median p/s",
         "vs 100 p/s", "status"],
        [
            (name, f.pages, f"{f.median_upload_s:.3f}", f"{f.median_parse_job_s:.3f}", f"{f.best_s:.3f}",
             f"{f.median_s:.3f}", f"{f.best_rate:.1f}", f"{f.median_rate:.1f}", f.verdict(), f.status)
            for name, f in end_to_end.items()
        ],
    )  # fmt: skip
    print("  upload s, parse job s: medians of the upload request and of the job's own `seconds`")

    print_summary(
        {
            "benchmark": "parse_throughput",
            "target_pages_per_s": TARGET_PAGES_PER_S,
            "extraction": {name: f.summary() for name, f in extraction.items()},
            "isolated_extraction": {
                name: {**f.summary(), "vs_in_thread": round(f.median_rate / extraction[name].median_rate, 2)}
                for name, f in isolated.items()
            },
            "end_to_end": {
                name: {
                    **f.summary(),
                    "median_upload_s": round(f.median_upload_s, 3),
                    "median_parse_job_s": round(f.median_parse_job_s, 3),
                    "status": f.status,
                }
                for name, f in end_to_end.items()
            },
        }
    )


if __name__ == "__main__":
    main()
