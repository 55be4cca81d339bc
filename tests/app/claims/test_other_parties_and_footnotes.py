"""Another party's text is not the company's claim; footnote markers fused with a year are not figures.

Own sentences about invented companies (trial s24: an assurance provider's opinion and other
parties' pledges were kept as the company's claims, and "by 20351." kept a footnote in the year).
"""

from __future__ import annotations

import pytest

from app.claims.rules import extract_rule_claims, is_check_worthy
from app.language.footnotes import footnote_digits, fused_marker
from app.language.page_text import normalise_text
from app.language.sentences import split_sentences


@pytest.mark.parametrize(
    "sentence",
    [
        "In our opinion, the Scope 1 and 2 emissions of Tarnwick Minerals of 4.2 Mt CO2e for 2024 have "
        "been prepared, in all material respects, in accordance with the stated criteria.",
        "We have performed a limited assurance engagement on selected greenhouse gas figures of Tarnwick "
        "Minerals for the year ended 30 June 2024.",
        "Based on our procedures, nothing has come to our attention that causes us to believe that the "
        "2024 water withdrawal of 12.5 GL is materially misstated.",
        "Based on the evidence we obtained, we are not aware of any material misstatements in the 2024 "
        "Scope 3 emissions of 61.0 Mt CO2e reported by Tarnwick Minerals.",
    ],
)
def test_the_assurance_providers_statement_is_not_a_company_claim(sentence: str) -> None:
    assert not is_check_worthy(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Around 22% arise in economies that have pledged to reach net zero emissions by 2060.",
        "The Clean Grid Act passed in March 2024 requires the power sector to cut its emissions by 60% "
        "below 2010 levels by 2035.",
    ],
)
def test_other_parties_pledges_and_policies_are_not_company_claims(sentence: str) -> None:
    assert not is_check_worthy(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "We have set a target to reduce our Scope 1 and 2 emissions by 42% by 2030 against a 2021 baseline.",
        "Our assurance provider, Halvorsen & Partners, reviewed our Scope 1 and 2 data for 2024.",
        "About 70% of our downstream emissions occur in countries that have pledged net zero by 2060.",
        "KPMG provided reasonable assurance over our 2024 Scope 1 and 2 emissions of 3.1 Mt CO2e.",
    ],
)
def test_the_companys_own_statements_stay_claims(sentence: str) -> None:
    assert is_check_worthy(sentence)


_TARGET_PAGE = (
    "Fleet targets:\n"
    "– Cut the Scope 1 emissions of our delivery fleet by 45% by 20351.\n"
    "– Power all of our depots with renewable electricity\nby 20302.\n"
    "In 20232, we shipped 20351 tonnes of recycled aluminium from our Ostrava plant.\n"
    "1. Compared with a 2019 baseline.\n"
    "2. Subject to approval by the Board.\n"
)


def test_a_footnote_marker_fused_with_a_year_is_read_as_the_year() -> None:
    text = normalise_text(_TARGET_PAGE)
    assert "delivery fleet by 45% by 2035." in text
    assert "renewable electricity by 2030." in text
    assert "In 2023, we shipped 20351 tonnes" in text  # the figure keeps all its digits
    claims = [claim.text for claim in extract_rule_claims([(4, _TARGET_PAGE)])]
    assert any(claim.endswith("by 2035.") for claim in claims)
    assert not any("20351." in claim or "20302" in claim for claim in claims)


def test_offsets_still_point_back_into_the_raw_page_when_a_marker_is_dropped() -> None:
    target = next(s for s in split_sentences(4, _TARGET_PAGE) if s.text.endswith("by 2035."))
    assert _TARGET_PAGE[target.start : target.end].endswith("by 20351.")


def test_without_footnotes_on_the_page_a_five_digit_number_is_left_alone() -> None:
    page = "Halve the fuel use of our delivery fleet by 20351.\nWe recycled 20302 tonnes in 2024."
    assert footnote_digits(page) == frozenset()
    assert normalise_text(page) == page.replace("\n", " ")


@pytest.mark.parametrize(
    ("token", "previous", "index"),
    [
        ("20351.", "by", 4),
        ("20232,", "In", 4),
        ("20351", "by", None),  # no punctuation after it: could be a figure
        ("20351.", "totalled", 4),  # ends a sentence, a plausible year
        ("21501.", "by", None),  # not a 19xx/20xx year
        ("20350.", "by", None),  # 0 is no footnote number
        ("20353.", "by", None),  # the page has no footnote 3
    ],
)
def test_the_fused_marker_rule(token: str, previous: str, index: int | None) -> None:
    assert fused_marker(token, previous, frozenset({"1", "2"})) == index
