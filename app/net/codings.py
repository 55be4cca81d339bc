"""Content codings of fetched bodies: the ones Sibyl asks for, decoded in bounded pieces.

A compressed body is a promise of size the server does not have to keep: a few kilobytes of
gzip or zstd can inflate to gigabytes. So the fetcher asks only for gzip and deflate, refuses any
other coding a server sends anyway (zstd, br, compress...), and inflates what it accepts here, a
piece of at most `PIECE_BYTES` at a time, so its caller can count decoded bytes against its cap
and stop before the next piece is made. httpx's own decoders inflate each network chunk whole and
decode every coding they know, whether it was asked for or not.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Protocol

#: The Accept-Encoding of every fetch; `decoder_for` accepts exactly these (and identity).
ACCEPT_ENCODING = "gzip, deflate"
#: Most decoded bytes one inflate step produces: the memory a decoder may use past its caller's cap.
PIECE_BYTES = 64 * 1024

# zlib window bits per coding: gzip framing, zlib framing (deflate); x-gzip is gzip's old name.
_WBITS = {"gzip": zlib.MAX_WBITS | 16, "x-gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS}


class UnsupportedCoding(ValueError):
    """The response's Content-Encoding is one Sibyl did not ask for (or several stacked)."""


class CorruptCoding(ValueError):
    """The body does not decode as the coding its Content-Encoding names."""


class BodyDecoder(Protocol):
    """Turns raw body bytes into decoded pieces of at most `PIECE_BYTES`."""

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Decoded pieces of `data`, made one at a time as the caller asks for them."""
        ...

    def finish(self) -> Iterator[bytes]:
        """Whatever is still buffered once the raw body has ended."""
        ...


def decoder_for(content_encoding: str | None) -> BodyDecoder:
    """The decoder of a response's Content-Encoding header.

    Raises:
        UnsupportedCoding: a coding other than gzip, deflate or identity, or more than one coding.
    """
    codings = [c.strip().lower() for c in (content_encoding or "").split(",")]
    codings = [c for c in codings if c and c != "identity"]
    if not codings:
        return _Identity()
    if len(codings) > 1 or codings[0] not in _WBITS:
        raise UnsupportedCoding(
            f"Content-Encoding {content_encoding!r} was not asked for ({ACCEPT_ENCODING})"
        )
    return _Inflater(_WBITS[codings[0]], raw_fallback=codings[0] == "deflate")


class _Identity:
    """An uncoded body: raw bytes are the body (the network already chunks them)."""

    def feed(self, data: bytes) -> Iterator[bytes]:
        if data:
            yield data

    def finish(self) -> Iterator[bytes]:
        return iter(())


class _Inflater:
    """gzip or deflate, inflated `PIECE_BYTES` at a time.

    Servers send "deflate" both as RFC 1950 zlib data and as bare deflate; with `raw_fallback`, a
    body whose first bytes are not a zlib header is read as bare deflate, as browsers and httpx do.
    """

    def __init__(self, wbits: int, *, raw_fallback: bool) -> None:
        self._inflate = zlib.decompressobj(wbits)
        self._raw_fallback = raw_fallback
        self._started = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        while data and not self._inflate.eof:
            piece = self._step(data)
            data = self._inflate.unconsumed_tail
            if piece:
                yield piece

    def _step(self, data: bytes) -> bytes:
        try:
            piece = self._inflate.decompress(data, PIECE_BYTES)
        except zlib.error as exc:
            if self._started or not self._raw_fallback:
                raise CorruptCoding(str(exc)) from exc
            self._inflate = zlib.decompressobj(-zlib.MAX_WBITS)
            self._raw_fallback = False
            return self._step(data)
        self._started = True
        return piece

    def finish(self) -> Iterator[bytes]:
        try:
            tail = self._inflate.flush()
        except zlib.error as exc:
            raise CorruptCoding(str(exc)) from exc
        if tail:
            yield tail
