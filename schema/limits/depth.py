"""How deeply an operation nests its selections.

Counted like Strawberry's `QueryDepthLimiter` (so the `max_query_depth` setting means the same):
top-level fields are at depth 0, each nested selection adds 1, fragments add nothing of their own
and introspection fields (`__schema`, ...) are not counted (graphql-core's
`MaxIntrospectionDepthRule` bounds those).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionNode,
    SelectionSetNode,
)


def operation_depth(
    operation: OperationDefinitionNode, fragments: Mapping[str, FragmentDefinitionNode]
) -> int:
    """The depth of the deepest field of `operation`."""
    return _DepthWalker(fragments).selection_set_depth(operation.selection_set)


@dataclass
class _DepthWalker:
    """Memoises fragments so nested spreads cannot make the walk explode."""

    fragments: Mapping[str, FragmentDefinitionNode]
    _memo: dict[str, int] = field(default_factory=dict)
    _entered: set[str] = field(default_factory=set)

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
            return self._fragment_depth(node.name.value)
        return 0

    def _fragment_depth(self, name: str) -> int:
        if name not in self._memo:
            fragment = self.fragments.get(name)
            if fragment is None or name in self._entered:
                return 0  # unknown fragments and cycles are reported by graphql-core's own rules
            self._entered.add(name)
            self._memo[name] = self.selection_set_depth(fragment.selection_set)
            self._entered.discard(name)
        return self._memo[name]
