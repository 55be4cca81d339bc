"""A shortcut through graphql-core's executor for plain attribute leaves.

Most fields of a large response are scalars or enums read straight off a Strawberry object (a
claim's `text`, a finding's `confidence`): a page of 200 claims with verdicts and findings holds
about 3,800 fields, over 3,000 of them such leaves. For each one graphql-core builds a resolve-info
object, calls Strawberry's default resolver, then walks `complete_value`'s type checks; that was
about a third of the request's CPU (`bench.partner_api`). A "plain leaf" here is a field without
arguments whose resolver is Strawberry's default attribute read and whose type is a scalar or an
enum (nullable or not): it is read with `getattr` and coerced by its type directly.

Anything unusual (an exception, a null for a non-null field, a coercion that fails) goes the
normal way, which raises and reports exactly what graphql-core would: the shortcut only ever
returns what the normal path returns. Relay `id` fields are read the same way
(`schema.fast_execution.relay_ids`), and the commonest leaf values skip their type's coercion
(`schema.fast_execution.leaf_coercion`). Other fields run with what is the same for every object
of a list worked out once (`schema.fast_execution.field_plans`); objects and lists of them complete
in `schema.fast_execution.object_completion`. Field middleware (a schema extension with a
`resolve` hook) turns these shortcuts off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphql import (
    GraphQLField,
    GraphQLLeafType,
    GraphQLNonNull,
    GraphQLObjectType,
    Undefined,
    is_leaf_type,
)
from graphql.execution.middleware import MiddlewareManager
from graphql.pyutils import Path
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from schema.fast_execution.field_plans import (
    PLAIN_RESULTS,
    FieldPlan,
    attribute_field,
    execute_planned,
    field_plan,
    gathered,
)
from schema.fast_execution.leaf_coercion import INT_RANGE, fast_forms
from schema.fast_execution.relay_ids import relay_id_reader

#: What a plain leaf needs: its attribute getter and name, its leaf type, whether it is non-null,
#: and its coercion shortcuts (`schema.fast_execution.leaf_coercion`).
LeafPlan = tuple[
    Callable[[Any, str], Any], str, GraphQLLeafType, bool, type | None, dict[int, str] | None, type | None
]

#: A field of a field set: response name, field group, leaf plan, field plan (or Nones).
Planned = tuple[str, Any, "LeafPlan | None", "FieldPlan | None"]

#: Per GraphQL field (by identity, keeping the field alive): its plan, or None when it is not plain.
_PLANS: dict[int, tuple[GraphQLField, LeafPlan | None]] = {}


def leaf_plan(field_def: GraphQLField) -> LeafPlan | None:
    """How to read `field_def` directly, or None if it must go through its resolver."""
    known = _PLANS.get(id(field_def))
    if known is not None and known[0] is field_def:
        return known[1]
    plan = _plan(field_def)
    _PLANS[id(field_def)] = (field_def, plan)
    return plan


def _plan(field_def: GraphQLField) -> LeafPlan | None:
    strawberry_field = attribute_field(field_def)
    if strawberry_field is None:
        return None
    field_type = field_def.type
    non_null = isinstance(field_type, GraphQLNonNull)
    leaf = field_type.of_type if isinstance(field_type, GraphQLNonNull) else field_type
    if not is_leaf_type(leaf):
        return None
    return (
        strawberry_field.default_resolver,
        strawberry_field.python_name,
        leaf,
        non_null,
        *fast_forms(leaf),
    )


class LeafShortcutExecutionContext(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's execution context, reading plain leaves without the per-field machinery.

    graphql-core hands every object of a list the same grouped field set (it memoises them), so
    each set's plans are worked out once per operation and reused for all 200 claims of a page.
    """

    _leaf_plans: dict[int, tuple[object, list[Planned]]] | None = None

    def execute_fields(
        self,
        parent_type: GraphQLObjectType,
        source_value: Any,
        path: Path | None,
        grouped_field_set: Any,
        position_context: Any,
    ) -> Any:
        if field_middleware(self.middleware_manager):
            return super().execute_fields(
                parent_type, source_value, path, grouped_field_set, position_context
            )
        return self.execute_planned_fields(
            parent_type,
            source_value,
            path,
            self.field_plans(parent_type, grouped_field_set),
            position_context,
        )

    def execute_planned_fields(
        self,
        parent_type: GraphQLObjectType,
        source_value: Any,
        path: Path | None,
        plans: list[Planned],
        position_context: Any,
    ) -> Any:
        """`execute_fields` for a field set's plans (`field_plans`; no field middleware in play):
        a list of objects looks its plans up once, not once per object."""
        results: dict[str, Any] = {}
        awaitable_fields: list[str] | None = None  # made when needed: most objects have none
        try:
            for response_name, field_details_list, plan, planned in plans:
                if plan is not None:  # a plain leaf; the commonest values are checked inline
                    try:
                        value = plan[0](source_value, plan[1])
                    except Exception:  # the normal path raises it again, with the field's location
                        value = Undefined
                    else:
                        value_type = type(value)
                        if value_type is plan[4]:
                            pass  # its exact type
                        elif value_type is plan[6] and (
                            value - value == 0.0  # a finite float
                            if value_type is float
                            else INT_RANGE[0] <= value <= INT_RANGE[1]
                        ):
                            pass
                        elif plan[5] is not None and (known := plan[5].get(id(value))) is not None:
                            value = known  # an enum member's name
                        else:
                            value = _coerced(plan, value)
                    if value is not Undefined:
                        results[response_name] = value
                        continue
                field_path = Path(path, response_name, parent_type.name)
                if planned is not None:
                    result = execute_planned(
                        self,
                        planned,
                        parent_type,
                        source_value,
                        field_details_list,
                        field_path,
                        position_context,
                    )
                else:
                    result = self.execute_field(
                        parent_type, source_value, field_details_list, field_path, position_context
                    )
                if result is not Undefined:
                    results[response_name] = result
                    if type(result) not in PLAIN_RESULTS and self.is_awaitable(result):
                        if awaitable_fields is None:
                            awaitable_fields = []
                        awaitable_fields.append(response_name)
        except Exception:
            if awaitable_fields:  # as graphql-core: let the fields already started settle
                self.settle_in_background([results[field] for field in awaitable_fields])
            raise
        if awaitable_fields is None:
            return results
        return gathered(results, awaitable_fields)

    def field_plans(self, parent_type: GraphQLObjectType, grouped_field_set: Any) -> list[Planned]:
        """(response name, field group, leaf plan, field plan) for each field of the set: a leaf
        plan for plain leaves, a field plan (`schema.fast_execution.field_plans`) for others that can
        have one."""
        cache = self._leaf_plans
        if cache is None:
            cache = self._leaf_plans = {}
        known = cache.get(id(grouped_field_set))
        if known is not None and known[0] is grouped_field_set:
            return known[1]
        plans = []
        for response_name, field_details_list in grouped_field_set.items():
            node = field_details_list[0].node
            field_def = self.schema.get_field(parent_type, node.name.value)
            plan = None
            if field_def is not None and not node.arguments:
                plan = leaf_plan(field_def) or _relay_id_plan(parent_type, field_def)
            planned = field_plan(self, parent_type, field_details_list) if plan is None else None
            plans.append((response_name, field_details_list, plan, planned))
        cache[id(grouped_field_set)] = (grouped_field_set, plans)  # kept alive: its id stays unique
        return plans


