"""A page's text rebuilt and cut into sentences, and the cuts of text without layout."""

from __future__ import annotations

from app.language.page_text import normalise_page, normalise_text
from app.language.sentences import rough_sentences, split_sentences, statements

PAGE = (
    "Climate Highlights\n"
    "In 2023 we cut Scope 1 emis-\n"
    "sions by 8%, e.g. at our smelters.\n"
    "The e\ufb03ciency programme\n"
    "continues.\n"
)


def test_a_page_is_rebuilt_as_one_string_with_its_lines_remembered() -> None:
    page = normalise_page(PAGE)
    assert page.text == (
        "Climate Highlights In 2023 we cut Scope 1 emissions by 8%, e.g. at our smelters. "
        "The efficiency programme continues."
    )
    assert [page.text[start:end] for start, end in page.lines][:2] == [
        "Climate Highlights",
        "In 2023 we cut Scope 1 emis",  # the joined word's rest belongs to the next line
    ]
    assert normalise_text("low-\ncarbon steel") == "low-carbon steel"


def test_a_heading_stands_alone_and_an_abbreviation_ends_no_sentence() -> None:
    sentences = split_sentences(4, PAGE)
    assert [sentence.text for sentence in sentences] == [
        "Climate Highlights",
        "In 2023 we cut Scope 1 emissions by 8%, e.g. at our smelters.",
        "The efficiency programme continues.",
    ]
    assert {sentence.page for sentence in sentences} == {4}


def test_a_sentence_points_back_into_the_raw_page() -> None:
    second = split_sentences(1, PAGE)[1]
    assert PAGE[second.start : second.end].startswith("In 2023 we cut Scope 1 emis-\nsions")
    assert PAGE[second.start : second.end].endswith("smelters.")


def test_statements_end_at_semicolons_but_never_inside_a_number() -> None:
    assert list(statements("Scope 1 was 2.3 Mt; Scope 2\nwas 1.1 Mt. See sibyl.example")) == [
        "Scope 1 was 2.3 Mt;",
        " Scope 2 was 1.1 Mt.",
        " See sibyl.example",
    ]


def test_rough_sentences_cut_after_every_terminal_mark() -> None:
    assert rough_sentences("Emissions fell. Why? Costs rose, e.g. energy!  Done") == [
        "Emissions fell.",
        "Why?",
        "Costs rose, e.g.",
        "energy!",
        "Done",
    ]
