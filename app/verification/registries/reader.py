"""The entry points: whether registries can decide a claim, and what each registry says of it.

The pipeline asks `about_registries` before it looks any records up, then hands `read_registries`
the company's matched records and every latest snapshot. Both rest on the same claim readers, so a
claim `about_registries` turns down is one no registry reader would decide.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.registries.matched import MatchedRecord, SnapshotRef
from app.verification.registries.citing import latest_snapshot
from app.verification.registries.claim_emissions import claimed_emissions
from app.verification.registries.claim_statements import end_targets, sbti_statement
from app.verification.registries.claim_targets import claimed_targets
from app.verification.registries.emissions import read_emissions
from app.verification.registries.net_zero_tracker import read_net_zero_tracker
from app.verification.registries.proof import EMISSION_KINDS
from app.verification.registries.records import RegistryReading
from app.verification.registries.sbti import read_sbti


def about_registries(claim_text: str) -> bool:
    """Whether the claim is one registries can decide: an SBTi status (validated, committed, not
    adopted), a reduction target stating scope, percentage, base year and target year, a net-zero
    or carbon-neutral target with its year, or a Scope 1, Scope 2 or Scope 1+2 level with its period.

    A mere mention ("aligned with SBTi criteria", "on the road to net zero") is not: nothing in it
    can be held against a record.
    """
    return (
        sbti_statement(claim_text) is not None
        or any(
            target.percent is not None and target.base_year is not None and target.target_year is not None
            for target in claimed_targets(claim_text)
        )
        or any(target.year is not None for target in end_targets(claim_text, company_wide=False))
        or any(claimed.period is not None for claimed in claimed_emissions(claim_text))
    )


def read_registries(
    claim_text: str,
    *,
    company_name: str | None,
    records: Sequence[MatchedRecord],
    snapshots: Sequence[SnapshotRef],
    uncertain_kinds: frozenset[str],
    report_year: int | None,
) -> list[RegistryReading]:
    """What each registry says of the claim: at most one reading per registry kind and period, []
    when none bears on it.

    Args:
        claim_text: The claim's sentence.
        company_name: The report's company, named when it is absent from a list.
        records: The company's certain or confirmed matches across the latest snapshots.
        snapshots: Every latest snapshot imported (a registry consulted even without a record).
        uncertain_kinds: Kinds where the matcher had only uncertain candidates: there, what the
            company lacks proves nothing.
        report_year: The report's year, for the after-the-report rule (None: unknown).
    """
    by_kind: dict[str, list[MatchedRecord]] = {}
    for record in records:
        by_kind.setdefault(record.snapshot.kind, []).append(record)
    readings: list[RegistryReading] = []
    sbti_records = by_kind.get("sbti", [])
    sbti_snapshot = latest_snapshot(snapshots, "sbti") or (sbti_records[0].snapshot if sbti_records else None)
    if sbti_snapshot is not None:
        sbti = read_sbti(
            claim_text,
            company_name=company_name,
            records=sbti_records,
            snapshot=sbti_snapshot,
            uncertain="sbti" in uncertain_kinds,
            report_year=report_year,
        )
        readings += [sbti] if sbti else []
    tracker = read_net_zero_tracker(claim_text, by_kind.get("net_zero_tracker", []), report_year)
    readings += [tracker] if tracker else []
    for kind in EMISSION_KINDS:
        readings += read_emissions(kind, claim_text, by_kind.get(kind, []))
    return readings
