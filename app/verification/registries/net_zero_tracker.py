"""A net-zero claim read against the Net Zero Tracker: the company's own word, compiled elsewhere.

The tracker is no verification (`proof`): the same end target is "supports" (the company repeating
itself), a different year or scope "differs" (an internal doubt). Only a target of the same kind is
compared (a claimed carbon neutrality is not the tracker's net zero). The tracker's integrity fields
travel with the reading as risk signals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.registries.matched import MatchedRecord
from app.verification.registries.citing import best_record, day_of, snapshot_label
from app.verification.registries.claim_statements import EndTarget, end_target_kind, end_targets
from app.verification.registries.records import RegistryReading, Stance

KIND = "net_zero_tracker"
#: The risk signals a tracker record may raise, and what each means.
RISK_SIGNALS = {
    "no_interim_target": "the tracker records no interim target",
    "no_published_plan": "the tracker records no published plan to reach the target",
    "relies_on_carbon_credits": "the tracker records that the target may be met with carbon credits",
    "carbon_credits_not_excluded": "the tracker records no exclusion of carbon credits from the target",
}
_SCOPES = (("1", "scope1_coverage"), ("2", "scope2_coverage"), ("3", "scope3_coverage"))
_NONE = {"no", "no target", "none"}


def read_net_zero_tracker(
    claim_text: str, records: Sequence[MatchedRecord], report_year: int | None
) -> RegistryReading | None:
    """What the tracker says of the claim's end target, None when nothing of it can be compared."""
    if not records:
        return None
    record = best_record(records)
    end_target = record.data.get("end_target")
    kind = end_target_kind(end_target) if isinstance(end_target, str) else None
    claimed = next((target for target in end_targets(claim_text) if target.kind == kind), None)
    if claimed is None:
        return None
    differences, agreements = _compare(claimed, record.data)
    if not differences and not agreements:
        return None
    updated = day_of(record.data, "last_updated")
    later = updated is not None and report_year is not None and updated.year > report_year
    when = (
        f", tracker updated {updated.isoformat()}{', after the report' if later else ''}" if updated else ""
    )
    stance: Stance
    if differences:
        stance = "differs"
        said = f"The company's own target as the tracker records it differs: {'; '.join(differences)}{when}."
    else:
        stance = "supports"
        said = f"The tracker records the same {' and '.join(agreements)} (the company's own word{when})."
    summary = f"{snapshot_label(record.snapshot)} lists {record.entity_name} ({record.record_key}): {said}"
    return RegistryReading(
        KIND, stance, summary, record_text(record), [record], risk_signals=risk_signals(record.data)
    )


def _compare(claimed: EndTarget, data: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """What differs and what agrees between the claimed target and the tracker's."""
    differences, agreements = [], []
    year = data.get("end_target_year")
    if claimed.year is not None and isinstance(year, int):
        if year == claimed.year:
            agreements.append(f"{claimed.kind} year ({year})")
        else:
            differences.append(f"{claimed.kind} by {year}, where the claim says {claimed.year}")
    if claimed.scopes is not None:
        for scope, key in _SCOPES:
            covered = str(data.get(key) or "").strip().lower()
            if covered not in {"yes", "no"}:
                continue
            if (covered == "yes") != (scope in claimed.scopes):
                claim_says = "includes it" if scope in claimed.scopes else "leaves it out"
                differences.append(f"Scope {scope} coverage {data[key]!r}, where the claim {claim_says}")
            else:
                agreements.append(f"Scope {scope} coverage")
    return differences, agreements


def risk_signals(data: Mapping[str, Any]) -> list[str]:
    """The integrity fields worth flagging (`RISK_SIGNALS`), only where the tracker says so."""
    signals = []
    if str(data.get("interim_target") or "").strip().lower() in _NONE:
        signals.append("no_interim_target")
    if str(data.get("published_plan") or "").strip().lower() in _NONE:
        signals.append("no_published_plan")
    credits = str(data.get("carbon_credits") or "").strip().lower()
    if credits.startswith("yes"):
        signals.append("relies_on_carbon_credits")
    elif credits.startswith(("not specified", "not excluded", "unclear", "unspecified")):
        signals.append("carbon_credits_not_excluded")
    return signals


def record_text(record: MatchedRecord) -> str:
    """`Net Zero Tracker (2026-01-15): Acme plc — end target: Net zero by 2050 (In corporate strategy);
    scopes 1: Yes, 2: Yes, 3: Partial; interim target: No target; published plan: No; carbon credits:
    Not specified; updated 2025-06-01`."""
    data = record.data
    year = f" by {data['end_target_year']}" if data.get("end_target_year") else ""
    status = f" ({data['end_target_status']})" if data.get("end_target_status") else ""
    parts = [f"end target: {data.get('end_target') or 'not recorded'}{year}{status}"]
    scopes = [f"{scope}: {data[key]}" for scope, key in _SCOPES if data.get(key)]
    if scopes:
        parts.append("scopes " + ", ".join(scopes))
    for key, label in (
        ("interim_target", "interim target"),
        ("published_plan", "published plan"),
        ("carbon_credits", "carbon credits"),
    ):
        if data.get(key):
            parts.append(f"{label}: {data[key]}")
    updated = day_of(data, "last_updated")
    if updated is not None:
        parts.append(f"updated {updated.isoformat()}")
    return f"{snapshot_label(record.snapshot)}: {record.entity_name} — {'; '.join(parts)}"
