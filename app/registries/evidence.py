"""What the registries hold about one report's company, loaded once for the registry readers.

The latest snapshot of each registry and period is consulted (older snapshots stay stored, so
earlier verdicts can still name theirs). The company is matched to entities
(`matching.find_matches`), the report owner's confirmations and rejections applied, and the
certain matches' records handed to the readers as `MatchedRecord`s. Uncertain matches decide
nothing until confirmed, and a registry where only uncertain candidates were found cannot show
the company absent from it (`uncertain_kinds`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import RegistryMatchDecision, RegistryRecord, RegistrySnapshot, Report
from app.registries.kinds import SPECS
from app.registries.matched import MatchedRecord, SnapshotRef
from app.registries.matching import EntityMatch, apply_decisions, find_matches
from app.registries.records import RegistryKind
from app.registries.snapshots import latest_snapshots


@dataclass(frozen=True)
class RegistryContext:
    """The registries' view of one report's company."""

    snapshots: list[SnapshotRef]
    records: list[MatchedRecord]
    uncertain_kinds: frozenset[str]
    matches: list[EntityMatch]

    def consulted(self) -> list[str]:
        """The snapshots consulted, as a reader names them ("SBTi Companies Taking Action, 2026-03-05")."""
        return [
            f"{snapshot.title}, {snapshot.snapshot_date or snapshot.period or 'undated'}"
            for snapshot in self.snapshots
        ]

    def match_note(self) -> str:
        certain = sorted({match.entity_name for match in self.matches if match.certain})
        if certain:
            return "the company matched " + ", ".join(certain)
        if self.matches:
            return "only uncertain matches, which the report's owner can confirm"
        return "the company matched no registry entity"


def snapshot_ref(row: RegistrySnapshot) -> SnapshotRef:
    kind = RegistryKind(row.kind)
    return SnapshotRef(
        snapshot_id=str(row.id),
        kind=kind.value,
        title=SPECS[kind].title,
        publisher=row.publisher,
        snapshot_date=row.snapshot_date,
        period=row.period,
    )


async def report_decisions(session: AsyncSession, report_id: uuid.UUID) -> dict[str, bool]:
    """The report owner's word on its matches: entity key → confirmed (True) or rejected (False)."""
    rows = await session.execute(
        select(RegistryMatchDecision.entity_key, RegistryMatchDecision.confirmed).where(
            RegistryMatchDecision.report_id == report_id
        )
    )
    return {key: confirmed for key, confirmed in rows}


async def load_registry_context(session: AsyncSession, report_id: uuid.UUID) -> RegistryContext:
    """Everything the registry readers need for one report (see the module docstring)."""
    report = await session.get(Report, report_id)
    if report is None:
        return await company_context(session, None)
    decisions = await report_decisions(session, report.id)
    return await company_context(
        session, report.company_name, isin=report.isin, lei=report.lei, decisions=decisions
    )


async def company_context(
    session: AsyncSession,
    company_name: str | None,
    *,
    isin: str | None = None,
    lei: str | None = None,
    decisions: Mapping[str, bool] | None = None,
) -> RegistryContext:
    """What the registries hold about a company, with its report owner's `decisions` applied."""
    latest = await latest_snapshots(session)
    snapshots = {str(row.id): snapshot_ref(row) for row in latest}
    found = await find_matches(session, company_name, isin=isin, lei=lei, latest=latest)
    matches = apply_decisions(found, decisions or {})
    certain = [match for match in matches if match.certain]
    uncertain = frozenset(match.kind for match in matches if not match.certain)
    records = await _records(session, certain, snapshots)
    return RegistryContext(list(snapshots.values()), records, uncertain, matches)


async def _records(
    session: AsyncSession, matches: list[EntityMatch], snapshots: dict[str, SnapshotRef]
) -> list[MatchedRecord]:
    by_id = {record_id: match for match in matches for record_id in match.record_ids}
    if not by_id:
        return []
    rows = await session.scalars(select(RegistryRecord).where(RegistryRecord.id.in_(by_id)))
    records: list[MatchedRecord] = []
    for row in sorted(rows, key=lambda row: (row.entity_name, row.record_key)):
        match = by_id[row.id]  # matches are of the latest snapshots only, which `snapshots` holds
        records.append(
            MatchedRecord(
                snapshot=snapshots[str(row.snapshot_id)],
                record_key=row.record_key,
                entity_name=row.entity_name,
                period=row.period,
                data=row.data,
                match_basis="confirmed" if match.confirmed else match.basis,
                match_confidence=match.confidence,
                share=match.shares.get(row.id) if match.shares else None,
            )
        )
    return records
