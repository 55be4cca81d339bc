"""How many aliases an operation uses.

Aliases let one document ask for the same field many times with different arguments: 20,000
`aN: reports { totalCount }` cost 2 each under the cost model (well within its limit) yet run
20,000 database queries in one request, which held the API for half a minute. Each alias written is
counted, and each time a fragment holding aliases is spread its aliases count again; introspection
fields count like any other.
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
    SelectionSetNode,
)


def operation_aliases(
    operation: OperationDefinitionNode, fragments: Mapping[str, FragmentDefinitionNode]
) -> int:
    """How many aliased fields `operation` resolves (fragments counted once per spread)."""
    return _AliasCounter(fragments).count(operation.selection_set)


@dataclass
class _AliasCounter:
    """Memoises fragments so nested spreads cannot make the walk explode."""

    fragments: Mapping[str, FragmentDefinitionNode]
    _memo: dict[str, int] = field(default_factory=dict)
    _entered: set[str] = field(default_factory=set)

    def count(self, selection_set: SelectionSetNode | None) -> int:
        total = 0
        for node in selection_set.selections if selection_set is not None else ():
            if isinstance(node, FieldNode):
                total += (node.alias is not None) + self.count(node.selection_set)
            elif isinstance(node, InlineFragmentNode):
                total += self.count(node.selection_set)
            elif isinstance(node, FragmentSpreadNode):
                total += self._fragment(node.name.value)
        return total

    def _fragment(self, name: str) -> int:
        if name not in self._memo:
            fragment = self.fragments.get(name)
            if fragment is None or name in self._entered:
                return 0  # unknown fragments and cycles are reported by graphql-core's own rules
            self._entered.add(name)
            self._memo[name] = self.count(fragment.selection_set)
            self._entered.discard(name)
        return self._memo[name]
