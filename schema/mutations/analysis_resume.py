"""`resumeAnalysis`: continue a report's latest analysis from its last checkpoint."""

from __future__ import annotations

from typing import Annotated

import strawberry

from app.services.analysis import AnalysisProblem, AnalysisRefused, resume_analysis
from schema.context import Context
from schema.mutations.analysis_errors import AnalysisErrorCode, error_from, success_fields
from schema.types.analysis import Analysis
from schema.types.reports import Report
from schema.types.reports_lookup import find_report


@strawberry.type(description="The analysis will continue from its last completed step.")
class ResumeAnalysisSuccess:
    report: Report = strawberry.field(description="The report, ANALYZING again.")
    analysis: Analysis = strawberry.field(description="The resumed analysis run.")


@strawberry.type(description="Nothing to resume; nothing changed.")
class ResumeAnalysisError:
    code: AnalysisErrorCode = strawberry.field(description="Machine-readable reason.")
    message: str = strawberry.field(description="What is wrong, for a person.")
    field: str | None = strawberry.field(description="The argument at fault.")


ResumeAnalysisResult = Annotated[
    ResumeAnalysisSuccess | ResumeAnalysisError,
    strawberry.union(
        "ResumeAnalysisResult",
        description="ResumeAnalysisSuccess when the run continues, or ResumeAnalysisError saying why not "
        "(select `__typename`).",
    ),
]


@strawberry.type
class ResumeAnalysisMutation:
    @strawberry.mutation(
        description="Continue the report's latest analysis after a failure or a lost worker; completed "
        "steps are not run again."
    )
    async def resume_analysis(
        self,
        info: strawberry.Info[Context],
        report_id: Annotated[
            strawberry.ID, strawberry.argument(description="The report's global id or UUID.")
        ],
    ) -> ResumeAnalysisResult:
        services = info.context.services
        found = await find_report(info, report_id)
        try:
            if found is None:
                raise AnalysisRefused(AnalysisProblem.REPORT_NOT_FOUND, "No report has this id.", "reportId")
            started = await resume_analysis(services.event_log, services.arq, found.id)
        except AnalysisRefused as exc:
            code, message, field = error_from(exc)
            return ResumeAnalysisError(code=code, message=message, field=field)
        report, analysis = success_fields(started)
        return ResumeAnalysisSuccess(report=report, analysis=analysis)
