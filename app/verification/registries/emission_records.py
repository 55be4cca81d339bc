"""The emissions one matched record of UK ETS, GHGRP or NGER attributes to the company, and its text.

- UK ETS: an account's verified emissions for its year (Scope 1; None when excluded or not
  submitted).
- GHGRP: a facility's direct emissions, times the company's share where the matcher gives one.
- NGER: the controlling corporation's Scope 1 and (location-based) Scope 2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.registries.matched import MatchedRecord
from app.verification.registries.citing import snapshot_label, tonnes


@dataclass(frozen=True)
class RecordEmissions:
    """What one record holds for the company: None where the record has no figure, or (Scope 2 of
    UK ETS and GHGRP) where the registry does not cover the scope."""

    record: MatchedRecord
    scope1: float | None
    scope2: float | None
    text: str  # "Acme Steelworks (OP1/2022): 1,200,000 t CO2e verified"


def record_emissions(kind: str, record: MatchedRecord) -> RecordEmissions:
    """The record's emissions attributable to the company."""
    data = record.data
    if kind == "nger":
        scope1, scope2 = _number(data, "scope1_t_co2e"), _number(data, "scope2_t_co2e")
        return RecordEmissions(record, scope1, scope2, _nger_text(record, scope1, scope2))
    if kind == "epa_ghgrp":
        direct = _number(data, "direct_emissions_t_co2e")
        share = record.share
        owned = direct * share if direct is not None and share is not None else direct
        return RecordEmissions(record, owned, None, _ghgrp_text(record, direct, share, owned))
    verified = _number(data, "verified_emissions_t_co2e")
    return RecordEmissions(record, verified, None, _uk_ets_text(record, verified))


def records_text(found: Sequence[RecordEmissions]) -> str:
    """The records as one quotable line, under their snapshot and period."""
    first = found[0].record
    period = first.period or first.snapshot.period
    head = f"{snapshot_label(first.snapshot)}, {period}" if period else snapshot_label(first.snapshot)
    return f"{head}: " + "; ".join(item.text for item in found)


def _number(data: Mapping[str, Any], key: str) -> float | None:
    value = data.get(key)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _amount(value: float | None) -> str:
    return tonnes(value) if value is not None else "no figure"


def _nger_text(record: MatchedRecord, scope1: float | None, scope2: float | None) -> str:
    return f"{record.entity_name} ({record.record_key}): Scope 1 {_amount(scope1)}, Scope 2 {_amount(scope2)}"


def _ghgrp_text(record: MatchedRecord, direct: float | None, share: float | None, owned: float | None) -> str:
    if direct is not None and share is not None:
        figure = f"{_amount(direct)} direct × {share:.0%} = {_amount(owned)}"
    else:
        figure = f"{_amount(direct)} direct"
    return f"{record.entity_name} ({record.record_key}): {figure}"


def _uk_ets_text(record: MatchedRecord, verified: float | None) -> str:
    installation = record.data.get("installation_name")
    name = f"{record.entity_name} — {installation}" if installation else record.entity_name
    status = record.data.get("emissions_status")
    figure = f"{_amount(verified)} verified" if verified is not None else f"no verified figure ({status})"
    return f"{name} ({record.record_key}): {figure}"
