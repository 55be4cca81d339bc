"""The error half of `startAnalysis` / `resumeAnalysis` results, and the shared success type."""

from __future__ import annotations

import enum

import strawberry

from app.services.analysis import AnalysisProblem, AnalysisRefused, AnalysisStarted
from schema.types.analysis import Analysis
from schema.types.reports import Report


@strawberry.enum(description="Why an analysis could not be started or resumed.")
class AnalysisErrorCode(enum.Enum):
    REPORT_NOT_FOUND = strawberry.enum_value(
        AnalysisProblem.REPORT_NOT_FOUND.value,
        description="No report of your organisation has this id (or the id is not a report id at all).",
    )
    NOT_PARSED = strawberry.enum_value(
        AnalysisProblem.NOT_PARSED.value,
        description="The report's pages are not read yet (or its parsing failed); wait for PARSED.",
    )
    ALREADY_RUNNING = strawberry.enum_value(
        AnalysisProblem.ALREADY_RUNNING.value,
        description="An analysis of the report is queued or running on a worker; follow it with "
        "`analysisEvents`.",
    )
    NO_CLAIMS = strawberry.enum_value(
        AnalysisProblem.NO_CLAIMS.value,
        description="`skipClaimsExtraction` was asked for, but the report has no stored claims to reuse.",
    )
    NO_ANALYSIS = strawberry.enum_value(
        AnalysisProblem.NO_ANALYSIS.value,
        description="`resumeAnalysis`: the report was never analysed, so there is nothing to continue.",
    )
    ALREADY_COMPLETED = strawberry.enum_value(
        AnalysisProblem.ALREADY_COMPLETED.value,
        description="`resumeAnalysis`: the latest analysis finished; `startAnalysis` runs a new one.",
    )
    INVALID_INPUT = strawberry.enum_value(
        AnalysisProblem.INVALID_INPUT.value,
        description="An argument is out of range (e.g. `maxIterations` outside 1–10); `field` names it.",
    )


def error_from(exc: AnalysisRefused) -> tuple[AnalysisErrorCode, str, str | None]:
    return AnalysisErrorCode(exc.problem.value), exc.message, exc.field


def success_fields(started: AnalysisStarted) -> tuple[Report, Analysis]:
    return Report.from_model(started.report), Analysis.from_model(started.run)
