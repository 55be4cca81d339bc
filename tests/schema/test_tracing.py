"""Traces: with OTEL_EXPORTER_OTLP_ENDPOINT set, one trace follows a report from the operation
that asked for work through the job the API queued, the pipeline's nodes, each specialist and the
LLM calls, to a real OTLP collector (in the test's process); without it, no span is made."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from pydantic import BaseModel

from app.config import Settings
from app.llm import LLMClient, LLMRole
from app.search.tavily import TavilySearch
from app.search.web import EvidenceSearch
from app.tracing import configure_tracing, flush_traces, span, stop_tracing
from tests.fixtures.planted_report import planted_report
from tests.support.fake_llm import FakeReply, fake_llm_server, settings_for
from tests.support.fake_tavily import fake_tavily_server
from tests.support.graphql import GraphQLClient
from tests.support.otlp_collector import Collector, otlp_collector
from tests.support.reports import wait_for_status

START = """
mutation Start($id: ID!) {
  startAnalysis(reportId: $id, maxIterations: 1) { __typename ... on StartAnalysisError { message } }
}
"""


class Label(BaseModel):
    label: str


@pytest.fixture
async def collector(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Collector]:
    async with otlp_collector() as collector:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.url)
        assert configure_tracing("sibyl-test")
        try:
            yield collector
        finally:
            await asyncio.to_thread(stop_tracing)  # the exporter's thread posts to this event loop


async def collected(collector: Collector) -> Collector:
    await asyncio.to_thread(flush_traces)
    return collector


async def test_an_upload_and_its_parse_are_one_trace(
    client: GraphQLClient, worker: object, collector: Collector
) -> None:
    report_id = (await client.upload_result(planted_report().pdf))["report"]["id"]
    await wait_for_status(client, report_id, "PARSED", "ERROR")

    spans = await collected(collector)
    [upload] = spans.named("mutation ")
    [job] = spans.named("job parse_report")
    assert upload.attributes["graphql.operation.type"] == "mutation"
    assert job.trace_id == upload.trace_id
    assert upload in list(spans.ancestors(job))
    assert job.service == "sibyl-test"


async def test_an_analysis_is_one_trace_from_the_operation_to_each_specialist(
    client: GraphQLClient, worker: object, collector: Collector
) -> None:
    report_id = (await client.upload_result(planted_report().pdf))["report"]["id"]
    await wait_for_status(client, report_id, "PARSED", "ERROR")
    started = await client.data(START, id=report_id)
    assert started["startAnalysis"]["__typename"] == "StartAnalysisSuccess", started
    await wait_for_status(client, report_id, "COMPLETED", "ERROR")

    spans = await collected(collector)
    [start] = spans.named("mutation Start")
    [job] = spans.named("job run_pipeline")
    nodes = spans.named("node ")
    specialists = spans.named("specialist ")
    assert job.trace_id == start.trace_id and start in list(spans.ancestors(job))
    assert {"node extract_claims", "node orchestrate", "node judge_evidence", "node compile_report"} <= {
        node.name for node in nodes
    }
    assert all(job in list(spans.ancestors(node)) for node in nodes)
    assert specialists and all(span.trace_id == start.trace_id for span in specialists)


async def test_llm_calls_and_searches_are_spans_of_the_work_that_made_them(collector: Collector) -> None:
    async with fake_llm_server() as llm_server, fake_tavily_server() as tavily_server:
        llm_server.script(FakeReply(content={"label": "supported"}))
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            **settings_for(llm_server, llm_model_analysis="test/model"),
            tavily_api_key="tvly-test",
            tavily_api_base_url=tavily_server.url,
        )
        llm = LLMClient(settings)
        try:
            with span("specialist news_media"):
                await llm.complete_json(LLMRole.ANALYSIS, system="Judge.", user="A claim.", schema=Label)
                await EvidenceSearch(settings, [TavilySearch(settings)]).search("scope 1 emissions")
        finally:
            await llm.aclose()

    spans = await collected(collector)
    [specialist] = spans.named("specialist news_media")
    [call] = spans.named("llm.call")
    [search] = spans.named("search")
    assert call.parent_id == search.parent_id == specialist.span_id
    assert call.attributes == {"gen_ai.request.model": "test/model", "sibyl.llm.role": "analysis"}
    assert search.attributes == {"sibyl.search.providers": "tavily"}


def test_without_a_collector_no_span_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"):
        monkeypatch.delenv(name, raising=False)

    assert configure_tracing("sibyl-test") is False
    with span("anything") as made:
        assert made is None
