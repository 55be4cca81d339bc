"""How the readers name a snapshot, a record and a quantity, so every finding cites them alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from app.registries.matched import MatchedRecord, SnapshotRef


def snapshot_label(snapshot: SnapshotRef) -> str:
    """ "SBTi Companies Taking Action (2026-03-05)", or the period where the snapshot is undated."""
    when = snapshot.snapshot_date.isoformat() if snapshot.snapshot_date else snapshot.period
    return f"{snapshot.title} ({when})" if when else snapshot.title


def latest_snapshot(snapshots: Sequence[SnapshotRef], kind: str) -> SnapshotRef | None:
    """The kind's most recent snapshot among those imported (undated ones last)."""
    mine = [snapshot for snapshot in snapshots if snapshot.kind == kind]
    return max(mine, key=lambda snapshot: snapshot.snapshot_date or date.min, default=None)


def tonnes(value: float) -> str:
    """ "2,410,000 t CO2e"."""
    return f"{value:,.0f} t CO2e"


def day_of(data: Mapping[str, Any], key: str) -> date | None:
    """A date stored as an ISO string in a record's data, None when absent or unreadable."""
    value = data.get(key)
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def best_record(records: Sequence[MatchedRecord]) -> MatchedRecord:
    """The record the company was matched to most surely (the first of equals)."""
    return max(records, key=lambda record: record.match_confidence)
