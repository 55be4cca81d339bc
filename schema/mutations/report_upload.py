"""`uploadReport`: store a PDF and queue its parsing."""

from __future__ import annotations

import enum
from typing import Annotated

import strawberry
from strawberry.file_uploads import Upload

from app.documents.pdf import PdfProblem, PdfRejected
from app.queue import check_queue, enqueue_parse
from app.services.parse_recovery import requeue_if_stalled
from app.services.uploads import InvalidUpload, UploadOutcome, accept_upload
from schema.context import Context, Services
from schema.limits.input_limits import (
    COMPANY_NAME_CHARS,
    FILENAME_CHARS,
    IDENTIFIER_CHARS,
    InputTooLong,
    at_most,
    check_length,
)
from schema.types.reports import Report


@strawberry.enum(description="Why an upload was refused.")
class UploadReportErrorCode(enum.Enum):
    EMPTY_FILE = strawberry.enum_value(PdfProblem.EMPTY_FILE.value, description="The file has no bytes.")
    NOT_A_PDF = strawberry.enum_value(
        PdfProblem.NOT_A_PDF.value, description="The file does not start like a PDF (no `%PDF-` header)."
    )
    ENCRYPTED = strawberry.enum_value(
        PdfProblem.ENCRYPTED.value, description="The PDF needs a password; upload an unprotected copy."
    )
    CORRUPT = strawberry.enum_value(
        PdfProblem.CORRUPT.value,
        description="The PDF is damaged beyond what the reader repairs (the message names the fault).",
    )
    TRUNCATED = strawberry.enum_value(
        PdfProblem.TRUNCATED.value,
        description="The PDF does not end with `%%EOF`: the upload was probably cut off; send it again.",
    )
    NO_PAGES = strawberry.enum_value(PdfProblem.NO_PAGES.value, description="The PDF has no pages.")
    NO_TEXT_LAYER = strawberry.enum_value(
        PdfProblem.NO_TEXT_LAYER.value,
        description="The pages carry (almost) no text, as in a scan; run OCR and upload the result.",
    )
    TOO_LARGE = strawberry.enum_value(
        PdfProblem.TOO_LARGE.value,
        description="The file is over the upload size limit (the message says it).",
    )
    TOO_MANY_PAGES = strawberry.enum_value(
        PdfProblem.TOO_MANY_PAGES.value,
        description="The PDF has more pages than the limit (the message says it).",
    )
    TEXT_TOO_LARGE = strawberry.enum_value(
        PdfProblem.TEXT_TOO_LARGE.value,
        description="The PDF yields far more text than a report of its size and page count (real reports "
        "have a few KB per page); the message gives the limit.",
    )
    INVALID_INPUT = strawberry.enum_value(
        "INVALID_INPUT",
        description="Another argument is unusable (`companyName` or the file's name too long); `field` "
        "names it.",
    )


@strawberry.type(description="The report was stored (or already existed) and parsing is queued or done.")
class UploadReportSuccess:
    report: Report = strawberry.field(description="The stored report.")
    created: bool = strawberry.field(
        description="False when these exact bytes were uploaded before and the existing report is returned."
    )


@strawberry.type(description="The upload was refused; nothing was stored.")
class UploadReportError:
    code: UploadReportErrorCode = strawberry.field(description="Machine-readable reason.")
    message: str = strawberry.field(description="What is wrong, for a person.")
    field: str | None = strawberry.field(description="The argument at fault (`file` or `companyName`).")


UploadReportResult = Annotated[
    UploadReportSuccess | UploadReportError,
    strawberry.union(
        "UploadReportResult",
        description="UploadReportSuccess with the stored report, or UploadReportError saying why the file "
        "was refused (select `__typename`).",
    ),
]


ReportFile = Annotated[
    Upload,
    strawberry.argument(
        description=f"The report PDF; its file name has at most {FILENAME_CHARS:,} characters."
    ),
]
CompanyNameArgument = Annotated[
    str | None,
    strawberry.argument(description=f"The reporting company, if known. {at_most(COMPANY_NAME_CHARS)}"),
]
IsinArgument = Annotated[
    str | None,
    strawberry.argument(
        description="The company's ISIN (12 characters, e.g. DE0007236101), if known: public "
        "registries are matched by it before any name. A malformed one is INVALID_INPUT. "
        f"{at_most(IDENTIFIER_CHARS)}"
    ),
]
LeiArgument = Annotated[
    str | None,
    strawberry.argument(
        description="The company's Legal Entity Identifier (20 characters), if known: public "
        "registries are matched by it before any name. A malformed one is INVALID_INPUT. "
        f"{at_most(IDENTIFIER_CHARS)}"
    ),
]


@strawberry.type
class UploadReportMutation:
    @strawberry.mutation(
        description="Upload a sustainability report PDF (GraphQL multipart request; send the header "
        "`Apollo-Require-Preflight: true`). Identical bytes return the existing report (and queue its "
        "parsing again if it stalled)."
    )
    async def upload_report(
        self,
        info: strawberry.Info[Context],
        file: ReportFile,
        company_name: CompanyNameArgument = None,
        isin: IsinArgument = None,
        lei: LeiArgument = None,
    ) -> UploadReportResult:
        services = info.context.services
        content = await _read_upload(file, services.settings.max_upload_bytes)
        if isinstance(content, UploadReportError):
            return content
        await check_queue(services.arq)  # Redis hung or down: SERVICE_UNAVAILABLE, nothing stored
        try:
            outcome = await accept_upload(
                services.session_factory,
                services.event_log,
                services.settings,
                filename=getattr(file, "filename", None),
                content=content,
                company_name=company_name,
                organisation_id=info.context.organisation_id,
                isin=isin,
                lei=lei,
            )
        except PdfRejected as exc:
            return UploadReportError(
                code=UploadReportErrorCode(exc.problem.value), message=exc.message, field="file"
            )
        except InvalidUpload as exc:
            return UploadReportError(
                code=UploadReportErrorCode.INVALID_INPUT, message=exc.message, field=exc.field
            )
        await _queue_parse(services, outcome)
        return UploadReportSuccess(report=Report.from_model(outcome.report), created=outcome.created)


async def _read_upload(file: Upload, limit: int) -> bytes | UploadReportError:
    """The upload's bytes (one more than `limit`, so an oversize file is told apart), the file
    closed either way; an over-long file name is INVALID_INPUT before anything is read."""
    try:
        check_length(getattr(file, "filename", None), FILENAME_CHARS, "file")
    except InputTooLong as exc:
        await file.close()  # type: ignore[attr-defined]
        return UploadReportError(code=UploadReportErrorCode.INVALID_INPUT, message=exc.message, field="file")
    try:
        return await file.read(limit + 1)  # type: ignore[attr-defined,no-any-return]
    finally:
        await file.close()  # type: ignore[attr-defined]


async def _queue_parse(services: Services, outcome: UploadOutcome) -> None:
    """A new report's parse is queued; the same bytes again queue a parse that stalled (its job
    failed) once more."""
    if outcome.created:
        await enqueue_parse(services.arq, outcome.report.id, organisation_id=outcome.report.organisation_id)
        return
    await requeue_if_stalled(
        services.session_factory,
        services.event_log,
        services.arq,
        outcome.report,
        max_attempts=services.settings.max_job_attempts,
    )
