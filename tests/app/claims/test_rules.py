"""Unit tests for the rule-based claim extractor (app/language/sentences, worthiness, classify, rules)
on small hand-written texts laid out the way PDF text extraction returns them."""

from __future__ import annotations

import pytest

from app.claims.classify import CLAIM_TYPES, PRIORITIES
from app.claims.rules import (
    MAX_CLAIM_CHARS,
    MIN_BUDGET,
    RuleClaim,
    assign_priority,
    check_worthiness,
    classify_claim_type,
    extract_rule_claims,
    is_boilerplate,
    is_check_worthy,
)
from app.claims.worthiness import CLAIM_THRESHOLD
from app.language.page_text import normalise_text
from app.language.sentences import split_sentences


def texts(page_text: str) -> list[str]:
    return [sentence.text for sentence in split_sentences(1, page_text)]


# --- segmentation ------------------------------------------------------------------------------


def test_line_wrapped_sentences_are_joined_and_split_at_full_stops() -> None:
    page = (
        "Our Harrow Mill site cut its gas use by 12% in 2023. The savings came from\n"
        "a new heat exchanger and from\n"
        "better insulation of the dryers.\n"
    )
    assert texts(page) == [
        "Our Harrow Mill site cut its gas use by 12% in 2023.",
        "The savings came from a new heat exchanger and from better insulation of the dryers.",
    ]


def test_words_hyphenated_at_line_ends_are_rejoined_but_compounds_keep_their_hyphen() -> None:
    page = "Scope 1 emis-\nsions fell as our low-\ncarbon kilns and climate-\nrelated upgrades came online."
    assert texts(page) == [
        "Scope 1 emissions fell as our low-carbon kilns and climate-related upgrades came online."
    ]


def test_soft_hyphens_ligatures_and_odd_spaces_are_normalised() -> None:
    page = "Our ﬂeet used 4\u202f200 litres of bio\u00ad\nfuel in the ﬁrst half\u00a0of 2023."
    assert texts(page) == ["Our fleet used 4 200 litres of biofuel in the first half of 2023."]


@pytest.mark.parametrize(
    "sentence",
    [
        "Costs fell in several areas, e.g. freight and packaging, during 2023.",
        "Output rose, i.e. More tonnes were shipped than planned.",
        "The kiln used approx. 5 GJ per tonne of clinker in 2023.",
        "Line No. 4 was rebuilt and restarted in May 2023.",
        "The plant was sold to Brightwater Inc. and Hollis plc. in two stages.",
        "The visit was led by Dr. Amara Quist and Dr Ben Ode of the board.",
        "Rail beat road freight vs. Last year on every measured route.",
        "Demand grew by 6.1% p.a. over the five years to 2023.",
        "The site holds 3.5 t. of stock and 12.75 m. litres of water.",
    ],
)
def test_abbreviations_decimals_and_units_do_not_end_a_sentence(sentence: str) -> None:
    assert texts(sentence + " The next sentence starts here.") == [sentence, "The next sentence starts here."]


def test_terminal_abbreviations_still_end_a_sentence_before_a_new_one() -> None:
    page = "We sell cement, lime, aggregates etc. The range grew in 2023."
    assert texts(page) == ["We sell cement, lime, aggregates etc.", "The range grew in 2023."]


def test_bullets_are_separate_items_without_their_markers() -> None:
    page = (
        "Highlights of the year include:\n"
        "• Waste diversion reached 92% across all\n"
        "plants in 2023\n"
        "▪ Water use fell by 4%\n"
        "–\tTwo new solar roofs were installed\n"
        "●\n"
        "Fleet fuel use fell 8%\n"
        "1. The Board approved the plan\n"
        "(b) The Committee met twice\n"
    )
    assert texts(page) == [
        "Highlights of the year include:",
        "Waste diversion reached 92% across all plants in 2023",
        "Water use fell by 4%",
        "Two new solar roofs were installed",
        "Fleet fuel use fell 8%",
        "The Board approved the plan",
        "The Committee met twice",
    ]


