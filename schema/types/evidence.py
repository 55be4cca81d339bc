"""The evidence library's types and the `evidenceDocuments` query."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import date, datetime
from typing import Annotated

import strawberry
from sqlalchemy import func, select
from strawberry import relay

from app.db.models import EvidenceDocument as EvidenceDocumentModel
from schema.context import Context
from schema.types.nodes import nodes_in_order
from schema.types.pagination import check_first, newest_first_cursor, newest_first_page, page_info


@strawberry.type(
    description="A document in the evidence library (a news article, NGO report, regulator notice...) that "
    "the specialist agents search alongside the web."
)
class EvidenceDocument(relay.Node):
    id: relay.NodeID[str]
    title: str = strawberry.field(description="The document's title (given, or taken from the document).")
    source_url: str | None = strawberry.field(description="Where the document was published, if known.")
    source_domain: str | None = strawberry.field(
        description="The source URL's host, lower case, without `www.` (e.g. `reuters.com`)."
    )
    published_date: date | None = strawberry.field(description="When the document was published, if known.")
    media_type: str = strawberry.field(
        description="How the document was read: `application/pdf`, `text/html`, `text/plain` or "
        "`text/markdown`."
    )
    filename: str | None = strawberry.field(description="The file's name, for documents added as files.")
    char_count: int = strawberry.field(description="Characters of text extracted from the document.")
    chunk_count: int = strawberry.field(description="Searchable passages the text was split into.")
    created_at: datetime = strawberry.field(description="When the document was added.")

    @classmethod
    def from_model(cls, row: EvidenceDocumentModel) -> EvidenceDocument:
        return cls(
            id=str(row.id),
            title=row.title,
            source_url=row.source_url,
            source_domain=row.source_domain,
            published_date=row.published_date,
            media_type=row.media_type,
            filename=row.filename,
            char_count=row.char_count,
            chunk_count=row.chunk_count,
            created_at=row.created_at,
        )

    @classmethod
    async def resolve_nodes(  # type: ignore[override]
        cls, *, info: strawberry.Info[Context], node_ids: Iterable[str], required: bool = False
    ) -> list[EvidenceDocument | None]:
        return await nodes_in_order(
            info,
            node_ids,
            "EvidenceDocument",
            lambda ids: select(EvidenceDocumentModel).where(
                EvidenceDocumentModel.id.in_(ids),
                EvidenceDocumentModel.organisation_id == info.context.organisation_id,
            ),
            cls.from_model,
        )

    @strawberry.field(description="The document's full extracted text (the passages' offsets point into it).")
    async def text(self, info: strawberry.Info[Context]) -> str:
        async with info.context.read_sessions() as session:
            text = await session.scalar(
                select(EvidenceDocumentModel.text).where(
                    EvidenceDocumentModel.id == uuid.UUID(self.id),
                    EvidenceDocumentModel.organisation_id == info.context.organisation_id,
                )
            )
        return text or ""


#: The scope `evidenceDocuments` cursors carry (`schema.types.pagination`): they page no other list.
EVIDENCE_LIST = "evidenceDocuments"


@strawberry.type(description="One evidence document in a list, with the cursor to continue after it.")
class EvidenceDocumentEdge:
    cursor: str = strawberry.field(description="Pass as `after` to list the documents after this one.")
    node: EvidenceDocument = strawberry.field(description="The document.")


@strawberry.type(description="A page of evidence documents, newest first.")
class EvidenceDocumentConnection:
    edges: list[EvidenceDocumentEdge] = strawberry.field(description="The documents on this page.")
    page_info: relay.PageInfo = strawberry.field(description="Whether more pages exist, and their cursors.")
    total_count: int = strawberry.field(description="How many documents your library holds.")


@strawberry.type
class EvidenceQuery:
    @strawberry.field(description="Your organisation's evidence library, newest first.")
    async def evidence_documents(
        self,
        info: strawberry.Info[Context],
        first: Annotated[int, strawberry.argument(description="How many documents (at most 100).")] = 20,
        after: Annotated[
            str | None, strawberry.argument(description="A cursor from a previous page.")
        ] = None,
    ) -> EvidenceDocumentConnection:
        check_first(first)
        mine = EvidenceDocumentModel.organisation_id == info.context.organisation_id
        query = newest_first_page(
            select(EvidenceDocumentModel).where(mine),
            EvidenceDocumentModel.created_at,
            EvidenceDocumentModel.id,
            after,
            first,
            EVIDENCE_LIST,
        )
        async with info.context.read_sessions() as session:
            rows = list(await session.scalars(query))
            total = (
                await session.scalar(select(func.count()).select_from(EvidenceDocumentModel).where(mine)) or 0
            )
        edges = [
            EvidenceDocumentEdge(
                cursor=newest_first_cursor(EVIDENCE_LIST, row.created_at, row.id),
                node=EvidenceDocument.from_model(row),
            )
            for row in rows[:first]
        ]
        paging = page_info([edge.cursor for edge in edges], len(rows) > first, after)
        return EvidenceDocumentConnection(edges=edges, page_info=paging, total_count=total)
