"""The longest text each free-text GraphQL argument accepts, in one list, and the check of it.

Free text costs storage, log space and work in proportion to its length, and some of it is
copied (a document's source URL goes into each of its passages), so every free-text argument has a
limit: the constant here, stated in the argument's description with `at_most`, and enforced
before anything is stored, as the mutation's typed error naming the field. Limits that a service
enforces itself (for the CLI too) are defined next to that check and named here; the others are
checked in the resolver with `check_length`.

Not listed: arguments that are not free text, whose values are checked against what the API
issued or allows (ids, `after` cursors, `agent` names), and the evidence `text` and uploaded
files, which are bounded in bytes (EVIDENCE_MAX_DOCUMENT_BYTES, MAX_UPLOAD_BYTES).
"""

from __future__ import annotations

from app.config import Settings
from app.evidence.fields import MAX_FILENAME_CHARS, MAX_SOURCE_URL_CHARS, MAX_TITLE_CHARS
from app.registries.identifiers import MAX_IDENTIFIER_CHARS
from app.services.uploads import MAX_NAME_LENGTH

#: `addEvidenceDocument(input: {sourceUrl})` (checked by `app.evidence.fields`).
SOURCE_URL_CHARS = MAX_SOURCE_URL_CHARS
#: `addEvidenceDocument(input: {title})` (checked by `app.evidence.fields`).
EVIDENCE_TITLE_CHARS = MAX_TITLE_CHARS
#: The name of an uploaded file, as sent (evidence: checked by `app.evidence.fields`).
FILENAME_CHARS = MAX_FILENAME_CHARS
#: `uploadReport(companyName)` (checked by `app.services.uploads`).
COMPANY_NAME_CHARS = MAX_NAME_LENGTH
#: `uploadReport(isin, lei)`: an ISIN has 12 characters and an LEI 20; spaces between groups are
#: allowed, anything longer is refused before its check digits are read (`app.registries.identifiers`).
IDENTIFIER_CHARS = MAX_IDENTIFIER_CHARS
#: `confirmRegistryMatch` / `rejectRegistryMatch(entityKey)`: keys the API issued; a longer one names
#: no match.
ENTITY_KEY_CHARS = 300
#: `askReport(question)` by default; operators set ASK_MAX_QUESTION_CHARS (checked by `app.questions`).
QUESTION_CHARS = int(Settings.model_fields["ask_max_question_chars"].default)


class InputTooLong(ValueError):
    """A free-text argument is over its limit.

    Attributes:
        field: The argument or input field, as named in the schema (`file`, `sourceUrl`...).
        limit: Its limit, in characters.
        message: What is wrong, for a person.
    """

    def __init__(self, field: str, limit: int) -> None:
        self.field = field
        self.limit = limit
        self.message = f"`{field}` is longer than {limit:,} characters."
        super().__init__(self.message)


def at_most(limit: int) -> str:
    """The sentence that documents a limit in a description: "At most 2,048 characters."."""
    return f"At most {limit:,} characters."


def check_length(value: str | None, limit: int, field: str) -> None:
    """Refuse `value` when it is longer than `limit` characters (None passes).

    Raises:
        InputTooLong: naming `field`.
    """
    if value is not None and len(value) > limit:
        raise InputTooLong(field, limit)
