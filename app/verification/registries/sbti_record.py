"""An SBTi Companies Taking Action record as the readers use it: its overall status and its text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.registries.matched import MatchedRecord
from app.registries.sbti import COMMITMENT_REMOVED, COMMITTED, TARGETS_SET
from app.verification.registries.citing import day_of, snapshot_label

#: The time frames of a record, as `SbtiTargets` names them and as a finding writes them.
FRAMES = (("near_term", "near-term"), ("long_term", "long-term"), ("net_zero", "net-zero"))
#: How far along the SBTi process a status is; an unknown status ranks nowhere.
_RANK = {TARGETS_SET.lower(): 3, COMMITTED.lower(): 2, COMMITMENT_REMOVED.lower(): 1}


def frame_status(data: Mapping[str, Any], frame: str) -> str | None:
    """A time frame's status as SBTi writes it ("Targets set"), None when blank."""
    target = data.get(frame)
    status = target.get("status") if isinstance(target, Mapping) else None
    return status if isinstance(status, str) and status.strip() else None


def overall_status(data: Mapping[str, Any]) -> str | None:
    """The furthest status of any time frame (`TARGETS_SET` > `COMMITTED` > `COMMITMENT_REMOVED`),
    in those constants' spelling; None when no frame has a status the reader knows."""
    ranked = [
        _RANK[status.lower()]
        for frame, _ in FRAMES
        if (status := frame_status(data, frame)) and status.lower() in _RANK
    ]
    if not ranked:
        return None
    return {3: TARGETS_SET, 2: COMMITTED, 1: COMMITMENT_REMOVED}[max(ranked)]


def furthest(records: Sequence[MatchedRecord]) -> MatchedRecord:
    """The record whose status is furthest along (then the surest match): the one a claim of
    validation can rest on, and the one every record must fall short of to contradict it."""
    return max(
        records,
        key=lambda record: (
            _RANK.get((overall_status(record.data) or "").lower(), 0),
            record.match_confidence,
        ),
    )


def record_text(record: MatchedRecord) -> str:
    """`SBTi Companies Taking Action (2026-03-05): Acme AG — near-term: Targets set (1.5°C, FY2030);
    net-zero: Targets set (FY2050); "reduce ..."; updated 2024-09-19`."""
    data = record.data
    parts = [_frame_text(data, frame, label) for frame, label in FRAMES if frame_status(data, frame)]
    wording = data.get("target_wording")
    if isinstance(wording, str) and wording.strip():
        parts.append(f'"{wording.strip()}"')
    updated = day_of(data, "date_updated")
    if updated is not None:
        parts.append(f"updated {updated.isoformat()}")
    body = "; ".join(parts) if parts else "no status recorded"
    return f"{snapshot_label(record.snapshot)}: {record.entity_name} — {body}"


def _frame_text(data: Mapping[str, Any], frame: str, label: str) -> str:
    target = data[frame]
    details = []
    if target.get("classification"):
        details.append(str(target["classification"]))
    if target.get("year"):
        details.append(f"{'FY' if target.get('fiscal_year') else ''}{target['year']}")
    extra = f" ({', '.join(details)})" if details else ""
    return f"{label}: {frame_status(data, frame)}{extra}"
