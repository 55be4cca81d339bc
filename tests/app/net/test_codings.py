"""Decoding fetched bodies: only the codings asked for, in pieces no larger than PIECE_BYTES."""

from __future__ import annotations

import gzip
import zlib

import pytest

from app.net.codings import PIECE_BYTES, CorruptCoding, UnsupportedCoding, decoder_for

TEXT = b"Scope 1 emissions fell by 12%. " * 1000


def _decoded(encoding: str | None, raw: bytes, chunk: int = 1000) -> list[bytes]:
    decoder = decoder_for(encoding)
    pieces = [piece for at in range(0, len(raw), chunk) for piece in decoder.feed(raw[at : at + chunk])]
    return pieces + list(decoder.finish())


@pytest.mark.parametrize(
    ("encoding", "raw"),
    [
        (None, TEXT),
        ("identity", TEXT),
        ("gzip", gzip.compress(TEXT)),
        ("X-GZIP", gzip.compress(TEXT)),
        ("deflate", zlib.compress(TEXT)),
        ("deflate", zlib.compress(TEXT, wbits=-zlib.MAX_WBITS)),
        ("gzip, identity", gzip.compress(TEXT)),
    ],
)
def test_asked_for_codings_decode_whole(encoding: str | None, raw: bytes) -> None:
    assert b"".join(_decoded(encoding, raw)) == TEXT


def test_a_highly_compressed_chunk_comes_out_in_bounded_pieces() -> None:
    raw = gzip.compress(bytes(8 * PIECE_BYTES + 5))

    pieces = _decoded("gzip", raw, chunk=len(raw))

    assert max(len(piece) for piece in pieces) <= PIECE_BYTES
    assert sum(len(piece) for piece in pieces) == 8 * PIECE_BYTES + 5


@pytest.mark.parametrize("encoding", ["zstd", "br", "compress", "gzip, gzip", "deflate, gzip"])
def test_other_or_stacked_codings_are_unsupported(encoding: str) -> None:
    with pytest.raises(UnsupportedCoding):
        decoder_for(encoding)


def test_a_corrupt_body_is_reported() -> None:
    with pytest.raises(CorruptCoding):
        _decoded("gzip", b"this is not gzip at all")
