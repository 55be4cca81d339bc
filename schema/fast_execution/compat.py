"""Every graphql-core, Strawberry, Starlette and uvicorn internal the shortcuts in this package lean
on, named once and checked at start-up.

The shortcuts override graphql-core's executor methods, read a private memo of it, recognise
Strawberry's resolver wrappers and `is_type_of` by their names, rebuild Strawberry's resolver call,
and reach uvicorn's WebSocket protocol through the closures Starlette wraps around the ASGI `send`.
None of that is public API, so any release may change it. `changed()` probes each one (signatures,
attributes, and small live runs of a throwaway schema and a throwaway Starlette app) and returns the
names of those no longer shaped as the shortcuts expect; `schema.fast_execution.enabled` then turns
the whole package off with one WARNING naming them, and the API runs on Strawberry's and
graphql-core's own execution and transports.

After upgrading Strawberry, graphql-core or uvicorn, `compat.changed()` (or the start-up WARNING)
says whether the shortcuts still fit; if not, keep FAST_EXECUTION off (the API is correct without
them, only slower) or adapt the shortcut the named internal belongs to. Nothing here imports those
internals at import time, so a release that removed one still lets the API start; the probes' own
throwaway schema and stand-ins are in `compat_fakes`.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any, NamedTuple

from schema.fast_execution.compat_fakes import FakeProtocol, ProbeItem, ProbeShade, probe_schema

#: The qualified name of the `is_type_of` Strawberry gives object types implementing an interface
#: (`schema.fast_execution.own_classes` answers it without the call).
STRAWBERRY_IS_TYPE_OF = "GraphQLCoreConverter.from_object.<locals>._get_is_type_of.<locals>.is_type_of"
#: The name of Strawberry's wrapper around a synchronous resolver (`lean_resolvers` replaces it).
STRAWBERRY_SYNC_RESOLVER = "_resolver"
#: The schema converter's private tuple of exception handlers (`lean_resolvers` stays away if any).
EXCEPTION_HANDLER_SPECS = "_exception_handler_specs"
#: The mark Strawberry puts on its default (attribute-reading) resolver (`field_plans`, `leaf_fields`).
DEFAULT_RESOLVER_MARK = "_is_default"

#: graphql-core `Executor` methods the shortcuts override or call, with their parameters.
EXECUTOR_METHODS = {
    "execute_operation": "serially",
    "build_per_event_executor": "payload",
    "execute_fields": "parent_type source_value path grouped_field_set position_context",
    "execute_field": "parent_type source field_details_list path position_context",
    "complete_value": "return_type field_details_list info path result position_context",
    "complete_awaitable_value": "return_type field_details_list info path result position_context",
    "complete_object_value": "return_type field_details_list info path result position_context",
    "complete_iterable_value": "item_type field_details_list info path items position_context",
    "complete_list_item_value": "item complete_results item_type field_details_list info item_path "
    "position_context",
    "complete_awaitable_list_item_value": "item item_type field_details_list info item_path position_context",
    "collect_subfields": "return_type field_details_list",
    "get_stream_usage": "field_details_list path",
    "handle_field_error": "raw_error return_type field_details_list path",
    "build_resolve_info": "field_def field_nodes parent_type path",
    "settle_in_background": "awaitables",
}
#: Executor attributes the shortcuts read.
EXECUTOR_ATTRIBUTES = (
    "schema operation variable_values context_value root_value field_resolver middleware_manager "
    "hide_suggestions is_awaitable"
).split()


class Internal(NamedTuple):
    """One internal: what the warning calls it, and a probe answering whether it is as expected."""

    name: str
    probe: Callable[[], bool]


def changed() -> list[str]:
    """The names of the internals that are no longer as the shortcuts expect (empty: all fit)."""
    found = []
    for internal in INTERNALS:
        try:
            fits = internal.probe()
        except Exception:  # noqa: BLE001  # a missing module, class or attribute: it changed
            fits = False
        if not fits:
            found.append(internal.name)
    return found


def _parameters(function: Any) -> str:
    """Parameter names of `function`, without `self` (a method read off its class), space-separated."""
    names = list(inspect.signature(function).parameters)
    return " ".join(names[1:] if names[:1] == ["self"] else names)


def _run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine that never waits (a probe's fakes answer at once) to its result."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("the probe waited for something")


# --- graphql-core ---------------------------------------------------------------------------------


def _executor_class() -> Any:
    from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

    return StrawberryGraphQLCoreExecutionContext


def _executor_method(name: str, parameters: str) -> Callable[[], bool]:
    return lambda: _parameters(getattr(_executor_class(), name)) == parameters


def _executor_memo() -> bool:
    """`_relevant_sub_fields`: the dict memo `collect_subfields` fills with (field details, collected
    fields), which `build_per_event_executor` copies into each event's executor
    (`schema.fast_execution.execution` gives each its own); collected fields are (grouped field
    set, defer usages, _), field details carry `.node` and `.fragment_variable_values`, and the
    resolve info Strawberry builds carries `field_nodes` and `fragments`."""
    from graphql.pyutils import Path

    probe = probe_schema()
    executor = _executor_class().build(probe.graphql, probe.document)
    result = executor.execute_operation()
    [(field_details_list, collected)] = executor._relevant_sub_fields.values()
    grouped, defer_usages, _ = collected
    copied = executor.build_per_event_executor(None)
    query_type = probe.graphql.query_type
    path = Path(None, "item", query_type.name)
    info = executor.build_resolve_info(
        query_type.fields["item"], [field_details_list[0].node], query_type, path
    )
    return (
        not result.errors
        and info.field_nodes[0] is field_details_list[0].node
        and isinstance(info.fragments, dict)
        and field_details_list[0].node.name.value == "item"
        and hasattr(field_details_list[0], "fragment_variable_values")
        and list(grouped) == ["name", "shade", "doubled"]
        and not defer_usages
        and isinstance(copied._relevant_sub_fields, dict)
        and all(hasattr(executor, name) for name in EXECUTOR_ATTRIBUTES)
    )


def _graphql_helpers() -> bool:
    from graphql.execution.middleware import MiddlewareManager
    from graphql.execution.values import get_argument_values
    from graphql.pyutils import Path, gather_with_cancel

    arguments = "type_def node variable_values fragment_variable_values hide_suggestions"
    return (
        _parameters(get_argument_values) == arguments
        and not MiddlewareManager().middlewares
        and callable(gather_with_cancel)
        and _parameters(Path.add_key) == "key typename"
    )


def _scalar_serializers() -> bool:
    """The built-in scalars coerce results with these functions (`leaf_coercion` compares them)."""
    from graphql import GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLString
    from graphql.type import scalars

    pairs = (
        (GraphQLString, scalars.serialize_string),
        (GraphQLID, scalars.serialize_id),
        (GraphQLBoolean, scalars.serialize_boolean),
        (GraphQLFloat, scalars.serialize_float),
        (GraphQLInt, scalars.serialize_int),
    )
    return all(scalar.coerce_output_value is function for scalar, function in pairs) and (
        (scalars.GRAPHQL_MIN_INT, scalars.GRAPHQL_MAX_INT) == (-(2**31), 2**31 - 1)
    )


# --- Strawberry: its schema and resolvers -----------------------------------------------------------


def _probe_fields() -> tuple[Any, Any, Any]:
    """(plain attribute field, field with a resolver, the probe object type) of the probe schema."""
    item_type = probe_schema().graphql.type_map["ProbeItem"]
    return item_type.fields["name"], item_type.fields["doubled"], item_type


def _definition_backref() -> bool:
    from strawberry.schema.schema_converter import GraphQLCoreConverter
    from strawberry.types.base import StrawberryObjectDefinition
    from strawberry.types.field import StrawberryField

    name, doubled, item_type = _probe_fields()
    key = GraphQLCoreConverter.DEFINITION_BACKREF
    definition = item_type.extensions[key]
    return (
        isinstance(name.extensions[key], StrawberryField)
        and isinstance(definition, StrawberryObjectDefinition)
        and definition.origin.__name__ == "ProbeItem"
    )


def _is_type_of() -> bool:
    return bool(_probe_fields()[2].is_type_of.__qualname__ == STRAWBERRY_IS_TYPE_OF)


def _default_resolver() -> bool:
    from strawberry.schema.schema_converter import GraphQLCoreConverter

    name = _probe_fields()[0]
    field = name.extensions[GraphQLCoreConverter.DEFINITION_BACKREF]
    return (
        getattr(name.resolve, DEFAULT_RESOLVER_MARK, False) is True
        and field.is_basic_field
        and field.python_name == "name"
        and field.default_resolver(ProbeItem(name="named", shade=ProbeShade.DARK), "name") == "named"
    )


def _sync_resolver() -> bool:
    """Strawberry's synchronous wrapper, and the resolver parts `lean_resolvers` calls instead."""
    from strawberry.schema.schema_converter import GraphQLCoreConverter
    from strawberry.types.field import StrawberryField

    doubled = _probe_fields()[1]
    field = doubled.extensions[GraphQLCoreConverter.DEFINITION_BACKREF]
    resolver = field.base_resolver
    parts = ("wrapped_func", "self_parameter", "parent_parameter", "root_parameter", "info_parameter")
    return (
        doubled.resolve.__name__ == STRAWBERRY_SYNC_RESOLVER
        and resolver.is_async is False
        and all(hasattr(resolver, part) for part in parts)
        and callable(StrawberryField.get_result)
        and not field.extensions
        and field.is_subscription is False
        and [argument.python_name for argument in field.arguments] == ["times"]
    )


