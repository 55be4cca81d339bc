"""The names of the fields a resolver's selection asks for, read from the query's syntax tree.

`Report.claims` prefetches a page's verdicts and findings only when the query selects them.
Strawberry's `info.selected_fields` would answer that, but it converts the whole selection below
the field into its own objects, arguments and directives included, on every request (about half
a millisecond for the partner dashboard's page of claims). The names are all that is needed, and
the parsed document (cached per distinct query) already holds them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from graphql import FieldNode, FragmentDefinitionNode, FragmentSpreadNode, InlineFragmentNode, SelectionNode


def selected_names(info: Any) -> set[str]:
    """Names of the resolver's field and of every field selected anywhere below it (through
    fragments too): the field names Strawberry's `info.selected_fields` holds, without building it."""
    raw = info._raw_info
    names: set[str] = set()
    for node in raw.field_nodes:
        names.add(node.name.value)
        if node.selection_set is not None:
            _collect(node.selection_set.selections, raw.fragments, names, set())
    return names


def _collect(
    selections: Iterable[SelectionNode],
    fragments: Mapping[str, FragmentDefinitionNode],
    names: set[str],
    seen: set[str],
) -> None:
    for selection in selections:
        if isinstance(selection, FieldNode):
            names.add(selection.name.value)
            nested = selection.selection_set
        elif isinstance(selection, InlineFragmentNode):
            nested = selection.selection_set
        elif isinstance(selection, FragmentSpreadNode):
            name = selection.name.value
            fragment = fragments.get(name)
            if fragment is None or name in seen:  # validation refuses cycles; stay safe anyway
                continue
            seen.add(name)
            nested = fragment.selection_set
        else:
            continue
        if nested is not None:
            _collect(nested.selections, fragments, names, seen)
