"""What a GraphQL operation costs, computed from the document before anything executes.

The model is deliberately simple, so clients can predict it:

* every field costs 1;
* a field returning a list multiplies the cost of its sub-selection by its page size: its `first`
  argument (a literal or a variable), else that argument's default in the schema, else
  `DEFAULT_LIST_SIZE` (for lists without paging, such as `findings`);
* a field with a `first` argument that returns an object (a connection) hands its page size to its
  list-typed `edges` / `nodes` children, so `claims(first: 200) { edges { node { ... } } }`
  multiplies by 200 once, at `edges`;
* fragments (named and inline) cost what their selections cost; selections on abstract types are
  summed over every type condition, and duplicate fields are counted each time they are written
  (both overestimate a little, never underestimate);
* introspection fields (`__schema`, `__type`, `__typename`) are free: they are served from the
  in-memory schema, and graphql-core's `MaxIntrospectionDepthRule` (one of the rules Strawberry
  always runs) bounds their nesting.

Lists of scalars with no sub-selection cost 1, like any leaf.

The limit (`Settings.max_query_cost`, 100,000) and the list sizes below are set from the queries
clients actually send, measured with `query_cost` on this schema (`tests/schema/test_limits.py`
recomputes every figure here and fails when one drifts):

* the Python client's documents (`clients/sibyl/documents.py`) at their largest pages: `Claims`
  with `first: 200` costs 96,607 (each verdict's deciding sources with their side, tier basis,
  method, check text and registry entity, its IFRS mapping, and each claim's risk flags, for the
  exports: the registry's title, date and record keys are the source's title, date and URL, so the
  client selects only the rest of `registry`), `Report`
  320, `ReportEventSequences` with `first: 500` 502, `AskReport` 261, the subscriptions 7 and 11;
* a dashboard's claim-detail page, `DASHBOARD_CLAIM_DETAIL` below: 200 claims (the largest claims
  page) with verdict, IFRS mapping, findings and routing costs 33,407, and 200 x 15 more with the
  verdict's deciding sources (5 fields each). Under the old limit of 50,000 such a page was close
  to refusal as soon as a dashboard added a few fields; 100,000 leaves it about three times the room;
* the limit still bounds a request at about 100,000 resolved fields: three fields of every claim of
  100 reports (`reports(first: 100)` x `claims(first: 200)`) cost 80,302 and pass, while adding
  each claim's findings to that (x 15) costs 660,302 and is refused.

The list sizes are the pipeline's bounds: a claim gets at most one finding per specialist agent
per pass (five agents, up to three passes: 15), a routing assignment per agent and pass, one
verdict per pass; a verdict cites at most the claim's findings (15) and maps a handful of IFRS
paragraphs (5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from graphql import (
    ArgumentNode,
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLField,
    GraphQLInterfaceType,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    NamedTypeNode,
    OperationDefinitionNode,
    SelectionNode,
    SelectionSetNode,
    VariableNode,
    get_named_type,
    get_nullable_type,
    is_list_type,
)

#: Page size assumed for a list field without a `first` argument (or without a default for it).
DEFAULT_LIST_SIZE = 50
#: Unpaged lists whose size is bounded by the pipeline: a claim's findings (five agents over a few
#: passes), its verdicts and routing (one or two per pass), its IFRS paragraphs.
LIST_SIZES: dict[tuple[str, str], int] = {
    ("Claim", "findings"): 15,
    ("Claim", "verdicts"): 5,
    ("Claim", "routing"): 10,
    ("Claim", "ifrsParagraphs"): 5,
    ("Verdict", "ifrsMapping"): 5,
    ("Verdict", "decidingSources"): 15,
    ("Analysis", "agentStatuses"): 5,
}
#: The claim-detail page a partner dashboard loads (the reference for `Settings.max_query_cost`).
DASHBOARD_CLAIM_DETAIL = """
query ClaimDetail($id: ID!, $first: Int) {
  report(id: $id) {
    claims(first: $first) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges {
        node {
          id text claimType priority sourcePage sourceContext
          verdict {
            id verdict confidence reasoning iteration isFinal
            ifrsMapping { paragraphId source status relationship }
          }
          findings { id agent evidenceType evidenceKind summary details }
          routing { agent iteration reasoning method }
        }
      }
    }
  }
}
"""
#: The argument that sets a list's (or a connection's) page size.
PAGE_SIZE_ARGUMENT = "first"
#: Children of a connection that receive the connection's page size.
CONNECTION_LIST_FIELDS = frozenset({"edges", "nodes"})


def query_cost(
    document: DocumentNode,
    schema: GraphQLSchema,
    variables: Mapping[str, Any] | None = None,
    operation_name: str | None = None,
) -> int:
    """The cost of the operation `operation_name` (of the costliest one when no name is given)."""
    fragments = fragment_definitions(document)
    operations = [
        node
        for node in document.definitions
        if isinstance(node, OperationDefinitionNode) and selected(node, operation_name)
    ]
    return max((operation_cost(schema, fragments, node, variables) for node in operations), default=0)


def fragment_definitions(document: DocumentNode) -> dict[str, FragmentDefinitionNode]:
    return {
        node.name.value: node for node in document.definitions if isinstance(node, FragmentDefinitionNode)
    }


def selected(operation: OperationDefinitionNode, operation_name: str | None) -> bool:
    """Whether `operation` is the one to run (every operation is, when no name is given)."""
    return operation_name is None or (operation.name is not None and operation.name.value == operation_name)


def operation_cost(
    schema: GraphQLSchema,
    fragments: Mapping[str, FragmentDefinitionNode],
    operation: OperationDefinitionNode,
    variables: Mapping[str, Any] | None = None,
) -> int:
    """The cost of one operation, with the request's variables (operation defaults fill gaps)."""
    walker = _CostWalker(schema, fragments, _effective_variables(operation, variables or {}))
    root = schema.get_root_type(operation.operation)
    return walker.selection_set_cost(operation.selection_set, root, None)


