"""`uploadReport`: store a PDF and queue its parsing."""

from __future__ import annotations

import enum
from typing import Annotated

import strawberry
from strawberry.file_uploads import Upload

from app.documents.pdf import PdfProblem, PdfRejected
from app.queue import enqueue_parse
from app.services.uploads import InvalidUpload, accept_upload
from schema.context import Context
from schema.reports import Report


@strawberry.enum(description="Why an upload was refused.")
class UploadReportErrorCode(enum.Enum):
    EMPTY_FILE = PdfProblem.EMPTY_FILE.value
    NOT_A_PDF = PdfProblem.NOT_A_PDF.value
    ENCRYPTED = PdfProblem.ENCRYPTED.value
    CORRUPT = PdfProblem.CORRUPT.value
    TRUNCATED = PdfProblem.TRUNCATED.value
    NO_PAGES = PdfProblem.NO_PAGES.value
    NO_TEXT_LAYER = PdfProblem.NO_TEXT_LAYER.value
    TOO_LARGE = PdfProblem.TOO_LARGE.value
    TOO_MANY_PAGES = PdfProblem.TOO_MANY_PAGES.value
    INVALID_INPUT = "INVALID_INPUT"


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
    UploadReportSuccess | UploadReportError, strawberry.union("UploadReportResult")
]


@strawberry.type
class UploadReportMutation:
    @strawberry.mutation(
        description="Upload a sustainability report PDF (GraphQL multipart request; send the header "
        "`Apollo-Require-Preflight: true`). Identical bytes return the existing report."
    )
    async def upload_report(
        self,
        info: strawberry.Info[Context],
        file: Annotated[Upload, strawberry.argument(description="The report PDF.")],
        company_name: Annotated[
            str | None, strawberry.argument(description="The reporting company, if known.")
        ] = None,
    ) -> UploadReportResult:
        services = info.context.services
        limit = services.settings.max_upload_bytes
        try:
            content = await file.read(limit + 1)  # type: ignore[attr-defined]
        finally:
            await file.close()  # type: ignore[attr-defined]
        try:
            outcome = await accept_upload(
                services.session_factory,
                services.event_log,
                services.settings,
                filename=getattr(file, "filename", None),
                content=content,
                company_name=company_name,
                organisation_id=info.context.organisation_id,
            )
        except PdfRejected as exc:
            return UploadReportError(
                code=UploadReportErrorCode(exc.problem.value), message=exc.message, field="file"
            )
        except InvalidUpload as exc:
            return UploadReportError(
                code=UploadReportErrorCode.INVALID_INPUT, message=exc.message, field=exc.field
            )
        if outcome.report.status.value == "UPLOADED":
            await enqueue_parse(services.arq, outcome.report.id)
        return UploadReportSuccess(report=Report.from_model(outcome.report), created=outcome.created)
