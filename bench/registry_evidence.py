"""Registry evidence: the verdicts public registries alone give claims, against labelled claims.

The six real registry downloads in ../shared/data/registries are imported into an embedded Postgres
(each import timed; an absent registry is skipped). Each labelled claim (`bench.registry_cases`: the
lead's hand-labelled sentences of the shared reports, and our own sentences about registry companies,
labelled by construction from the records) is then checked the way the pipeline checks it: the
company matched by name (`find_matches`, no organisation decisions, certain matches only), its
latest records loaded, the claim read (`read_registries`), the readings made findings
(`registry_finding`) and judged (`ground`, `grounded_verdict`). Reported: the confusion matrix, the
precision of VERIFIED and CONTRADICTED (target 0.95 or more), recall per kind of case, the name
rules on `NAME_SET` (target: no match to another company), import seconds (SBTi under 15 s, NGER
under 2 s) and the lookup cost per claim (matching, record load and reading). Generated cases are
split by a hash of the sentence into halves A and B, reported apart from the real-report cases; no
rule was fitted to any of them. Wrong cases are listed (real sentences by locator only).

Run: `cd /work/main && .venv/bin/python -m bench.registry_evidence` (a couple of minutes). It is a
measurement: it exits 0 whatever the figures, and when ../shared is absent.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections import Counter
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.session import SessionFactory, create_engine, create_session_factory
from app.pipeline.specialists import draft_finding
from app.registries.evidence import company_context
from app.registries.importer import import_registry
from app.verification.investigators.registry_findings import registry_finding
from app.verification.judge.decision import grounded_verdict
from app.verification.judge.grounding import ground
from app.verification.records import Finding, FindingDraft
from app.verification.registries.reader import read_registries
from bench.common import percentile, print_summary, print_table
from bench.registry_cases import (
    CONTRADICTED,
    INSUFFICIENT,
    UNVERIFIED,
    VERIFIED,
    Case,
    generated_cases,
    report_cases,
)
from bench.registry_import import BUDGET_SECONDS, FILES, REGISTRIES
from tests.app.registries.test_matching import NAME_SET, score_names
from tests.support.services import running_services

VERDICTS = (VERIFIED, CONTRADICTED, INSUFFICIENT, UNVERIFIED)
PRECISION_TARGET = 0.95
SPLITS = ("A", "B", "report", "unseen")
TEXT_CHARS = 160


@dataclass(frozen=True)
class Outcome:
    case: Case
    predicted: str
    lookup_ms: float


async def import_all(factory: SessionFactory) -> list[list[object]]:
    """Each registry imported once: (registry, records, seconds, budget) rows; absent ones skipped."""
    rows: list[list[object]] = []
    for kind, names in FILES.items():
        paths = [REGISTRIES / name for name in names]
        if not all(path.is_file() for path in paths):
            print(f"{kind.value}: skipped, files absent")
            continue
        started = time.perf_counter()
        outcome = await import_registry(factory, kind, paths)
        seconds = time.perf_counter() - started
        rows.append(
            [kind.value, outcome.snapshot.record_count, f"{seconds:.2f}", BUDGET_SECONDS.get(kind, "-")]
        )
    return rows


def as_finding(index: int, draft: FindingDraft) -> Finding:
    """A FindingDraft as the Data/Metrics agent's finding in the first pass."""
    return draft_finding(draft, finding_id=f"finding-{index}", agent="data_metrics", iteration=0)


async def check(session: AsyncSession, case: Case) -> Outcome:
    """One claim through matching, record load, reading and the judge."""
    started = time.perf_counter()
    context = await company_context(session, case.company)
    readings = read_registries(
        case.sentence,
        company_name=case.company,
        records=context.records,
        snapshots=context.snapshots,
        uncertain_kinds=context.uncertain_kinds,
        report_year=case.report_year,
    )
    lookup_ms = (time.perf_counter() - started) * 1000
    findings = [as_finding(i, registry_finding("claim", reading)) for i, reading in enumerate(readings)]
    return Outcome(case, grounded_verdict(ground(findings)).upper(), lookup_ms)


async def measure(database_url: str) -> tuple[list[list[object]], list[Outcome], list[str]]:
    engine = create_engine(database_url, pool_size=2)
    factory = create_session_factory(engine)
    try:
        imports = await import_all(factory)
        real, missing = await asyncio.to_thread(report_cases)
        async with factory() as session:
            cases = [*real, *await generated_cases(session)]
            outcomes = [await check(session, case) for case in cases]
    finally:
        await engine.dispose()
    return imports, outcomes, missing


# --- reporting -----------------------------------------------------------------------------------


