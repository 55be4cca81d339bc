"""Reading the stored snapshots: the list, and the one a file's digest was already imported as."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import RegistrySnapshot
from app.registries.records import RegistryKind


@dataclass(frozen=True)
class SnapshotSummary:
    """A stored snapshot, as the command line and the API show it."""

    id: uuid.UUID
    kind: RegistryKind
    publisher: str
    file_name: str
    snapshot_date: date | None
    period: str | None
    record_count: int
    imported_at: datetime

    @classmethod
    def of(cls, row: RegistrySnapshot) -> SnapshotSummary:
        return cls(
            id=row.id,
            kind=RegistryKind(row.kind),
            publisher=row.publisher,
            file_name=row.file_name,
            snapshot_date=row.snapshot_date,
            period=row.period,
            record_count=row.record_count,
            imported_at=row.imported_at,
        )


async def list_snapshots(session: AsyncSession, kind: RegistryKind | None = None) -> list[SnapshotSummary]:
    """Every stored snapshot (or a kind's), by kind, the newest snapshot first within a kind."""
    query = select(RegistrySnapshot).order_by(
        RegistrySnapshot.kind,
        RegistrySnapshot.snapshot_date.desc().nulls_last(),
        RegistrySnapshot.imported_at.desc(),
    )
    if kind is not None:
        query = query.where(RegistrySnapshot.kind == kind.value)
    return [SnapshotSummary.of(row) for row in await session.scalars(query)]


async def find_snapshot(session: AsyncSession, kind: RegistryKind, sha256: str) -> SnapshotSummary | None:
    """The snapshot of `kind` imported from files of this digest, if any."""
    row = await session.scalar(
        select(RegistrySnapshot).where(RegistrySnapshot.kind == kind.value, RegistrySnapshot.sha256 == sha256)
    )
    return None if row is None else SnapshotSummary.of(row)


async def any_registry_imported(session: AsyncSession) -> bool:
    """Whether any registry snapshot is stored (claims meet the registries only then)."""
    return bool(await session.scalar(select(exists().where(RegistrySnapshot.id.isnot(None)))))


async def latest_snapshots(session: AsyncSession) -> list[RegistrySnapshot]:
    """The newest snapshot of each registry kind and period (by snapshot date, then import): the
    ones claims are checked against. Older snapshots stay stored, so earlier verdicts can still
    name theirs."""
    rows = await session.scalars(
        select(RegistrySnapshot).order_by(
            RegistrySnapshot.kind,
            RegistrySnapshot.period,
            RegistrySnapshot.snapshot_date.desc().nulls_last(),
            RegistrySnapshot.imported_at.desc(),
        )
    )
    latest: dict[tuple[str, str | None], RegistrySnapshot] = {}
    for row in rows:
        latest.setdefault((row.kind, row.period), row)
    return list(latest.values())
