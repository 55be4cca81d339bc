"""Chunking: passages cover the text, point back into it, respect the size and cut at boundaries."""

from __future__ import annotations

import pytest

from app.evidence.chunks import split_into_chunks
from tests.support.evidence import article, filler_sentences


def covered(text: str, chunks: list[object]) -> set[int]:
    positions: set[int] = set()
    for chunk in chunks:
        positions.update(range(chunk.start, chunk.end))  # type: ignore[attr-defined]
    return positions


@pytest.mark.parametrize("size", [200, 450, 1500])
def test_offsets_round_trip_and_every_character_is_in_a_passage(size: int) -> None:
    text = article(["A planted sentence sits here."], before=40, after=40, seed=size)

    chunks = split_into_chunks(text, size)

    assert [chunk.index for chunk in chunks] == list(range(len(chunks)))
    assert all(text[chunk.start : chunk.end] == chunk.text for chunk in chunks)
    assert all(len(chunk.text) <= size and chunk.text == chunk.text.strip() for chunk in chunks)
    assert all(a.start < b.start for a, b in zip(chunks, chunks[1:], strict=False))
    visible = {i for i, char in enumerate(text) if not char.isspace()}
    assert visible <= covered(text, chunks)


def test_passages_end_on_sentences_and_start_on_them() -> None:
    text = " ".join(filler_sentences(80, seed=3))

    chunks = split_into_chunks(text, 400, overlap=0)

    assert len(chunks) > 5
    assert all(chunk.text.endswith(".") for chunk in chunks)
    assert all(chunk.text[0].isupper() for chunk in chunks)
    assert all(b.start > a.end for a, b in zip(chunks, chunks[1:], strict=False))


def test_paragraph_breaks_win_over_sentence_ends() -> None:
    paragraphs = [" ".join(filler_sentences(3, seed=n)) for n in range(12)]
    text = "\n\n".join(paragraphs)

    chunks = split_into_chunks(text, 600, overlap=0)

    for chunk in chunks[:-1]:
        assert text[chunk.end : chunk.end + 2] == "\n\n", repr(text[chunk.end - 20 : chunk.end + 5])


def test_consecutive_passages_overlap_by_whole_sentences() -> None:
    text = " ".join(filler_sentences(80, seed=4))

    chunks = split_into_chunks(text, 500, overlap=150)

    overlaps = [a.end - b.start for a, b in zip(chunks, chunks[1:], strict=False)]
    assert all(0 < overlap <= 150 for overlap in overlaps), overlaps
    assert all(chunk.text[0].isupper() for chunk in chunks)


def test_unbroken_text_is_cut_hard_and_blank_text_has_no_passages() -> None:
    chunks = split_into_chunks("x" * 1000, 300)

    assert [len(chunk.text) for chunk in chunks] == [300, 300, 300, 100]
    assert split_into_chunks(" \n\n ", 300) == []
    assert [chunk.text for chunk in split_into_chunks("  short  ", 300)] == ["short"]
