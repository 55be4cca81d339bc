"""Completing objects and lists of objects with fewer steps than graphql-core takes.

A page of 200 claims with verdicts and findings is about a thousand objects. For each one,
graphql-core's `complete_value` runs its null/leaf/list/abstract dispatch, then
`complete_object_value` (the `is_type_of` check), `collect_and_execute_subfields`,
`collect_subfields` (a memo lookup) and `execute_collected_subfields` (the `@defer` check) before
it reaches `execute_fields`; each item of a list also passes through `complete_list_item_value`.
Here a non-null object (and every plain item of a list of objects) goes from the type check
straight to `execute_fields` with the memoised field set, in one loop per list.

Only the ordinary case is shortened: no `@defer` or `@stream` in play, the item neither null nor
an error nor awaitable, and `is_type_of` (when the type has one) answering True. Every other item
goes through graphql-core's own steps, and an exception is reported through its
`handle_field_error` at the same path, so the result (data and errors) is the same.

What an object's completion needs besides the object (its sub-fields' plans, and whether `@defer`
or field middleware rule the shortcut out) is the same for every object completed for one field
group, so it is worked out once per field group and object type (`ObjectPlan`), as graphql-core
memoises `collect_subfields` on the same key. Strawberry's own `is_type_of` accepts an instance
of the type's class that carries no `strawberry.cast`, which is checked here without the call.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from graphql import GraphQLList, GraphQLNonNull, GraphQLObjectType, Undefined
from graphql.pyutils import Path

from schema.fast_execution.field_plans import await_completed, gathered
from schema.fast_execution.leaf_fields import LeafShortcutExecutionContext, Planned, field_middleware
from schema.fast_execution.own_classes import AWAIT, CAST, own_class


class ObjectPlan(NamedTuple):
    """How objects of one type complete for one field group in the ordinary case."""

    plans: list[Planned]
    #: Instances of exactly this class (without a type cast) pass `is_type_of`; None: ask it.
    own_class: type | None


class FastExecutionContext(LeafShortcutExecutionContext):
    """Plain leaves read directly (`schema.fast_execution.leaf_fields`), objects and object lists
    completed here."""

    _object_plans: dict[tuple[int, int], tuple[Any, GraphQLObjectType, ObjectPlan | None]] | None = None
    _unstreamed: dict[int, Any] | None = None

    def object_plan(self, object_type: GraphQLObjectType, field_details_list: Any) -> ObjectPlan | None:
        """The ordinary completion of `object_type` objects for `field_details_list`, or None when
        `@defer` or field middleware rule the shortcut out."""
        cache = self._object_plans
        if cache is None:
            cache = self._object_plans = {}
        key = (id(object_type), id(field_details_list))
        known = cache.get(key)
        if known is not None and known[0] is field_details_list and known[1] is object_type:
            return known[2]
        grouped_field_set, defer_usages, _ = self.collect_subfields(object_type, field_details_list)
        plan = None
        if not defer_usages and not field_middleware(self.middleware_manager):
            plan = ObjectPlan(self.field_plans(object_type, grouped_field_set), own_class(object_type))
        cache[key] = (field_details_list, object_type, plan)  # kept alive: the ids stay unique
        return plan

    def complete_value(
        self,
        return_type: Any,
        field_details_list: Any,
        info: Any,
        path: Path,
        result: Any,
        position_context: Any,
    ) -> Any:
        if result is not None and result is not Undefined and not isinstance(result, Exception):
            unwrapped = return_type.of_type if isinstance(return_type, GraphQLNonNull) else return_type
            if isinstance(unwrapped, GraphQLObjectType):
                return self._complete_object(
                    unwrapped, field_details_list, info, path, result, position_context
                )
            if isinstance(unwrapped, GraphQLList) and type(result) is list:
                item_type = unwrapped.of_type
                object_type = item_type.of_type if isinstance(item_type, GraphQLNonNull) else item_type
                if (
                    isinstance(object_type, GraphQLObjectType)
                    and position_context is None
                    and self._stream_usage(field_details_list, path) is None
                ):
                    return self._complete_objects(
                        item_type, object_type, field_details_list, info, path, result
                    )
                return self.complete_iterable_value(
                    item_type, field_details_list, info, path, result, position_context
                )
        return super().complete_value(return_type, field_details_list, info, path, result, position_context)

    def _stream_usage(self, field_details_list: Any, path: Path) -> Any:
        """`get_stream_usage`, remembering the field groups without `@stream` (graphql-core keeps
        only those with it, and reads the directives again for each of a page's 200 lists)."""
        cache = self._unstreamed
        if cache is None:
            cache = self._unstreamed = {}
        if cache.get(id(field_details_list)) is field_details_list:
            return None
        usage = self.get_stream_usage(field_details_list, path)
        if usage is None and not isinstance(path.key, int):  # (an inner list is never streamed)
            cache[id(field_details_list)] = field_details_list  # kept alive: its id stays unique
        return usage

    def _complete_object(
        self,
        object_type: GraphQLObjectType,
        field_details_list: Any,
        info: Any,
        path: Path,
        result: Any,
        position_context: Any,
    ) -> Any:
        """`complete_object_value`, straight to the sub-fields' plans in the ordinary case."""
        is_type_of = object_type.is_type_of
        if position_context is None and (is_type_of is None or is_type_of(result, info) is True):
            plan = self.object_plan(object_type, field_details_list)
            if plan is not None:
                return self.execute_planned_fields(object_type, result, path, plan.plans, None)
        return self.complete_object_value(
            object_type, field_details_list, info, path, result, position_context
        )

    def _complete_objects(
        self,
        item_type: Any,
        object_type: GraphQLObjectType,
        field_details_list: Any,
        info: Any,
        path: Path,
        items: list[Any],
    ) -> Any:
        """`complete_iterable_value` for a list of objects (no `@stream`, no `@defer` around)."""
        plan = self.object_plan(object_type, field_details_list)
        if plan is None:
            return self.complete_iterable_value(item_type, field_details_list, info, path, items, None)
        plans, own = plan
        is_type_of = object_type.is_type_of
        is_awaitable = self.is_awaitable
        completed: list[Any] = []
        awaitable_indices: list[int] = []
        try:
            for index, item in enumerate(items):
                item_path = path.add_key(index, None)
                if type(item) is own and CAST not in (values := item.__dict__) and AWAIT not in values:
                    try:  # an instance of the type's own class: is_type_of says yes, not awaitable
                        value = self.execute_planned_fields(object_type, item, item_path, plans, None)
                    except Exception as raw_error:
                        self.handle_field_error(raw_error, item_type, field_details_list, item_path)
                        value = None
                else:
                    if item is None or isinstance(item, Exception) or is_awaitable(item):
                        if is_awaitable(item):
                            completed.append(
                                self.complete_awaitable_list_item_value(
                                    item, item_type, field_details_list, info, item_path, None
                                )
                            )
                            awaitable_indices.append(index)
                        elif self.complete_list_item_value(
                            item, completed, item_type, field_details_list, info, item_path, None
                        ):
                            awaitable_indices.append(index)
                        continue
                    try:
                        if is_type_of is None or is_type_of(item, info) is True:
                            value = self.execute_planned_fields(object_type, item, item_path, plans, None)
                        else:  # not the type (or an awaitable check): graphql-core's own completion
                            value = self.complete_object_value(
                                object_type, field_details_list, info, item_path, item, None
                            )
                    except Exception as raw_error:
                        self.handle_field_error(raw_error, item_type, field_details_list, item_path)
                        value = None
                if type(value) is not dict and is_awaitable(value):
                    value = await_completed(self, value, item_type, field_details_list, item_path)
                    awaitable_indices.append(index)
                completed.append(value)
        except Exception:  # as graphql-core: let the items already started settle
            if awaitable_indices:
                self.settle_in_background([completed[index] for index in awaitable_indices])
            raise
        if not awaitable_indices:
            return completed
        return gathered(completed, awaitable_indices)
