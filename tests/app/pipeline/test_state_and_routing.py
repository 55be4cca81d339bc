"""State reducers, graph edges and info-request routing: the pieces that keep cycles bounded."""

from __future__ import annotations

from typing import Any

from app.pipeline.graph import route_to_specialists, should_continue_or_compile
from app.pipeline.orchestrator import reinvestigation_plan
from app.pipeline.routing import route_info_request
from app.pipeline.state import merge_agent_status, merge_findings, merge_info_requests
from app.verification.records import latest_verdicts


def request(request_id: str, status: str = "pending", targets: list[str] | None = None) -> dict[str, Any]:
    return {
        "request_id": request_id,
        "requesting_agent": "news_media",
        "description": "satellite imagery of the site",
        "status": status,
        "target_agents": targets or [],
        "iteration": 0,
    }


def test_info_requests_merge_by_id_so_a_status_update_never_duplicates() -> None:
    merged = merge_info_requests([request("a"), request("b")], [request("a", "routed", ["geography"])])
    assert [(item["request_id"], item["status"]) for item in merged] == [("a", "routed"), ("b", "pending")]
    assert merge_info_requests(merged, merged) == merged


def test_findings_written_twice_are_kept_once_and_agent_status_merges_per_agent() -> None:
    finding = {"finding_id": "f1", "claim_id": "c", "iteration": 0}
    assert merge_findings([finding], [finding, {**finding, "finding_id": "f2"}]) == [
        finding,
        {**finding, "finding_id": "f2"},
    ]
    status = merge_agent_status({"legal": {"status": "working"}}, {"geography": {"status": "completed"}})  # type: ignore[dict-item]
    assert set(status) == {"legal", "geography"}


def test_latest_verdict_per_claim_is_the_final_one() -> None:
    verdicts = [
        {"claim_id": "c1", "iteration": 0, "verdict": "insufficient_evidence"},
        {"claim_id": "c1", "iteration": 2, "verdict": "verified"},
        {"claim_id": "c2", "iteration": 0, "verdict": "unverified"},
    ]
    final = latest_verdicts(verdicts)  # type: ignore[arg-type]
    assert final["c1"]["verdict"] == "verified" and final["c2"]["iteration"] == 0


def test_cycle_edge_stops_at_max_iterations() -> None:
    base: dict[str, Any] = {"max_iterations": 3, "reinvestigation_requests": [{"claim_id": "c"}]}
    assert should_continue_or_compile({**base, "iteration_count": 0}) == "orchestrate"  # type: ignore[arg-type]
    assert should_continue_or_compile({**base, "iteration_count": 1}) == "orchestrate"  # type: ignore[arg-type]
    assert should_continue_or_compile({**base, "iteration_count": 2}) == "compile_report"  # type: ignore[arg-type]
    assert (
        should_continue_or_compile({**base, "reinvestigation_requests": [], "iteration_count": 0})
        == "compile_report"
    )  # type: ignore[arg-type]


def test_fan_out_sends_only_to_agents_with_work_and_carries_the_judges_context() -> None:
    claims = [
        {"claim_id": "c1", "text": "x", "claim_type": "quantitative", "priority": "high", "source_page": 1}
    ]
    plan = reinvestigation_plan(
        [
            {
                "claim_id": "c1",
                "target_agents": ["data_metrics"],
                "evidence_gap": "one weak source",
                "refined_queries": ["recompute the change"],
                "required_evidence": "arithmetic",
                "cycle_number": 1,
            }
        ],
        cycle=1,
    )
    state: dict[str, Any] = {
        "report_id": "r",
        "run_id": "u",
        "max_iterations": 3,
        "iteration_count": 1,
        "claims": claims,
        "routing_plan": plan,
        "info_requests": [request("q", "routed", ["geography"])],
    }
    sends = route_to_specialists(state)  # type: ignore[arg-type]
    assert isinstance(sends, list)
    by_node = {send.node: send.arg for send in sends}
    assert set(by_node) == {"investigate_data", "investigate_geography"}
    task = by_node["investigate_data"]
    assert [claim["claim_id"] for claim in task["claims"]] == ["c1"] and task["iteration"] == 1
    assert task["routing"][0]["context"]["refined_queries"] == ["recompute the change"]
    assert (
        by_node["investigate_geography"]["claims"] == []
        and len(by_node["investigate_geography"]["info_requests"]) == 1
    )
    assert route_to_specialists({**state, "routing_plan": [], "info_requests": []}) == "judge_evidence"  # type: ignore[arg-type]


def test_info_request_keyword_routing() -> None:
    assert route_info_request("Need satellite imagery of the facility site", exclude=["news_media"]) == [
        "geography"
    ]
    assert route_info_request("Check the Scope 3 emissions data calculation") == ["data_metrics"]
    assert route_info_request("Any press coverage or controversy?") == ["news_media"]
    assert route_info_request("Is the IFRS S2 paragraph on governance met?") == ["legal"]
    assert route_info_request("Is this consistent with SBTi methodology research?") in (
        ["academic"],
        ["data_metrics", "academic"],
        ["academic", "data_metrics"],
    )
    assert route_info_request("hello there") == []
