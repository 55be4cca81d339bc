import pytest

from app.language.plurals import singular


@pytest.mark.parametrize(
    ("plural", "expected"),
    [
        ("cars", "car"),
        ("properties", "property"),
        ("women", "woman"),
        ("staff", "staff"),
        ("greenhouses", "greenhouse"),
        # an "-es" plural keeps its "e", so that it meets no word of another thing ("process heat")
        ("processes", "processe"),
        ("gases", "gase"),
    ],
)
def test_a_plural_noun_reads_as_its_singular(plural: str, expected: str) -> None:
    assert singular(plural) == expected


@pytest.mark.parametrize("word", ["process", "campus", "analysis", "gas", "bus", "emission"])
def test_a_word_that_is_no_plural_stays_as_written(word: str) -> None:
    assert singular(word) == word
