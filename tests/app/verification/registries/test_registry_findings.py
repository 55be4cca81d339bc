"""Registry readings as findings, and what the judge makes of them."""

from __future__ import annotations

from typing import Any

import pytest

from app.pipeline.specialists import draft_finding
from app.verification.contract import RegistryCitation, SourceFinding
from app.verification.evidence_kinds import kind_of
from app.verification.investigators.registry_findings import registry_finding, tracker_risk_flags
from app.verification.judge.decision import grounded_verdict
from app.verification.judge.grounding import ground
from app.verification.records import Finding
from app.verification.registries.reader import read_registries
from app.verification.registries.records import RegistryReading
from tests.app.verification.registries.builders import ALL_SNAPSHOTS, SBTI, sbti_record, tracker_record


def as_finding(reading: RegistryReading, index: int = 0) -> Finding:
    draft = registry_finding("claim-1", reading)
    return draft_finding(draft, finding_id=f"f{index}", agent="data_metrics", iteration=0)


def reading(kind: str, stance: Any, coverage: Any = None) -> RegistryReading:
    record = sbti_record()
    return RegistryReading(kind, stance, f"{kind} says {stance}.", "the record", [record], coverage=coverage)


@pytest.mark.parametrize(
    ("kind", "stance", "coverage", "verdict"),
    [
        ("sbti", "supports", None, "verified"),
        ("sbti", "contradicts", None, "contradicted"),
        ("sbti", "changed_after_report", None, "unverified"),
        ("nger", "supports", "full", "verified"),
        ("nger", "contradicts", "partial", "contradicted"),
        ("nger", "consistent", "partial", "insufficient_evidence"),  # a lower bound only weakly supports
        ("net_zero_tracker", "supports", None, "unverified"),  # the company's word never verifies
        ("net_zero_tracker", "differs", None, "insufficient_evidence"),  # an internal doubt
    ],
)
def test_one_registry_finding_decides_what_its_registry_proves(
    kind: str, stance: str, coverage: str | None, verdict: str
) -> None:
    finding = as_finding(reading(kind, stance, coverage))

    assert grounded_verdict(ground([finding])) == verdict
    assert kind_of(finding) == ("internal" if kind == "net_zero_tracker" else "independent")


def test_the_finding_cites_the_snapshot_and_records_and_reads_back() -> None:
    finding = as_finding(reading("sbti", "supports"))

    source = SourceFinding.from_details(finding["details"])
    assert source.registry == RegistryCitation(
        registry="sbti",
        title="SBTi Companies Taking Action",
        snapshot_id=SBTI.snapshot_id,
        snapshot_date="2026-03-05",
        period=None,
        record_keys=["id:77"],
        entity_names=["Vexmoor AG"],
        match_basis="isin",
        match_confidence=0.98,
        coverage=None,
    )
    assert (source.source_tier, source.tier_basis, source.quote_verified) == (1, "registry", True)
    assert source.source_domain == "sciencebasedtargets.org" and source.snippet == "the record"
    [cited] = ground([finding])["corroborating"]
    assert cited["registry"]["record_keys"] == ["id:77"] and cited["tier_basis"] == "registry"


def test_absence_from_the_list_names_the_snapshot_but_needs_a_company_name() -> None:
    claim = "Our near-term targets were validated by the Science Based Targets initiative."
    named = read_registries(
        claim, company_name="Vexmoor AG", records=[], snapshots=ALL_SNAPSHOTS, uncertain_kinds=frozenset(),
        report_year=2023,
    )  # fmt: skip
    unnamed = read_registries(
        claim, company_name=None, records=[], snapshots=ALL_SNAPSHOTS, uncertain_kinds=frozenset(),
        report_year=2023,
    )  # fmt: skip

    [absent] = named
    assert absent.stance == "contradicts" and absent.snapshot == SBTI and absent.records == []
    details = as_finding(absent)["details"]
    assert details["registry"]["snapshot_date"] == "2026-03-05" and details["registry"]["record_keys"] == []
    assert unnamed == []


def test_the_trackers_integrity_fields_are_said_in_the_finding() -> None:
    tracked = RegistryReading(
        "net_zero_tracker", "differs", "The tracker says 2050.", "the record", [sbti_record()],
        risk_signals=["no_interim_target", "relies_on_carbon_credits"],
    )  # fmt: skip

    finding = as_finding(tracked)

    assert finding["summary"] == (
        "The tracker says 2050. Risk signals: the tracker records no interim target; the tracker records "
        "that the target may be met with carbon credits."
    )
    assert finding["details"]["risk_signals"] == ["no_interim_target", "relies_on_carbon_credits"]


def test_the_trackers_integrity_fields_raise_risk_flags_once_each() -> None:
    tracked = RegistryReading(
        "net_zero_tracker", "supports", "Same year.", "the record", [tracker_record()],
        risk_signals=["no_interim_target", "relies_on_carbon_credits", "unknown_signal"],
    )  # fmt: skip

    flags = tracker_risk_flags(tracked)

    assert [(flag.kind.value, flag.phrase) for flag in flags] == [
        ("future_commitment_without_plan", "Net Zero Tracker: no interim target"),
        ("offset_based_neutrality", "Net Zero Tracker: relies on carbon credits"),
    ]
    assert flags[1].explanation == "The tracker records that the target may be met with carbon credits."
