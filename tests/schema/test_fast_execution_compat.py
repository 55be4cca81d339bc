"""The executor shortcuts switch themselves off when an internal they lean on changes shape (a new
Strawberry, graphql-core, Starlette or uvicorn): one WARNING names what changed, and GraphQL goes
on answering through Strawberry's and graphql-core's own execution and transports."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
import strawberry
from graphql.execution import Executor
from starlette.websockets import WebSocket
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.types.field import StrawberryField

from schema import fast_execution
from schema.errors import SibylSchema
from schema.fast_execution import compat
from schema.transport.ws_guard import TransportWSHandler


@strawberry.type
class Book:
    title: str

    @strawberry.field
    def shout(self) -> str:
        return self.title.upper()


@strawberry.type
class Query:
    @strawberry.field
    def books(self) -> list[Book]:
        return [Book(title="dune"), Book(title="emma")]


BOOKS = "{ books { title shout } }"
ANSWER = {"books": [{"title": "dune", "shout": "DUNE"}, {"title": "emma", "shout": "EMMA"}]}


def changed_signature(monkeypatch: pytest.MonkeyPatch) -> None:
    """graphql-core renames a parameter of a method the shortcuts override."""

    def complete_value(
        self: Any, return_type: Any, field_group: Any, info: Any, path: Any, result: Any
    ) -> Any:
        raise AssertionError("not called")

    monkeypatch.setattr(Executor, "complete_value", complete_value)


def unmemoised_subfields(monkeypatch: pytest.MonkeyPatch) -> None:
    """graphql-core stops keeping collected sub-fields in its private `_relevant_sub_fields` memo."""
    collect = Executor.collect_subfields

    def collect_subfields(self: Any, return_type: Any, field_details_list: Any) -> Any:
        collected = collect(self, return_type, field_details_list)
        self._relevant_sub_fields.clear()
        return collected

    monkeypatch.setattr(Executor, "collect_subfields", collect_subfields)


def no_basic_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """Strawberry drops an attribute of its fields that the leaf shortcut reads."""
    monkeypatch.delattr(StrawberryField, "is_basic_field")


def deeper_closures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Starlette wraps the ASGI `send` in more closures than fan-out looks through."""
    starlette_init = WebSocket.__init__

    def wrapped(send: Callable[..., Any]) -> Callable[..., Any]:
        async def wrapper(message: Any) -> None:
            await send(message)

        return wrapper

    def init(self: WebSocket, scope: Any, receive: Any, send: Any) -> None:
        for _ in range(6):
            send = wrapped(send)
        starlette_init(self, scope, receive, send)

    monkeypatch.setattr(WebSocket, "__init__", init)


CHANGES = {
    "graphql-core Executor.complete_value(": changed_signature,
    "graphql-core Executor._relevant_sub_fields": unmemoised_subfields,
    "Strawberry default resolver": no_basic_field,
    "Starlette WebSocket._send closures": deeper_closures,
}


def test_the_installed_releases_fit_the_shortcuts() -> None:
    assert compat.changed() == []


@pytest.mark.parametrize("internal", list(CHANGES))
async def test_a_changed_internal_turns_the_shortcuts_off_with_one_warning(
    internal: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(fast_execution, "_enabled", None)  # as at start-up: not yet decided
    monkeypatch.setattr(fast_execution, "get_settings", lambda: _Settings(fast_execution=True))
    with monkeypatch.context() as changed:
        CHANGES[internal](changed)
        with caplog.at_level(logging.WARNING, logger="schema.fast_execution"):
            on = fast_execution.enabled()

    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert on is False
    assert len(warnings) == 1 and warnings[0].name == "schema.fast_execution"
    assert internal in warnings[0].getMessage()
    assert fast_execution.execution_context_class() is None
    assert fast_execution.transport_ws_handler(TransportWSHandler) is TransportWSHandler
    await _answers_through_strawberrys_own_execution()


async def _answers_through_strawberrys_own_execution() -> None:
    """A schema built as the API builds its own still runs, on Strawberry's execution and wrappers."""
    fallback = SibylSchema(query=Query, execution_context_class=fast_execution.execution_context_class())

    result = await fallback.execute(BOOKS)

    assert result.errors is None and result.data == ANSWER
    assert fallback.execution_context_class is StrawberryGraphQLCoreExecutionContext
    shout = fallback._schema.type_map["Book"].fields["shout"]  # type: ignore[union-attr]
    assert shout.resolve.__name__ == compat.STRAWBERRY_SYNC_RESOLVER  # no lean wrapper


def test_turned_off_by_the_setting_without_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="schema.fast_execution"):
        on = fast_execution.decide(False)

    assert on is False
    assert not caplog.records


class _Settings:
    def __init__(self, *, fast_execution: bool) -> None:
        self.fast_execution = fast_execution