def _graphql_schema() -> bool:
    from graphql import GraphQLSchema

    return isinstance(probe_schema().strawberry._schema, GraphQLSchema)


def _exception_handlers() -> bool:
    return bool(getattr(probe_schema().strawberry.schema_converter, EXCEPTION_HANDLER_SPECS) == ())


def _info_and_arguments() -> bool:
    from strawberry.types.arguments import convert_arguments
    from strawberry.types.info import Info

    schema = probe_schema().strawberry
    fields = [field.name for field in dataclasses.fields(Info)]
    expected = "value arguments scalar_registry config info"
    return (
        fields == ["_raw_info", "_field"]
        and schema.config.info_class is Info
        and hasattr(schema.schema_converter, "scalar_registry")
        and _parameters(convert_arguments) == expected
    )


def _cast_and_enums() -> bool:
    from strawberry.types.cast import TYPE_CAST_ATTRIBUTE

    enum_type = probe_schema().graphql.type_map["ProbeShade"]
    return isinstance(TYPE_CAST_ATTRIBUTE, str) and enum_type.wrapped_cls is ProbeShade


def _relay_ids() -> bool:
    """`Node._id` and the id it builds, `to_base64(type name, str(id))` (`relay_ids`)."""
    from strawberry.relay import GlobalID, Node
    from strawberry.relay.utils import to_base64

    definition = Node.__strawberry_definition__  # type: ignore[attr-defined]
    field = next(f for f in definition.fields if f.python_name == "_id")
    return (
        field.base_resolver is not None
        and callable(field.base_resolver.wrapped_func)
        and all(
            callable(getattr(Node, name)) for name in ("resolve_id", "resolve_typename", "resolve_id_attr")
        )
        and str(GlobalID("Probe", "7")) == to_base64("Probe", "7")
    )


