"""Rule claims read past the page's furniture: a running header with its page number, a footer,
footnote markers glued to words (kept as the claim's footnote numbers), and bullets of targets.

The PDF is typeset here (a fictional shipping company) and read back as uploads are read."""

from __future__ import annotations

import pymupdf
import pytest

from app.claims.chunks import page_chunks
from app.claims.rules import RuleClaim, extract_rule_claims
from app.documents.pdf import open_pdf, read_pages
from app.language.footnotes import PageFootnotes, glued_marker
from app.language.furniture import find_furniture
from app.language.page_text import normalise_page
from app.language.sentences import sentence_spans

HEADER = "Halvorsen Shipping Climate Plan 2025"
FOOTER = "halvorsen.example | Climate Plan"
PAGES = 6
BODY = {
    2: [
        "have cut the fuel burned per tonne-mile of our fleet by 12% since 2019.",
        "We have committed to reach net zero28 by 2050 across all owned vessels.",
        "Our fleet emitted 1.2 million tonnes of CO2 in 2024, down from FY2020 levels10 in every region.",
    ],
    3: [
        "By 2030 we will:",
        "\u2022 cut Scope 1 emissions from owned vessels by 40% against 2019,",
        "\u2022 source 80% of the electricity used at our terminals from renewable contracts,",
        "\u2022 retrofit 25 vessels with wind-assisted propulsion systems.",
    ],
}
NOTES = {2: ["28 Net zero covers Scope 1 and 2 emissions of owned vessels.", "10 Restated in 2023."]}


def _pdf() -> bytes:
    document = pymupdf.open()
    for number in range(1, PAGES + 1):
        page = document.new_page()
        page.insert_text((56, 40), f"{HEADER} {number}", fontsize=8)
        lines = BODY.get(number, [f"Section {number} describes how the fleet is run and maintained."])
        for row, line in enumerate(lines):
            page.insert_text((56, 90 + 16 * row), line, fontsize=10)
        for row, note in enumerate(NOTES.get(number, [])):
            page.insert_text((56, 760 + 10 * row), note, fontsize=7)
        page.insert_text((56, 810), FOOTER, fontsize=8)
    data: bytes = document.tobytes()
    document.close()
    return data


@pytest.fixture(scope="module")
def pages() -> list[tuple[int, str]]:
    with open_pdf(_pdf()) as document:
        return read_pages(document, 1, document.page_count)


@pytest.fixture(scope="module")
def claims(pages: list[tuple[int, str]]) -> list[RuleClaim]:
    return extract_rule_claims(pages)


def _claim(claims: list[RuleClaim], words: str) -> RuleClaim:
    found = [claim for claim in claims if words in claim.text]
    assert len(found) == 1, [claim.text for claim in claims]
    return found[0]


def test_the_running_header_and_footer_are_found_across_the_pages(pages: list[tuple[int, str]]) -> None:
    furniture = find_furniture(pages)
    number, text = pages[1]
    dropped = [text.split("\n")[index] for index in sorted(furniture.lines(number, text))]
    assert [line.strip() for line in dropped] == [f"{HEADER} 2", FOOTER]
    assert FOOTER not in furniture.strip(number, text) and HEADER not in furniture.strip(number, text)


def test_no_claim_carries_the_header_or_the_footer(claims: list[RuleClaim]) -> None:
    assert claims
    for claim in claims:
        assert "Halvorsen Shipping" not in claim.text and "halvorsen.example" not in claim.text


def test_the_sentence_that_starts_a_page_starts_after_its_header(pages: list[tuple[int, str]]) -> None:
    number, text = pages[1]
    page = normalise_page(text, find_furniture(pages).lines(number, text))
    first = page.text[slice(*sentence_spans(page)[0])]
    assert first.startswith("have cut the fuel burned"), first


def test_markers_glued_to_words_leave_the_text_and_stay_as_footnotes(claims: list[RuleClaim]) -> None:
    net_zero = _claim(claims, "net zero")
    assert "net zero by 2050" in net_zero.text and net_zero.footnotes == (28,)
    fleet = _claim(claims, "1.2 million tonnes")
    assert "CO2" in fleet.text and "FY2020 levels in every region" in fleet.text
    assert fleet.footnotes == (10,)


def test_each_bullet_of_targets_is_its_own_sentence(
    pages: list[tuple[int, str]], claims: list[RuleClaim]
) -> None:
    number, text = pages[2]
    page = normalise_page(text, find_furniture(pages).lines(number, text))
    sentences = [page.text[start:end] for start, end in sentence_spans(page)]
    assert sentences[0] == "By 2030 we will:"
    assert [sentence.split()[0] for sentence in sentences[1:]] == ["cut", "source", "retrofit"], sentences
    assert all("%" not in claim.text or claim.text.count("%") == 1 for claim in claims)


def test_the_llm_windows_hold_the_pages_without_their_furniture(pages: list[tuple[int, str]]) -> None:
    for chunk in page_chunks(pages, 4, 1):
        for _, text in chunk.pages:
            assert HEADER not in text and FOOTER not in text


@pytest.mark.parametrize(
    ("token", "span"),
    [
        ("zero28", (4, 6)),
        ("levels10,", (6, 8)),
        ("(suppliers48).", (10, 12)),
        ("emissions.3", (10, 11)),
        ("CO2", None),
        ("N2O", None),
        ("CH4", None),
        ("SF6", None),
        ("PM2.5", None),
        ("H2", None),
        ("A1", None),
        ("SDG13", None),
        ("Scope3", None),
        ("tier2", None),
        ("FY2030", None),
        ("zero29", None),  # the page has no footnote 29
    ],
)
def test_the_glued_marker_rule(token: str, span: tuple[int, int] | None) -> None:
    numbers = frozenset({"2", "3", "5", "6", "10", "13", "28", "48", "2030"})
    assert glued_marker(token, numbers) == span


def test_a_number_alone_at_a_line_start_with_no_word_is_no_footnote() -> None:
    footnotes = PageFootnotes.of("Our targets\n28 42 17\nfleet zero28 today")
    assert "28" not in footnotes.numbers
