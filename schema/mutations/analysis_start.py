"""`startAnalysis`: queue the whole pipeline for a parsed report."""

from __future__ import annotations

from typing import Annotated

import strawberry

from app.services.analysis import AnalysisProblem, AnalysisRefused, start_analysis
from schema.context import Context
from schema.mutations.analysis_errors import AnalysisErrorCode, error_from, success_fields
from schema.types.analysis import Analysis
from schema.types.reports import Report
from schema.types.reports_lookup import find_report


@strawberry.type(description="The analysis is queued; follow it with `analysisEvents` or `Report.analysis`.")
class StartAnalysisSuccess:
    report: Report = strawberry.field(description="The report, now ANALYZING.")
    analysis: Analysis = strawberry.field(description="The new analysis run.")


@strawberry.type(description="The analysis was not started; nothing changed.")
class StartAnalysisError:
    code: AnalysisErrorCode = strawberry.field(description="Machine-readable reason.")
    message: str = strawberry.field(description="What is wrong, for a person.")
    field: str | None = strawberry.field(description="The argument at fault.")


StartAnalysisResult = Annotated[
    StartAnalysisSuccess | StartAnalysisError,
    strawberry.union(
        "StartAnalysisResult",
        description="StartAnalysisSuccess when the run is queued, or StartAnalysisError saying why not "
        "(select `__typename`).",
    ),
]


@strawberry.type
class StartAnalysisMutation:
    @strawberry.mutation(
        description="Analyse a PARSED (or previously analysed) report: extract claims, route them to the "
        "specialists, judge the evidence in up to `maxIterations` passes and compile the verdicts."
    )
    async def start_analysis(
        self,
        info: strawberry.Info[Context],
        report_id: Annotated[
            strawberry.ID, strawberry.argument(description="The report's global id or UUID.")
        ],
        skip_claims_extraction: Annotated[
            bool,
            strawberry.argument(description="Reuse the report's stored claims instead of extracting again."),
        ] = False,
        max_iterations: Annotated[
            int | None,
            strawberry.argument(
                description="Investigation passes allowed (1–10); default from the MAX_ITERATIONS setting."
            ),
        ] = None,
    ) -> StartAnalysisResult:
        services = info.context.services
        found = await find_report(info, report_id)
        try:
            if found is None:
                raise AnalysisRefused(AnalysisProblem.REPORT_NOT_FOUND, "No report has this id.", "reportId")
            started = await start_analysis(
                services.event_log,
                services.arq,
                services.settings,
                found.id,
                skip_claims_extraction=skip_claims_extraction,
                max_iterations=max_iterations,
            )
        except AnalysisRefused as exc:
            code, message, field = error_from(exc)
            return StartAnalysisError(code=code, message=message, field=field)
        report, analysis = success_fields(started)
        return StartAnalysisSuccess(report=report, analysis=analysis)
