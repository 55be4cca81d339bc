"""IFRS mapping and disclosure coverage read who does what in a sentence, not one keyword.

The sentences are our own. Each case is one a keyword reading got wrong: a claim that names the
board committee overseeing climate, how often it meets and its remit was "missing" the oversight
body; climate-linked bonuses were mapped to GHG emissions and never to remuneration; a neighbouring
sentence's "Scope 3" or "by 2030" was taken as this claim's; a scenario's name read as a net-zero
target; an amount in euros read as the presentation currency; and countries' or a government's
targets read as the company's target period. Each has a positive control that must still count.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.claims.ifrs_mapping import keyword_suggestions
from app.knowledge.registry import is_under
from app.pipeline.compliance import compliance_summary
from app.verification.ifrs.disclosure_gaps import find_gaps
from app.verification.ifrs.ifrs_assessment import (
    ParagraphAssessment,
    Passage,
    assess_paragraph,
    describe,
    index_passages,
)
from app.verification.investigators.legal import claim_passages, select_assessments
from app.verification.records import Finding, Verdict

COMMITTEE = (
    "The Climate and Sustainability Committee of the Board convened five times during 2024 and "
    "oversees the group's climate-related risks and opportunities."
)
MANAGEMENT = "Our Executive Committee oversees day-to-day climate risk management."
BUDGET = "The committee approved the new office budget."
BONUS = "Senior executive bonuses are tied 20% to our carbon reduction targets."
PLAIN_PAY = "Executive pay rose 4% in 2024 after a benchmarking review."
NET_ZERO = "We plan to reach net zero across our own operations by 2042."
NEXT_TARGET = "We also aim to cut value-chain Scope 3 emissions 25% by 2030 from a 2020 base year."
SCENARIO = "Our strategy was stress-tested against the IEA Net Zero 2050 and Announced Pledges scenarios."
OWN_NET_ZERO = "We have committed to net zero emissions by 2050."
AMOUNT = "We invested EUR 95 million in low-carbon furnaces last year."
CURRENCY = "All amounts in this report are presented in euros unless stated otherwise."
THESE_EMISSIONS = "Around 90% of these emissions arise when customers process the metals we sell."
SCOPE_3_CONTEXT = (
    "Our Scope 3 emissions were 410 Mt CO2e, roughly 15 times our Scope 1 and 2 emissions. " + THESE_EMISSIONS
)
NATIONS = "A fifth comes from nations that have pledged to reach carbon neutrality by 2050."
POLICY = "A new federal policy is expected to cut the country's emissions 40% below 2005 levels by 2030."
OWN_TARGET = "We target a 40% cut in our Scope 1 and 2 emissions by 2030."


def _assess(paragraph_id: str, claim: str, context: str = "") -> ParagraphAssessment:
    """The legal agent's assessment of one paragraph over what it reads for the claim."""
    assessment = assess_paragraph(paragraph_id, index_passages(claim_passages(claim, context, {}, [])))
    assert assessment is not None
    return assessment


def _ids(requirements: Any) -> list[str]:
    return [getattr(item, "paragraph_id", None) or item.requirement.paragraph_id for item in requirements]


def _mapped(text: str) -> list[str]:
    return [req.paragraph_id for req in keyword_suggestions(text)]


# --- 1. a claim that is the oversight-body disclosure ------------------------------------------


@pytest.mark.parametrize("paragraph_id", ["S2.6(a)", "S1.27(a)"])
def test_a_named_committee_with_frequency_and_remit_is_the_oversight_disclosure(paragraph_id: str) -> None:
    assessment = _assess(paragraph_id, COMMITTEE)

    assert assessment.status == "partial"
    addressed = _ids(assessment.addressed)
    # The body named (the paragraph's own ask), its remit (i) and how often it meets (iii).
    assert addressed == [paragraph_id, f"{paragraph_id}(i)", f"{paragraph_id}(iii)"]
    assert all(match.where == "in the claim" for match in assessment.addressed)
    assert paragraph_id not in _ids(assessment.missing)
    assert "oversight body named in the claim" in describe(assessment, "the claim")
    assert set(_mapped(COMMITTEE)) >= {"S2.6(a)", "S1.27(a)"}


