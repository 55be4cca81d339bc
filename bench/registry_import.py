"""Registry import time: each real registry download in ../shared/data/registries, parsed and stored.

For each registry, the time to read and parse its file(s) alone, and the whole import (digest,
parse, one transaction of batched inserts) into an embedded Postgres, best and median of 3 runs
(the snapshot is deleted between runs so each import stores it anew). Budgets: SBTi under 15 s,
NGER under 2 s.

Run: `cd /work/main && .venv/bin/python -m bench.registry_import`. Files that are absent are skipped
(exit 0).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path

from sqlalchemy import text

from app.db.session import create_engine, create_session_factory
from app.registries.importer import import_registry
from app.registries.kinds import SPECS
from app.registries.records import RegistryKind, SnapshotOptions
from bench.common import print_summary, print_table
from tests.support.services import running_services

REGISTRIES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "registries"
FILES = {
    RegistryKind.SBTI: ["sbti-companies-taking-action-2026-03-05.xlsx"],
    RegistryKind.NET_ZERO_TRACKER: ["net-zero-tracker-companies-2025-11-09.xlsx"],
    RegistryKind.UK_ETS: ["uk-ets-compliance-report-2025-06-11.xlsx"],
    RegistryKind.EPA_GHGRP: [
        "us-epa-ghgrp-2020-data-summary.xlsx",
        "us-epa-ghgrp-parent-companies-2010-2020.xlsx",
    ],
    RegistryKind.NGER: ["au-nger-corporate-emissions-2021-22.csv"],
}
BUDGET_SECONDS = {RegistryKind.SBTI: 15.0, RegistryKind.NGER: 2.0}
RUNS = 3


async def measure(database_url: str) -> dict[str, dict[str, float]]:
    engine = create_engine(database_url, pool_size=2)
    factory = create_session_factory(engine)
    results: dict[str, dict[str, float]] = {}
    try:
        for kind, names in FILES.items():
            paths = [REGISTRIES / name for name in names]
            if not all(path.is_file() for path in paths):
                print(f"{kind.value}: skipped, files absent")
                continue
            parse, total, records = [], [], 0
            for _ in range(RUNS):
                async with engine.begin() as connection:
                    await connection.execute(text("TRUNCATE registry_snapshots CASCADE"))
                started = time.perf_counter()
                SPECS[kind].parse(paths, SnapshotOptions())
                parse.append(time.perf_counter() - started)
                started = time.perf_counter()
                outcome = await import_registry(factory, kind, paths)
                total.append(time.perf_counter() - started)
                records = outcome.snapshot.record_count
            results[kind.value] = {
                "records": records,
                "parse_best_s": round(min(parse), 2),
                "import_best_s": round(min(total), 2),
                "import_median_s": round(statistics.median(total), 2),
            }
    finally:
        await engine.dispose()
    return results


def main() -> int:
    with running_services(prefix="sibyl-bench-registries-") as services:
        results = asyncio.run(measure(services.database_url))
    rows = [
        [
            kind,
            values["records"],
            values["parse_best_s"],
            values["import_best_s"],
            values["import_median_s"],
            BUDGET_SECONDS.get(RegistryKind(kind), "-"),
        ]
        for kind, values in results.items()
    ]
    print_table(
        "Registry import (seconds, best and median of 3)",
        ["registry", "records", "parse best", "import best", "import median", "budget"],
        rows,
    )
    print_summary({"registry_import": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
