"""`confirmRegistryMatch` and `rejectRegistryMatch`: the report owner settles a registry match.

A decision belongs to the report (and so to its organisation): another organisation's report of the
same company keeps its own. It is read on the report's next analysis, which re-judges the claims.
"""

from __future__ import annotations

import enum
from typing import Annotated

import strawberry
from sqlalchemy.dialects.postgresql import insert

from app.db.models import RegistryMatchDecision as DecisionModel
from schema.context import Context
from schema.limits.input_limits import ENTITY_KEY_CHARS, at_most
from schema.types.registry_matches import RegistryMatch, report_entities
from schema.types.reports import Report
from schema.types.reports_lookup import find_report


@strawberry.enum(description="Why a registry match could not be settled.")
class RegistryMatchErrorCode(enum.Enum):
    NOT_FOUND = strawberry.enum_value(
        "NOT_FOUND", description="No report of your organisation has this id (field `reportId`)."
    )
    UNKNOWN_MATCH = strawberry.enum_value(
        "UNKNOWN_MATCH",
        description="The report's company has no registry match with this key (field `entityKey`): see "
        "`Report.registryMatches`.",
    )


@strawberry.type(description="The decision is stored; the report's next analysis uses it.")
class RegistryMatchSuccess:
    match: RegistryMatch = strawberry.field(description="The match with its decision.")
    report: Report = strawberry.field(description="The report the decision belongs to.")


@strawberry.type(description="Nothing was stored.")
class RegistryMatchError:
    code: RegistryMatchErrorCode = strawberry.field(description="Machine-readable reason.")
    message: str = strawberry.field(description="What is wrong, for a person.")
    field: str | None = strawberry.field(description="The argument at fault (`reportId` or `entityKey`).")


RegistryMatchResult = Annotated[
    RegistryMatchSuccess | RegistryMatchError,
    strawberry.union(
        "RegistryMatchResult",
        description="RegistryMatchSuccess, or RegistryMatchError naming the argument at fault (select "
        "`__typename`).",
    ),
]

ReportIdArgument = Annotated[
    strawberry.ID, strawberry.argument(description="The report's global id or UUID.")
]
EntityKeyArgument = Annotated[
    str,
    strawberry.argument(
        description=f"The match's `entityKey` from `Report.registryMatches`. {at_most(ENTITY_KEY_CHARS)}"
    ),
]


async def decide(
    info: strawberry.Info[Context], report_id: str, entity_key: str, confirmed: bool
) -> RegistryMatchResult:
    """Store the owner's word on one of the report's current matches."""
    report = await find_report(info, report_id)
    if report is None:
        return RegistryMatchError(
            code=RegistryMatchErrorCode.NOT_FOUND, message="No report has this id.", field="reportId"
        )
    async with info.context.services.session_factory() as session:
        matches = {match.entity_key: match for match in await report_entities(session, report)}
        if len(entity_key) > ENTITY_KEY_CHARS or entity_key not in matches:
            return RegistryMatchError(
                code=RegistryMatchErrorCode.UNKNOWN_MATCH,
                message=f"The report's company has no registry match {entity_key[:200]!r}.",
                field="entityKey",
            )
        statement = insert(DecisionModel).values(
            report_id=report.id, entity_key=entity_key, confirmed=confirmed
        )
        await session.execute(
            statement.on_conflict_do_update(
                index_elements=[DecisionModel.report_id, DecisionModel.entity_key],
                set_={"confirmed": confirmed, "decided_at": statement.excluded.decided_at},
            )
        )
        await session.commit()
    decided = RegistryMatch.of(matches[entity_key], confirmed)
    return RegistryMatchSuccess(match=decided, report=Report.from_model(report))


@strawberry.type
class RegistryMatchMutation:
    @strawberry.mutation(
        description="Confirm that a registry entity matched to the report's company is that company: the "
        "next analysis uses its records (an uncertain match decides nothing until confirmed)."
    )
    async def confirm_registry_match(
        self, info: strawberry.Info[Context], report_id: ReportIdArgument, entity_key: EntityKeyArgument
    ) -> RegistryMatchResult:
        return await decide(info, report_id, entity_key, confirmed=True)

    @strawberry.mutation(
        description="Reject a registry entity matched to the report's company: the next analysis ignores "
        "its records for this report (other organisations' reports are not affected)."
    )
    async def reject_registry_match(
        self, info: strawberry.Info[Context], report_id: ReportIdArgument, entity_key: EntityKeyArgument
    ) -> RegistryMatchResult:
        return await decide(info, report_id, entity_key, confirmed=False)