def precision(outcomes: list[Outcome], verdict: str) -> float | None:
    predicted = [outcome for outcome in outcomes if outcome.predicted == verdict]
    if not predicted:
        return None
    return sum(outcome.case.expected == verdict for outcome in predicted) / len(predicted)


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def print_split(split: str, outcomes: list[Outcome]) -> dict[str, object]:
    """The confusion matrix and recall per kind of one split; its summary figures."""
    counts = Counter((outcome.case.expected, outcome.predicted) for outcome in outcomes)
    rows = [[expected, *(counts[(expected, p)] for p in VERDICTS)] for expected in VERDICTS]
    print_table(f"Split {split}: expected (rows) x predicted (columns), {len(outcomes)} cases",
                ["expected", *VERDICTS], rows)  # fmt: skip
    kinds: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        kinds.setdefault(outcome.case.kind, []).append(outcome)
    recall = {
        kind: sum(o.predicted == o.case.expected for o in group) / len(group)
        for kind, group in sorted(kinds.items())
    }
    print_table(f"Split {split}: recall per kind", ["kind", "expected", "cases", "right", "recall"], [
        [kind, kinds[kind][0].case.expected, len(kinds[kind]),
         sum(o.predicted == o.case.expected for o in kinds[kind]), f"{value:.3f}"]
        for kind, value in recall.items()
    ])  # fmt: skip
    verified, contradicted = precision(outcomes, VERIFIED), precision(outcomes, CONTRADICTED)
    print(f"  precision VERIFIED {_ratio(verified)}, CONTRADICTED {_ratio(contradicted)} "
          f"(target >= {PRECISION_TARGET})")  # fmt: skip
    right = sum(outcome.predicted == outcome.case.expected for outcome in outcomes)
    return {
        "cases": len(outcomes),
        "accuracy": round(right / len(outcomes), 3) if outcomes else None,
        "precision_verified": None if verified is None else round(verified, 3),
        "precision_contradicted": None if contradicted is None else round(contradicted, 3),
        "recall_by_kind": {kind: round(value, 3) for kind, value in recall.items()},
    }


def print_names() -> dict[str, object]:
    """The name rules on `NAME_SET`: certain matches' precision, recall certain and at all."""
    score = score_names(NAME_SET)
    certain = score["same_certain"] + score["other_certain"]
    found = score["same_found"] + score["other_found"]
    figures: dict[str, object] = {
        "pairs": len(NAME_SET),
        "precision_certain": round(score["same_certain"] / certain, 3) if certain else None,
        "precision_found": round(score["same_found"] / found, 3) if found else None,
        "recall_certain": round(score["same_certain"] / score["same"], 3),
        "recall_found": round(score["same_found"] / score["same"], 3),
        "other_company_matches": score["other_found"],
    }
    print_table("Entity matching on NAME_SET (target: 0 matches to another company)",
                ["figure", "value"], [[key, value] for key, value in figures.items()])  # fmt: skip
    print(f"  raw: {score}")
    return figures


def print_wrong(outcomes: list[Outcome]) -> None:
    wrong = [outcome for outcome in outcomes if outcome.predicted != outcome.case.expected]
    rows = [
        [o.case.split, o.case.kind, o.case.expected, o.predicted, o.case.company[:40],
         o.case.where or o.case.sentence[:TEXT_CHARS]]
        for o in wrong
    ]  # fmt: skip
    if rows:
        print_table(
            f"Wrong cases ({len(rows)})", ["split", "kind", "expected", "predicted", "company", "claim"], rows
        )
    else:
        print("\nWrong cases: none")


def report(imports: list[list[object]], outcomes: list[Outcome], missing: list[str]) -> None:
    print_table("Registry import (one run each)", ["registry", "records", "seconds", "budget"], imports)
    if missing:
        print(f"\nReal-report locators not found ({len(missing)}): " + "; ".join(missing))
    splits = {split: print_split(split, [o for o in outcomes if o.case.split == split]) for split in SPLITS}
    names = print_names()
    lookups = [outcome.lookup_ms for outcome in outcomes]
    cost = {"median_ms": round(statistics.median(lookups), 1), "p95_ms": round(percentile(lookups, 95), 1)}
    print(f"\nLookup per claim (matching + record load + reading): median {cost['median_ms']} ms, "
          f"p95 {cost['p95_ms']} ms over {len(lookups)} claims")  # fmt: skip
    print_wrong(outcomes)
    imported = {str(row[0]): float(str(row[2])) for row in imports}
    print_summary(
        {"registry_evidence": {"imports_s": imported, "splits": splits, "names": names, "lookup": cost}}
    )


def main() -> int:
    if not REGISTRIES.parent.parent.is_dir():
        print(f"{REGISTRIES.parent.parent} is absent: nothing to measure.")
        return 0
    with running_services(prefix="sibyl-bench-registry-evidence-") as services:
        imports, outcomes, missing = asyncio.run(measure(services.database_url))
    report(imports, outcomes, missing)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
