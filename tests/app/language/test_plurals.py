import pytest

from app.language.plurals import singular


@pytest.mark.parametrize(
    ("plural", "expected"),
    [
        ("cars", "car"),
        ("properties", "property"),
        ("processes", "process"),
        ("boxes", "box"),
        ("branches", "branch"),
        ("women", "woman"),
        ("staff", "staff"),
        ("greenhouses", "greenhouse"),
        ("gases", "gas"),
    ],
)
def test_a_plural_noun_reads_as_its_singular(plural: str, expected: str) -> None:
    assert singular(plural) == expected


@pytest.mark.parametrize("word", ["process", "campus", "analysis", "gas", "bus", "emission"])
def test_a_word_that_is_no_plural_stays_as_written(word: str) -> None:
    assert singular(word) == word
