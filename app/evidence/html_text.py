"""Readable text of an HTML page with the standard library's parser (no extra dependency).

Scripts, styles and page furniture (navigation, footers, side bars, forms) carry no evidence and
would pollute search, so they are dropped; block elements become line or paragraph breaks so the
chunker can cut on them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

#: Elements whose whole content is dropped.
SKIPPED = frozenset(
    {"script", "style", "noscript", "template", "svg", "nav", "footer", "aside", "form", "iframe",
     "object", "canvas", "button", "select"}
)  # fmt: skip
#: Elements that end a paragraph.
PARAGRAPHS = frozenset(
    {"p", "div", "section", "article", "main", "blockquote", "pre", "table", "ul", "ol", "dl",
     "h1", "h2", "h3", "h4", "h5", "h6", "figure", "figcaption", "hr", "address", "details"}
)  # fmt: skip
#: Elements that start a new line.
LINES = frozenset({"br", "li", "tr", "dt", "dd", "caption", "summary"})
#: Void elements never get an end tag, so they must not open a skipped region.
VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)

_SPACES = re.compile(r"[ \t\f\v\u00a0]+")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_\-]+)""", re.IGNORECASE)


@dataclass(frozen=True)
class HtmlText:
    """The page's `<title>` (None if absent or blank) and its readable text."""

    title: str | None
    text: str


class _Extractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title_parts: list[str] = []
        self._skip_depth = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED and tag not in VOID:
            self._skip_depth += 1
        elif tag == "title":
            self._in_title = True
        self._break(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._break(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED and self._skip_depth:
            self._skip_depth -= 1
        elif tag == "title":
            self._in_title = False
        if tag in PARAGRAPHS:  # a line element's start already broke the line
            self._break(tag)

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title_parts.append(data)
        elif not self._skip_depth:
            self.parts.append(data.replace("\n", " "))

    def _break(self, tag: str) -> None:
        if tag in PARAGRAPHS:
            self.parts.append("\n\n")
        elif tag in LINES:
            self.parts.append("\n")


def html_to_text(html: str) -> HtmlText:
    """The title and readable text of `html`, whitespace tidied, paragraphs separated by blank lines."""
    parser = _Extractor()
    parser.feed(html)
    parser.close()
    lines = (_SPACES.sub(" ", line).strip() for line in "".join(parser.parts).split("\n"))
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    title = " ".join("".join(parser.title_parts).split())
    return HtmlText(title=title or None, text=text)


def sniff_charset(content: bytes) -> str | None:
    """The charset a page declares in a `<meta>` tag within its first 2 KB, if any."""
    match = _META_CHARSET.search(content[:2048])
    return match.group(1).decode("ascii") if match else None
