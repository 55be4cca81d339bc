"""Parse and validation caches: a dashboard sends the same few documents over and over.

Both are LRUs keyed by the document text, process-wide, sized by `Settings.document_cache_size`:

* parsing: the parsed `DocumentNode` is reused (graphql-core never mutates it), from Strawberry's
  own `ParserCache`;
* validation is split in two. The rules that depend only on the document (graphql-core's
  specified rules, Strawberry's own and the depth limit) run once per distinct text and rule set,
  and their errors are kept. The cost rule depends on the request's variables, so it is checked on
  every request, on the already parsed document, without a validation pass and mostly from its
  own cache (`schema.limits.cost_cache`).

Strawberry's own `ValidationCache` is not used: it keys on the whole rule tuple, including the
per-request cost rule class, so it would never hit, and it hashes the whole parsed document on
every request. `schema.limits.RequestLimits` drives both caches.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, cast

from graphql import (
    ASTValidationRule,
    DocumentNode,
    GraphQLError,
    GraphQLSchema,
    OperationType,
    get_operation_ast,
    validate,
)
from strawberry.extensions import ParserCache
from strawberry.schema.schema import validate_document
from strawberry.types import ExecutionContext

Rules = tuple[type[ASTValidationRule], ...]


@functools.cache
def _parser(maxsize: int, max_tokens: int) -> Callable[[str], DocumentNode]:
    """Parsing through Strawberry's `ParserCache` (one LRU per size, keyed by the text and the parse
    options), within `max_tokens`. It is asked here rather than placed in the schema's extensions:
    the size and the token limit are the serving app's settings, and a document it cannot parse
    must reach Strawberry's own parse, which reports the error its way (`parse_cached`)."""
    cached_parse = ParserCache(maxsize=maxsize).cached_parse_document

    def parse_text(text: str) -> DocumentNode:
        return cast(DocumentNode, cached_parse(text, max_tokens=max_tokens))

    return parse_text


@functools.cache
def _validator(maxsize: int) -> Any:
    @functools.lru_cache(maxsize=maxsize)
    def validate_text(
        schema: GraphQLSchema, query: str, rules: Rules, carrier: _Unhashed
    ) -> tuple[GraphQLError, ...]:
        return tuple(validate_document(schema, carrier.document, rules))

    return validate_text


class _Unhashed:
    """Carries the parsed document into the cached function without making it part of the key
    (its text already is; hashing a whole AST per request would cost more than the cache saves)."""

    __slots__ = ("document",)

    def __init__(self, document: DocumentNode) -> None:
        self.document = document

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unhashed)


def parse_cached(context: ExecutionContext, maxsize: int, max_tokens: int) -> None:
    """Fill `graphql_document` from the parse cache (Strawberry then skips its own parse).

    Parsing stops after `max_tokens` tokens: a document of 20,000 aliases is refused before it is
    parsed (or validated, or run) at all."""
    if context.graphql_document is None and context.query and not context.parse_options:
        try:
            context.graphql_document = _parser(maxsize, max_tokens)(context.query)
        except GraphQLError:
            # Strawberry parses it again, within the same token limit, and reports the error its way
            context.parse_options = {"max_tokens": max_tokens}


def operation_type(
    query: str | None, operation_name: str | None, maxsize: int, max_tokens: int
) -> OperationType | None:
    """Whether `query` runs a query, mutation or subscription (through the parse cache); None when it
    does not parse or names no single operation (execution then reports why)."""
    if not query:
        return None
    try:
        operation = get_operation_ast(_parser(maxsize, max_tokens)(query), operation_name)
    except GraphQLError:
        return None
    return operation.operation if operation is not None else None


def validate_cached(
    context: ExecutionContext,
    per_request: Callable[[], Rules],
    maxsize: int,
    check: Callable[[GraphQLSchema, DocumentNode, str], list[GraphQLError]] | None = None,
) -> None:
    """Validate with the document-only rules from the cache, then the request's own checks; the
    errors go to `pre_execution_errors` (Strawberry then skips its own validation).

    The request's checks are `check(schema, document, query)` when given (it must return what
    validating with `per_request()` would), else `per_request()`'s rules. A document this cache
    cannot take (not parsed here, or already refused) is left to Strawberry with the rules of
    `per_request()` added."""
    document = context.graphql_document
    if document is None or context.query is None or context.pre_execution_errors is not None:
        context.validation_rules = (*context.validation_rules, *per_request())
        return
    schema = context.schema._schema
    errors = list(
        _validator(maxsize)(schema, context.query, tuple(context.validation_rules), _Unhashed(document))
    )
    if not errors:
        if check is not None:
            errors = check(schema, document, context.query)
        elif rules := per_request():
            errors = validate(schema, document, rules)
    context.pre_execution_errors = errors
