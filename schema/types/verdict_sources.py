"""The sources a verdict rests on (`Verdict.decidingSources`), read from the judge's grounding.

The judge stores, with every verdict, the evidence sorted by what it can prove
(`details.evaluation.grounding`, built by `app.verification.judge.grounding`); this module exposes the
part that decided the verdict, typed, so a dashboard can count "2 for, 1 against" and an auditor can
cite what decided a verdict without parsing the reasoning text:

- `side` is the grounding list the source was filed in (corroborating, weak support, contradicting,
  weak contradiction, and the report's own certain or doubtful contradictions);
- `tierBasis`, `quoteVerified` and `summary` are stored in each citation;
- `method` (rule reader or model) is stored in each citation; for verdicts whose citations lack it it
  is read from the claim's findings (the request's DataLoader, one query for a page of claims) and,
  for a verdict of an earlier analysis, from the finding rows it names, only when a query selects
  it.

Verdicts stored before a field existed read it as null (a tier basis, a quote check), never as a
guess.
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Iterable, Mapping
from typing import Any, Protocol, cast

import strawberry
from sqlalchemy import select

from app.db.models import Finding as FindingModel
from app.registries.records import RegistryKind as Kind
from app.verification.contract import RegistryCitation
from app.verification.judge.grounding import stored_grounding
from schema.context import Context
from schema.fast_execution import selected_names
from schema.types.claim_enums import EvidenceKind, evidence_kind
from schema.types.enum_values import describe_values
from schema.types.registries import RegistryKind


@describe_values(
    SUPPORTS="Independent support that meets the conditions to count towards VERIFIED: a Tier 1–3 "
    "source from the credibility table whose quote was found in it and bears on the claim.",
    WEAKLY_SUPPORTS="Independent support below those conditions (a lower or unknown tier, a quote not "
    "checked or not about the claim, an indirect observation such as satellite imagery): it does not "
    "decide a verdict on its own.",
    CONTRADICTS="A contradiction that decides CONTRADICTED: independent sources that together reach the "
    "contradiction bar (one Tier 1 source, two of Tier 1–2 or three of Tier 1–3), or the report "
    "certainly contradicting itself (arithmetic, one metric and year with two values).",
    WEAKLY_CONTRADICTS="A contradiction that does not decide on its own: independent sources below the "
    "contradiction bar, or a check of the report against itself that disagrees without certainty.",
)
@strawberry.enum(
    description="Which way a deciding source bears on the claim, and whether it counts on its own (the "
    'judge\'s grounding: `Verdict.details.evaluation.grounding`). For "2 for, 1 against", count '
    "SUPPORTS and WEAKLY_SUPPORTS as for, CONTRADICTS and WEAKLY_CONTRADICTS as against."
)
class SourceSide(enum.Enum):
    SUPPORTS = "supports"
    WEAKLY_SUPPORTS = "weakly_supports"
    CONTRADICTS = "contradicts"
    WEAKLY_CONTRADICTS = "weakly_contradicts"


@describe_values(
    DOMAIN="The credibility table's entry for the source's domain.",
    COMPANY_SITE="The company's own website: Tier 3 and self-reported, never independent.",
    PRESS_RELEASE="A press wire or text that reads as a press release: Tier 3 and self-reported.",
    REGISTRY="A public registry of record (SBTi's list of validated targets, regulators' verified "
    "emissions): Tier 1 for what it records. The Net Zero Tracker compiles companies' own statements, "
    "so it is the company's word (INTERNAL).",
    MODEL="An analysis model's guess, in findings stored before such guesses stopped counting; such a "
    "tier never counts towards a verdict.",
    DEFAULT="Nothing vouches for the source: the lowest tier (4).",
)
@strawberry.enum(description="How a source's credibility tier was decided.")
class TierBasis(enum.Enum):
    DOMAIN = "domain"
    COMPANY_SITE = "company_site"
    PRESS_RELEASE = "press_release"
    REGISTRY = "registry"
    MODEL = "llm"
    DEFAULT = "default"


#: Which grounding lists decide each verdict label, and the side each list stands for. An LLM review
#: may turn CONTRADICTED into INSUFFICIENT_EVIDENCE, so that label lists the certain internal
#: contradictions too.
DECIDING_LISTS: dict[str, tuple[str, ...]] = {
    "verified": ("corroborating",),
    "contradicted": ("contradicting", "internal_contradictions"),
    "insufficient_evidence": (
        "corroborating",
        "weak_support",
        "contradicting",
        "internal_contradictions",
        "weak_contradiction",
        "internal_doubts",
    ),
    "unverified": (),
}
KINDS = frozenset(kind.value for kind in Kind)
SIDES: dict[str, SourceSide] = {
    "corroborating": SourceSide.SUPPORTS,
    "weak_support": SourceSide.WEAKLY_SUPPORTS,
    "contradicting": SourceSide.CONTRADICTS,
    "internal_contradictions": SourceSide.CONTRADICTS,
    "weak_contradiction": SourceSide.WEAKLY_CONTRADICTS,
    "internal_doubts": SourceSide.WEAKLY_CONTRADICTS,
}


@strawberry.type(
    description="The public registry record(s) a verdict's source rests on: which registry, which snapshot, "
    "which records, and how the report's company was matched to them."
)
class RegistryRecordCitation:
    registry: RegistryKind = strawberry.field(description="Which registry.")
    title: str = strawberry.field(description="The registry's title.")
    snapshot_date: str | None = strawberry.field(
        description="The snapshot's date (YYYY-MM-DD) as the registry published it, if known."
    )
    period: str | None = strawberry.field(description="The records' reporting period, if they have one.")
    record_keys: list[str] = strawberry.field(
        description="The records relied on, by their key in the registry (empty: the company is absent)."
    )
    entity_names: list[str] = strawberry.field(
        description="Whose records they are, as the registry names them."
    )
    match_basis: str = strawberry.field(
        description="How the company was matched to them: isin, lei, name, parent_company, confirmed, or "
        "absent (no entry)."
    )
    coverage: str | None = strawberry.field(
        description="full: the registry covers the claim's whole boundary; partial: a part of it (a lower "
        "bound); null: not a quantity."
    )

    @classmethod
    def of(cls, stored: object) -> RegistryRecordCitation | None:
        citation = RegistryCitation.from_details(stored)
        if citation is None or citation.registry not in KINDS:
            return None
        return cls(
            registry=RegistryKind[Kind(citation.registry).name],
            title=citation.title,
            snapshot_date=citation.snapshot_date,
            period=citation.period,
            record_keys=citation.record_keys,
            entity_names=citation.entity_names,
            match_basis=citation.match_basis,
            coverage=citation.coverage,
        )


@strawberry.type(
    description="A source a verdict rests on: which way it bears on the claim, who said it, when, where, "
    "how its tier and stance were decided, and whether its quote was found."
)
class VerdictSource:
    finding_id: strawberry.ID = strawberry.field(
        description="Global id of the finding that reports the source (`node(id:)` reads it)."
    )
    agent: str = strawberry.field(description="The specialist that found it.")
    side: SourceSide = strawberry.field(
        description="Which way the source bears on the claim and whether it counts on its own."
    )
    evidence_kind: EvidenceKind = strawberry.field(
        description="What the source can prove (INDEPENDENT or INTERNAL)."
    )
    publisher: str = strawberry.field(
        description="The publisher's domain, the evidence-library document, or the agent for a check of the "
        "report against itself."
    )
    title: str | None = strawberry.field(description="The source's title, if it has one.")
    url: str | None = strawberry.field(
        description="The source's address (library:// for a library document)."
    )
    published_date: str | None = strawberry.field(description="When it was published (YYYY-MM-DD), if known.")
    tier: int | None = strawberry.field(
        description="Credibility tier, 1 (best) to 4; null for internal checks."
    )
    tier_basis: TierBasis | None = strawberry.field(
        description="How the tier was decided; null for internal checks and for verdicts stored before it "
        "was recorded."
    )
    method: str | None = strawberry.field(
        description="How the finding read the source (the finding's `method`): rules (the rule reader) "
        "or llm (a model, whose quote is then checked in the source); null when the finding is no longer "
        "stored."
    )
    quote: str | None = strawberry.field(description="The source's sentence the finding relies on.")
    quote_verified: bool | None = strawberry.field(
        description="true: the quote was found in the source's text; false: it was not (the source "
        "then has no weight); null: not checked (always for internal checks, which quote nothing)."
    )
    pages: list[int] = strawberry.field(description="Report pages an internal check compared.")
    summary: str = strawberry.field(
        description="The finding in a sentence. For a check of the report against itself, what it found "
        'on those pages (e.g. "Scope 1 for 2023 is 2.3 Mt CO2e on page 1 but 2.5 Mt CO2e on page 2").'
    )
    registry: RegistryRecordCitation | None = strawberry.field(
        default=None,
        description="The registry snapshot and records the source rests on, when it is a public registry.",
    )
    finding_uuid: strawberry.Private[str] = ""


def _tier_basis(stored: Any) -> TierBasis | None:
    """The enum of a stored tier basis; none stored, or one this version does not know, is null."""
    try:
        return TierBasis(stored)
    except ValueError:
        return None


def _source(item: Mapping[str, Any], side: SourceSide) -> VerdictSource:
    finding_id = str(item.get("finding_id", ""))
    method = item.get("method")
    return VerdictSource(
        finding_id=strawberry.ID(str(strawberry.relay.GlobalID("Finding", finding_id))),
        agent=str(item.get("agent", "")),
        side=side,
        evidence_kind=evidence_kind(item.get("kind")),
        publisher=str(item.get("publisher", "")),
        title=item.get("title"),
        url=item.get("url"),
        published_date=item.get("published_date"),
        tier=item.get("tier"),
        tier_basis=_tier_basis(item.get("tier_basis")),
        method=method if isinstance(method, str) else None,
        quote=item.get("quote"),
        quote_verified=item.get("quote_verified"),
        pages=list(item.get("pages") or []),
        summary=str(item.get("summary", "")),
        registry=RegistryRecordCitation.of(item.get("registry")),
        finding_uuid=finding_id,
    )


def deciding_sources(label: str, details: Mapping[str, Any]) -> list[VerdictSource]:
    """The sources behind a stored verdict of `label`, from its `details.evaluation.grounding`
    (`method` left null unless the citation stores it: `resolve_deciding_sources` fills it in)."""
    grounding = stored_grounding(details)
    items = [(item, SIDES[key]) for key in DECIDING_LISTS.get(label, ()) for item in grounding.get(key) or []]
    return [_source(item, side) for item, side in _once_per_source(items)]


def _once_per_source(
    items: list[tuple[Mapping[str, Any], SourceSide]],
) -> list[tuple[Mapping[str, Any], SourceSide]]:
    """Each source once: two specialists (or two passes) reading the same document are one source
    for the reader, listed where it first appears (the deciding lists come first). Internal checks,
    which have no URL, all stay."""
    seen: set[str] = set()
    kept = []
    for item, side in items:
        url = item.get("url")
        if url:
            if url in seen:
                continue
            seen.add(url)
        kept.append((item, side))
    return kept


class StoredVerdict(Protocol):
    """What `resolve_deciding_sources` reads of a `schema.types.claims.Verdict`."""

    @property
    def verdict(self) -> enum.Enum: ...

    @property
    def details(self) -> Any: ...

    @property
    def claim_uuid(self) -> uuid.UUID: ...


def resolve_deciding_sources(root: StoredVerdict, info: strawberry.Info[Context]) -> list[VerdictSource]:
    """`Verdict.decidingSources`: synchronous unless the query selects `method` and some citation
    lacks it (then awaitable: graphql-core awaits what is awaitable, as for `Claim.verdict`)."""
    sources = deciding_sources(str(root.verdict.value), root.details)
    if not any(source.method is None for source in sources) or "method" not in selected_names(info):
        return sources
    return cast(list[VerdictSource], _with_methods(info, root.claim_uuid, sources))


async def _with_methods(
    info: strawberry.Info[Context], claim_id: uuid.UUID, sources: list[VerdictSource]
) -> list[VerdictSource]:
    """`sources` with each finding's `method`: from the claim's findings in the latest analysis, else
    (a verdict of an earlier analysis) from the finding rows the citations name."""
    rows = await info.context.loaders.findings_by_claim.load(claim_id)
    methods = {str(row.id): row.method for row in rows}
    unknown = {s.finding_uuid for s in sources if s.method is None and s.finding_uuid not in methods}
    if unknown:
        methods.update(await _stored_methods(info, unknown))
    for source in sources:
        if source.method is None:
            source.method = methods.get(source.finding_uuid)
    return sources


async def _stored_methods(info: strawberry.Info[Context], finding_ids: Iterable[str]) -> dict[str, str]:
    """The `method` of the findings `finding_ids` (ids a visible verdict stored; not client input)."""
    ids = []
    for finding_id in finding_ids:
        try:
            ids.append(uuid.UUID(finding_id))
        except ValueError:
            continue
    if not ids:
        return {}
    query = select(FindingModel.id, FindingModel.method).where(FindingModel.id.in_(ids))
    async with info.context.read_sessions() as session:
        return {str(finding_id): method for finding_id, method in await session.execute(query)}
