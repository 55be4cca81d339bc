"""`cancelAnalysis`: stop a report's queued or running analysis."""

from __future__ import annotations

import enum
from typing import Annotated

import strawberry

from app.services.run_control import ControlProblem, ControlRefused, cancel_analysis
from schema.context import Context
from schema.types.analysis import Analysis
from schema.types.ids import parse_node_id
from schema.types.reports import Report


@strawberry.enum(description="Why an analysis could not be cancelled.")
class CancelAnalysisErrorCode(enum.Enum):
    NOT_FOUND = strawberry.enum_value(
        ControlProblem.NOT_FOUND.value,
        description="No report of your organisation has this id (another organisation's report is not "
        "found either).",
    )
    NOT_RUNNING = strawberry.enum_value(
        ControlProblem.NOT_RUNNING.value,
        description="The report's latest analysis is not queued or running (never started, COMPLETED, "
        "ERROR or already CANCELLED): there is nothing to stop.",
    )


@strawberry.type(description="The analysis is CANCELLED; its worker stops within about a second.")
class CancelAnalysisSuccess:
    report: Report = strawberry.field(description="The report, now CANCELLED.")
    analysis: Analysis = strawberry.field(
        description="The cancelled run; its claims, findings and verdicts so far stay readable."
    )


@strawberry.type(description="Nothing was cancelled; nothing changed.")
class CancelAnalysisError:
    code: CancelAnalysisErrorCode = strawberry.field(description="Machine-readable reason.")
    message: str = strawberry.field(description="What is wrong, for a person.")
    field: str | None = strawberry.field(description="The argument at fault (`reportId`).")


CancelAnalysisResult = Annotated[
    CancelAnalysisSuccess | CancelAnalysisError,
    strawberry.union(
        "CancelAnalysisResult",
        description="CancelAnalysisSuccess when the run was stopped, or CancelAnalysisError saying why "
        "not (select `__typename`).",
    ),
]


@strawberry.type
class CancelAnalysisMutation:
    @strawberry.mutation(
        description="Stop the report's queued or running analysis: it becomes CANCELLED with a "
        "`run_cancelled` event, its worker stops its LLM and search calls within about a second and "
        "releases the run, and no sweep resumes it (`resumeAnalysis` can, by hand). What it stored so "
        "far stays readable."
    )
    async def cancel_analysis(
        self,
        info: strawberry.Info[Context],
        report_id: Annotated[
            strawberry.ID, strawberry.argument(description="The report's global id or UUID.")
        ],
    ) -> CancelAnalysisResult:
        report_uuid = parse_node_id(report_id, "Report")
        try:
            if report_uuid is None:
                raise ControlRefused(ControlProblem.NOT_FOUND, "No report has this id.")
            cancelled = await cancel_analysis(
                info.context.services.event_log, report_uuid, info.context.organisation_id
            )
        except ControlRefused as exc:
            return CancelAnalysisError(
                code=CancelAnalysisErrorCode(exc.problem.value), message=exc.message, field=exc.field
            )
        return CancelAnalysisSuccess(
            report=Report.from_model(cancelled.report), analysis=Analysis.from_model(cancelled.run)
        )
