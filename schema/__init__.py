"""The GraphQL schema: joins the per-area query, mutation and subscription types."""

from __future__ import annotations

import strawberry
from strawberry import relay
from strawberry.tools import merge_types

from schema.errors import ErrorCode, MaskUnexpectedErrors, SibylSchema
from schema.events import EventSubscription
from schema.evidence import EvidenceQuery
from schema.execution import PerEventMemoExecutionContext
from schema.limits import RequestLimits
from schema.mutations.analysis_resume import ResumeAnalysisMutation
from schema.mutations.analysis_start import StartAnalysisMutation
from schema.mutations.evidence_add import AddEvidenceDocumentMutation
from schema.mutations.evidence_delete import DeleteEvidenceDocumentMutation
from schema.mutations.report_upload import UploadReportMutation
from schema.questions import QuestionQuery
from schema.reports import ReportQuery
from schema.verdict_stream import VerdictSubscription
from schema.ws_guard import WebSocketOperationGuard


@strawberry.type
class NodeQuery:
    node: relay.Node | None = relay.node(
        description="Any object of yours by its global id; null if there is none (or it is another "
        "organisation's)."
    )


Query = merge_types("Query", (ReportQuery, EvidenceQuery, QuestionQuery, NodeQuery))
Mutation = merge_types(
    "Mutation",
    (
        UploadReportMutation,
        StartAnalysisMutation,
        ResumeAnalysisMutation,
        AddEvidenceDocumentMutation,
        DeleteEvidenceDocumentMutation,
    ),
)
Subscription = merge_types("Subscription", (EventSubscription, VerdictSubscription))


#: Unexpected exceptions reach clients as a generic message (and the server log in full); every
#: error carries an `ErrorCode` (listed in the schema, so GraphiQL documents them).
schema = SibylSchema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    types=[ErrorCode],
    extensions=[MaskUnexpectedErrors, RequestLimits, WebSocketOperationGuard],
    execution_context_class=PerEventMemoExecutionContext,
)
