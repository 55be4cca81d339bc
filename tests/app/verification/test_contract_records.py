"""The typed records of checks, disclosure, places and any finding's evidence read stored details
as the judge always has, and the place finding writes the details geography always wrote."""

from __future__ import annotations

from app.verification.contract import (
    CheckFinding,
    DisclosureFinding,
    FindingEvidence,
    ParagraphStatus,
    PlaceFinding,
    StatedValue,
)


def test_a_cross_page_check_reads_its_values_and_skips_unstated_ones() -> None:
    check = CheckFinding.from_details(
        {
            "check": "cross_page",
            "metric": "scope_1",
            "year": 2023,
            "claim_value": {"text": "2.3 Mt", "page": 4},
            "other_values": [{"text": "2.5 Mt", "page": "9"}, {"text": ""}, "junk"],
        }
    )
    assert check.check == "cross_page"
    assert check.claim_value == StatedValue("2.3 Mt", 4)
    assert check.other_values == [StatedValue("2.5 Mt", None)]
    assert not check.consistent


def test_a_check_without_clash_fields_reads_as_not_said() -> None:
    check = CheckFinding.from_details({"check": "percent_change", "consistent": True, "year": True})
    assert (check.consistent, check.metric, check.year, check.claim_value) == (True, None, None, None)


def test_disclosure_reads_paragraph_statuses_and_report_gaps() -> None:
    found = DisclosureFinding.from_details(
        {
            "ifrs_mappings": [{"paragraph_id": "S2.29", "status": "partial"}, {"status": "full"}, "x"],
            "gaps": [{"paragraph_id": "S2.14"}],
        }
    )
    assert found.paragraphs == [ParagraphStatus("S2.29", "partial")]
    assert found.gap_paragraphs == ["S2.14"]


def test_a_place_finding_writes_the_keys_geography_wrote() -> None:
    assert PlaceFinding(places=[], searched=["claim"]).to_details() == {
        "places": [],
        "searched": ["claim"],
        "source_available": True,
        "sources": [],
    }
    located = PlaceFinding(
        places=[{"name": "Perth"}],
        searched=["claim"],
        vegetation_claim="restoration",
        period=None,
        imagery={"sites": []},
        sources=[{"report_page": 3}],
    ).to_details()
    assert list(located) == [
        "places",
        "searched",
        "vegetation_claim",
        "period",
        "imagery",
        "source_available",
        "sources",
    ]


def test_finding_evidence_reads_a_source_finding() -> None:
    evidence = FindingEvidence.from_details(
        {
            "source_url": "https://www.reuters.com/a",
            "source_domain": "reuters.com",
            "source_tier": 2,
            "tier_basis": "domain",
            "quote_verified": True,
            "sources": [{"report_page": 7}, {"report_page": 7}, {"report_page": "x"}],
            "queries": [{"providers": ["library", "tavily"]}, "junk"],
        }
    )
    assert evidence.about_one_source and not evidence.self_reported
    assert (evidence.source_tier, evidence.quote_verified, evidence.report_pages) == (2, True, [7])
    assert evidence.search_providers == ["library", "tavily"]
    assert evidence.quote_bears_on_claim and evidence.source_available and not evidence.settled


def test_finding_evidence_of_a_summary_is_about_its_key_findings() -> None:
    summary = FindingEvidence.from_details(
        {"source_url": "x", "key_findings": [{"tier_basis": "press_release"}]}
    )
    assert not summary.about_one_source
    assert summary.key_findings is not None and summary.key_findings[0].self_reported
    assert FindingEvidence.from_details({"key_findings": None}).key_findings == []
    assert FindingEvidence.from_details({}).key_findings is None


def test_finding_evidence_keeps_what_older_findings_lack_at_its_old_meaning() -> None:
    bare = FindingEvidence.from_details({"source_tier": True, "error": "", "quote_verified": "yes"})
    assert (bare.source_tier, bare.error, bare.quote_verified) == (None, None, None)
    assert FindingEvidence.from_details({"source_available": False, "settled": True}).settled