def test_headings_table_rows_and_page_numbers_stay_out_of_sentences() -> None:
    page = (
        "12\n"
        "Energy and fuels\n"
        "Renewable electricity met 46% of demand in 2023, up\n"
        "from 31% in 2022.\n"
        "Indicator 2023 2022 2021\n"
        "Scope 1 (kt CO2e) 482 519 540\n"
        "Water and nature\n"
        "Our Tarn quarry covers 312 hectares\n"
        "Halden Works plc | Annual Review 2023 | 12\n"
    )
    assert texts(page) == [
        "12",
        "Energy and fuels",
        "Renewable electricity met 46% of demand in 2023, up from 31% in 2022.",
        "Indicator 2023 2022 2021",
        "Scope 1 (kt CO2e) 482 519 540",
        "Water and nature",
        "Our Tarn quarry covers 312 hectares",
        "Halden Works plc | Annual Review 2023 | 12",
    ]


def test_a_short_line_before_a_capitalised_line_is_a_heading() -> None:
    page = (
        "Our water stewardship approach is reviewed every year by the\n"
        "operations team and the sustainability function together.\n"
        "Reporting standards\n"
        "We report under the GRI Standards and map our disclosures to IFRS S2.\n"
    )
    assert texts(page)[-2:] == [
        "Reporting standards",
        "We report under the GRI Standards and map our disclosures to IFRS S2.",
    ]


def test_a_line_of_figures_finishes_an_unfinished_sentence_but_page_numbers_do_not() -> None:
    page = "Capital spend on decarbonisation will be $1.5 billion in the period\n2024-2026.\nClimate data\n14"
    assert texts(page) == [
        "Capital spend on decarbonisation will be $1.5 billion in the period 2024-2026.",
        "Climate data",
        "14",
    ]


def test_footnote_marks_after_a_full_stop_still_end_the_sentence() -> None:
    page = "Biofuel cut emissions by 65% in our trucks.7 Fleet use grew 3% in 2023."
    assert texts(page) == ["Biofuel cut emissions by 65% in our trucks.7", "Fleet use grew 3% in 2023."]


def test_a_sentence_cut_by_the_page_end_stays_on_its_page() -> None:
    sentences = split_sentences(7, "Water use fell 5% in 2023. Our new target is to cut it by a\nfurther")
    assert [(sentence.page, sentence.text) for sentence in sentences] == [
        (7, "Water use fell 5% in 2023."),
        (7, "Our new target is to cut it by a further"),
    ]


def test_offsets_point_back_into_the_raw_page_text() -> None:
    page = "Contents\n\nScope 1 emis-\nsions fell 6.1% to 2.3 Mt CO2e in 2023. We met\nour goal."
    for sentence in split_sentences(3, page):
        raw = page[sentence.start : sentence.end]
        assert normalise_text(raw) == sentence.text
        assert sentence.text in normalise_text(page)


# --- boilerplate and check-worthiness ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "We are committed to a sustainable future for our people and our planet.",
        "Sustainability is at the heart of everything we do at Halden.",
        "Climate governance and risk oversight ........................ 14",
        "Contents",
        "This document contains forward-looking statements that involve risks and uncertainties.",
        "No representation or warranty is given, and the figures should not be relied upon.",
        "In this report, “net zero” means that residual emissions are balanced by removals by 2050.",
        "Scope 2 refers to indirect emissions from purchased electricity, steam and heat.",
        "For more information, see the climate section on page 22 of the annual report.",
        "Read the full data annex at www.halden-example.com/esg before 30 June 2024.",
        "Questions on the 2023 data can be sent to esg@halden.example at any time.",
        "Globally, buildings account for about 37% of energy-related CO2 emissions.",
        "Scope 1 (kt CO2e) 482 519 540 561",
        "Net zero by 2050",
        "Energy and fuels",
    ],
)
def test_boilerplate_is_rejected_and_scores_zero(text: str) -> None:
    assert is_boilerplate(text)
    assert check_worthiness(text) == (0.0, ())


