"""`deleteEvidenceDocument`: remove a document and its passages from the evidence library."""

from __future__ import annotations

import enum
from typing import Annotated

import strawberry
from strawberry import relay

from app.evidence.library import delete_evidence_document
from schema.context import Context
from schema.types.evidence import EvidenceDocument
from schema.types.ids import parse_node_id


@strawberry.enum(description="Why an evidence document could not be deleted.")
class DeleteEvidenceDocumentErrorCode(enum.Enum):
    NOT_FOUND = strawberry.enum_value(
        "NOT_FOUND",
        description="No document of your organisation's library has this id (perhaps already deleted).",
    )


@strawberry.type(description="The document and its passages are gone; searches no longer find them.")
class DeleteEvidenceDocumentSuccess:
    deleted_id: relay.GlobalID = strawberry.field(description="The global id the document had.")
    document: EvidenceDocument = strawberry.field(description="The document as it was before deletion.")


@strawberry.type(description="Nothing was deleted.")
class DeleteEvidenceDocumentError:
    code: DeleteEvidenceDocumentErrorCode = strawberry.field(description="Machine-readable reason.")
    message: str = strawberry.field(description="What is wrong, for a person.")
    field: str | None = strawberry.field(description="The argument at fault (`id`).")


DeleteEvidenceDocumentResult = Annotated[
    DeleteEvidenceDocumentSuccess | DeleteEvidenceDocumentError,
    strawberry.union(
        "DeleteEvidenceDocumentResult",
        description="DeleteEvidenceDocumentSuccess, or DeleteEvidenceDocumentError when there was nothing "
        "to delete (select `__typename`).",
    ),
]


@strawberry.type
class DeleteEvidenceDocumentMutation:
    @strawberry.mutation(
        description="Remove a document and its searchable passages from the evidence library."
    )
    async def delete_evidence_document(
        self,
        info: strawberry.Info[Context],
        id: Annotated[strawberry.ID, strawberry.argument(description="The document's global id or UUID.")],
    ) -> DeleteEvidenceDocumentResult:
        document_id = parse_node_id(id, "EvidenceDocument")
        deleted = (
            await delete_evidence_document(
                info.context.services.session_factory, document_id, info.context.organisation_id
            )
            if document_id is not None
            else None
        )
        if deleted is None:
            return DeleteEvidenceDocumentError(
                code=DeleteEvidenceDocumentErrorCode.NOT_FOUND,
                message="No evidence document has this id.",
                field="id",
            )
        document = EvidenceDocument.from_model(deleted)
        return DeleteEvidenceDocumentSuccess(
            deleted_id=relay.GlobalID("EvidenceDocument", document.id), document=document
        )
