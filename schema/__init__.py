"""The GraphQL schema: joins the per-area query, mutation and subscription types."""

from __future__ import annotations

import strawberry
from graphql import GraphQLError
from strawberry import relay
from strawberry.extensions import MaskErrors
from strawberry.tools import merge_types

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


def _is_unexpected(error: GraphQLError) -> bool:
    """Mask crashes, not the errors resolvers raise on purpose, nor validation errors."""
    return error.original_error is not None and not isinstance(error.original_error, GraphQLError)


#: Unexpected exceptions reach clients as a generic message (and the server log in full).
schema = strawberry.Schema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    extensions=[lambda: MaskErrors(should_mask_error=_is_unexpected), RequestLimits, WebSocketOperationGuard],
    execution_context_class=PerEventMemoExecutionContext,
)
