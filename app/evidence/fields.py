"""Cleaning and checking the metadata fields of an evidence document (date, title, file name, URL)."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import PurePosixPath
from urllib.parse import urlsplit, urlunsplit

from app.evidence.errors import EvidenceProblem, EvidenceRejected

MAX_TITLE_CHARS = 500
MAX_FILENAME_CHARS = 255
#: Longer than any URL browsers and CDNs pass along; the URL is copied into each of a document's
#: passages (every search hit cites it), so its length multiplies.
MAX_SOURCE_URL_CHARS = 2048
EARLIEST_DATE = date(1900, 1, 1)


def parse_published_date(value: date | str | None) -> date | None:
    """A publication date from a date or `YYYY-MM-DD`; the future and before 1900 are refused."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value.strip())
        except ValueError as exc:
            raise EvidenceRejected(
                EvidenceProblem.INVALID_DATE,
                f"{value!r} is not a date in the form YYYY-MM-DD.",
                "publishedDate",
            ) from exc
    # A day of slack: "today" where it was published may be tomorrow here.
    if not EARLIEST_DATE <= value <= date.today() + timedelta(days=1):
        raise EvidenceRejected(
            EvidenceProblem.INVALID_DATE,
            f"The publication date {value.isoformat()} is in the future or before 1900.",
            "publishedDate",
        )
    return value


def clean_title(title: str | None) -> str | None:
    """The title with whitespace collapsed (None when blank); longer than 500 characters is refused."""
    if title is None:
        return None
    cleaned = " ".join(title.split())
    if len(cleaned) > MAX_TITLE_CHARS:
        raise EvidenceRejected(
            EvidenceProblem.INVALID_TITLE, f"The title is longer than {MAX_TITLE_CHARS} characters.", "title"
        )
    return cleaned or None


def clean_filename(filename: str | None) -> str | None:
    """The file's base name (no folders a client may send), cut to MAX_FILENAME_CHARS, or None."""
    name = PurePosixPath((filename or "").replace("\\", "/")).name.strip()
    return name[:MAX_FILENAME_CHARS] or None


def checked_filename(filename: str | None) -> str | None:
    """`clean_filename` of a name the user gave, refused (not cut) when longer than MAX_FILENAME_CHARS.

    Raises:
        EvidenceRejected: INVALID_FILENAME.
    """
    if filename is not None and len(filename) > MAX_FILENAME_CHARS:
        raise EvidenceRejected(
            EvidenceProblem.INVALID_FILENAME,
            f"The file name is longer than {MAX_FILENAME_CHARS:,} characters.",
            "file",
        )
    return clean_filename(filename)


def clean_source_url(url: str | None) -> str | None:
    """An absolute http(s) URL without credentials or fragment, or None when blank.

    Raises:
        EvidenceRejected: INVALID_URL for anything else, and for a URL over MAX_SOURCE_URL_CHARS.
    """
    if url is None or not url.strip():
        return None
    if len(url) > MAX_SOURCE_URL_CHARS:
        raise EvidenceRejected(
            EvidenceProblem.INVALID_URL,
            f"The source URL is longer than {MAX_SOURCE_URL_CHARS:,} characters.",
            "sourceUrl",
        )
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
    except ValueError as exc:
        raise _invalid_url(url) from exc
    if parts.scheme.lower() not in ("http", "https") or not host:
        raise _invalid_url(url)
    netloc = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme.lower(), netloc, parts.path, parts.query, ""))


def _invalid_url(url: str) -> EvidenceRejected:
    return EvidenceRejected(
        EvidenceProblem.INVALID_URL, f"{url!r} is not an absolute http(s) URL.", "sourceUrl"
    )


def source_domain(url: str | None) -> str | None:
    """The URL's host in lower case without a leading `www.` (what tiering and citations show)."""
    if not url:
        return None
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    if not host:
        return None
    host = host.lower().rstrip(".")
    return host.removeprefix("www.") or None
