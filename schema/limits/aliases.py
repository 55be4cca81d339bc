"""How many aliases an operation uses.

Aliases let one document ask for the same field many times with different arguments: 20,000
`aN: reports { totalCount }` cost 2 each under the cost model (well within its limit) yet run
20,000 database queries in one request, which held the API for half a minute. Each alias written is
counted, and each time a fragment holding aliases is spread its aliases count again; introspection
fields count like any other.
"""

from __future__ import annotations

from collections.abc import Mapping

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
)

from schema.limits.fragments import FragmentValues


def operation_aliases(
    operation: OperationDefinitionNode, fragments: Mapping[str, FragmentDefinitionNode]
) -> int:
    """How many aliased fields `operation` resolves (fragments counted once per spread)."""
    return _AliasCounter(fragments).count(operation.selection_set)


class _AliasCounter:
    """Aliases in selections; fragments are memoised (`FragmentValues`)."""

    def __init__(self, fragments: Mapping[str, FragmentDefinitionNode]) -> None:
        self._fragments = FragmentValues(fragments, self.count)

    def count(self, selection_set: SelectionSetNode | None) -> int:
        total = 0
        for node in selection_set.selections if selection_set is not None else ():
            if isinstance(node, FieldNode):
                total += (node.alias is not None) + self.count(node.selection_set)
            elif isinstance(node, InlineFragmentNode):
                total += self.count(node.selection_set)
            elif isinstance(node, FragmentSpreadNode):
                total += self._fragments.value(node.name.value)
        return total
