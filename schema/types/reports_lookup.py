"""Loading the report rows a caller may see: only those of the caller's organisation."""

from __future__ import annotations

import uuid

import strawberry
from sqlalchemy import select

from app.db.models import Report as ReportModel
from schema.context import Context
from schema.errors import ErrorCode, client_error
from schema.transport.request_reads import ReadSessions
from schema.types.ids import argument_node_id, parse_node_id


async def load_report(
    session_factory: ReadSessions, report_id: uuid.UUID, organisation_id: uuid.UUID
) -> ReportModel | None:
    """The report if it exists in `organisation_id`; another organisation's report is not found."""
    async with session_factory() as session:
        return await session.scalar(
            select(ReportModel).where(
                ReportModel.id == report_id, ReportModel.organisation_id == organisation_id
            )
        )


async def find_report(info: strawberry.Info[Context], report_id: str) -> ReportModel | None:
    """The report a client names by global id or UUID, if it exists and the caller may see it.

    For mutations and `askReport`, whose typed error results say "not found" for any id that names
    no visible report, malformed or not.
    """
    report_uuid = parse_node_id(report_id, "Report")
    if report_uuid is None:
        return None
    return await load_report(info.context.read_sessions, report_uuid, info.context.organisation_id)


async def find_report_argument(
    info: strawberry.Info[Context], report_id: str, argument: str
) -> ReportModel | None:
    """Like `find_report`, for queries and subscriptions: a malformed id is the INVALID_ID error on
    `argument` (as `node(id:)` answers), so only a well-formed id of no visible report gives None."""
    report_uuid = argument_node_id(report_id, "Report", argument)
    if report_uuid is None:
        return None
    return await load_report(info.context.read_sessions, report_uuid, info.context.organisation_id)


async def followed_report(info: strawberry.Info[Context], report_id: str) -> ReportModel:
    """The report a subscription's `reportId` names. A subscription has no result type to say "not
    found" in, so a well-formed id of no visible report is the NOT_FOUND error on `reportId`."""
    report = await find_report_argument(info, report_id, "reportId")
    if report is None:
        raise client_error(ErrorCode.NOT_FOUND, f"No report with id {report_id!r}.", argument="reportId")
    return report