# --- Strawberry's graphql-transport-ws handler and ASGI adapter -------------------------------------


def _transport_handler() -> bool:
    """The handler methods `shared_frames` overrides, its `operations`, and `send_next` passing the
    result's own `data` object (a shared result's JSON is found by that object's identity)."""
    from strawberry.http.exceptions import WebSocketDisconnected
    from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
        BaseGraphQLTransportWSHandler,
        Operation,
    )
    from strawberry.types import ExecutionResult

    sent: list[Any] = []

    class Recording(BaseGraphQLTransportWSHandler[Any, None]):
        async def send_message(self, message: Any) -> None:
            sent.append(message)

    handler = Recording(None, None, None, None, None, timedelta(seconds=1))  # type: ignore[arg-type]
    data = {"probe": 1}
    _run(Operation(handler, "probe-id", "", None, None).send_next(ExecutionResult(data=data, errors=None)))
    return (
        issubclass(WebSocketDisconnected, Exception)
        and handler.operations == {}
        and _parameters(BaseGraphQLTransportWSHandler.run_operation) == "operation"
        and _parameters(BaseGraphQLTransportWSHandler.send_message) == "message"
        and sent == [{"id": "probe-id", "type": "next", "payload": {"data": data}}]
        and sent[0]["payload"]["data"] is data
    )


