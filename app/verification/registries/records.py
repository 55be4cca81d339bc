"""What the registry readers are given and what they return.

The pipeline matches the report's company to registry entities (`app.registries.matching`),
loads those entities' records from the latest snapshot of each registry, and hands them to the
readers as `MatchedRecord`s (`app.registries.matched`). A reader returns `RegistryReading`s:
what one registry says of one claim, naming the records it relied on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from app.registries.matched import MatchedRecord, SnapshotRef

#: What a registry's records say of a claim:
#: - supports: the registry records what the claim says (within the stated precision);
#: - contradicts: the registry records something the claim cannot be true beside;
#: - consistent: the registry agrees as far as it goes, but covers only part of the claim (weak);
#: - changed_after_report: the registry now records something else, changed after the report;
#: - differs: the company's own word elsewhere (Net Zero Tracker) differs from the report.
Stance = Literal["supports", "contradicts", "consistent", "changed_after_report", "differs"]


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
