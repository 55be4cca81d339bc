"""Reading documents: type recognition, HTML reduced to readable text, text normalisation."""

from __future__ import annotations

import pytest

from app.evidence.errors import EvidenceProblem, EvidenceRejected
from app.evidence.extract import HTML, MARKDOWN, PDF, PLAIN, extract, media_type_of, normalise_text
from app.evidence.fields import clean_source_url, source_domain
from tests.fixtures import pdfs

PAGE = """<!DOCTYPE html>
<html><head><title>  Regulator fines
  Northwind  </title><style>.x { color: red }</style>
<script>var TRACKING_CODE = 1;</script></head>
<body><nav><a href="/">MENU_ITEM Home</a></nav>
<header><h1>Regulator fines Northwind</h1></header>
<article><p>The regulator fined Northwind &amp; partners
   &pound;2m on Tuesday.</p><p>Water samples exceeded limits.<br>Twice.</p>
<ul><li>First finding</li><li>Second finding</li></ul></article>
<footer>FOOTER_TEXT copyright</footer><noscript>NOSCRIPT_TEXT</noscript></body></html>"""


def test_html_keeps_title_and_article_and_drops_furniture() -> None:
    page = extract(PAGE.encode(), HTML, "text/html; charset=utf-8", "file")

    assert page.title == "Regulator fines Northwind"
    assert "The regulator fined Northwind & partners £2m on Tuesday." in page.text
    assert "Water samples exceeded limits.\nTwice." in page.text
    assert "First finding\nSecond finding" in page.text
    for furniture in ("TRACKING_CODE", "MENU_ITEM", "FOOTER_TEXT", "NOSCRIPT_TEXT", "color: red"):
        assert furniture not in page.text


def test_html_charset_comes_from_the_header_or_the_meta_tag() -> None:
    latin = '<html><head><meta charset="iso-8859-1"></head><body><p>Café</p></body></html>'.encode("latin-1")

    assert extract(latin, HTML, None, "file").text == "Café"
    assert (
        extract("<p>Café</p>".encode("cp1252"), HTML, "text/html; charset=windows-1252", "file").text
        == "Café"
    )


@pytest.mark.parametrize(
    ("content", "filename", "content_type", "expected"),
    [
        (pdfs.make_report_pdf([["A sentence."]]), "x.bin", "application/octet-stream", PDF),
        (b"<!doctype html><p>x</p>", None, None, HTML),
        (b"hello", "notes.md", None, MARKDOWN),
        (b"hello", "page.HTM", "application/octet-stream", HTML),
        (b"hello", None, "text/plain; charset=utf-8", PLAIN),
        (b"hello", "a.txt", None, PLAIN),
        (b"<html><body>x</body></html>", "a.txt", "text/html", HTML),
    ],
)
def test_media_type_from_bytes_then_declared_type_then_extension(
    content: bytes, filename: str | None, content_type: str | None, expected: str
) -> None:
    assert media_type_of(content, filename, content_type, "file") == expected


@pytest.mark.parametrize(
    ("filename", "content_type"), [("photo.png", "image/png"), ("report.docx", None), (None, None)]
)
def test_other_types_are_refused(filename: str | None, content_type: str | None) -> None:
    with pytest.raises(EvidenceRejected) as refused:
        media_type_of(b"\x89PNG\r\n\x1a\n....", filename, content_type, "file")

    assert refused.value.code is EvidenceProblem.UNSUPPORTED_TYPE
    assert refused.value.field == "file"


def test_binary_bytes_named_as_text_are_refused() -> None:
    with pytest.raises(EvidenceRejected) as refused:
        extract(b"abc\x00\x01\x02def", PLAIN, None, "file")

    assert refused.value.code is EvidenceProblem.UNSUPPORTED_TYPE


def test_text_is_normalised_before_hashing() -> None:
    assert (
        normalise_text("  Line one  \r\nLine\x00two\r\n\r\n\r\n\r\nEnd\u0301  ")
        == "Line one\nLine two\n\nEnd\u0301"
    )
    assert normalise_text("Cafe\u0301") == "Café"


def test_urls_lose_credentials_and_domains_lose_www() -> None:
    assert clean_source_url(" HTTPS://user:pw@www.Example.org/a?b=1#frag ") == "https://www.Example.org/a?b=1"
    assert source_domain("https://www.Example.org/a") == "example.org"
    assert source_domain("http://127.0.0.1:8080/x") == "127.0.0.1"
    assert source_domain(None) is None
    with pytest.raises(EvidenceRejected) as refused:
        clean_source_url("javascript:alert(1)")
    assert (refused.value.code, refused.value.field) == (EvidenceProblem.INVALID_URL, "sourceUrl")
