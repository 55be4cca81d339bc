"""`Report.registryMatches`: the public registry entities the report's company was matched to.

Registries are shared by every organisation; whether an uncertain match ("Siemens
Aktiengesellschaft" for "Siemens AG") is the report's company is its owner's call
(`confirmRegistryMatch` / `rejectRegistryMatch`), read on the report's next analysis.
"""

from __future__ import annotations

import enum
from datetime import date

import strawberry
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Report as ReportModel
from app.registries.evidence import report_decisions
from app.registries.matching import EntityMatch, find_matches
from schema.types.enum_values import describe_values
from schema.types.registries import RegistryKind


@describe_values(
    ISIN="The report's ISIN is the registry entity's.",
    LEI="The report's LEI is the registry entity's.",
    NAME="The same name once legal forms, case, accents and punctuation are set aside (Rio Tinto Ltd. "
    "and RIO TINTO LIMITED).",
    NAME_VARIANT="The same name but for a generic word such as Group or Holdings, or a long legal form: "
    "uncertain until the report's owner confirms it.",
    PARENT_COMPANY="The registry names the company as a parent of the entity (US EPA GHGRP facilities "
    "and their parents' ownership shares).",
)
@strawberry.enum(description="Why a registry entity was matched to the report's company.")
class RegistryMatchBasis(enum.Enum):
    ISIN = "isin"
    LEI = "lei"
    NAME = "name"
    NAME_VARIANT = "name_variant"
    PARENT_COMPANY = "parent_company"


@describe_values(
    CONFIRMED="The report's owner confirmed the match: it is used on the next analysis.",
    REJECTED="The report's owner rejected the match: it is never used for this report.",
)
@strawberry.enum(description="The report owner's word on a registry match.")
class RegistryMatchDecision(enum.Enum):
    CONFIRMED = "confirmed"
    REJECTED = "rejected"


@strawberry.type(
    description="A public registry entity matched to the report's company. Certain matches (and "
    "confirmed ones) decide claims; uncertain ones wait for `confirmRegistryMatch`."
)
class RegistryMatch:
    entity_key: str = strawberry.field(
        description="The match's key: pass it to `confirmRegistryMatch` or `rejectRegistryMatch`."
    )
    registry: RegistryKind = strawberry.field(description="Which registry.")
    entity_name: str = strawberry.field(description="The entity as the registry names it.")
    basis: RegistryMatchBasis = strawberry.field(description="Why it was matched.")
    confidence: float = strawberry.field(description="0-1, how sure the match is (1 for an identifier).")
    certain: bool = strawberry.field(
        description="Whether the match is certain without the owner's word (an identifier, the same name "
        "or a registered parent)."
    )
    decision: RegistryMatchDecision | None = strawberry.field(
        description="The report owner's word, if given."
    )
    used: bool = strawberry.field(
        description="Whether the next analysis uses it: certain or confirmed, and not rejected."
    )
    snapshot_date: date | None = strawberry.field(description="The registry snapshot matched against.")
    period: str | None = strawberry.field(description="The snapshot's reporting period, if it has one.")
    records: int = strawberry.field(description="How many of the snapshot's records the match covers.")

    @classmethod
    def of(cls, match: EntityMatch, decision: bool | None) -> RegistryMatch:
        verdict = None if decision is None else RegistryMatchDecision("confirmed" if decision else "rejected")
        return cls(
            entity_key=match.entity_key,
            registry=RegistryKind[match.kind.name],
            entity_name=match.entity_name,
            basis=RegistryMatchBasis(match.basis),
            confidence=match.confidence,
            certain=match.certain,
            decision=verdict,
            used=decision is not False and (match.certain or decision is True),
            snapshot_date=match.snapshot_date,
            period=match.period,
            records=len(match.record_ids),
        )


async def registry_matches(session: AsyncSession, report: ReportModel) -> list[RegistryMatch]:
    """The report's matches with its owner's decisions (rejected ones listed too, so they can be
    seen and confirmed after all)."""
    matches = await report_entities(session, report)
    decisions = await report_decisions(session, report.id)
    return [RegistryMatch.of(match, decisions.get(match.entity_key)) for match in matches]


async def report_entities(session: AsyncSession, report: ReportModel) -> list[EntityMatch]:
    """The registry entities the report's company matches, before its owner's decisions."""
    return await find_matches(session, report.company_name, isin=report.isin, lei=report.lei)
