"""Rule-mode check-worthiness of environmental claims (issue 15), on sentences of our own: what the
reporting entity asserts about itself, its products or operations is a claim, with or without a
figure; market context, other parties' numbers, questions, chatter and money talk are not."""

from __future__ import annotations

import pytest

from app.claims.environmental import NAMED_SUBJECT, environmental_score, is_chatter
from app.claims.rules import classify_claim_type, extract_rule_claims, is_check_worthy


@pytest.mark.parametrize(
    "sentence",
    [
        # benefits of products
        "Our paper-based trays are made from a renewable resource and are fully compostable.",
        "Because our glue contains no solvents, it releases almost no volatile organic compounds.",
        # certifications
        "All new warehouses we build are certified to LEED Gold for energy and water efficiency.",
        # renewable shares and recyclability, without a figure
        "We now power our bakeries with renewable electricity bought from local wind farms.",
        "Our coffee capsules are recyclable in household packaging waste collections.",
        # avoided emissions and programmes with stated effects
        "Switching our delivery vans to biogas avoided emissions from diesel across the northern routes.",
        "Our repair programme keeps used furniture out of landfill and reduces demand for new timber.",
        "Greenfield Foods restored wetlands along the river to protect habitats for migrating birds.",
    ],
)
def test_environmental_claims_of_the_entity_are_claims(sentence: str) -> None:
    assert is_check_worthy(sentence), environmental_score(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        # market context and other parties
        "Demand for electric vehicles is gaining momentum across global markets as battery prices fall.",
        "The ministry introduced a tax on landfill waste for municipalities in 2021.",
        "According to the IPCC, global emissions must fall by 43% by 2030 to limit warming.",
        # questions and chatter
        "How will the new carbon price affect our emissions from the cement plants?",
        "And so, you know, I think the renewable diesel side is kind of where the margin is.",
        "Yes, we're going to keep looking at solar, but it's early days.",
        # hedged general statements
        "Heat pumps can potentially lower the energy use of older buildings.",
        # pure financial guidance
        "We expect revenue growth of 4% to 6% and an operating margin above 12% next year.",
        "Net debt fell to $2.1 billion, and leverage is now below 2.0x EBITDA.",
        # a figure about a non-sustainability subject
        "Our fibre network now reaches 91% of households with speeds of up to 1 Gbps.",
    ],
)
def test_context_chatter_and_money_talk_are_not_claims(sentence: str) -> None:
    assert not is_check_worthy(sentence), environmental_score(sentence)


def test_chatter_and_questions_are_recognised() -> None:
    assert is_chatter("So the real question is what the regulator does next.")
    assert is_chatter("Do our stores use renewable power?")
    assert not is_chatter("Our stores use renewable power.")


@pytest.mark.parametrize(
    ("sentence", "claim_type"),
    [
        ("Our coffee capsules are recyclable in household packaging waste collections.", "environmental"),
        ("We will reach net zero across our own operations by 2040.", "strategic"),
        ("Scope 1 emissions fell 8% to 1.2 Mt CO2e in 2023.", "quantitative"),
        ("The Board's Sustainability Committee met six times in 2023.", "legal_governance"),
        ("Our Kestrel Bay terminal in Queensland covers 40 hectares of former farmland.", "geographic"),
    ],
)
def test_types_stay_correct_with_environmental_claims(sentence: str, claim_type: str) -> None:
    assert is_check_worthy(sentence)
    assert classify_claim_type(sentence) == claim_type


def test_environmental_claims_are_found_in_page_text_and_say_why() -> None:
    page = (
        "Sustainable packaging\n"
        "Our paper-based trays are made from a renewable resource and are fully compostable. "
        "Customers often ask about the trays. "
        "Will the trays be more expensive?"
    )
    (claim,) = extract_rule_claims([(4, page)])
    assert claim.text.startswith("Our paper-based trays")
    assert claim.claim_type == "environmental" and "environmental_claim" in claim.signals


@pytest.mark.parametrize(
    "sentence",
    [
        # a superlative about the entity's own plants, and an award for an environmental project
        "In Spain, Norland's gas plants run the most efficient turbines with the lowest emissions in the "
        "country.",
        "Last year the Tarrow site received the regional Clean Production Award for its water recycling "
        "project.",
        # energy-efficiency measures named by their kit
        "LED lighting retrofits were completed at 85% of our stores in 2023.",
        # "So far" opens a report sentence, not a spoken one
        "So far we have planted 40,000 trees along the river banks of our farms.",
        # "<NAME> group" is the entity speaking of itself; refrigerating fluids are an environmental subject
        "All NRG group depots are working to cut the carbon impact of the refrigerating fluids in their "
        "cold stores.",
    ],
)
def test_superlatives_awards_retrofits_and_progress_so_far_are_claims(sentence: str) -> None:
    assert is_check_worthy(sentence), environmental_score(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        # "our time" is not the entity speaking about itself
        "In the years ahead, renewables will play a central part in lowering emissions, the great challenge "
        "of our time.",
        # an outlook on what others do
        "As we look ahead, we see more attention to how companies reflect climate change and emissions in "
        "their accounts.",
        # two columns run together: words split by a hyphen and a space
        "Our plants cut emis- sions of dust while the new recy- cling line opened for waste.",
        # the tail of a sentence cut off before it
        "(about 40 sites) loan to fund construction of the new wind farm near Tarrow in 2021.",
    ],
)
def test_outlooks_split_columns_and_cut_off_tails_are_not_claims(sentence: str) -> None:
    assert not is_check_worthy(sentence), environmental_score(sentence)


def test_a_determiner_is_not_a_company_name() -> None:
    assert NAMED_SUBJECT.search("Norland reduced the water use of its mills.")
    assert not NAMED_SUBJECT.search("The guidelines were developed in line with the plan.")
    assert not NAMED_SUBJECT.search("These programmes protect habitats near our quarries.")