@pytest.mark.parametrize(
    ("text", "expected_signals"),
    [
        (
            "Our Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023.",
            {"figure_with_unit", "year", "emissions_topic", "change"},
        ),
        (
            "We aim to reduce Scope 1 and 2 emissions by 42% by 2030 from a 2019 baseline.",
            {"figure_with_unit", "target_year", "target", "comparison"},
        ),
        ("The Sustainability Committee meets quarterly and is chaired by Ana Ruiz.", {"meeting_cadence"}),
        (
            "Climate targets account for 15% of the annual bonus of executive directors.",
            {"remuneration_link"},
        ),
        ("Our Marlow plant in Ghent, Belgium covers 48 hectares.", {"named_place", "facility"}),
        ("KPMG provided limited assurance over our 2023 greenhouse gas emissions data.", {"assurance_named"}),
        (
            "The Science Based Targets initiative validated our targets in March 2023.",
            {"certification", "date"},
        ),
        ("We invested €45 million in electric furnaces in 2023.", {"currency_amount", "year"}),
    ],
)
def test_specific_company_statements_pass_the_bar_with_their_signals(
    text: str, expected_signals: set[str]
) -> None:
    score, signals = check_worthiness(text)
    assert score >= CLAIM_THRESHOLD
    assert expected_signals <= set(signals)


@pytest.mark.parametrize(
    "text",
    [
        "We continue to work closely with our suppliers on emissions and energy.",
        "Our approach to water is shaped by local conditions and stakeholder views.",
        "Renewable diesel can have a much lower carbon intensity than fossil diesel.",
    ],
)
def test_topic_words_without_anything_specific_stay_below_the_bar(text: str) -> None:
    assert check_worthiness(text)[0] < CLAIM_THRESHOLD


def test_more_specific_statements_score_higher() -> None:
    vague = check_worthiness("In 2023 we reduced our emissions by 6%.")[0]
    specific = check_worthiness(
        "In 2023 we reduced our Scope 1 emissions by 6% to 2.3 Mt CO2e against 2022."
    )[0]
    assert specific > vague


# --- types and priorities -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "claim_type"),
    [
        ("Our Scope 1 emissions were 2.3 Mt CO2e in 2023, down 6% on 2022.", "quantitative"),
        ("Energy intensity fell 15% to 3.1 GJ per tonne of product in 2023.", "quantitative"),
        ("We have committed to net-zero emissions by 2050 with an interim 42% cut by 2030.", "strategic"),
        ("We plan to invest $2 billion in renewable power between 2024 and 2030.", "strategic"),
        ("The Board’s Sustainability Committee meets quarterly to oversee climate risk.", "legal_governance"),
        ("Climate metrics make up 10% of executive bonus criteria for 2023.", "legal_governance"),
        ("Our plant in Surabaya, Indonesia operates on a 50-hectare site.", "geographic"),
        ("The Oakridge mine in Nevada withdrew 3.1 GL of groundwater in 2023.", "geographic"),
        ("100% of our electricity came from certified renewable sources in 2023.", "environmental"),
        ("We diverted 92% of operational waste from landfill in 2023.", "environmental"),
    ],
)
def test_claim_types_follow_frd_03(text: str, claim_type: str) -> None:
    assert classify_claim_type(text) == claim_type


@pytest.mark.parametrize(
    ("text", "priority"),
    [
        ("Our Scope 1 emissions were 2.3 Mt CO2e in 2023, down 6% on 2022.", "high"),
        ("We aim to cut Scope 3 emissions by 25% by 2032 against a 2021 baseline.", "high"),
        ("The Sustainability Committee meets quarterly and reports to the Board.", "medium"),
        ("We have committed to halving water use at all sites by 2030.", "medium"),
        ("We promote reuse of packaging across our stores through supplier programmes.", "low"),
    ],
)
def test_priorities_follow_frd_03(text: str, priority: str) -> None:
    _, signals = check_worthiness(text)
    assert assign_priority(text, classify_claim_type(text), signals) == priority


# --- end to end on pages ------------------------------------------------------------------------

