"""The density budget's ranking (app/claims/ranking.py) and the check-worthiness rules it relies on,
on hand-written sentences."""

from __future__ import annotations

from app.claims.environmental import topic_terms
from app.claims.ranking import rank_parts, rank_score
from app.claims.rules import MIN_BUDGET, extract_rule_claims, is_check_worthy
from app.claims.worthiness import check_worthiness

DONE = "We cut the Scope 1 emissions of our dairies by 14% in 2023 by switching the boilers to biogas."
PAY = "The chief executive's bonus rose from 80% to 95% of salary with effect from 1 April 2023."
CONTRACT = "The contract, worth $2 billion, covers a new bridge and its upkeep for a period of 30 years."


def rank_of(text: str) -> float:
    return rank_score(text, check_worthiness(text)[0])


def test_an_environmental_achievement_outranks_figures_about_pay_or_contracts() -> None:
    for other in (PAY, CONTRACT):
        assert check_worthiness(other)[0] > 0
        assert rank_of(DONE) > rank_of(other) + 2


def test_reported_as_done_outranks_the_same_step_hedged_or_intended_without_a_date() -> None:
    done = "Our bakeries replaced their diesel vans with electric delivery vans across the region."
    hedged = "Our bakeries could replace their diesel vans with electric delivery vans across the region."
    intended = "Our bakeries want to replace their diesel vans with electric delivery vans across the region."
    assert rank_of(done) > rank_of(hedged)
    assert rank_of(done) > rank_of(intended)
    names = {name for name, _ in rank_parts(hedged, 2.5)}
    assert "hedged" in names and "own_subject" in names and "reported_as_done" not in names


def test_specific_environmental_evidence_and_broken_text_move_the_rank() -> None:
    plain = "Our dairies buy electricity from renewable sources for all production lines."
    evidence = "Our dairies bought 41,000 MWh of electricity from renewable sources for all production lines."
    broken = "Our dairies buy electri- city from renew- able sources for all production lines."
    assert rank_score(evidence, 3.0) > rank_score(plain, 3.0)
    assert rank_score(broken, 3.0) < rank_score(plain, 3.0)
    shared_ending = "Our dairies set short- and long-term targets for renewable electricity."
    assert "broken_text" not in {name for name, _ in rank_parts(shared_ending, 3.0)}


def test_the_budget_keeps_environmental_claims_before_figures_with_no_environmental_subject() -> None:
    payroll = " ".join(
        f"Depot {n} raised the wages of its staff by {n}% in 2023." for n in range(2, MIN_BUDGET + 2)
    )
    planted = [
        "We switched our delivery fleet to renewable diesel across all depots.",
        "Our new stores are heated by heat pumps instead of gas boilers, which lowers their emissions.",
        "We collect used cooking oil from our kitchens and send it for conversion into biofuel.",
    ]
    # Assertions without figures: less check-worthy than the wage figures, but what the budget keeps.
    wages = check_worthiness(payroll.split(". ")[0] + ".")[0]
    assert all(is_check_worthy(sentence) and check_worthiness(sentence)[0] < wages for sentence in planted)

    claims = extract_rule_claims([(1, payroll), (2, " ".join(planted))])

    assert len(claims) == MIN_BUDGET
    assert [claim.text for claim in claims if claim.source_page == 2] == planted
    assert all(claim.rank == rank_score(claim.text, claim.score) for claim in claims)


def test_a_sum_of_money_is_not_also_counted_as_a_figure_with_a_unit() -> None:
    signals = check_worthiness(CONTRACT)[1]
    assert "currency_amount" in signals and "figure_with_unit" not in signals
    both = check_worthiness("We spent $4 million to cut our water use by 20% in 2023.")[1]
    assert {"currency_amount", "figure_with_unit"} <= set(both)


def test_a_pronoun_for_the_entitys_products_is_not_a_general_fact() -> None:
    claim = "They use less power than the old units, and can reduce a store's electricity use by 15%."
    assert is_check_worthy(claim)


def test_more_environmental_subjects_are_recognised() -> None:
    assert topic_terms("We began leasing electric delivery vans.") == ["electric delivery vans"]
    assert topic_terms("The plant is being fitted for CCUS.") == ["ccus"]


def test_an_action_after_to_makes_a_sentence_not_a_fragment() -> None:
    assert is_check_worthy("Our crop rotation practices help to minimise fertiliser use on all of our farms.")
