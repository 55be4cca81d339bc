"""Parse throughput: pages per second for real sustainability reports (target: >= 100 pages/s).

Measures, for the Siemens (158 pages) and Volkswagen (136 pages) reports in
../shared/data/sustainability-reports:

1. Pure text extraction, exactly as the parse job does it: `open_pdf` then `read_pages` in batches of
   10 pages over the whole document, from bytes already in memory. Best and median of 3 runs.
2. End to end: embedded Postgres + Redis, an in-process uvicorn API and ARQ worker; each PDF is
   uploaded through the GraphQL multipart `uploadReport` mutation, and the clock stops when the
   `analysisEvents` subscription delivers `parse_completed` (i.e. the report is PARSED). A small
   synthetic report is uploaded first to warm up the API, the worker and the connection pools.

Run: `cd /work/main && .venv/bin/python -m bench.parse_throughput`. Reports that are absent are
skipped (exit 0).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config import Settings
from app.documents.pdf import open_pdf, read_pages
from bench.common import api_stack, bench_settings, print_summary, print_table
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
subscription Events($reportId: ID!) { analysisEvents(reportId: $reportId) { id eventType data } }
"""


@dataclass(frozen=True)
class Extraction:
    name: str
    pages: int
    best_s: float
    median_s: float


@dataclass(frozen=True)
class EndToEnd:
    name: str
    pages: int
    upload_s: float
    parse_job_s: float
    total_s: float
    status: str


def extract_once(content: bytes) -> tuple[int, float]:
    """(pages, seconds) for one full extraction, batch by batch like `_parse_content`."""
    started = time.perf_counter()
    with open_pdf(content) as document:
        count = document.page_count
        pages: list[tuple[int, str]] = []
        for start in range(1, count + 1, BATCH_PAGES):
            pages.extend(read_pages(document, start, start + BATCH_PAGES - 1))
    return len(pages), time.perf_counter() - started


def measure_extraction(name: str, content: bytes) -> Extraction:
    runs = [extract_once(content) for _ in range(RUNS)]
    times = [seconds for _, seconds in runs]
    return Extraction(name, runs[0][0], min(times), statistics.median(times))


async def upload_until_parsed(client: GraphQLClient, name: str, content: bytes) -> EndToEnd:
    """Upload `content`, then follow its events until parse_completed (or parse_failed)."""
    started = time.perf_counter()
    result = await client.upload_result(content, filename=f"{name.lower()}.pdf")
    uploaded = time.perf_counter()
    if result["__typename"] != "UploadReportSuccess":
        raise RuntimeError(f"{name}: upload refused: {result}")
    report_id = str(result["report"]["id"])
    async with client.subscribe(EVENTS, reportId=report_id) as subscription:
        while True:
            event = (await subscription.next(timeout=PARSE_TIMEOUT_S))["analysisEvents"]
            if event["eventType"] in ("parse_completed", "parse_failed"):
                break
    finished = time.perf_counter()
    data: dict[str, Any] = event["data"]
    status = "PARSED" if event["eventType"] == "parse_completed" else f"ERROR: {data.get('message')}"
    return EndToEnd(
        name,
        int(data.get("pageCount", 0)),
        uploaded - started,
        float(data.get("seconds", 0.0)),
        finished - started,
        status,
    )


async def measure_end_to_end(settings: Settings, contents: dict[str, bytes]) -> list[EndToEnd]:
    async with api_stack(settings, worker=True) as url:
        client = GraphQLClient(url)
        try:
            await upload_until_parsed(client, "warmup", pdfs.synthetic_report(page_count=12).pdf)
            return [await upload_until_parsed(client, name, data) for name, data in contents.items()]
        finally:
            await client.aclose()


def rate(pages: int, seconds: float) -> str:
    return f"{pages / seconds:.1f}" if seconds > 0 else "-"


def verdict(pages_per_s: float) -> str:
    return "ok" if pages_per_s >= TARGET_PAGES_PER_S else "BELOW TARGET"


def main() -> None:
    contents: dict[str, bytes] = {}
    for name, filename in REPORTS.items():
        path = Path(SHARED_REPORTS) / filename
        if path.is_file():
            contents[name] = path.read_bytes()
        else:
            print(f"skipping {name}: {path} is absent")
    if not contents:
        print("no report PDFs found; nothing to measure")
        print_summary({"benchmark": "parse_throughput", "skipped": True})
        return

    extractions = [measure_extraction(name, data) for name, data in contents.items()]
    print_table(
        f"Text extraction (open_pdf + read_pages, batches of {BATCH_PAGES}, {RUNS} runs)",
        ["report", "pages", "best s", "median s", "best p/s", "median p/s", "vs 100 p/s"],
        [
            (e.name, e.pages, f"{e.best_s:.3f}", f"{e.median_s:.3f}", rate(e.pages, e.best_s),
             rate(e.pages, e.median_s), verdict(e.pages / e.median_s))
            for e in extractions
        ],
    )  # fmt: skip

    with running_services(prefix="sibyl-bench-") as services:  # migrates with its own asyncio.run
        runs = asyncio.run(measure_end_to_end(bench_settings(services), contents))
    print_table(
        "End to end (GraphQL upload -> parse_completed via analysisEvents; in-process API + worker)",
        ["report", "pages", "upload s", "parse job s", "total s", "p/s", "vs 100 p/s", "status"],
        [
            (r.name, r.pages, f"{r.upload_s:.3f}", f"{r.parse_job_s:.3f}", f"{r.total_s:.3f}",
             rate(r.pages, r.total_s), verdict(r.pages / r.total_s), r.status)
            for r in runs
        ],
    )  # fmt: skip
    print("  upload s = multipart request until its response; parse job s = the job's own timing")

    print_summary(
        {
            "benchmark": "parse_throughput",
            "target_pages_per_s": TARGET_PAGES_PER_S,
            "extraction": {
                e.name: {
                    "pages": e.pages,
                    "best_pages_per_s": round(e.pages / e.best_s, 1),
                    "median_pages_per_s": round(e.pages / e.median_s, 1),
                }
                for e in extractions
            },
            "end_to_end": {
                r.name: {
                    "pages": r.pages,
                    "total_s": round(r.total_s, 3),
                    "upload_s": round(r.upload_s, 3),
                    "parse_job_s": r.parse_job_s,
                    "pages_per_s": round(r.pages / r.total_s, 1),
                    "status": r.status,
                }
                for r in runs
            },
        }
    )


if __name__ == "__main__":
    main()
