"""The density budget's ranking (app/claims/ranking.py) and the check-worthiness rules it relies on,
on hand-written sentences: a claim with a specific figure a verifier can check comes first, then
environmental assertions without one; pay awards and deal values count as having no figure."""

from __future__ import annotations

import math

from app.claims import environmental
from app.claims.environmental import topic_terms
from app.claims.ranking import (
    BONUS,
    BROKEN_PENALTY,
    FIGURE_TIER,
    MAX_BROKEN,
    PENALTY,
    SCORE_CAP,
    has_specific_figure,
    rank_parts,
    rank_score,
)
from app.claims.rules import MAX_CLAIMS_PER_PAGE, MIN_BUDGET, extract_rule_claims, is_check_worthy
from app.claims.worthiness import CLAIM_THRESHOLD, check_worthiness

DONE = "We cut the Scope 1 emissions of our dairies by 14% in 2023 by switching the boilers to biogas."
PAY = "The chief executive's bonus rose from 80% to 95% of salary with effect from 1 April 2023."
CONTRACT = "The contract, worth $2 billion, covers a new bridge and its upkeep for a period of 30 years."


def rank_of(text: str) -> float:
    return rank_score(text, check_worthiness(text)[0])


def test_an_environmental_achievement_outranks_figures_about_pay_or_contracts() -> None:
    for other in (PAY, CONTRACT):
        assert check_worthiness(other)[0] > 0
        assert rank_of(DONE) > rank_of(other) + 2


def test_a_specific_figure_outranks_every_claim_without_one() -> None:
    figures = [
        DONE,
        "Our bottling plant in Tarrow used 12.4 GWh of electricity in 2023.",
        "In 2023, 92% of our drivers completed the road safety course.",
        "In 2023, 31% of the managers we appointed were women, against 24% in 2022.",
    ]
    figure_less = [
        "We replaced the gas boilers of our bakeries with heat pumps powered by renewable electricity.",
        "Our refill stations cut single-use plastic packaging and are certified under ISO 14001.",
    ]
    assert all(has_specific_figure(text) for text in figures)
    assert not any(has_specific_figure(text) for text in figure_less)
    assert min(rank_of(text) for text in figures) > max(rank_of(text) for text in figure_less)
    # A people or safety figure is not marked down for naming no environmental subject.
    assert "no_environmental_subject" not in {name for name, _ in rank_parts(figures[2], 3.0)}


def test_pay_awards_and_deal_values_are_not_specific_figures() -> None:
    assert not has_specific_figure(PAY)
    assert not has_specific_figure(CONTRACT)
    assert not has_specific_figure("Depot 4 raised the wages of its staff by 4% in 2023.")
    # About an environmental subject, a contract's value is checkable like any other figure.
    assert has_specific_figure("We signed a contract worth $40 million for solar panels on our depots.")
    # Employment terms are not a deal's value.
    assert has_specific_figure("In 2023, 91% of our staff had permanent contracts.")


def test_the_figure_tier_is_above_anything_a_figure_less_claim_can_reach() -> None:
    strongest_assertion = (
        environmental.TOPIC_WEIGHT * environmental.MAX_TOPICS
        + environmental.WEAK_TOPIC_WEIGHT
        + environmental.OWN_WEIGHT
        + environmental.NAMED_WEIGHT
        + environmental.PROPERTY_WEIGHT
        + environmental.ACTION_WEIGHT
    )
    best_without_figure = SCORE_CAP + strongest_assertion + 3 * BONUS
    # An extracted claim is at least at the check-worthiness bar.
    worst_figure_claim = FIGURE_TIER + CLAIM_THRESHOLD - 2 * PENALTY - MAX_BROKEN * BROKEN_PENALTY
    assert worst_figure_claim > best_without_figure


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


def test_in_a_long_report_environmental_assertions_do_not_push_out_figure_claims() -> None:
    """The regression of the rank-only budget: a long report whose figure-less environmental
    assertions alone outnumber the budget still keeps every specific figure claim."""
    page_count = 120
    budget = max(MIN_BUDGET, math.floor(page_count * MAX_CLAIMS_PER_PAGE))
    assertions = [
        "Our {site} bakery replaced its gas ovens with electric ovens powered by renewable electricity.",
        "We collect the food waste of our {site} stores and send it to an anaerobic digester for biogas.",
    ]
    towns = [f"Town{chr(65 + n // 26)}{chr(65 + n % 26)}" for n in range(page_count)]
    figures = {
        17: "Our Harlow dairy used 39.1 GWh of electricity in 2023, against 41.6 GWh in 2022.",
        58: "In 2023, 94% of the cardboard from our stores was recycled.",
        88: "In 2023, 96% of our own staff completed the food safety course.",
        103: "We cut the Scope 1 emissions of our fleet by 2,300 t CO2e in 2023 with biogas trucks.",
    }
    pay = "The chief executive's bonus for 2023 rose from 80% to 95% of salary."
    pages = []
    for number, town in enumerate(towns, start=1):
        text = " ".join(sentence.format(site=town) for sentence in assertions)
        if number in figures:
            text += " " + figures[number]
        if number == 30:
            text += " " + pay
        pages.append((number, text))
    unbudgeted = extract_rule_claims(pages, budget=False)
    assert sum(1 for claim in unbudgeted if not has_specific_figure(claim.text)) > budget

    claims = extract_rule_claims(pages)

    assert len(claims) == budget
    kept = {(claim.source_page, claim.text) for claim in claims}
    assert set(figures.items()) <= kept
    # The pay claim ranks below everything else, and is kept only as the one governance claim (its
    # type's share of the budget, see the next test); no figure claim was dropped for it.
    pay_claim = next(claim for claim in unbudgeted if claim.text == pay)
    assert pay_claim.claim_type == "legal_governance" and pay_claim.rank == min(c.rank for c in unbudgeted)
    assert (30, pay) in kept and [c.claim_type for c in claims].count("legal_governance") == 1


def test_figure_claims_do_not_push_a_whole_claim_type_out_of_the_budget() -> None:
    """Governance claims have no figure and rank below every figure claim; without each type's
    share of the budget, a report full of figures would keep none and leave the IFRS governance
    pillar with nothing to verify."""
    page_count = 60
    budget = max(MIN_BUDGET, math.floor(page_count * MAX_CLAIMS_PER_PAGE))
    governance = {
        10: "The Board's Sustainability Committee reviews climate-related risks at each quarterly meeting.",
        40: "Our Audit Committee oversees the assurance of the emissions data we publish.",
    }
    pages = []
    for number in range(1, page_count + 1):
        text = (
            f"In 2023, the Mill{number} site used {number}.4 GWh of power, against {number}.9 GWh in 2022. "
            f"Our Mill{number} site recycled {number + 40}% of its process water in 2023."
        )
        if number in governance:
            text += " " + governance[number]
        pages.append((number, text))
    unbudgeted = extract_rule_claims(pages, budget=False)
    figures = [claim for claim in unbudgeted if has_specific_figure(claim.text)]
    assert len(figures) > budget
    assert {claim.claim_type for claim in unbudgeted if claim.text in governance.values()} == {
        "legal_governance"
    }
    assert all(rank_of(text) < min(claim.rank for claim in figures) for text in governance.values())

    claims = extract_rule_claims(pages)

    assert len(claims) == budget
    assert set(governance.items()) <= {(claim.source_page, claim.text) for claim in claims}
    assert sum(1 for claim in claims if has_specific_figure(claim.text)) == budget - len(governance)


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
