"""`deleteReport`: remove a report, its PDF and everything derived from it."""

from __future__ import annotations

import enum
from typing import Annotated

import strawberry
from strawberry import relay

from app.questions.cache import forget_answers
from app.services.report_deletion import DeletionProblem, DeletionRefused, delete_report
from schema.context import Context
from schema.types.ids import parse_node_id
from schema.types.reports import Report


@strawberry.enum(description="Why a report could not be deleted.")
class DeleteReportErrorCode(enum.Enum):
    NOT_FOUND = strawberry.enum_value(
        DeletionProblem.NOT_FOUND.value,
        description="No report of your organisation has this id (perhaps already deleted; another "
        "organisation's report is not found either).",
    )
    ANALYSIS_RUNNING = strawberry.enum_value(
        DeletionProblem.ANALYSIS_RUNNING.value,
        description="An analysis of the report is queued or running; stop it with `cancelAnalysis`, then "
        "delete.",
    )
    PARSING = strawberry.enum_value(
        DeletionProblem.PARSING.value,
        description="A worker is reading the report's pages; delete it once it is PARSED (or ERROR).",
    )


@strawberry.type(
    description="The report is gone: its PDF bytes, pages, claims, findings, verdicts, events and "
    "analysis runs. Your evidence library is untouched."
)
class DeleteReportSuccess:
    deleted_id: relay.GlobalID = strawberry.field(description="The global id the report had.")
    report: Report = strawberry.field(
        description="The report as it was before deletion (its fields only: its claims and runs are gone)."
    )
    deleted_analyses: int = strawberry.field(description="How many analysis runs were deleted with it.")


@strawberry.type(description="Nothing was deleted.")
class DeleteReportError:
    code: DeleteReportErrorCode = strawberry.field(description="Machine-readable reason.")
    message: str = strawberry.field(description="What is wrong, for a person.")
    field: str | None = strawberry.field(description="The argument at fault (`reportId`).")


DeleteReportResult = Annotated[
    DeleteReportSuccess | DeleteReportError,
    strawberry.union(
        "DeleteReportResult",
        description="DeleteReportSuccess, or DeleteReportError saying why nothing was deleted (select "
        "`__typename`).",
    ),
]


@strawberry.type
class DeleteReportMutation:
    @strawberry.mutation(
        description="Delete a report for good: its stored PDF, pages, claims, findings, verdicts, events "
        "and analysis runs. Refused while an analysis runs (cancel it first). The evidence library is "
        "separate and stays."
    )
    async def delete_report(
        self,
        info: strawberry.Info[Context],
        report_id: Annotated[
            strawberry.ID, strawberry.argument(description="The report's global id or UUID.")
        ],
    ) -> DeleteReportResult:
        services = info.context.services
        report_uuid = parse_node_id(report_id, "Report")
        try:
            if report_uuid is None:
                raise DeletionRefused(DeletionProblem.NOT_FOUND, "No report has this id.")
            deleted = await delete_report(services.session_factory, report_uuid, info.context.organisation_id)
        except DeletionRefused as exc:
            return DeleteReportError(
                code=DeleteReportErrorCode(exc.problem.value), message=exc.message, field=exc.field
            )
        await forget_answers(services.arq, report_uuid)  # cached answers about it must not outlive it
        report = Report.from_model(deleted.report)
        return DeleteReportSuccess(
            deleted_id=relay.GlobalID("Report", report.id), report=report, deleted_analyses=deleted.runs
        )