def test_management_and_unrelated_committees_are_not_the_oversight_body() -> None:
    for text in (MANAGEMENT, BUDGET):
        assessment = _assess("S2.6(a)", text)
        assert "S2.6(a)" in _ids(assessment.missing), text
        assert "S2.6(a)(iii)" in _ids(assessment.missing), text


# --- 2. remuneration linked to climate -----------------------------------------------------------


def test_climate_linked_bonuses_map_to_remuneration_not_to_emissions() -> None:
    mapped = _mapped(BONUS)

    assert mapped[0] == "S2.29(g)"
    assert not any(is_under(pid, "S2.29(a)") for pid in mapped), mapped
    assessment = _assess("S2.29(g)", BONUS)
    assert assessment.status == "full"
    assert _ids(assessment.addressed) == ["S2.29(g)(i)", "S2.29(g)(ii)"]


def test_the_compliance_summary_marks_climate_linked_pay_addressed() -> None:
    claims = {"pay": BONUS, "committee": COMMITTEE}
    final: list[Verdict] = []
    findings: list[Finding] = []
    for claim_id, text in claims.items():
        mapped = _mapped(text)
        assessments, _ = select_assessments(mapped, [], index_passages(claim_passages(text, "", {}, [])))
        findings.append(_legal(claim_id, ifrs_mappings=[a.to_mapping() for a in assessments]))
        final.append(_verdict(claim_id, mapped))
    gaps = find_gaps(list(claims.values()), [(3, " ".join(claims.values()))])
    findings.append(_legal(None, **gaps.to_details()))

    summary = compliance_summary(final, findings)

    assert "S2.29(g)" not in [gap.paragraph_id for gap in gaps.gaps]
    assert summary["S2.29(g)"]["disclosure"]["coverage"] == "fully_addressed"
    assert summary["S2.29(g)"]["disclosure"]["report_gap"] is False
    assert summary["S2.6(a)"]["disclosure"]["coverage"] == "partially_addressed"
    assert summary["S1.27(a)"]["disclosure"]["coverage"] == "partially_addressed"
    assert "S2.29(a)" not in summary


def test_pay_without_a_climate_link_is_not_climate_remuneration() -> None:
    assert _assess("S2.29(g)", PLAIN_PAY).status != "full"
    assert "S2.29(g)" in [gap.paragraph_id for gap in find_gaps([PLAIN_PAY], [(1, PLAIN_PAY)]).gaps]
    # A pay sentence that also reports an emissions figure keeps its emissions paragraph.
    mapped = _mapped("Bonuses are linked to cutting Scope 1 emissions, which fell to 2.1 Mt CO2e.")
    assert mapped[0] == "S2.29(g)" and any(is_under(pid, "S2.29(a)") for pid in mapped), mapped


# --- 3. the claim's own sentence first; context never decides; scenario names; amounts ---------


def test_the_target_period_comes_from_the_claim_not_the_next_sentence() -> None:
    assessment = _assess("S2.33(d)", NET_ZERO, context=f"{NET_ZERO} {NEXT_TARGET}")

    assert assessment.status == "full"
    match = assessment.addressed[0]
    assert match.where == "in the claim" and match.quote is not None and "2042" in match.quote


def test_a_context_keyword_does_not_pin_a_paragraph_on_another_claim() -> None:
    indexes = index_passages(claim_passages(NET_ZERO, f"{NET_ZERO} {NEXT_TARGET}", {}, []))
    chosen, _ = select_assessments([], ["S2.29(a)(i)(3)", "S2.33(e)"], indexes)
    assert chosen == []
    # Positive control: the claim that states the Scope 3 target gets the Scope 3 paragraph, full.
    own, _ = select_assessments(
        [], ["S2.29(a)(i)(3)"], index_passages([Passage("in the claim", NEXT_TARGET)])
    )
    assert [(a.paragraph.paragraph_id, a.status) for a in own] == [("S2.29(a)(i)(3)", "full")]


def test_another_targets_year_on_the_page_only_mentions_the_target_period() -> None:
    claim = "We aim to halve food waste across our stores."
    page = f"{claim} Separately, we target a 50% cut in Scope 1 emissions by 2030."
    indexes = index_passages(claim_passages(claim, page, {7: page}, [7]))
    assessment = assess_paragraph("S2.33(d)", indexes)
    assert assessment is not None and assessment.status == "partial"
    assert assessment.addressed == [] and assessment.mentioned[0].where == "in its source context"