# --- Starlette, uvicorn and websockets: the direct frame writes of `fanout` ---------------------------


def _direct_writes() -> bool:
    """Through a Starlette app and Strawberry's WebSocket adapter, as the API is served, `fanout`
    finds the protocol behind the Starlette `WebSocket` (its `_send`, inside Starlette's closures)
    and writes a frame straight onto its transport."""
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket
    from strawberry.asgi import ASGIWebSocketAdapter

    from schema.fast_execution.fanout import direct_connection

    found: list[Any] = []

    class Endpoint:  # an ASGI app, as Strawberry's `GraphQL` is: Starlette calls it as it is
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            adapter = ASGIWebSocketAdapter(None, None, WebSocket(scope, receive, send))  # type: ignore[arg-type]
            found.append(direct_connection(adapter.ws))

    async def receive() -> Any:
        return {"type": "websocket.connect"}

    protocol = FakeProtocol()
    scope = {"type": "websocket", "path": "/", "root_path": "", "headers": [], "query_string": b""}
    _run(Starlette(routes=[WebSocketRoute("/", Endpoint())])(scope, receive, protocol.send))
    [connection] = found
    return (
        connection is not None
        and connection.write(b"m", b"frame")
        and protocol.transport.written == [b"frame"]
    )


def _uvicorn_protocol() -> bool:
    """uvicorn's WebSocket protocol passes its own bound `send` to the app and keeps the websockets
    connection (`conn`) and the asyncio transport (`transport`) that `fanout` writes to."""
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.server import ServerProtocol

    source = inspect.getsource(WebSocketsSansIOProtocol)
    connection = ServerProtocol()
    return (
        AutoWebSocketsProtocol is WebSocketsSansIOProtocol
        and all(
            part in source
            for part in ("self.conn = ServerProtocol(", "self.transport = transport", "self.send)")
        )
        and connection.extensions == []
        and callable(connection.send_text)
        and callable(connection.data_to_send)
    )


INTERNALS: tuple[Internal, ...] = (
    *(
        Internal(f"graphql-core Executor.{name}({parameters})", _executor_method(name, parameters))
        for name, parameters in EXECUTOR_METHODS.items()
    ),
    Internal(
        "graphql-core Executor._relevant_sub_fields memo, collected fields, resolve info", _executor_memo
    ),
    Internal(
        "graphql-core get_argument_values(), MiddlewareManager.middlewares, gather_with_cancel, "
        "Path.add_key()",
        _graphql_helpers,
    ),
    Internal("graphql-core scalar coerce_output_value functions", _scalar_serializers),
    Internal("Strawberry GraphQLCoreConverter.DEFINITION_BACKREF extensions", _definition_backref),
    Internal(f"Strawberry is_type_of qualname {STRAWBERRY_IS_TYPE_OF}", _is_type_of),
    Internal(f"Strawberry default resolver ({DEFAULT_RESOLVER_MARK}, is_basic_field)", _default_resolver),
    Internal(f"Strawberry synchronous resolver wrapper {STRAWBERRY_SYNC_RESOLVER}", _sync_resolver),
    Internal("Strawberry Schema._schema (its graphql-core schema)", _graphql_schema),
    Internal(f"Strawberry schema_converter.{EXCEPTION_HANDLER_SPECS}", _exception_handlers),
    Internal("Strawberry Info(_raw_info, _field) and convert_arguments()", _info_and_arguments),
    Internal("Strawberry TYPE_CAST_ATTRIBUTE and enum types' wrapped_cls", _cast_and_enums),
    Internal("Strawberry relay Node._id and to_base64", _relay_ids),
    Internal("Strawberry graphql-transport-ws handler and Operation.send_next", _transport_handler),
    Internal("Starlette WebSocket._send closures and Strawberry ASGIWebSocketAdapter.ws", _direct_writes),
    Internal("uvicorn websockets-sansio protocol (send, conn, transport)", _uvicorn_protocol),
)
