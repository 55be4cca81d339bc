"""Run warnings: the cause read from the LLM client's failure, the message, and storage that a node
running again after a crash does not repeat."""

from __future__ import annotations

from sqlalchemy import select

from app.config import Settings
from app.db.models import AnalysisRun
from app.db.session import SessionFactory
from app.degradation import WarningCode, failure_cause, fallback_warnings
from app.events import EventLog
from app.llm import LLMUnavailable
from app.pipeline.persistence import add_run_warnings
from app.services.analysis import open_analysis_run
from tests.support.pipeline import seed_parsed_pages


def unavailable(*failures: str) -> LLMUnavailable:
    return LLMUnavailable("extraction", {f"model-{n}": failure for n, failure in enumerate(failures)})


def test_the_cause_names_the_kind_of_failure_once_per_kind() -> None:
    assert failure_cause(unavailable('500: {"error": "x"} (after 3 retries)')) == "provider returned HTTP 500"
    assert failure_cause(unavailable("429: slow down (after 3 retries)", "401: bad key")) == (
        "provider returned HTTP 429; provider returned HTTP 401"
    )
    assert failure_cause(unavailable("timeout: no answer within 60s (after 3 retries)")) == (
        "the provider did not answer in time"
    )
    assert failure_cause(unavailable("connection: ConnectError: refused", "connection: ConnectError")) == (
        "the provider could not be reached"
    )
    assert failure_cause(unavailable("invalid answer after repair: the answer is not valid JSON")) == (
        "the model answered without usable JSON (a refusal or a malformed answer)"
    )
    assert failure_cause(unavailable("empty routing plan")) == "empty routing plan"
    assert failure_cause(unavailable("x" * 500)).endswith("…")
    assert failure_cause(LLMUnavailable("routing", {})) == "no model answered"


def test_one_warning_counts_the_units_that_fell_back_with_their_causes() -> None:
    causes = ["provider returned HTTP 500", "provider returned HTTP 500", "the model refused"]

    [warning] = fallback_warnings(
        WarningCode.EXTRACTION_FELL_BACK_TO_RULES, "extracting_claims", "extraction windows", causes, total=4
    )

    assert warning == {
        "code": "EXTRACTION_FELL_BACK_TO_RULES",
        "stage": "extracting_claims",
        "message": "3 of 4 extraction windows fell back to rules: "
        "provider returned HTTP 500 (2), the model refused (1)",
        "count": 3,
        "total": 4,
        "iteration": 0,
    }
    assert (
        fallback_warnings(WarningCode.DEDUP_FELL_BACK_TO_RULES, "extracting_claims", "pairs", [], total=9)
        == []
    )
    [later] = fallback_warnings(
        WarningCode.JUDGE_REVIEW_FELL_BACK_TO_RULES, "judging", "reviews", [None], total=1, iteration=1
    )
    assert later["message"] == "1 of 1 reviews fell back to rules: unknown failure (pass 2)"


async def test_a_warning_stored_again_replaces_the_same_code_stage_and_pass(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    report_id = await seed_parsed_pages(session_factory, ["A page."])
    run_id = (await open_analysis_run(event_log, settings, report_id)).run.id
    judge = WarningCode.JUDGE_REVIEW_FELL_BACK_TO_RULES
    first, second = (
        fallback_warnings(judge, "judging", "reviews", ["x"], total=2, iteration=n) for n in (0, 1)
    )
    routing = fallback_warnings(WarningCode.ROUTING_FELL_BACK_TO_RULES, "routing", "claims", ["y"], total=3)

    for batch in (routing, first, first, second, routing):
        async with session_factory() as session, session.begin():
            await add_run_warnings(session, run_id, batch)

    async with session_factory() as session:
        stored = await session.scalar(select(AnalysisRun.warnings).where(AnalysisRun.id == run_id))
    assert stored == [*first, *second, *routing]
