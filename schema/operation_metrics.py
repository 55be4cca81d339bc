"""Every GraphQL operation counted and timed for the metrics (`app.metrics`), by a bounded name.

    schema = strawberry.Schema(query=Query, extensions=[OperationMetrics, MaskUnexpectedErrors, ...])

Listed first, its `on_operation` ends last, so the outcome is read from the errors as the client
gets them (crashes already masked to their code). It has no `resolve` hook: field middleware would
turn off the executor's shortcuts (`schema.fast_execution`), which run inside the operation and so
are counted like any other. Queries and mutations over a WebSocket are operations too.

The operation's name is the one its document gives (never the request's `operationName` text as
sent), admitted first come up to METRICS_MAX_OPERATION_NAMES and 64 characters
(`app.metrics.labels.FirstCome`); unnamed operations read `anonymous`. The outcome is `ok`, the
first error's `ErrorCode`, or `cancelled` for a query or mutation whose client went away. A
subscription is counted when it ends and not timed (it lasts as long as its client wants); the
open ones and the events they send are counted by `schema.subscription_metrics`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from graphql import GraphQLError, OperationDefinitionNode, get_operation_ast
from strawberry.extensions import SchemaExtension
from strawberry.types import ExecutionContext

from app.metrics.catalogue import GRAPHQL_DURATION, GRAPHQL_OPERATIONS
from app.metrics.labels import bounded
from schema.context import Context
from schema.errors import ErrorCode, code_of

ANONYMOUS = "anonymous"
#: An operation whose document was never parsed (no query, a syntax error) has no type.
UNKNOWN_TYPE = "unknown"
SUBSCRIPTION = "subscription"
ERROR_CODES = frozenset(code.name for code in ErrorCode)


class OperationMetrics(SchemaExtension):
    """Counts each operation by name, type and outcome, and times queries and mutations."""

    def on_operation(self) -> Iterator[None]:
        started = time.perf_counter()
        failure: BaseException | None = None
        try:
            yield
        except BaseException as exc:  # a refused request, or the client gone: counted, then raised
            failure = exc
            raise
        finally:
            self._record(time.perf_counter() - started, failure)

    def _record(self, seconds: float, failure: BaseException | None) -> None:
        execution = self.execution_context
        context = execution.context
        if not isinstance(context, Context) or not context.services.settings.metrics_enabled:
            return
        operation = parsed_operation(execution)
        kind = operation.operation.value if operation is not None else UNKNOWN_TYPE
        name = ANONYMOUS
        if operation is not None and operation.name is not None:
            limit = context.services.settings.metrics_max_operation_names
            name = context.services.operation_names.label(operation.name.value, limit)
        GRAPHQL_OPERATIONS.labels(name, kind, _outcome(execution, kind, failure)).inc()
        if kind != SUBSCRIPTION:
            GRAPHQL_DURATION.labels(name, kind).observe(seconds)


def parsed_operation(execution: ExecutionContext) -> OperationDefinitionNode | None:
    """The operation the document selects, once it is parsed."""
    document = execution.graphql_document
    if document is None:
        return None
    return get_operation_ast(document, execution.operation_name)


def _outcome(execution: ExecutionContext, kind: str, failure: BaseException | None) -> str:
    result = execution.result
    errors = getattr(result, "errors", None) or execution.pre_execution_errors
    if errors:
        return _code(errors[0])
    if failure is None or kind == SUBSCRIPTION:  # a subscription ends when its client stops it
        return "ok"
    if isinstance(failure, Exception):  # Strawberry's refusals (no query, a mutation over GET): a 400
        return ErrorCode.BAD_REQUEST.name
    return "cancelled"


def _code(error: GraphQLError) -> str:
    code = code_of(error)
    return bounded(code, ERROR_CODES) if code is not None else ErrorCode.INTERNAL_SERVER_ERROR.name
