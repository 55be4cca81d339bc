"""What each registry proves of a claim, decided once for every reader.

- **SBTi Companies Taking Action** validates targets. It is independent and top tier (Tier 1) for
  whether a company's targets are validated ("Targets set") or only committed ("Committed",
  "Commitment removed"), and for the validated target's scope, percentage, base year and target
  year. A company absent from the list has neither validated targets nor a commitment, but absence
  proves that only when the matcher was sure (the kind is not among the uncertain ones) and the list
  was taken after the report's year.
- **The Net Zero Tracker** compiles the companies' own statements: it is the company's word (Tier
  3), never verification. A different end-target year or scope is an internal doubt ("differs"),
  the same is the company repeating itself ("supports", filed as internal); its integrity fields (no
  interim target, no published plan, carbon credits not excluded) are risk signals.
- **UK ETS, US EPA GHGRP and NGER** hold verified or regulated emissions of one jurisdiction and one
  period: independent and top tier, but partial. Their sum for the claim's period is a lower bound on
  the company's Scope 1 (and, for NGER, Scope 2), so a claimed total below it beyond the claim's
  stated precision is contradicted; a claim agrees with it fully only when the claim's boundary is
  the registry's jurisdiction ("UK operations", "Australian operations", "US facilities"). Absence
  proves nothing (thresholds, unmatched subsidiaries). NGER's Scope 2 is location-based, so it bounds
  a claimed Scope 2 only when the claim says location-based.

A record decides a claim's state only as it stood at the report: a record updated after the report's
year that differs from the claim "changed after the report" (not a contradiction), and an undated
record, an unknown report year, or a list taken before the report's year ended decides nothing
against the claim (`timing`).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from datetime import date

from app.registries.records import RegistryKind


@dataclass(frozen=True)
class Proof:
    """What one registry kind can prove.

    Attributes:
        independent: Whether the registry is someone other than the company speaking.
        tier: The source tier of its records (1 best … 4; the company's own word is 3).
        proves: The sentence a finding may quote as the registry's reach.
        scopes: The emission scopes its figures are a lower bound on (empty for target registries).
        full_boundary: The claim boundary the registry covers entirely, if it covers one.
        fiscal_year_end_month: The month its "2021-22" years end in (NGER: June); None for calendar
            years.
    """

    independent: bool
    tier: int
    proves: str
    scopes: frozenset[str] = frozenset()
    full_boundary: re.Pattern[str] | None = None
    fiscal_year_end_month: int | None = None


_OPERATIONS = r"(?i:operations|sites|facilities|installations|plants|business(?:es)?)"
_IN = r"\b(?i:in|across) the "

PROOFS: dict[str, Proof] = {
    RegistryKind.SBTI.value: Proof(
        independent=True,
        tier=1,
        proves="whether the company's targets are validated by the SBTi or only committed, and the "
        "validated targets' scope, percentage, base year and target year",
    ),
    RegistryKind.NET_ZERO_TRACKER.value: Proof(
        independent=False,
        tier=3,
        proves="the company's own end target (kind, year, scopes) as the tracker compiled it: the "
        "company's word, not verification",
    ),
    RegistryKind.UK_ETS.value: Proof(
        independent=True,
        tier=1,
        proves="the verified emissions of the company's UK ETS installations and aircraft operations "
        "for a calendar year: a lower bound on its Scope 1",
        scopes=frozenset("1"),
        full_boundary=re.compile(
            rf"\b(?:UK|U\.K\.|United Kingdom|British)\s{_OPERATIONS}\b|{_IN}(?:UK|United Kingdom)\b"
        ),
    ),
    RegistryKind.EPA_GHGRP.value: Proof(
        independent=True,
        tier=1,
        proves="the direct emissions reported to the US EPA by the company's US facilities for a "
        "calendar year (times its ownership share): a lower bound on its Scope 1",
        scopes=frozenset("1"),
        full_boundary=re.compile(
            rf"\b(?:US|U\.S\.|United States|American)\s{_OPERATIONS}\b|{_IN}(?:US|U\.S\.|United States)\b"
        ),
    ),
    RegistryKind.NGER.value: Proof(
        independent=True,
        tier=1,
        proves="the Scope 1 and (location-based) Scope 2 emissions the company's controlling "
        "corporation reported for an Australian financial year (1 July to 30 June): a lower bound on "
        "its Scope 1 and Scope 2",
        scopes=frozenset("12"),
        full_boundary=re.compile(
            rf"\b(?:Australian|Australia's)\s{_OPERATIONS}\b|\b(?i:in|across) Australia\b"
        ),
        fiscal_year_end_month=6,
    ),
}
EMISSION_KINDS = tuple(kind for kind, proof in PROOFS.items() if proof.scopes)


class Timing(enum.StrEnum):
    """Whether a record speaks for the claim's time."""

    HELD = "held"  # updated in or before the report's year and still so in a list taken after it
    CHANGED_AFTER = "changed_after"  # updated after the report's year
    UNKNOWN = "unknown"  # undated, report year unknown, or a list taken before the report's year ended


def timing(updated: date | None, snapshot_date: date | None, report_year: int | None) -> Timing:
    """Whether a record updated on `updated`, as listed on `snapshot_date`, held at the report."""
    if updated is None or report_year is None:
        return Timing.UNKNOWN
    if updated.year > report_year:
        return Timing.CHANGED_AFTER
    return Timing.HELD if listed_after(snapshot_date, report_year) else Timing.UNKNOWN


def listed_after(snapshot_date: date | None, report_year: int | None) -> bool:
    """Whether a list was taken after the report's year, so what it lacks it lacked at the report."""
    return snapshot_date is not None and report_year is not None and snapshot_date.year > report_year