PAGE_3 = (
    "Climate performance\n"
    "We are committed to a sustainable future. Our Scope 1 emissions fell 6.1% to\n"
    "2.3 Mt CO2e in 2023, from 2.45 Mt CO2e in 2022. The fall came mostly from\n"
    "fuel switching at three kilns.\n"
    "Halden Works plc | Sustainability Report 2023 | 3\n"
)
PAGE_4 = (
    "Targets\n"
    "We have committed to net-zero emissions by 2050, with an interim target of a\n"
    "42% reduction in Scope 1 and 2 emissions by 2030 against 2019.\n"
    "Our Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023, from 2.45 Mt CO2e in 2022.\n"
)


def test_extract_rule_claims_finds_claims_in_page_order_with_context_and_reasons() -> None:
    claims = extract_rule_claims([(3, PAGE_3), (4, PAGE_4)])

    assert [(claim.source_page, claim.claim_type, claim.priority) for claim in claims] == [
        (3, "quantitative", "high"),
        (4, "strategic", "high"),
    ]
    first = claims[0]
    assert first.text == "Our Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023, from 2.45 Mt CO2e in 2022."
    assert first.source_context == (
        "We are committed to a sustainable future. " + first.text + " The fall came mostly from fuel "
        "switching at three kilns."
    )
    assert "2.3 Mt" in first.reasoning and "2023" in first.reasoning and "Scope 1" in first.reasoning
    assert {"figure_with_unit", "year", "emissions_topic"} <= set(first.signals)
    assert first.score >= CLAIM_THRESHOLD


def test_exact_repeats_are_kept_once_where_they_first_appear() -> None:
    claims = extract_rule_claims([(3, PAGE_3), (4, PAGE_4)])
    repeated = [claim for claim in claims if claim.text.startswith("Our Scope 1 emissions fell 6.1%")]
    assert [claim.source_page for claim in repeated] == [3]


def test_long_sentences_are_trimmed_at_a_clause_boundary_and_stay_verbatim() -> None:
    clauses = ", ".join(f"plant {index} cut its gas use by {index + 2}% in 2023" for index in range(1, 20))
    page = f"Across the group our Scope 1 emissions fell 6% to 2.3 Mt CO2e in 2023, while {clauses}."

    (claim,) = extract_rule_claims([(9, page)])

    assert len(claim.text) <= MAX_CLAIM_CHARS
    assert claim.text in normalise_text(page)
    assert not claim.text.endswith(",")


def test_the_claim_budget_keeps_the_most_check_worthy_claims() -> None:
    filler = " ".join(f"Kiln {n} cut its gas use by {n}% in 2023." for n in range(2, MIN_BUDGET + 20))
    strong = "Our Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023, against 2.45 Mt CO2e in 2022."

    claims = extract_rule_claims([(1, filler), (2, strong)])

    assert len(claims) == MIN_BUDGET
    assert claims[-1].text == strong
    assert [claim.source_page for claim in claims] == sorted(claim.source_page for claim in claims)


@pytest.mark.parametrize(
    "sentence",
    [
        # the entity's own result for a stated year, checkable against its accounts
        "In fiscal 2023, we reported research spending of €410 million, against €380 million in fiscal 2022.",
        # a compliance record
        "In 2023, we recorded no incidents resulting in fines above $50,000.",
        # the share of a property portfolio under the entity's control, and a stake in a subsidiary
        "In 2023, we had operational control of about 12% of our properties.",
        "Norland holds 60% of the shares in its listed subsidiary Norland Grid.",
    ],
)
def test_own_results_compliance_records_and_property_shares_are_claims(sentence: str) -> None:
    assert is_check_worthy(sentence), check_worthiness(sentence)


def test_money_talk_without_a_reported_result_stays_out() -> None:
    assert not is_check_worthy("Revenue is expected to grow to $2 billion next year, with margins near 12%.")


def test_every_claim_field_is_valid() -> None:
    for claim in extract_rule_claims([(3, PAGE_3), (4, PAGE_4)]):
        assert isinstance(claim, RuleClaim)
        assert claim.claim_type in CLAIM_TYPES and claim.priority in PRIORITIES
        assert claim.text in claim.source_context
        assert claim.reasoning.endswith(".")


def test_no_pages_no_claims() -> None:
    assert extract_rule_claims([]) == []
    assert extract_rule_claims([(1, ""), (2, "   \n\n")]) == []
