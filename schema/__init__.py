"""The GraphQL schema: joins the per-area query, mutation and subscription types."""

from __future__ import annotations

import strawberry

from schema import fast_execution
from schema.errors import ErrorCode, MaskUnexpectedErrors, SibylSchema
from schema.limits import RequestLimits
from schema.mutations.analysis_cancel import CancelAnalysisMutation
from schema.mutations.analysis_resume import ResumeAnalysisMutation
from schema.mutations.analysis_start import StartAnalysisMutation
from schema.mutations.evidence_add import AddEvidenceDocumentMutation
from schema.mutations.evidence_delete import DeleteEvidenceDocumentMutation
from schema.mutations.registry_match_decide import RegistryMatchMutation
from schema.mutations.report_delete import DeleteReportMutation
from schema.mutations.report_upload import UploadReportMutation
from schema.operation_metrics import OperationMetrics
from schema.operation_tracing import OperationTraces
from schema.transport.ws_guard import WebSocketOperationGuard
from schema.types.events import EventSubscription
from schema.types.evidence import EvidenceQuery
from schema.types.nodes import NodeQuery
from schema.types.questions import QuestionQuery
from schema.types.registries import RegistryQuery
from schema.types.reports import ReportQuery
from schema.types.verdict_stream import VerdictSubscription


def _joined(name: str, description: str, types: tuple[type, ...]) -> type:
    """`strawberry.tools.merge_types`, with the description GraphiQL shows on the root type."""
    return strawberry.type(type(name, types, {}), description=description)


Query = _joined(
    "Query",
    "Reading: your reports with their claims, findings and verdicts, your evidence library, questions "
    "about a report (`askReport`), the public registries imported (`registries`) and any object by global "
    "id (`node`).",
    (ReportQuery, EvidenceQuery, QuestionQuery, RegistryQuery, NodeQuery),
)
Mutation = _joined(
    "Mutation",
    "Writing: upload or delete a report, start, resume or cancel its analysis, add to or delete from "
    "the evidence library, settle a registry match. Refusals are typed `…Error` results, not GraphQL errors.",
    (
        UploadReportMutation,
        StartAnalysisMutation,
        ResumeAnalysisMutation,
        CancelAnalysisMutation,
        DeleteReportMutation,
        AddEvidenceDocumentMutation,
        DeleteEvidenceDocumentMutation,
        RegistryMatchMutation,
    ),
)
Subscription = _joined(
    "Subscription",
    "Live streams over graphql-transport-ws: a report's analysis events (`analysisEvents`) and verdicts as "
    "the judge issues them (`verdictIssued`).",
    (EventSubscription, VerdictSubscription),
)


#: Unexpected exceptions reach clients as a generic message (and the server log in full); every
#: error carries an `ErrorCode` (listed in the schema, so GraphiQL documents them). Every operation
#: is counted and timed for the metrics, its errors read as the client gets them (so first in the
#: list). Execution takes the shortcuts of `schema.fast_execution` when they are enabled, else
#: Strawberry's own.
schema = SibylSchema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    types=[ErrorCode],
    extensions=[
        OperationMetrics,
        OperationTraces,
        MaskUnexpectedErrors,
        RequestLimits,
        WebSocketOperationGuard,
    ],
    execution_context_class=fast_execution.execution_context_class(),
)
