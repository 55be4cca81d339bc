"""A registry record of an entity matched to the report's company, with the snapshot it comes
from: what the registry readers (`app.verification.registries`) are given."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any


@dataclass(frozen=True)
class SnapshotRef:
    """The imported snapshot a record comes from (verdicts cite it)."""

    snapshot_id: str
    kind: str  # an `app.registries.RegistryKind` value: sbti, net_zero_tracker, uk_ets, epa_ghgrp, nger
    title: str  # "SBTi Companies Taking Action"
    publisher: str  # "Science Based Targets initiative"
    snapshot_date: date | None
    period: str | None  # the snapshot's reporting period ("2021-22", "2020", "2021-2024"), if any


@dataclass(frozen=True)
class MatchedRecord:
    """One registry record of an entity matched to the report's company.

    `data` is the kind's details as stored (the JSON of `SbtiTargets`, `NgerEmissions`,
    `UkEtsYear`, `GhgrpFacility`, `NetZeroTarget`: dates as ISO strings). `share` is the part of the
    record that belongs to the company (a GHGRP parent's ownership share, 0-1), None for all of it.
    """

    snapshot: SnapshotRef
    record_key: str
    entity_name: str
    period: str | None
    data: Mapping[str, Any]
    match_basis: str  # isin, lei, name, parent_company, confirmed (see app.registries.matching)
    match_confidence: float
    share: float | None = None
