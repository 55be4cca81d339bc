"""The rule-based extractor against a generated report with planted claims and planted boilerplate
(tests/fixtures/planted_report.py), read the way the app reads uploads (open_pdf + read_pages).

Matching rule: after collapsing whitespace, a planted claim counts as found on page P when an
extracted claim on page P contains the whole planted sentence, or is itself part of the planted
sentence and covers at least the fixture's `MIN_COVERAGE` of its length (a sentence trimmed at a
clause boundary).
Boilerplate is hit when an extracted claim contains the planted text or is part of it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

import pytest

from app.claims.classify import CLAIM_TYPES
from app.claims.rules import RuleClaim, extract_rule_claims
from app.documents.pdf import open_pdf, read_pages
from app.language.page_text import normalise_text
from tests.fixtures.planted_report import PlantedClaim, PlantedReport, PlantedText, planted_report

MIN_RECALL = 0.9
MIN_TYPE_ACCURACY = 0.8


def letters_and_digits(text: str) -> str:
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text)).lower()


def matches(claim: RuleClaim, planted: PlantedClaim) -> bool:
    return planted.found_as(claim.text)


def hits(claim: RuleClaim, boilerplate: PlantedText) -> bool:
    return boilerplate.leaks_into(claim.text)


@pytest.fixture(scope="module")
def report() -> PlantedReport:
    return planted_report()


@pytest.fixture(scope="module")
def pages(report: PlantedReport) -> list[tuple[int, str]]:
    with open_pdf(report.pdf) as document:
        return read_pages(document, 1, document.page_count)


@pytest.fixture(scope="module")
def claims(pages: list[tuple[int, str]]) -> list[RuleClaim]:
    return extract_rule_claims(pages)


def test_the_fixture_is_a_realistic_report(report: PlantedReport, pages: list[tuple[int, str]]) -> None:
    assert 15 <= len(pages) <= 20
    assert len(report.claims) >= 40 and len(report.boilerplate) >= 25
    assert set(Counter(claim.claim_type for claim in report.claims)) == set(CLAIM_TYPES)
    assert len({claim.page for claim in report.claims}) >= 10
    raw = "\n".join(text for _, text in pages)
    assert len(re.findall(r"[a-z]-\n[a-z]", raw)) >= 3, "no words are hyphenated across lines"
    wrapped = [claim for claim in report.claims if claim.text not in raw]
    assert len(wrapped) >= 20, "too few planted claims wrap across lines"
    assert planted_report.__wrapped__().pdf == report.pdf  # deterministic: same bytes when rebuilt


def test_recall_of_planted_claims_on_their_pages(report: PlantedReport, claims: list[RuleClaim]) -> None:
    missed = [
        planted
        for planted in report.claims
        if not any(claim.source_page == planted.page and matches(claim, planted) for claim in claims)
    ]
    recall = 1 - len(missed) / len(report.claims)
    assert recall >= MIN_RECALL, f"recall {recall:.0%}; missed: {missed}"


def test_found_claims_are_never_on_another_page(report: PlantedReport, claims: list[RuleClaim]) -> None:
    elsewhere = [
        (planted, claim.source_page)
        for planted in report.claims
        for claim in claims
        if matches(claim, planted) and claim.source_page != planted.page
    ]
    assert not elsewhere


def test_claim_types_of_found_claims(report: PlantedReport, claims: list[RuleClaim]) -> None:
    typed = [
        (planted, claim.claim_type)
        for planted in report.claims
        for claim in claims
        if claim.source_page == planted.page and matches(claim, planted)
    ]
    wrong = [(planted.text, planted.claim_type, got) for planted, got in typed if got != planted.claim_type]
    accuracy = 1 - len(wrong) / len(typed)
    assert accuracy >= MIN_TYPE_ACCURACY, f"type accuracy {accuracy:.0%}; wrong: {wrong}"


def test_no_planted_boilerplate_is_extracted(report: PlantedReport, claims: list[RuleClaim]) -> None:
    leaked = [
        (boilerplate.page, boilerplate.text, claim.text)
        for boilerplate in report.boilerplate
        for claim in claims
        if hits(claim, boilerplate)
    ]
    assert not leaked


def test_claim_texts_are_verbatim_page_text(pages: list[tuple[int, str]], claims: list[RuleClaim]) -> None:
    text_of = {number: normalise_text(text) for number, text in pages}
    letters_of = {number: letters_and_digits(text) for number, text in pages}
    for claim in claims:
        assert claim.text in text_of[claim.source_page], claim
        assert claim.source_context in text_of[claim.source_page], claim
        # Independently of normalise_text: the same letters and digits, in order, as the raw page.
        assert letters_and_digits(claim.text) in letters_of[claim.source_page], claim
