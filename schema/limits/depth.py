"""How deeply an operation nests its selections.

Counted like Strawberry's `QueryDepthLimiter` (so the `max_query_depth` setting means the same):
top-level fields are at depth 0, each nested selection adds 1, fragments add nothing of their own
and introspection fields (`__schema`, ...) are not counted (graphql-core's
`MaxIntrospectionDepthRule` bounds those).
"""

from __future__ import annotations

from collections.abc import Mapping

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionNode,
    SelectionSetNode,
)

from schema.limits.fragments import FragmentValues


def operation_depth(
    operation: OperationDefinitionNode, fragments: Mapping[str, FragmentDefinitionNode]
) -> int:
    """The depth of the deepest field of `operation`."""
    return _DepthWalker(fragments).selection_set_depth(operation.selection_set)


class _DepthWalker:
    """Depth of selections; fragments are memoised (`FragmentValues`)."""

    def __init__(self, fragments: Mapping[str, FragmentDefinitionNode]) -> None:
        self._fragments = FragmentValues(fragments, self.selection_set_depth)

    def selection_set_depth(self, selection_set: SelectionSetNode) -> int:
        return max((self._selection_depth(node) for node in selection_set.selections), default=0)

    def _selection_depth(self, node: SelectionNode) -> int:
        if isinstance(node, FieldNode):
            if node.selection_set is None or node.name.value.startswith("__"):
                return 0
            return 1 + self.selection_set_depth(node.selection_set)
        if isinstance(node, InlineFragmentNode):
            return self.selection_set_depth(node.selection_set)
        if isinstance(node, FragmentSpreadNode):
            return self._fragments.value(node.name.value)
        return 0
