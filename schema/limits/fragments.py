"""Walking an operation's selections through its fragments, each fragment worked out once.

The depth and alias limits both fold a value over an operation's selections, entering named
fragments where they are spread. A fragment spread many times (or fragments spreading each other)
could make a naive walk explode, so each fragment's value is memoised, and a cycle or an unknown
fragment counts 0: graphql-core's own rules report those.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from graphql import FragmentDefinitionNode, SelectionSetNode


@dataclass
class FragmentValues:
    """Each named fragment's value under `of_selection_set`, computed on first use."""

    fragments: Mapping[str, FragmentDefinitionNode]
    of_selection_set: Callable[[SelectionSetNode], int]
    _memo: dict[str, int] = field(default_factory=dict)
    _entered: set[str] = field(default_factory=set)

    def value(self, name: str) -> int:
        if name not in self._memo:
            fragment = self.fragments.get(name)
            if fragment is None or name in self._entered:
                return 0  # unknown fragments and cycles are reported by graphql-core's own rules
            self._entered.add(name)
            self._memo[name] = self.of_selection_set(fragment.selection_set)
            self._entered.discard(name)
        return self._memo[name]
