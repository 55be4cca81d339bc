"""A claimed emission level read against UK ETS, GHGRP or NGER for the same period (`proof`).

The matched records' sum for the claim's period and scope is a lower bound on the company's figure:
a claim below it beyond the claim's stated precision ("2.3 Mt" means 2.25-2.35 Mt) is contradicted;
a claim whose boundary is the registry's jurisdiction and agrees with it within that precision is
supported with full coverage; any other claim at or above it is only "consistent" (partial). A
record without a figure lowers nothing, but leaves the sum incomplete, so it cannot support.
NGER's Scope 2 is location-based: it bounds a claimed Scope 2 only when the claim says
location-based (a market-based figure may lie below it), though agreement with it still supports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.language.figures import close
from app.registries.matched import MatchedRecord
from app.verification.registries.citing import snapshot_label, tonnes
from app.verification.registries.claim_emissions import ClaimedEmission, claimed_emissions
from app.verification.registries.emission_records import RecordEmissions, record_emissions, records_text
from app.verification.registries.periods import registry_period, same_period
from app.verification.registries.proof import PROOFS
from app.verification.registries.records import RegistryReading, Stance

_PRIORITY: dict[Stance, int] = {"contradicts": 3, "supports": 2, "consistent": 1}


@dataclass(frozen=True)
class _Bounds:
    """What the records hold for the claimed scopes: `lower` bounds the claim (None: nothing);
    `full` is the claim's figure if the registry covered its whole boundary (None: it cannot)."""

    lower: float | None
    full: float | None


def read_emissions(kind: str, claim_text: str, records: Sequence[MatchedRecord]) -> list[RegistryReading]:
    """What the registry's records say of each emission level the claim states, one reading per
    period (the strongest of that period's figures)."""
    readings: dict[str, RegistryReading] = {}
    for claimed in claimed_emissions(claim_text):
        if claimed.period is None or claimed.boundary not in (None, kind):
            continue
        found = [record_emissions(kind, record) for record in _of_period(kind, claimed, records)]
        reading = _reading(kind, claimed, found) if found else None
        if reading is None:
            continue
        period = found[0].record.period or found[0].record.snapshot.period or ""
        readings[period] = _stronger(readings.get(period), reading)
    return list(readings.values())


def _of_period(kind: str, claimed: ClaimedEmission, records: Sequence[MatchedRecord]) -> list[MatchedRecord]:
    """The records of the claim's period, each once (a record matched twice is not counted twice)."""
    assert claimed.period is not None
    matching: dict[tuple[str, str], MatchedRecord] = {}
    for record in records:
        recorded = registry_period(kind, record.period or record.snapshot.period)
        if recorded is not None and same_period(claimed.period, recorded):
            matching.setdefault((record.snapshot.snapshot_id, record.record_key), record)
    return list(matching.values())


def _bounds(kind: str, claimed: ClaimedEmission, found: Sequence[RecordEmissions]) -> _Bounds | None:
    """The records' lower bound and full figure for the claimed scopes; None when the registry
    covers none of them."""
    scope1 = [item.scope1 for item in found]
    scope2 = [item.scope2 for item in found]
    sum1, whole1 = sum(v for v in scope1 if v is not None), None not in scope1
    sum2, whole2 = sum(v for v in scope2 if v is not None), None not in scope2
    covers_2 = "2" in PROOFS[kind].scopes
    bound2 = sum2 if claimed.location_based else 0.0
    if claimed.scopes == frozenset("1"):
        return _Bounds(sum1, sum1 if whole1 else None)
    if claimed.scopes == frozenset("12"):
        if not covers_2:
            return _Bounds(sum1, None)
        return _Bounds(sum1 + bound2, sum1 + sum2 if whole1 and whole2 else None)
    if claimed.scopes == frozenset("2") and covers_2:
        return _Bounds(sum2 if claimed.location_based else None, sum2 if whole2 else None)
    return None


def _reading(kind: str, claimed: ClaimedEmission, found: Sequence[RecordEmissions]) -> RegistryReading | None:
    bounds = _bounds(kind, claimed, found)
    if bounds is None:
        return None
    snapshot = found[0].record.snapshot
    period = found[0].record.period or snapshot.period
    scope = "Scope " + " and ".join(sorted(claimed.scopes))
    what = f"The claimed {scope} of {claimed.text} ({tonnes(claimed.tonnes)}) for {period}"
    names = "; ".join(item.text for item in found)
    records = [item.record for item in found]
    if bounds.lower is not None and claimed.tonnes + claimed.half_tonnes < bounds.lower - 1e-6 * bounds.lower:
        summary = (
            f"{what} is below the {tonnes(bounds.lower)} that {snapshot_label(snapshot)} alone records "
            f"for the company's {scope} in that period: {names}."
        )
        return RegistryReading(kind, "contradicts", summary, records_text(found), records, coverage="partial")
    if (
        bounds.full is not None
        and claimed.boundary == kind
        and close(claimed.tonnes, bounds.full, claimed.half_tonnes)
    ):
        summary = (
            f"{what} agrees, within its stated precision, with the {tonnes(bounds.full)} that "
            f"{snapshot_label(snapshot)} records for the whole claimed boundary: {names}."
        )
        return RegistryReading(kind, "supports", summary, records_text(found), records, coverage="full")
    if bounds.lower is not None and bounds.lower > 0:
        summary = (
            f"{what} is consistent with the {snapshot_label(snapshot)}, which covers "
            f"{tonnes(bounds.lower)} of the claimed {tonnes(claimed.tonnes)}: {names}."
        )
        return RegistryReading(kind, "consistent", summary, records_text(found), records, coverage="partial")
    return None


def _stronger(current: RegistryReading | None, new: RegistryReading) -> RegistryReading:
    """One reading per period: the stronger stance (a contradiction first), the other's words kept."""
    if current is None:
        return new
    first, second = sorted((current, new), key=lambda reading: -_PRIORITY[reading.stance])
    records = first.records + [record for record in second.records if record not in first.records]
    return RegistryReading(
        first.kind,
        first.stance,
        f"{first.summary} {second.summary}",
        first.record_text,
        records,
        coverage=first.coverage,
        risk_signals=first.risk_signals,
    )
