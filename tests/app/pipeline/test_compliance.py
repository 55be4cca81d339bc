"""The compliance summary keeps disclosure coverage (legal agent) apart from the claims' verdicts."""

from __future__ import annotations

from typing import Any

from app.pipeline.compliance import compliance_summary
from app.verification.records import Finding, Verdict


def verdict(claim_id: str, label: str, *paragraphs: str) -> Verdict:
    return {
        "verdict_id": f"v-{claim_id}",
        "claim_id": claim_id,
        "verdict": label,
        "reasoning": "",
        "ifrs_mapping": [{"paragraph_id": paragraph} for paragraph in paragraphs],
        "confidence": 0.5,
        "confidence_level": "low",
        "iteration": 0,
        "method": "rules",
        "evaluation": {},
    }


def legal(claim_id: str | None, iteration: int = 0, **details: Any) -> Finding:
    return {
        "finding_id": f"f-{claim_id}-{iteration}",
        "agent_name": "legal",
        "claim_id": claim_id,
        "evidence_type": "ifrs_compliance" if claim_id else "disclosure_gap",
        "summary": "",
        "details": details,
        "supports_claim": None,
        "confidence": 0.7,
        "iteration": iteration,
        "method": "rules",
    }


def test_disclosure_and_verdicts_are_reported_apart() -> None:
    final = [
        verdict("a", "unverified", "S2.29(a)"),
        verdict("b", "unverified", "S2.29(a)", "S2.6(a)"),
        verdict("c", "verified", "S2.6(a)"),
    ]
    findings = [
        legal("a", ifrs_mappings=[{"paragraph_id": "S2.29(a)", "status": "full"}]),
        # pass 0 found S2.6(a) missing for b; the wider pass 1 found part of it: the latest counts
        legal("b", ifrs_mappings=[{"paragraph_id": "S2.6(a)", "status": "missing"}]),
        legal("b", 1, ifrs_mappings=[{"paragraph_id": "S2.6(a)", "status": "partial"}]),
        legal(None, gaps=[{"paragraph_id": "S2.22"}]),
    ]

    summary = compliance_summary(final, findings)

    # Fully disclosed, yet nothing about it is verified.
    assert summary["S2.29(a)"]["disclosure"]["coverage"] == "fully_addressed"
    assert (summary["S2.29(a)"]["status"], summary["S2.29(a)"]["unverified"]) == ("unsupported", 2)
    # Barely disclosed, yet one of its claims is verified.
    assert summary["S2.6(a)"]["disclosure"] == {
        "coverage": "partially_addressed",
        "claims_assessed": 1,
        "full": 0,
        "partial": 1,
        "missing": 0,
        "report_gap": False,
    }
    assert summary["S2.6(a)"]["status"] == "partially_supported"
    # A key disclosure the report never makes is listed with no claims at all.
    assert summary["S2.22"]["disclosure"]["coverage"] == "not_addressed"
    assert summary["S2.22"]["disclosure"]["report_gap"] is True
    assert (summary["S2.22"]["claims"], summary["S2.22"]["status"]) == (0, "no_claims")
