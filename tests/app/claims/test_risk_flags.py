"""Greenwashing risk flags (app.claims.risk_flags): each rule on sentences of our own, then the
planted report end to end (extracted by the rules, flagged with the whole report as context)."""

from __future__ import annotations

import pytest

from app.claims.risk_flags import (
    RiskFlag,
    RiskFlagKind,
    claim_flags,
    flag_claims,
    flags_of,
    future_flag,
    report_milestones,
)
from app.claims.rules import RuleClaim, extract_rule_claims
from app.documents.pdf import open_pdf, read_pages
from tests.fixtures.planted_report import PlantedClaim, planted_report

GENERIC = RiskFlagKind.GENERIC_ENVIRONMENTAL_CLAIM
OFFSET = RiskFlagKind.OFFSET_BASED_NEUTRALITY
FUTURE = RiskFlagKind.FUTURE_COMMITMENT_WITHOUT_PLAN
LABEL = RiskFlagKind.SELF_DECLARED_LABEL


def kinds(text: str, context: str = "") -> set[RiskFlagKind]:
    return {flag.kind for flag in claim_flags(text, context)}


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Our shoe range is eco-friendly and kind to the planet.", "is eco-friendly"),
        ("We offer customers a greener choice of home delivery.", "greener choice"),
        ("Our detergents are environmentally friendly.", "are environmentally friendly"),
    ],
)
def test_a_broad_environmental_label_with_nothing_specific_is_generic(text: str, phrase: str) -> None:
    (flag,) = claim_flags(text)
    assert flag.kind is GENERIC and flag.phrase == phrase and flag.explanation


@pytest.mark.parametrize(
    ("text", "context"),
    [
        ("Our bottles are eco-friendly: they contain 50% recycled PET.", ""),
        ("Our shoe range is eco-friendly.", "Each pair uses 30% less leather than in 2020."),
        ("Our office furniture is a sustainable choice.", "All of it is FSC certified."),
        ("We issued a green bond to finance wind farms.", ""),
    ],
)
def test_specific_performance_in_the_claim_or_around_it_is_not_generic(text: str, context: str) -> None:
    assert GENERIC not in kinds(text, context)


def test_neutrality_resting_on_offsets_is_flagged_with_both_phrases() -> None:
    text = "Our flights are carbon neutral because we offset their emissions through tree planting."
    (flag,) = [flag for flag in claim_flags(text) if flag.kind is OFFSET]
    assert "carbon neutral" in flag.phrase and "offset" in flag.phrase
    context = "The remaining emissions are compensated for by purchasing carbon credits."
    assert OFFSET in kinds("The event was climate neutral.", context)


def test_neutrality_from_own_cuts_or_offsets_without_a_neutrality_claim_are_not_flagged() -> None:
    assert OFFSET not in kinds("Our bakery became carbon neutral after switching to heat pumps in 2022.")
    assert OFFSET not in kinds("We bought carbon credits for a forest project in Peru.")


@pytest.mark.parametrize(
    "text",
    [
        "Products carry our own GreenLeaf label.",
        "All cleaning products are certified eco-friendly.",
        "Every garment meets our in-house Planet Standard.",
    ],
)
def test_a_label_of_the_company_own_is_self_declared(text: str) -> None:
    assert LABEL in kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "Our new offices are BREEAM Excellent certified.",
        "Our own label is only used for FSC-certified paper.",
        "The plant is certified to ISO 14001.",
        "We buy certified green electricity for all stores.",
    ],
)
def test_a_third_party_scheme_is_not_self_declared(text: str) -> None:
    assert LABEL not in kinds(text)


PLAN_PAGES = [
    (1, "We will reach net zero emissions by 2050."),
    (2, "Our interim target is to halve Scope 1 and 2 emissions by 2030 from 2019."),
    (3, "We will make all of our packaging recyclable by 2040."),
]


def test_a_long_term_commitment_needs_an_interim_target_or_plan_on_the_same_subject() -> None:
    milestones = report_milestones(PLAN_PAGES)
    assert future_flag("We will reach net zero emissions by 2050.", milestones) is None
    flag = future_flag("We will make all of our packaging recyclable by 2040.", milestones)
    assert flag is not None and flag.kind is FUTURE and flag.phrase == "by 2040"
    assert future_flag("We will phase out plastic bags by 2035 and halve them by 2028.", milestones) is None
    assert future_flag("We will publish a packaging roadmap for 2040.", milestones) is None
    assert future_flag("We cut packaging by 12% in 2023.", milestones) is None


def test_without_any_plan_in_the_report_net_zero_is_flagged() -> None:
    pages = [(1, "We will reach net zero emissions by 2050."), (2, "Our stores sell food and fuel.")]
    (flags,) = flag_claims([("We will reach net zero emissions by 2050.", "")], pages)
    assert [flag.kind for flag in flags] == [FUTURE]


def test_flags_round_trip_through_storage_and_unknown_kinds_are_skipped() -> None:
    flag = RiskFlag(GENERIC, "green", "why")
    stored = {"risk_flags": [flag.to_dict(), {"kind": "a_kind_from_the_future", "phrase": "x"}]}
    assert flags_of(stored) == [flag]
    assert flags_of({}) == []


# --- the planted report --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def flagged() -> list[tuple[RuleClaim, list[RiskFlag]]]:
    with open_pdf(planted_report().pdf) as document:
        pages = read_pages(document, 1, document.page_count)
    claims = extract_rule_claims(pages)
    flags = flag_claims([(claim.text, claim.source_context) for claim in claims], pages)
    return list(zip(claims, flags, strict=True))


def planted(fragment: str) -> PlantedClaim:
    return next(claim for claim in planted_report().claims if fragment in claim.text)


def flags_on(flagged: list[tuple[RuleClaim, list[RiskFlag]]], target: PlantedClaim) -> set[RiskFlagKind]:
    matches = [
        flags for claim, flags in flagged if claim.source_page == target.page and target.found_as(claim.text)
    ]
    assert matches, f"planted claim not extracted: {target.text}"
    return {flag.kind for flag in matches[0]}


@pytest.mark.parametrize(
    ("fragment", "expected"),
    [
        ("Terra cement range is eco-friendly", GENERIC),
        ("our own EcoBuild seal", LABEL),
        ("head office has been carbon neutral", OFFSET),
        ("phase out single-use plastics", FUTURE),
    ],
)
def test_planted_risky_claims_are_flagged(
    flagged: list[tuple[RuleClaim, list[RiskFlag]]], fragment: str, expected: RiskFlagKind
) -> None:
    assert flags_on(flagged, planted(fragment)) == {expected}


@pytest.mark.parametrize(
    "fragment",
    [
        "Terra Low cement has a carbon footprint",  # a figure, verified under a named standard
        "committed to reach net-zero emissions",  # the report sets a 2030 interim target
        "Renewable electricity covered 46%",
        "ISO 14001 certification covers",
        "Concrete Sustainability Council",
        "certified green electri",
    ],
)
def test_planted_substantiated_claims_carry_no_flag(
    flagged: list[tuple[RuleClaim, list[RiskFlag]]], fragment: str
) -> None:
    assert flags_on(flagged, planted(fragment)) == set()


def test_only_the_planted_risky_claims_are_flagged(flagged: list[tuple[RuleClaim, list[RiskFlag]]]) -> None:
    flagged_texts = [claim.text for claim, flags in flagged if flags]
    assert len(flagged_texts) == 4, flagged_texts