def _effective_variables(operation: OperationDefinitionNode, given: Mapping[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for definition in operation.variable_definitions or ():
        if isinstance(definition.default_value, IntValueNode):
            values[definition.variable.name.value] = int(definition.default_value.value)
    values.update(given)
    return values


def _as_count(value: object) -> int | None:
    """`value` as a page size, or None when it is not one (other rules report bad values)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return max(value, 0)
    if isinstance(value, float) and value.is_integer():
        return max(int(value), 0)
    return None


@dataclass
class _CostWalker:
    """Walks one operation; memoises fragments so nested spreads cannot make the walk explode."""

    schema: GraphQLSchema
    fragments: Mapping[str, FragmentDefinitionNode]
    variables: Mapping[str, Any]
    _memo: dict[tuple[str, int | None], int] = field(default_factory=dict)
    _entered: set[str] = field(default_factory=set)

    def selection_set_cost(
        self, selection_set: SelectionSetNode, parent: GraphQLNamedType | None, page_size: int | None
    ) -> int:
        """Cost of a selection set; `page_size` is a connection's, for its `edges` / `nodes`."""
        return sum(self._selection_cost(node, parent, page_size) for node in selection_set.selections)

    def _selection_cost(
        self, node: SelectionNode, parent: GraphQLNamedType | None, page_size: int | None
    ) -> int:
        if isinstance(node, FieldNode):
            return self._field_cost(node, parent, page_size)
        if isinstance(node, InlineFragmentNode):
            return self.selection_set_cost(
                node.selection_set, self._condition(node.type_condition, parent), page_size
            )
        if isinstance(node, FragmentSpreadNode):
            return self._fragment_cost(node.name.value, page_size)
        return 0

    def _fragment_cost(self, name: str, page_size: int | None) -> int:
        key = (name, page_size)
        if key not in self._memo:
            fragment = self.fragments.get(name)
            if fragment is None or name in self._entered:
                return 0  # unknown fragments and cycles are reported by graphql-core's own rules
            self._entered.add(name)
            parent = self._condition(fragment.type_condition, None)
            self._memo[key] = self.selection_set_cost(fragment.selection_set, parent, page_size)
            self._entered.discard(name)
        return self._memo[key]

    def _condition(
        self, condition: NamedTypeNode | None, default: GraphQLNamedType | None
    ) -> GraphQLNamedType | None:
        return default if condition is None else self.schema.get_type(condition.name.value)

    def _field_cost(self, node: FieldNode, parent: GraphQLNamedType | None, inherited: int | None) -> int:
        name = node.name.value
        if name.startswith("__"):
            return 0
        definition = _field_definition(parent, name)
        if definition is None or node.selection_set is None:
            return 1
        own = self._page_size(node, definition)
        child = get_named_type(definition.type)
        if not is_list_type(get_nullable_type(definition.type)):
            return 1 + self.selection_set_cost(node.selection_set, child, own)
        if own is None and inherited is not None and name in CONNECTION_LIST_FIELDS:
            own = inherited
        if own is None:
            own = LIST_SIZES.get((getattr(parent, "name", ""), name), DEFAULT_LIST_SIZE)
        return 1 + own * self.selection_set_cost(node.selection_set, child, None)

    def _page_size(self, node: FieldNode, definition: GraphQLField) -> int | None:
        """The field's `first` (given, else its schema default, else the default list size)."""
        argument = definition.args.get(PAGE_SIZE_ARGUMENT)
        if argument is None:
            return None
        given = _argument_value(node.arguments or (), self.variables)
        if given is None:
            given = _as_count(argument.default_value)
        return DEFAULT_LIST_SIZE if given is None else given


def _field_definition(parent: GraphQLNamedType | None, name: str) -> GraphQLField | None:
    if isinstance(parent, GraphQLObjectType | GraphQLInterfaceType):
        fields: dict[str, GraphQLField] = parent.fields
        return fields.get(name)
    return None  # unknown types and fields are reported by graphql-core's own rules


def _argument_value(arguments: Iterable[ArgumentNode], variables: Mapping[str, Any]) -> int | None:
    for argument in arguments:
        if argument.name.value != PAGE_SIZE_ARGUMENT:
            continue
        value = argument.value
        if isinstance(value, VariableNode):
            return _as_count(variables.get(value.name.value))
        if isinstance(value, IntValueNode):
            return _as_count(int(value.value))
    return None
