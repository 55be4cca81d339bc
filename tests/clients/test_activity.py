"""What `--follow` shows: one line per event, and a progress bar (redrawn on a terminal, plain lines
otherwise)."""

from __future__ import annotations

import io

from clients.console.activity import describe, labels_in
from clients.console.display import Display, progress_text
from clients.sibyl.models import Report, StreamEvent
from tests.clients.fake_sibyl import event, report_json

CLAIM = "5b0c5f55-0000-4000-8000-000000000001"


def stream_event(*args: object, **data: object) -> StreamEvent:
    return StreamEvent.from_json(event(*args, **data))  # type: ignore[arg-type]


def test_claims_extracted_events_name_the_claims_later_lines_mention() -> None:
    extracted = stream_event(
        1, "claims_extracted", "claims", chunk=1, chunks=2, pages=[1, 6], count=1,
        claims=[{"claim_id": CLAIM, "text": "Scope 1 emissions fell 6.1% in 2023.", "source_page": 5}],
    )  # fmt: skip
    labels = labels_in(extracted)

    verdict = stream_event(
        2, "verdict_issued", "judge", claim_id=CLAIM, verdict="verified", confidence="high"
    )
    evidence = stream_event(
        3, "evidence_found", "news_media", claim_id=CLAIM, summary="A report", supports_claim=False
    )
    label = 'p.5 "Scope 1 emissions fell 6.1% in 2023."'

    assert describe(extracted, labels) == "claims       chunk 1/2 (pages 1–6): 1 claim(s)"
    assert describe(verdict, labels) == f"judge        VERIFIED claim {label} (high confidence)"
    investigating = stream_event(4, "claim_investigating", "news_media", claim_id=CLAIM, claim_text="Scope 1")
    assert describe(evidence, labels) == f"news_media   evidence on claim {label}: CONTRADICTS — A report"
    assert describe(investigating, labels) == f"news_media   investigating claim {label}"


def test_lines_for_routing_starts_errors_and_completion() -> None:
    no_labels: dict[str, str] = {}

    agents = ["geography", "legal"]
    routed = stream_event(1, "claim_routed", "orchestrator", claim_id=CLAIM, assigned_agents=agents)
    started = stream_event(2, "agent_started", "legal", claims_assigned=3)
    failed = stream_event(3, "error", "geography", message="timeout", node="investigate_geography")
    done = stream_event(4, "pipeline_completed", None, total_verdicts=7)

    assert describe(routed, no_labels) == "orchestrator claim #5b0c5f55 → geography, legal"
    assert describe(started, no_labels) == "legal        investigating 3 claim(s)"
    assert describe(failed, no_labels) == "geography    ERROR timeout"
    assert describe(done, no_labels) == "pipeline     completed: 7 verdict(s)"
    assert describe(stream_event(5, "evidence_evaluation", "judge"), no_labels) is None
    warning = stream_event(6, "warning", "claims", code="EXTRACTION_FELL_BACK_TO_RULES", message="4 of 4 …")
    assert describe(warning, no_labels) == "claims       WARNING 4 of 4 …"


def running(progress: float, agents: list[str]) -> Report:
    return Report.from_json(report_json("ANALYZING", progress, "investigating", active_agents=agents))


def test_progress_bar_shows_percent_stage_and_active_agents() -> None:
    assert progress_text(running(50.0, ["legal", "academic"])) == (
        "[############............]  50%  investigating · legal, academic"
    )


def test_progress_says_how_many_jobs_start_before_a_queued_report() -> None:
    queued = [
        Report.from_json(report_json("UPLOADED", 0.0, None, queue_position=ahead)) for ahead in (3, 1, 0)
    ]

    assert [progress_text(report).partition("uploaded")[2] for report in queued] == [
        " · queued, 3 jobs ahead",
        " · queued, 1 job ahead",
        " · queued, starts next",
    ]
    assert progress_text(running(50.0, [])).endswith("investigating")


def test_plain_display_prints_progress_only_when_it_changes() -> None:
    stream = io.StringIO()
    display = Display(stream, live=False)

    display.progress(running(10.0, []))
    display.progress(running(10.0, []))
    display.line("judge        VERIFIED claim x")
    display.progress(running(20.0, []))
    display.close()

    lines = stream.getvalue().splitlines()
    assert len(lines) == 3 and "\r" not in stream.getvalue()
    assert lines[0].startswith("progress") and "10%" in lines[0] and "20%" in lines[2]


def test_live_display_redraws_the_bar_under_activity_lines() -> None:
    stream = io.StringIO()
    display = Display(stream, live=True)

    display.progress(running(10.0, []))
    display.line("legal        done")
    display.close()

    output = stream.getvalue()
    assert output.count("\r\x1b[K") == 2
    assert output.endswith("legal        done\n[" + "#" * 2 + "." * 22 + "]  10%  investigating\n")
