"""The pipeline graph.

extract_claims → orchestrate → (Send to each specialist with work) → judge_evidence →
(orchestrate again while the judge asks for re-investigation and passes remain) → compile_report.
"""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Send

from app.pipeline.claims_node import extract_claims
from app.pipeline.compile import compile_report
from app.pipeline.judge_node import judge_evidence
from app.pipeline.metrics import timed
from app.pipeline.orchestrator import orchestrate
from app.pipeline.runtime import PipelineDeps
from app.pipeline.specialists import AGENT_TO_NODE, NODE_TO_AGENT, investigate
from app.pipeline.state import PipelineInput, PipelineState
from app.verification.records import SPECIALISTS, SpecialistTask

JUDGE = "judge_evidence"


def route_to_specialists(state: PipelineState) -> list[Send] | str:
    """One `Send` per specialist with claims or routed info requests this cycle, else the judge."""
    claims = {claim["claim_id"]: claim for claim in state.get("claims") or []}
    plan = state.get("routing_plan") or []
    requests = [request for request in state.get("info_requests") or [] if request["status"] == "routed"]
    sends: list[Send] = []
    for agent in SPECIALISTS:
        routing = [
            entry for entry in plan if agent in entry["assigned_agents"] and entry["claim_id"] in claims
        ]
        addressed = [request for request in requests if agent in request["target_agents"]]
        if not routing and not addressed:
            continue
        task = SpecialistTask(
            report_id=state["report_id"],
            run_id=state["run_id"],
            agent=agent,
            iteration=state.get("iteration_count", 0),
            company_name=state.get("company_name"),
            claims=[claims[entry["claim_id"]] for entry in routing],
            routing=routing,
            info_requests=addressed,
        )
        sends.append(Send(AGENT_TO_NODE[agent], task))
    return sends or JUDGE


def should_continue_or_compile(state: PipelineState) -> str:
    """Back to the orchestrator while the judge asked for more and another pass is allowed."""
    has_requests = bool(state.get("reinvestigation_requests"))
    next_pass_allowed = state.get("iteration_count", 0) + 1 < state["max_iterations"]
    return "orchestrate" if has_requests and next_pass_allowed else "compile_report"


def build_graph() -> StateGraph[PipelineState, PipelineDeps, PipelineInput, PipelineState]:
    """The graph, each node's runs timed under its name and traced (`app.pipeline.metrics`)."""
    graph = StateGraph(PipelineState, context_schema=PipelineDeps, input_schema=PipelineInput)
    graph.add_node("extract_claims", timed("extract_claims", extract_claims))
    graph.add_node("orchestrate", timed("orchestrate", orchestrate))
    for node in AGENT_TO_NODE.values():
        # The node protocol types `runtime` as keyword-only; LangGraph passes it by name.
        traced_as = f"specialist {NODE_TO_AGENT[node]}"
        graph.add_node(node, timed(node, investigate, traced_as), input_schema=SpecialistTask)  # type: ignore[call-overload]
        graph.add_edge(node, JUDGE)
    graph.add_node(JUDGE, timed(JUDGE, judge_evidence))
    graph.add_node("compile_report", timed("compile_report", compile_report))
    graph.add_edge(START, "extract_claims")
    graph.add_edge("extract_claims", "orchestrate")
    graph.add_conditional_edges("orchestrate", route_to_specialists, [*AGENT_TO_NODE.values(), JUDGE])
    graph.add_conditional_edges(JUDGE, should_continue_or_compile, ["orchestrate", "compile_report"])
    graph.add_edge("compile_report", END)
    return graph


def compile_graph(
    checkpointer: BaseCheckpointSaver[str] | None = None,
) -> CompiledStateGraph[PipelineState, PipelineDeps, PipelineInput, PipelineState]:
    return build_graph().compile(checkpointer=checkpointer)
