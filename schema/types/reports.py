"""Report types and the `report` / `reports` queries."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Annotated

import strawberry
from sqlalchemy import Select, func, select
from strawberry import relay

from app.db.models import Finding as FindingModel
from app.db.models import Report as ReportModel
from app.db.models import ReportPage
from app.db.models import ReportStatus as ReportStatusModel
from app.db.models import RoutingAssignment as RoutingModel
from app.db.models import Verdict as VerdictModel
from app.fair_queue import queue_position
from schema.context import Context
from schema.transport.page_images import page_image_url
from schema.types.analysis import Analysis, AnalysisStatus
from schema.types.analysis_runs import MAX_ANALYSES, report_runs
from schema.types.claim_enums import ClaimOrder, ClaimType, Priority, VerdictLabel, specialist_argument
from schema.types.claims import Finding, RoutingAssignment, Verdict
from schema.types.claims_page import MAX_CLAIMS_PAGE, ClaimConnection, claims_page
from schema.types.enum_values import describe_values
from schema.types.events import (
    MAX_EVENTS_PAGE,
    AfterId,
    AfterSequence,
    StreamEvent,
    list_events,
    resume_after,
)
from schema.types.nodes import nodes_in_order
from schema.types.pagination import check_first, newest_first_cursor, newest_first_page, page_info
from schema.types.registry_matches import RegistryMatch, registry_matches
from schema.types.report_export import ExportFormat, export_report
from schema.types.report_lists import MAX_REPORT_LIST, current_verdicts, latest_run_rows
from schema.types.reports_lookup import find_report_argument

describe_values(
    UPLOADED="Stored; its parsing is queued.",
    PARSING="A worker is reading its pages.",
    PARSED="Its pages are read and searchable; it can be analysed (`startAnalysis`).",
    ANALYZING="An analysis is running: follow it with `analysisEvents` or `verdictIssued`.",
    COMPLETED="Its latest analysis finished; claims, findings and final verdicts are complete.",
    ERROR="Parsing or the latest analysis failed; `errorMessage` says why (`resumeAnalysis` continues a "
    "failed analysis).",
    CANCELLED="Its latest analysis was cancelled (`cancelAnalysis`); what it stored so far stays readable, "
    "`resumeAnalysis` continues it and `startAnalysis` starts afresh.",
)(
    strawberry.enum(
        ReportStatusModel,
        name="ReportStatus",
        description="UPLOADED → PARSING → PARSED → ANALYZING → COMPLETED, or ERROR (see `errorMessage`), "
        "or CANCELLED.",
    )
)


@strawberry.type(description="The text of one page of a parsed report.")
class Page:
    number: int = strawberry.field(description="1-based page number, as in the PDF.")
    text: str = strawberry.field(description="The page's text as extracted by PyMuPDF.")
    report_id: strawberry.Private[str]

    @strawberry.field(
        description="Path (from the API root) of the page rendered as PNG: GET it with the same "
        "`Authorization` header as /graphql. Add `?highlight=<claim id>` to mark a claim on the page "
        "and `scale=` (0.25-4, default 1.5) for the size."
    )
    def image_url(self) -> str:
        return page_image_url(relay.to_base64("Report", self.report_id), self.number)


@strawberry.type(description="An uploaded sustainability report and everything Sibyl knows about it.")
class Report(relay.Node):
    id: relay.NodeID[str]
    filename: str = strawberry.field(description="The uploaded file's name.")
    company_name: str | None = strawberry.field(description="The reporting company, if given.")
    isin: str | None = strawberry.field(description="The company's ISIN, if given on upload.")
    lei: str | None = strawberry.field(description="The company's LEI, if given on upload.")
    status: ReportStatusModel = strawberry.field(description="Where the report is in its life.")
    error_message: str | None = strawberry.field(
        description="Why the report is in ERROR, in plain words; null otherwise."
    )
    page_count: int | None = strawberry.field(description="Number of pages in the PDF.")
    size_bytes: int = strawberry.field(description="Size of the uploaded file in bytes.")
    sha256: str = strawberry.field(
        description="SHA-256 of the uploaded bytes (hex); identical uploads share it."
    )
    created_at: datetime = strawberry.field(description="When the report was uploaded.")
    parsed_at: datetime | None = strawberry.field(description="When parsing finished, if it has.")

    @classmethod
    def from_model(cls, row: ReportModel) -> Report:
        return cls(
            id=str(row.id),
            filename=row.filename,
            company_name=row.company_name,
            isin=row.isin,
            lei=row.lei,
            status=row.status,
            error_message=row.error_message,
            page_count=row.page_count,
            size_bytes=row.size_bytes,
            sha256=row.sha256,
            created_at=row.created_at,
            parsed_at=row.parsed_at,
        )

    @property
    def uuid(self) -> uuid.UUID:
        return uuid.UUID(self.id)

    @classmethod
    async def resolve_nodes(  # type: ignore[override]
        cls, *, info: strawberry.Info[Context], node_ids: Iterable[str], required: bool = False
    ) -> list[Report | None]:
        return await nodes_in_order(
            info,
            node_ids,
            "Report",
            lambda ids: select(ReportModel).where(
                ReportModel.id.in_(ids), ReportModel.organisation_id == info.context.organisation_id
            ),
            cls.from_model,
        )

    @strawberry.field(description="Parsed pages in order, `first` at a time after page number `after`.")
    async def pages(
        self,
        info: strawberry.Info[Context],
        first: Annotated[int, strawberry.argument(description="How many pages (at most 100).")] = 20,
        after: Annotated[int, strawberry.argument(description="Start after this page number.")] = 0,
    ) -> list[Page]:
        check_first(first)
        async with info.context.read_sessions() as session:
            rows = await session.execute(
                select(ReportPage.number, ReportPage.text)
                .where(ReportPage.report_id == self.uuid, ReportPage.number > after)
                .order_by(ReportPage.number)
                .limit(first)
            )
            return [Page(number=row.number, text=row.text, report_id=self.id) for row in rows]

    @strawberry.field(
        description="The whole parsed text as markdown, each page after a `<!-- PAGE N -->` marker; "
        "null until PARSED."
    )
    async def markdown(self, info: strawberry.Info[Context]) -> str | None:
        async with info.context.read_sessions() as session:
            return await session.scalar(
                select(ReportModel.parsed_markdown).where(ReportModel.id == self.uuid)
            )

    @strawberry.field(
        description="The public registry entities the company (its name, ISIN and LEI) was matched to "
        "in the latest snapshot of each imported registry, with their basis and confidence. The same "
        "registries serve every organisation; confirmations and rejections belong to this report."
    )
    async def registry_matches(self, info: strawberry.Info[Context]) -> list[RegistryMatch]:
        async with info.context.read_sessions() as session:
            row = await session.get(ReportModel, self.uuid)
            return await registry_matches(session, row) if row is not None else []

    @strawberry.field(
        description="How many parses and analyses (of any organisation) will start before this "
        "report's queued one: 0 means it starts next. Null when none of its jobs waits (it is running, "
        "or nothing is queued). Organisations take turns (ORG_MAX_RUNNING_JOBS running at once each), so "
        "for a job waiting its organisation's turn it is an estimate."
    )
    async def queue_position(self, info: strawberry.Info[Context]) -> int | None:
        return await queue_position(info.context.services.arq, self.uuid)

    @strawberry.field(
        description="The report's latest analysis (live while it runs); null if never analysed."
    )
    async def analysis(self, info: strawberry.Info[Context]) -> Analysis | None:
        run = await info.context.loaders.latest_run.load(self.uuid)
        return Analysis.from_model(run) if run else None

    @strawberry.field(
        description="The report's analysis runs, newest first (the first is `analysis`), optionally only "
        "those in some statuses: when a re-run fails or is cancelled, `analyses(status: [COMPLETED], "
        "first: 1)` is the last completed one, with its `verdicts`."
    )
    async def analyses(
        self,
        info: strawberry.Info[Context],
        first: Annotated[
            int, strawberry.argument(description=f"How many runs (at most {MAX_ANALYSES}).")
        ] = 10,
        status: Annotated[
            list[AnalysisStatus] | None, strawberry.argument(description="Only runs in these statuses.")
        ] = None,
    ) -> list[Analysis]:
        statuses = [item.value for item in status] if status else None
        return [Analysis.from_model(run) for run in await report_runs(info, self.uuid, statuses, first)]

    @strawberry.field(
        description="The report's claims, filtered and ordered, with cursors. Verdict, findings and "
        "routing of each claim come from the latest analysis."
    )
    async def claims(
        self,
        info: strawberry.Info[Context],
        first: Annotated[
            int, strawberry.argument(description=f"How many claims (at most {MAX_CLAIMS_PAGE}).")
        ] = 50,
        after: Annotated[
            str | None, strawberry.argument(description="A cursor from a previous page.")
        ] = None,
        type: Annotated[
            ClaimType | None, strawberry.argument(description="Only claims of this type.")
        ] = None,
        priority: Annotated[Priority | None, strawberry.argument(description="Only this priority.")] = None,
        verdict: Annotated[
            VerdictLabel | None, strawberry.argument(description="Only claims whose current verdict is this.")
        ] = None,
        agent: Annotated[
            str | None,
            strawberry.argument(
                description="Only claims the latest analysis sent to this specialist (geography, legal, "
                "news_media, academic or data_metrics), in any pass."
            ),
        ] = None,
        order_by: Annotated[
            ClaimOrder,
            strawberry.argument(description="PAGE (page order) or PRIORITY (high first, then page)."),
        ] = ClaimOrder.PAGE,
    ) -> ClaimConnection:
        return await claims_page(
            info,
            self.uuid,
            first=first,
            after=after,
            claim_type=type,
            priority=priority,
            verdict=verdict,
            agent=agent,
            order=order_by,
        )

    @strawberry.field(description="The latest analysis's routing: which agent each claim went to, per pass.")
    async def routing_plan(
        self,
        info: strawberry.Info[Context],
        first: Annotated[
            int, strawberry.argument(description=f"How many assignments (at most {MAX_REPORT_LIST}).")
        ] = MAX_REPORT_LIST,
        iteration: Annotated[
            int | None, strawberry.argument(description="Only this pass (0 = first).")
        ] = None,
    ) -> list[RoutingAssignment]:
        check_first(first, MAX_REPORT_LIST)
        rows = await latest_run_rows(info, self.uuid, RoutingModel, iteration=iteration, limit=first)
        return [RoutingAssignment.from_model(row, self.uuid) for row in rows]

    @strawberry.field(description="The latest analysis's findings over all claims, oldest first.")
    async def findings(
        self,
        info: strawberry.Info[Context],
        agent: Annotated[
            str | None,
            strawberry.argument(
                description="Only this agent's: geography, legal, news_media, academic or data_metrics "
                "(another name is an INVALID_ARGUMENT error)."
            ),
        ] = None,
        iteration: Annotated[
            int | None, strawberry.argument(description="Only this pass (0 = first).")
        ] = None,
        first: Annotated[
            int, strawberry.argument(description=f"How many findings (at most {MAX_REPORT_LIST}).")
        ] = 200,
    ) -> list[Finding]:
        check_first(first, MAX_REPORT_LIST)
        rows = await latest_run_rows(
            info,
            self.uuid,
            FindingModel,
            iteration=iteration,
            conditions=[FindingModel.agent == specialist_argument(agent)] if agent is not None else [],
            limit=first,
        )
        return [Finding.from_model(row, self.uuid) for row in rows]

    @strawberry.field(
        description="The latest analysis's verdicts: each claim's current one, or every pass's."
    )
    async def verdicts(
        self,
        info: strawberry.Info[Context],
        final: Annotated[
            bool,
            strawberry.argument(description="true: each claim's current verdict only; false: every pass's."),
        ] = True,
        first: Annotated[
            int,
            strawberry.argument(
                description=f"With `final: false`, how many (at most {MAX_REPORT_LIST}); with `final: "
                "true` every claim's verdict is returned."
            ),
        ] = MAX_REPORT_LIST,
    ) -> list[Verdict]:
        if final:
            rows = await current_verdicts(info, self.uuid)
        else:
            check_first(first, MAX_REPORT_LIST)
            rows = await latest_run_rows(info, self.uuid, VerdictModel, limit=first)
        return [Verdict.from_model(row, self.uuid) for row in rows]

    @strawberry.field(
        description="The report's event log after `afterSequence` (default: from the start), oldest "
        "first. Page on with the last `sequence` you got."
    )
    async def events(
        self,
        info: strawberry.Info[Context],
        after_sequence: AfterSequence = None,
        after_id: AfterId = None,
        first: Annotated[
            int, strawberry.argument(description=f"How many events (at most {MAX_EVENTS_PAGE}).")
        ] = 100,
    ) -> list[StreamEvent]:
        return await list_events(info, self.uuid, resume_after(after_sequence, after_id), first)

    @strawberry.field(
        description="The report's verdicts rendered as one document: byte for byte what `sibyl analyze "
        "--markdown` or `--json` prints for it (claims by page with verdict and confidence, counts per "
        "verdict, the latest run's warnings). When the latest analysis failed or was cancelled, the last "
        "COMPLETED one is rendered instead, after a one-line note saying so (JSON: `note` and "
        "`latestAnalysis`)."
    )
    async def export(
        self,
        info: strawberry.Info[Context],
        format: Annotated[ExportFormat, strawberry.argument(description="MARKDOWN or JSON.")],
    ) -> str:
        return await export_report(info, self.id, format)


@strawberry.type(description="One report in a list, with the cursor to continue after it.")
class ReportEdge:
    cursor: str = strawberry.field(description="Pass as `after` to list the reports after this one.")
    node: Report = strawberry.field(description="The report.")


@strawberry.type(description="A page of reports, newest first.")
class ReportConnection:
    edges: list[ReportEdge] = strawberry.field(description="The reports on this page.")
    page_info: relay.PageInfo = strawberry.field(description="Whether more pages exist, and their cursors.")
    total_count: int = strawberry.field(description="How many reports match the filter in all.")


#: The scope `reports` cursors carry (`schema.types.pagination`): they page no other list.
REPORTS_LIST = "reports"


def _reports_page_query(
    organisation_id: uuid.UUID, status: ReportStatusModel | None, after: str | None, first: int
) -> Select[ReportModel]:
    query = select(ReportModel).where(ReportModel.organisation_id == organisation_id)
    if status is not None:
        query = query.where(ReportModel.status == status)
    return newest_first_page(query, ReportModel.created_at, ReportModel.id, after, first, REPORTS_LIST)


def _edge(row: ReportModel) -> ReportEdge:
    cursor = newest_first_cursor(REPORTS_LIST, row.created_at, row.id)
    return ReportEdge(cursor=cursor, node=Report.from_model(row))


@strawberry.type
class ReportQuery:
    @strawberry.field(
        description="One report by its id (the global `id`, or the bare UUID); null if no report of yours "
        "has it. An id that is neither (or another type's global id) is an INVALID_ID error."
    )
    async def report(
        self,
        info: strawberry.Info[Context],
        id: Annotated[strawberry.ID, strawberry.argument(description="The report's global id or UUID.")],
    ) -> Report | None:
        row = await find_report_argument(info, id, "id")
        return Report.from_model(row) if row else None

    @strawberry.field(description="Reports, newest first, optionally only those in one status.")
    async def reports(
        self,
        info: strawberry.Info[Context],
        first: Annotated[int, strawberry.argument(description="How many reports (at most 100).")] = 20,
        after: Annotated[
            str | None, strawberry.argument(description="A cursor from a previous page.")
        ] = None,
        status: Annotated[
            ReportStatusModel | None, strawberry.argument(description="Only reports in this status.")
        ] = None,
    ) -> ReportConnection:
        check_first(first)
        async with info.context.read_sessions() as session:
            organisation_id = info.context.organisation_id
            rows = list(await session.scalars(_reports_page_query(organisation_id, status, after, first)))
            count_query = (
                select(func.count())
                .select_from(ReportModel)
                .where(ReportModel.organisation_id == organisation_id)
            )
            if status is not None:
                count_query = count_query.where(ReportModel.status == status)
            total = await session.scalar(count_query) or 0
        edges = [_edge(row) for row in rows[:first]]
        paging = page_info([edge.cursor for edge in edges], len(rows) > first, after)
        return ReportConnection(edges=edges, page_info=paging, total_count=total)
