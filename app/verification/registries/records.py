"""What the registry readers are given and what they return.

The pipeline matches the report's company to registry entities (`app.registries.matching`),
loads those entities' records from the latest snapshot of each registry, and hands them to the
readers as `MatchedRecord`s. A reader returns `RegistryReading`s: what one registry says of one
claim, naming the records it relied on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

#: What a registry's records say of a claim:
#: - supports: the registry records what the claim says (within the stated precision);
#: - contradicts: the registry records something the claim cannot be true beside;
#: - consistent: the registry agrees as far as it goes, but covers only part of the claim (weak);
#: - changed_after_report: the registry now records something else, changed after the report;
#: - differs: the company's own word elsewhere (Net Zero Tracker) differs from the report.
Stance = Literal["supports", "contradicts", "consistent", "changed_after_report", "differs"]


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


@dataclass(frozen=True)
class RegistryReading:
    """What one registry says of one claim.

    `summary` is the finding's sentence (naming the registry, the snapshot date, the records and
    their figures); `record_text` is what the registry records, as a reader can check it against
    the publisher's file (the finding's quote). `coverage` is "full" when the registry covers the
    claim's whole boundary, "partial" when only part of it (a lower bound), None when it does not
    apply (targets). `risk_signals` are the Net Zero Tracker's integrity fields worth flagging.
    """

    kind: str
    stance: Stance
    summary: str
    record_text: str
    records: list[MatchedRecord]
    coverage: Literal["full", "partial"] | None = None
    risk_signals: list[str] = field(default_factory=list)
    #: The snapshot consulted (set it always: a reading of absence has no record to name it).
    snapshot: SnapshotRef | None = None
