"""Statement-by-statement checking of an LLM answer's citation markers (no services needed)."""

from __future__ import annotations

import uuid

from app.questions.citations import CitationList
from app.questions.markers import CheckedAnswer, check_markers
from app.questions.types import Passage

GIVEN = {
    f"P{number}": Passage(uuid.uuid4(), "page", f"Page text {number}.", number, None, {}) for number in (1, 2)
}


def check(answer: str) -> tuple[CheckedAnswer, CitationList]:
    cited = CitationList("question")
    return check_markers(answer, GIVEN, cited), cited


def test_markers_after_the_full_stop_belong_to_the_sentence_before_them() -> None:
    checked, cited = check("Emissions fell. [P2] Water use rose [P99]. Targets were met. [1]")

    assert checked.text == "Emissions fell. [1]"
    assert (checked.dropped, checked.uncited) == (2, 0)
    assert [c.page_number for c in cited.citations] == [2]


def test_sentences_before_a_cited_one_share_its_fate_and_a_trailing_one_is_counted_uncited() -> None:
    checked, _ = check("The date moved. It is now 2050 [P1]. Nothing else is said.")

    assert checked.text == "The date moved. It is now 2050 [1]. Nothing else is said."
    assert (checked.dropped, checked.uncited) == (0, 1)


def test_list_lines_are_checked_one_by_one_and_headings_are_not_statements() -> None:
    checked, _ = check("Claims judged CONTRADICTED:\n  - Water [P2, P1].\n  - Energy [P7].\n\nDone [P1–P2].")

    assert checked.text == "Claims judged CONTRADICTED:\n  - Water [1][2].\n\nDone [2][1]."
    assert (checked.dropped, checked.uncited, checked.unknown) == (1, 0, ["P7"])


def test_a_bracketed_year_or_word_is_not_a_citation_marker() -> None:
    checked, _ = check("The baseline [2019] was restated [sic] in 2023 (P1).")

    assert checked.text == "The baseline [2019] was restated [sic] in 2023 [1]."
    assert checked.unknown == []