def test_a_scenario_name_is_not_a_net_zero_target() -> None:
    mapped = _mapped(SCENARIO)
    assert not any(is_under(pid, "S2.36") or is_under(pid, "S2.33") for pid in mapped), mapped
    assert _assess("S2.36(c)", SCENARIO).status == "missing"
    assert _assess("S2.22(b)(i)(1)", SCENARIO).status == "full"  # still an IEA scenario
    # Positive control: the company's own net-zero commitment is a net target.
    assert _assess("S2.36(c)", OWN_NET_ZERO).status == "full"


def test_an_amount_in_euros_is_not_the_presentation_currency() -> None:
    assert "S1.24" not in _mapped(AMOUNT)
    assert _assess("S1.24", AMOUNT).status == "missing"
    assert _assess("S1.24", CURRENCY).status == "full"


# --- 4. scope labels and other parties' targets --------------------------------------------------


def test_a_scope_3_sentence_is_never_scope_1_full() -> None:
    scope_1 = _assess("S2.29(a)(i)(1)", THESE_EMISSIONS, context=SCOPE_3_CONTEXT)
    assert scope_1.status != "full"
    assert scope_1.addressed == []
    indexes = index_passages(claim_passages(THESE_EMISSIONS, SCOPE_3_CONTEXT, {}, []))
    chosen, _ = select_assessments(["S2.29(a)"], ["S2.29(a)(i)(1)"], indexes)
    assert [a.paragraph.paragraph_id for a in chosen] == ["S2.29(a)"]
    assert chosen[0].status != "full"
    # Positive control: a claim that names Scope 1 is Scope 1, full.
    assert _assess("S2.29(a)(i)(1)", "Our Scope 1 emissions were 3.1 Mt CO2e in 2024.").status == "full"


def test_a_scope_list_in_the_claim_names_each_scope() -> None:
    # "Scope 1 and 2" names Scope 2 too, from the claim itself (not from a neighbouring sentence).
    assessment = _assess("S2.29(a)(i)", "Our Scope 1 and 2 emissions fell 8% to 400 kt CO2e in 2024.")
    assert [(m.requirement.paragraph_id, m.where) for m in assessment.addressed] == [
        ("S2.29(a)(i)(1)", "in the claim"),
        ("S2.29(a)(i)(2)", "in the claim"),
    ]
    assert _ids(assessment.missing) == ["S2.29(a)(i)(3)"]
    assert _assess("S2.29(a)(i)(2)", "Scope 12 of the programme opened in 2024.").status == "missing"


@pytest.mark.parametrize("text", [NATIONS, POLICY])
def test_other_parties_targets_are_not_the_company_target_disclosure(text: str) -> None:
    mapped = _mapped(text)
    assert not any(is_under(pid, "S2.33") or is_under(pid, "S2.36") for pid in mapped), mapped
    assert _assess("S2.33(d)", text).status == "missing"


def test_the_company_own_target_keeps_its_target_period() -> None:
    assert "S2.33(d)" in _ids(_assess("S2.33", OWN_TARGET).addressed)
    assert any(is_under(pid, "S2.33") or is_under(pid, "S2.36") for pid in _mapped(OWN_TARGET))


# --- helpers ------------------------------------------------------------------------------------


def _verdict(claim_id: str, paragraphs: list[str]) -> Verdict:
    return {
        "verdict_id": f"v-{claim_id}",
        "claim_id": claim_id,
        "verdict": "unverified",
        "reasoning": "",
        "ifrs_mapping": [{"paragraph_id": paragraph} for paragraph in paragraphs],
        "confidence": 0.5,
        "confidence_level": "low",
        "iteration": 0,
        "method": "rules",
        "evaluation": {},
    }


def _legal(claim_id: str | None, **details: Any) -> Finding:
    return {
        "finding_id": f"f-{claim_id}",
        "agent_name": "legal",
        "claim_id": claim_id,
        "evidence_type": "ifrs_compliance" if claim_id else "disclosure_gap",
        "summary": "",
        "details": details,
        "supports_claim": None,
        "confidence": 0.7,
        "iteration": 0,
        "method": "rules",
    }