def _relay_id_plan(parent_type: GraphQLObjectType, field_def: GraphQLField) -> LeafPlan | None:
    """A Relay `id` field read as a leaf (`schema.fast_execution.relay_ids`), the type name as its
    "attribute"."""
    read = relay_id_reader(parent_type, field_def)
    if read is None:
        return None
    field_type = field_def.type
    leaf = field_type.of_type if isinstance(field_type, GraphQLNonNull) else field_type
    if not is_leaf_type(leaf):
        return None
    return read, parent_type.name, leaf, isinstance(field_type, GraphQLNonNull), *fast_forms(leaf)


def field_middleware(manager: MiddlewareManager | None) -> bool:
    """Whether field middleware (a schema extension's `resolve` hook) wraps every resolver."""
    return manager is not None and bool(manager.middlewares)


def _coerced(plan: LeafPlan, value: Any) -> Any:
    """The completed value of a plain leaf that read `value` (not of its exact type), or Undefined
    to take the normal path."""
    _, _, leaf, non_null, _, names, numeric = plan
    try:
        value_type = type(value)
        if value_type is numeric:
            if value_type is float:
                if value - value == 0.0:  # finite (infinities and NaN give NaN)
                    return value
            elif INT_RANGE[0] <= value <= INT_RANGE[1]:
                return value
        if names is not None:
            known = names.get(id(value))
            if known is not None:
                return known
        if value is None:
            return Undefined if non_null else None
        if isinstance(value, Exception):
            return Undefined
        coerced = leaf.coerce_output_value(value)
    except Exception:  # the normal path raises it again, with the field's location
        return Undefined
    return Undefined if coerced is None else coerced
