"""Each GraphQL operation a span (`app.tracing`), named by its type and its document's name, and
the parent of whatever the operation starts: the jobs `uploadReport` and `startAnalysis` queue
continue its trace in the worker.

A schema extension, not Strawberry's `OpenTelemetryExtension`: that one wraps every resolver in a
span of its own, which the executor's shortcuts (`schema.fast_execution`) skip, and which would
cost a span per field of a 200-claim page. When tracing is off it does nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from strawberry.extensions import SchemaExtension

from app.tracing import span
from schema.operation_metrics import ANONYMOUS, UNKNOWN_TYPE, parsed_operation

#: Operation names are the client's: traces keep the first characters only.
NAME_CHARS = 64


class OperationTraces(SchemaExtension):
    """A span around each operation, renamed `<type> <name>` once its document is parsed."""

    def on_operation(self) -> Iterator[None]:
        with span("graphql.operation") as current:
            yield
            if current is None:
                return
            operation = parsed_operation(self.execution_context)
            kind = operation.operation.value if operation is not None else UNKNOWN_TYPE
            name = (
                operation.name.value[:NAME_CHARS] if operation is not None and operation.name else ANONYMOUS
            )
            current.update_name(f"{kind} {name}")
            current.set_attribute("graphql.operation.type", kind)
            current.set_attribute("graphql.operation.name", name)
            errors = getattr(self.execution_context.result, "errors", None)
            if errors:
                current.set_attribute("graphql.errors", len(errors))
