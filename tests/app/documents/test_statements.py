"""Statements: the cut that the IFRS evidence rules and the metric index read text by."""

from __future__ import annotations

import pytest

from app.knowledge.ifrs_evidence import RULES
from app.language.sentences import statements
from app.verification.checks.metric_index import page_year


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Scope 1 fell to 2.3 Mt; water use rose. See sibyl.example/data!",
            ["Scope 1 fell to 2.3 Mt;", " water use rose.", " See sibyl.example/data!"],
        ),
        ("Energy use\n  was   412 GWh. Waste fell", ["Energy use was 412 GWh.", " Waste fell"]),
        ("Is it met? Yes.", ["Is it met?", " Yes."]),
        ("Ends with two stops..", ["Ends with two stops.."]),
        (" . ", []),  # a lone stop states nothing
        ("", []),
    ],
)
def test_statements_end_at_a_stop_before_white_space(text: str, expected: list[str]) -> None:
    assert list(statements(text)) == expected


def test_a_semicolon_clause_is_read_on_its_own_by_an_evidence_rule() -> None:
    text = "We plan to adopt IFRS S2 next year; these statements comply with IFRS S1 and IFRS S2."
    assert RULES["S1.72"].first_sentence(text) == "these statements comply with IFRS S1 and IFRS S2."


def test_a_page_year_skips_the_statements_about_targets() -> None:
    assert page_year("Highlights of 2023; we target net zero by 2040.") == 2023
    assert page_year("Highlights of 2023, and we target net zero by 2040.") is None
