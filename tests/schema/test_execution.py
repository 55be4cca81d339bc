"""Subscription events must not share (and grow) one sub-field memo for the subscription's life."""

from __future__ import annotations

from graphql import parse

from schema import schema
from schema.fast_execution.execution import PerEventMemoExecutionContext

SUBSCRIPTION = 'subscription { analysisEvents(reportId: "x") { id eventType } }'


def test_each_event_executor_starts_with_its_own_empty_memo() -> None:
    executor = PerEventMemoExecutionContext.build(schema._schema, parse(SUBSCRIPTION))
    assert not isinstance(executor, list), executor
    executor._relevant_sub_fields[("sentinel", 1)] = ([], None)

    first = executor.build_per_event_executor({"n": 1})
    second = executor.build_per_event_executor({"n": 2})

    assert first._relevant_sub_fields == {}
    assert second._relevant_sub_fields == {}
    assert first._relevant_sub_fields is not second._relevant_sub_fields
    assert first.root_value == {"n": 1}
