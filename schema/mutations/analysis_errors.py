"""The error half of `startAnalysis` / `resumeAnalysis` results, and the shared success type."""

from __future__ import annotations

import enum

import strawberry

from app.services.analysis import AnalysisProblem, AnalysisRefused, AnalysisStarted
from schema.analysis import Analysis
from schema.reports import Report


@strawberry.enum(description="Why an analysis could not be started or resumed.")
class AnalysisErrorCode(enum.Enum):
    REPORT_NOT_FOUND = AnalysisProblem.REPORT_NOT_FOUND.value
    NOT_PARSED = AnalysisProblem.NOT_PARSED.value
    ALREADY_RUNNING = AnalysisProblem.ALREADY_RUNNING.value
    NO_CLAIMS = AnalysisProblem.NO_CLAIMS.value
    NO_ANALYSIS = AnalysisProblem.NO_ANALYSIS.value
    ALREADY_COMPLETED = AnalysisProblem.ALREADY_COMPLETED.value
    INVALID_INPUT = AnalysisProblem.INVALID_INPUT.value


def error_from(exc: AnalysisRefused) -> tuple[AnalysisErrorCode, str, str | None]:
    return AnalysisErrorCode(exc.problem.value), exc.message, exc.field


def success_fields(started: AnalysisStarted) -> tuple[Report, Analysis]:
    return Report.from_model(started.report), Analysis.from_model(started.run)
