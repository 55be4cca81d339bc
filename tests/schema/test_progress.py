"""`progressPercent` moves through the investigating stage as specialists finish claims, not only
when whole agents finish (trial s23: it sat at 25.1 for minutes on a 136-page report)."""

from __future__ import annotations

from app.db.models import AnalysisRun
from schema.types.analysis import progress_percent


def _run(**agents: dict[str, object]) -> AnalysisRun:
    return AnalysisRun(
        pipeline_stage="investigating", max_iterations=1, iteration_count=0, agent_status=agents
    )


def test_progress_counts_the_claims_a_working_agent_has_finished() -> None:
    start = progress_percent(
        _run(news_media={"status": "working", "iteration": 0, "claims_assigned": 10, "claims_completed": 0})
    )
    halfway = progress_percent(
        _run(news_media={"status": "working", "iteration": 0, "claims_assigned": 10, "claims_completed": 5})
    )
    done = progress_percent(
        _run(
            news_media={"status": "completed", "iteration": 0, "claims_assigned": 10, "claims_completed": 10}
        )
    )
    assert start < halfway < done
    assert halfway == round((start + done) / 2, 1)


def test_a_failed_agent_counts_as_done_and_a_late_count_never_overshoots() -> None:
    failed = {"status": "error", "iteration": 0, "claims_assigned": 4, "claims_completed": 1}
    over = {"status": "working", "iteration": 0, "claims_assigned": 4, "claims_completed": 9}
    assert progress_percent(_run(legal=failed)) == progress_percent(_run(legal=over))
