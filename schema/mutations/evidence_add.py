"""`addEvidenceDocument`: add a document (file, text or URL) to the evidence library."""

from __future__ import annotations

import enum
from datetime import date
from typing import Annotated

import strawberry
from strawberry.file_uploads import Upload

from app.evidence.errors import EvidenceProblem, EvidenceRejected
from app.evidence.ingest import add_evidence_document
from schema.context import Context
from schema.limits.input_limits import EVIDENCE_TITLE_CHARS, FILENAME_CHARS, SOURCE_URL_CHARS, at_most
from schema.types.evidence import EvidenceDocument


@strawberry.enum(description="Why an evidence document was refused.")
class AddEvidenceDocumentErrorCode(enum.Enum):
    NO_INPUT = strawberry.enum_value(
        EvidenceProblem.NO_INPUT.value, description="None of `file`, `text` or `sourceUrl` was given."
    )
    CONFLICTING_INPUT = strawberry.enum_value(
        EvidenceProblem.CONFLICTING_INPUT.value, description="Both `file` and `text` were given; send one."
    )
    EMPTY_TEXT = strawberry.enum_value(
        EvidenceProblem.EMPTY_TEXT.value,
        description="No text came out of the file, the `text` or the fetched page.",
    )
    UNSUPPORTED_TYPE = strawberry.enum_value(
        EvidenceProblem.UNSUPPORTED_TYPE.value,
        description="The file is not PDF, HTML, plain text or markdown.",
    )
    UNREADABLE_FILE = strawberry.enum_value(
        EvidenceProblem.UNREADABLE_FILE.value,
        description="The file is damaged or password-protected and cannot be read.",
    )
    TOO_LARGE = strawberry.enum_value(
        EvidenceProblem.TOO_LARGE.value,
        description="The document is over the size limit (the message says it).",
    )
    INVALID_DATE = strawberry.enum_value(
        EvidenceProblem.INVALID_DATE.value,
        description="`publishedDate` is not YYYY-MM-DD, or lies in the future or before 1900.",
    )
    INVALID_URL = strawberry.enum_value(
        EvidenceProblem.INVALID_URL.value,
        description=f"`sourceUrl` is not an absolute http(s) URL, or is longer than {SOURCE_URL_CHARS:,} "
        "characters.",
    )
    INVALID_TITLE = strawberry.enum_value(
        EvidenceProblem.INVALID_TITLE.value,
        description=f"`title` is longer than {EVIDENCE_TITLE_CHARS:,} characters.",
    )
    INVALID_FILENAME = strawberry.enum_value(
        EvidenceProblem.INVALID_FILENAME.value,
        description=f"The uploaded file's name is longer than {FILENAME_CHARS:,} characters.",
    )
    URL_REFUSED = strawberry.enum_value(
        EvidenceProblem.URL_REFUSED.value,
        description="Sibyl will not fetch `sourceUrl`: not http(s), a private or local address, too many "
        "redirects, or a compression Sibyl did not ask for; send the file instead.",
    )
    URL_UNREACHABLE = strawberry.enum_value(
        EvidenceProblem.URL_UNREACHABLE.value,
        description="Fetching `sourceUrl` failed (timeout, no connection, an HTTP error status); try "
        "again or send the file.",
    )


@strawberry.input(
    description="An evidence document: a `file`, or its `text`, or (with neither) a `sourceUrl` to fetch it "
    "from."
)
class AddEvidenceDocumentInput:
    file: Upload | None = strawberry.field(
        default=None,
        description="A PDF, HTML, plain-text or markdown file (GraphQL multipart request; send the header "
        f"`Apollo-Require-Preflight: true`). Its name has at most {FILENAME_CHARS:,} characters; its size is "
        "limited by EVIDENCE_MAX_DOCUMENT_BYTES.",
    )
    text: str | None = strawberry.field(
        default=None,
        description="The document's text, instead of a file. At most EVIDENCE_MAX_DOCUMENT_BYTES bytes "
        "(UTF-8), and the whole JSON request at most MAX_REQUEST_BODY_BYTES (1 MiB by default): send a "
        "longer text as a file.",
    )
    title: str | None = strawberry.field(
        default=None,
        description="The title; default: the HTML/PDF title, the first line, or the file name. "
        f"{at_most(EVIDENCE_TITLE_CHARS)}",
    )
    source_url: str | None = strawberry.field(
        default=None,
        description="Where the document was published; fetched (public addresses only) when no file or text "
        f"is given. {at_most(SOURCE_URL_CHARS)}",
    )
    published_date: date | None = strawberry.field(
        default=None, description="When the document was published (YYYY-MM-DD)."
    )


@strawberry.type(description="The document is in the library and its passages are searchable.")
class AddEvidenceDocumentSuccess:
    document: EvidenceDocument = strawberry.field(description="The stored document.")
    duplicate: bool = strawberry.field(
        description="True when the library already held this exact text; the existing document is returned "
        "unchanged."
    )


@strawberry.type(description="The document was refused; nothing was stored.")
class AddEvidenceDocumentError:
    code: AddEvidenceDocumentErrorCode = strawberry.field(description="Machine-readable reason.")
    message: str = strawberry.field(description="What is wrong, for a person.")
    field: str | None = strawberry.field(
        description="The input field at fault (`file`, `text`, `title`, `sourceUrl`, `publishedDate`)."
    )


AddEvidenceDocumentResult = Annotated[
    AddEvidenceDocumentSuccess | AddEvidenceDocumentError,
    strawberry.union(
        "AddEvidenceDocumentResult",
        description="AddEvidenceDocumentSuccess with the stored document, or AddEvidenceDocumentError "
        "saying why it was refused (select `__typename`).",
    ),
]


@strawberry.type
class AddEvidenceDocumentMutation:
    @strawberry.mutation(
        description="Add a document to the evidence library the specialist agents search "
        "offline. Identical text returns the existing document."
    )
    async def add_evidence_document(
        self,
        info: strawberry.Info[Context],
        input: Annotated[AddEvidenceDocumentInput, strawberry.argument(description="The document.")],
    ) -> AddEvidenceDocumentResult:
        services = info.context.services
        content, filename, content_type = await _read_upload(
            input.file, services.settings.evidence_max_document_bytes
        )
        try:
            outcome = await add_evidence_document(
                services.session_factory,
                services.embedder,
                services.settings,
                title=input.title,
                text=input.text,
                content=content,
                filename=filename,
                content_type=content_type,
                source_url=input.source_url,
                published_date=input.published_date,
                organisation_id=info.context.organisation_id,
            )
        except EvidenceRejected as exc:
            return AddEvidenceDocumentError(
                code=AddEvidenceDocumentErrorCode(exc.code.value), message=exc.message, field=exc.field
            )
        return AddEvidenceDocumentSuccess(
            document=EvidenceDocument.from_model(outcome.document), duplicate=outcome.duplicate
        )


async def _read_upload(file: Upload | None, limit: int) -> tuple[bytes | None, str | None, str | None]:
    """The upload's bytes (one past `limit` at most, enough to refuse it), name and declared type."""
    if file is None:
        return None, None, None
    try:
        content = await file.read(limit + 1)  # type: ignore[attr-defined]
    finally:
        await file.close()  # type: ignore[attr-defined]
    return bytes(content), getattr(file, "filename", None), getattr(file, "content_type", None)
