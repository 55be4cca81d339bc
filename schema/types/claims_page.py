"""`Report.claims`: a filtered, ordered page of a report's claims (keyset cursors).

A cursor names its order and its report, so it pages only the list it came from: a cursor of
another report's claims, or of another `orderBy`, is refused with INVALID_CURSOR.
"""

from __future__ import annotations

import uuid
from typing import Any

import strawberry
from sqlalchemy import Select, case, exists, func, or_, select, tuple_
from sqlalchemy.orm import aliased
from strawberry import relay

from app.db.models import Claim as ClaimModel
from app.db.models import RoutingAssignment
from app.db.models import Verdict as VerdictModel
from app.db.runs import latest_run_id_of
from schema.context import Context
from schema.fast_execution import selected_names
from schema.types.claim_enums import (
    PRIORITY_RANK,
    ClaimOrder,
    ClaimType,
    Priority,
    VerdictLabel,
    specialist_argument,
)
from schema.types.claims import Claim
from schema.types.pagination import (
    check_first,
    cursor_parts,
    decode_cursor,
    encode_cursor,
    invalid_cursor,
    page_info,
)

MAX_CLAIMS_PAGE = 200

_PRIORITY_RANK = case(PRIORITY_RANK, value=ClaimModel.priority, else_=len(PRIORITY_RANK))


@strawberry.type(description="One claim in a list, with the cursor to continue after it.")
class ClaimEdge:
    # Encoded only when selected: a page's 200 cursors are rarely read, its first and last always.
    cursor: str = strawberry.field(
        resolver=lambda root: _cursor(root.order, root.node, root.page_offset),
        description="Pass as `after` to list the claims after this one.",
    )
    node: Claim = strawberry.field(description="The claim.")
    order: strawberry.Private[ClaimOrder]
    page_offset: strawberry.Private[int]  # where the claim starts on its page: reading order


@strawberry.type(description="A page of a report's claims.")
class ClaimConnection:
    edges: list[ClaimEdge] = strawberry.field(description="The claims on this page.")
    page_info: relay.PageInfo = strawberry.field(description="Whether more pages exist, and their cursors.")
    total_count: int = strawberry.field(description="How many claims match the filters in all.")


def _current_verdict_is(label: VerdictLabel) -> Any:
    """The claim's current verdict in its report's latest run has `label` (see `current_verdict`)."""
    verdict, later = aliased(VerdictModel), aliased(VerdictModel)
    superseded = exists().where(
        later.claim_id == verdict.claim_id,
        later.analysis_run_id == verdict.analysis_run_id,
        or_(later.is_final, later.iteration > verdict.iteration),
        later.id != verdict.id,
    )
    return exists().where(
        verdict.claim_id == ClaimModel.id,
        verdict.analysis_run_id == latest_run_id_of(ClaimModel.report_id),
        verdict.verdict == label.value,
        or_(verdict.is_final, ~superseded),
    )


def _routed_to(agent: str) -> Any:
    """The claim went to `agent` in any pass of its report's latest run."""
    return exists().where(
        RoutingAssignment.claim_id == ClaimModel.id,
        RoutingAssignment.analysis_run_id == latest_run_id_of(ClaimModel.report_id),
        RoutingAssignment.agent == specialist_argument(agent),
    )


def _filtered(
    report_id: uuid.UUID,
    claim_type: ClaimType | None,
    priority: Priority | None,
    verdict: VerdictLabel | None,
    agent: str | None = None,
) -> Select[Any]:
    query = select(ClaimModel).where(ClaimModel.report_id == report_id)
    if claim_type is not None:
        query = query.where(ClaimModel.claim_type == claim_type.value)
    if priority is not None:
        query = query.where(ClaimModel.priority == priority.value)
    if verdict is not None:
        query = query.where(_current_verdict_is(verdict))
    if agent is not None:
        query = query.where(_routed_to(agent))
    return query


def _sort_key(order: ClaimOrder) -> list[Any]:
    """Page, then reading order on the page (ties, e.g. claims stored before offsets, by id)."""
    columns: list[Any] = [ClaimModel.source_page, ClaimModel.page_offset, ClaimModel.id]
    return [_PRIORITY_RANK, *columns] if order is ClaimOrder.PRIORITY else columns


def _cursor(order: ClaimOrder, claim: Claim, page_offset: int) -> str:
    parts = [str(claim.source_page), str(page_offset), claim.id]
    if order is ClaimOrder.PRIORITY:
        parts.insert(0, str(PRIORITY_RANK.get(claim.priority.value, len(PRIORITY_RANK))))
    return encode_cursor(order.value, str(claim.report_uuid), *parts)


def _after(order: ClaimOrder, cursor: str, report_id: uuid.UUID) -> tuple[Any, ...]:
    """The sort key `cursor` names, if it was issued for this report's claims in this order."""
    parts = cursor_parts(cursor)
    if parts[0] != order.value and parts[0] in {known.value for known in ClaimOrder}:
        raise invalid_cursor("`after` comes from a list in another order; use the same `orderBy`.")
    parts = decode_cursor(cursor, 6 if order is ClaimOrder.PRIORITY else 5)
    if parts[1] != str(report_id):
        raise invalid_cursor(
            "`after`: this cursor was issued for another report's claims; use one from this report's list."
        )
    try:
        *numbers, claim_id = parts[2:]
        return (*(int(number) for number in numbers), uuid.UUID(claim_id))
    except ValueError as exc:
        raise invalid_cursor() from exc


async def _prefetch(info: strawberry.Info[Context], claims: list[Claim], ids: list[uuid.UUID]) -> None:
    """Load the page's verdicts and findings (claims with these `ids`) in one batch each, if the
    query selects them."""
    wanted = selected_names(info)
    loaders = info.context.loaders
    if wanted & {"verdict", "verdicts"}:
        for claim, rows in zip(claims, await loaders.verdicts_by_claim.load_many(ids), strict=True):
            claim.prefetched_verdicts = rows
    if "findings" in wanted:
        for claim, rows in zip(claims, await loaders.findings_by_claim.load_many(ids), strict=True):
            claim.prefetched_findings = rows


async def claims_page(
    info: strawberry.Info[Context],
    report_id: uuid.UUID,
    *,
    first: int,
    after: str | None,
    claim_type: ClaimType | None,
    priority: Priority | None,
    verdict: VerdictLabel | None,
    agent: str | None = None,
    order: ClaimOrder,
) -> ClaimConnection:
    """One page of the report's claims matching the filters, in `order`."""
    check_first(first, MAX_CLAIMS_PAGE)
    filtered = _filtered(report_id, claim_type, priority, verdict, agent)
    key = _sort_key(order)
    page = filtered.order_by(*key).limit(first + 1)
    if after:
        page = page.where(tuple_(*key) > tuple_(*_after(order, after, report_id)))
    async with info.context.read_sessions() as session:
        rows = list(await session.scalars(page))
        total = await session.scalar(select(func.count()).select_from(filtered.subquery())) or 0
    edges = [
        ClaimEdge(node=Claim.from_model(row), order=order, page_offset=row.page_offset)
        for row in rows[:first]
    ]
    await _prefetch(info, [edge.node for edge in edges], [row.id for row in rows[:first]])
    cursors = [_cursor(order, edge.node, edge.page_offset) for edge in (edges[0], edges[-1])] if edges else []
    paging = page_info(cursors, len(rows) > first, after)
    return ClaimConnection(edges=edges, page_info=paging, total_count=total)
