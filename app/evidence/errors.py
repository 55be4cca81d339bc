"""Why an evidence document was refused: a code for programs, a message for people, the field at fault."""

from __future__ import annotations

import enum


class EvidenceProblem(enum.StrEnum):
    """Machine-readable reasons an evidence document is not stored."""

    NO_INPUT = "NO_INPUT"
    CONFLICTING_INPUT = "CONFLICTING_INPUT"
    EMPTY_TEXT = "EMPTY_TEXT"
    UNSUPPORTED_TYPE = "UNSUPPORTED_TYPE"
    UNREADABLE_FILE = "UNREADABLE_FILE"
    TOO_LARGE = "TOO_LARGE"
    INVALID_DATE = "INVALID_DATE"
    INVALID_URL = "INVALID_URL"
    INVALID_TITLE = "INVALID_TITLE"
    INVALID_FILENAME = "INVALID_FILENAME"
    URL_REFUSED = "URL_REFUSED"
    URL_UNREACHABLE = "URL_UNREACHABLE"


class EvidenceRejected(ValueError):
    """The document (or one of its fields) is unacceptable; nothing was stored.

    Attributes:
        code: Why, as an `EvidenceProblem`.
        message: What is wrong, in plain words.
        field: The input at fault, named as in the GraphQL input (`file`, `text`, `sourceUrl`,
            `publishedDate`, `title`), or None when no single field is.
    """

    def __init__(self, code: EvidenceProblem, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
