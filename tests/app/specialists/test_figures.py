"""Numbers a text rejects ("60 sites, not 167")."""

from __future__ import annotations

from app.verification.reading.figures import denied_numbers


def test_a_denied_number_is_read_with_its_offset_and_thousands() -> None:
    text = "The group runs 60 sites, not 1,670.5, and its loss was -4, not 3."
    assert [(number.value, number.start, number.text) for number in denied_numbers(text)] == [
        (1670.5, text.index("1,670.5"), "1,670.5"),
        (3.0, text.rindex("3"), "3"),
    ]


def test_a_signed_number_is_never_a_denied_one() -> None:
    assert denied_numbers("The change was 2, not -5 or \u2212 7.") == []
