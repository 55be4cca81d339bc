"""Who is who: the registry entities that are a report's company, and how sure that is.

An ISIN or LEI the registry records for an entity identifies it. Without one, names decide, and
names are treacherous: "RIO TINTO CITRICOS S.L." is not Rio Tinto, "Siemens Energy" is not
Siemens. So a name matches only when its normal form is the company's
(`app.language.company_names.normalise_name`), which is certain, or when the two differ only by
trailing group words or long legal forms ("Siemens Aktiengesellschaft", "BHP Group"), which is a
guess the organisation confirms: a group word often tells a parent from its subsidiary. A word
shared is never enough.

Registries' own structure groups entities: a US EPA GHGRP facility names its parent companies and
their shares, so a parent is matched to its facilities; an NGER record is the controlling
corporation of a group's Australian operations. Only the newest snapshot of each registry and
period is matched.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from itertools import product
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import RegistryRecord, RegistrySnapshot
from app.language.company_names import GROUP_WORDS, LEGAL_FORMS, LONG_LEGAL_FORMS, normalise_name
from app.registries.records import RegistryKind
from app.registries.snapshots import latest_snapshots

NAME_CONFIDENCE = 0.95
VARIANT_CONFIDENCE = 0.7
#: An identifier that several entities of one snapshot share (registries do mistype ISINs).
SHARED_IDENTIFIER_CONFIDENCE = 0.5
#: What a variant may add after the company's core (short legal forms at the end are normalised away).
_SUFFIXES = tuple(sorted({*GROUP_WORDS, *LONG_LEGAL_FORMS}))
#: What the core drops, longest first so "public limited company" goes before "company".
_UNITS = sorted(
    {tuple(unit.split()) for unit in (*_SUFFIXES, *LEGAL_FORMS)}, key=lambda unit: (-len(unit), unit)
)
#: Legal forms by the family of jurisdictions that use them: one name under forms of two families
#: ("Siemens AG" and India's "Siemens Limited", "BASF SE" and "BASF Corporation") is two companies
#: as often as one, so such a pair is a variant to confirm, never certain.
LEGAL_FAMILIES = {
    **dict.fromkeys(("ag", "se", "gmbh", "kgaa", "kg", "aktiengesellschaft", "societas europaea"), "de"),
    **dict.fromkeys(("ltd", "limited", "plc", "pty", "public limited company", "proprietary limited"), "uk"),
    **dict.fromkeys(("inc", "incorporated", "corp", "corporation", "llc", "limited liability company"), "us"),
    **dict.fromkeys(("sa", "sas", "societe anonyme", "sociedad anonima", "saa", "sab"), "sa"),
    **dict.fromkeys(("spa", "srl", "societa per azioni"), "it"),
    **dict.fromkeys(("nv", "bv", "naamloze vennootschap", "besloten vennootschap"), "nl"),
    **dict.fromkeys(("ab", "as", "asa", "oy", "oyj", "aktiebolag", "aktieselskab"), "nordic"),
    **dict.fromkeys(("kk",), "jp"),
}
#: Registries of companies' own targets: a record there is one legal entity's target.
TARGET_REGISTRIES = frozenset({RegistryKind.SBTI, RegistryKind.NET_ZERO_TRACKER})
#: The identifiers a report's company may be given by, as the registries' `identifiers` name them.
IDENTIFIERS = ("isin", "lei")


@dataclass(frozen=True)
class NameMatch:
    """How two names compare: `basis` is "name" (same normal form) or "name_variant"."""

    basis: str
    confidence: float
    certain: bool


@dataclass(frozen=True)
class EntityMatch:
    """A registry entity matched to the company, in one snapshot.

    `entity_key` names the entity across snapshots, for the organisation's decisions:
    "sbti:siemens", or "epa_ghgrp:parent:southern" for a GHGRP parent company. `period` is the
    snapshot's. For a parent match, `shares` gives the parent's ownership share (0-1, None where
    EPA states none) of each facility record; it is empty otherwise.
    """

    kind: RegistryKind
    snapshot_id: uuid.UUID
    snapshot_date: date | None
    period: str | None
    entity_name: str  # as the registry writes it
    entity_key: str
    basis: str  # isin, lei, name, name_variant, parent_company
    confidence: float
    certain: bool
    record_ids: list[int]
    shares: dict[int, float | None] = field(default_factory=dict)
    confirmed: bool = False  # the organisation said this is its company


@dataclass(frozen=True)
class _Snapshot:
    id: uuid.UUID
    kind: RegistryKind
    snapshot_date: date | None
    period: str | None


def _words(name: str) -> list[str]:
    """The name's normalised words with its legal forms kept (they are dropped only at the end)."""
    return normalise_name(f"{name} x").split()[:-1]


def name_core(name: str) -> str:
    """The name without trailing group words and legal forms, short or long ("siemens" for
    "Siemens Holding Aktiengesellschaft"); never fewer than one word."""
    words = _words(name)
    while unit := next((u for u in _UNITS if len(words) > len(u) and tuple(words[-len(u) :]) == u), ()):
        del words[-len(unit) :]
    return " ".join(words)


def legal_family(name: str) -> str | None:
    """The family of the legal form the name ends with (`LEGAL_FAMILIES`), None without one."""
    words = _words(name)
    for length in (3, 2, 1):
        if len(words) > length and (family := LEGAL_FAMILIES.get(" ".join(words[-length:]))):
            return family
    return None


def compare_names(company: str, entity: str, *, forms_must_agree: bool = False) -> NameMatch | None:
    """Whether `entity` is `company` by name: certain, a variant to confirm, or not at all.

    With `forms_must_agree`, one name under legal forms of two families (`LEGAL_FAMILIES`) is only
    a variant: for registries of a company's own targets, where "Siemens Limited" (India) has a
    target of its own beside Siemens AG's. Emission registries and parents leave it off: a
    same-name entity under another form is nearly always the group's subsidiary, part of its total.
    """
    normal = normalise_name(company)
    if not normal or not normalise_name(entity):
        return None
    if normal == normalise_name(entity):
        families = {legal_family(company), legal_family(entity)} - {None}
        if forms_must_agree and len(families) > 1:
            return NameMatch("name_variant", VARIANT_CONFIDENCE, False)
        return NameMatch("name", NAME_CONFIDENCE, True)
    if name_core(company) == name_core(entity):
        return NameMatch("name_variant", VARIANT_CONFIDENCE, False)
    return None


def variant_names(company: str) -> list[str]:
    """The stored normal forms a variant of `company` may have: its core plus a group word or long
    legal form, or a group word and then one ("Holding Aktiengesellschaft"). Asked for by
    equality, so the name index serves them all; `compare_names` then decides."""
    core = name_core(company)
    suffixes = [(), *((unit,) for unit in _SUFFIXES), *product(GROUP_WORDS, _SUFFIXES)]
    names = {normalise_name(" ".join((core, *suffix))) for suffix in suffixes}
    return sorted(names | {normalise_name(company)})


def clean_identifier(value: str) -> str:
    """An ISIN or LEI as compared: upper case, no spaces."""
    return value.replace(" ", "").upper()


def _snapshots(rows: Iterable[RegistrySnapshot]) -> list[_Snapshot]:
    return [_Snapshot(row.id, RegistryKind(row.kind), row.snapshot_date, row.period) for row in rows]


_COLUMNS = (RegistryRecord.id, RegistryRecord.snapshot_id, RegistryRecord.entity_name,
            RegistryRecord.normalised_name, RegistryRecord.identifiers)  # fmt: skip


async def _identifier_rows(
    session: AsyncSession, snapshots: Sequence[uuid.UUID], given: Mapping[str, str]
) -> list[Any]:
    if not given or not snapshots:
        return []
    equal = [
        func.upper(func.replace(RegistryRecord.identifiers[kind].astext, " ", "")) == value
        for kind, value in given.items()
    ]
    query = select(*_COLUMNS).where(RegistryRecord.snapshot_id.in_(snapshots), or_(*equal))
    return list(await session.execute(query.order_by(RegistryRecord.id)))


async def _name_rows(session: AsyncSession, snapshots: Sequence[uuid.UUID], company: str) -> list[Any]:
    if not snapshots:
        return []
    query = select(*_COLUMNS).where(
        RegistryRecord.snapshot_id.in_(snapshots), RegistryRecord.normalised_name.in_(variant_names(company))
    )
    return list(await session.execute(query.order_by(RegistryRecord.id)))


async def _parent_rows(session: AsyncSession, snapshots: Sequence[uuid.UUID], company: str) -> list[Any]:
    """GHGRP facilities whose parents' text holds the core's words in order (a cheap filter over one
    registry's rows; `compare_names` decides). Names differing only by accents are missed."""
    words = [word for word in name_core(company).split() if word != "and"]
    if not snapshots or not words:
        return []
    parents_text = func.translate(RegistryRecord.data["parents"].astext, ".'’`", "")
    query = select(RegistryRecord.id, RegistryRecord.snapshot_id, RegistryRecord.data["parents"]).where(
        RegistryRecord.snapshot_id.in_(snapshots), parents_text.ilike(f"%{'%'.join(words)}%")
    )
    return list(await session.execute(query.order_by(RegistryRecord.id)))


class _Matches:
    """The matches found so far, one per snapshot and entity; a stronger basis replaces a weaker."""

    def __init__(self, snapshots: Iterable[_Snapshot]) -> None:
        self.snapshots = {snapshot.id: snapshot for snapshot in snapshots}
        self.found: dict[tuple[uuid.UUID, str], EntityMatch] = {}

    def key(self, snapshot_id: uuid.UUID, normalised_name: str) -> str:
        return f"{self.snapshots[snapshot_id].kind}:{normalised_name}"

    def identified(self) -> set[uuid.UUID]:
        """The snapshots in which an identifier found the company."""
        return {snapshot for (snapshot, _), match in self.found.items() if match.basis in IDENTIFIERS}

    def add(
        self, snapshot_id: uuid.UUID, key: str, name: str, how: NameMatch, records: Mapping[int, Any]
    ) -> None:
        """Add a match over `records` (record id → the parent's share, for a parent match)."""
        snapshot = self.snapshots[snapshot_id]
        shares = dict(records) if how.basis == "parent_company" else {}
        new = EntityMatch(
            snapshot.kind, snapshot_id, snapshot.snapshot_date, snapshot.period, name, key, how.basis,
            how.confidence, how.certain, sorted(records), shares,
        )  # fmt: skip
        if (old := self.found.get((snapshot_id, key))) is not None:
            strongest = max(old, new, key=lambda match: (match.certain, match.confidence))
            ids = sorted({*old.record_ids, *new.record_ids})
            new = replace(strongest, entity_name=old.entity_name, record_ids=ids, shares=old.shares | shares)
        self.found[(snapshot_id, key)] = new

    def ordered(self) -> list[EntityMatch]:
        return sorted(self.found.values(), key=_order)


def _order(match: EntityMatch) -> tuple[str, bool, str, str, str]:
    return (match.kind, not match.certain, match.entity_name, match.period or "", str(match.snapshot_id))


def _add_identifier_matches(
    matches: _Matches, rows: list[Any], given: Mapping[str, str], company: str
) -> None:
    """Identifier matches; an identifier that several entities of one snapshot share is only a guess
    for those whose name is not the company's."""
    entities: dict[uuid.UUID, set[str]] = {}
    for row in rows:
        entities.setdefault(row.snapshot_id, set()).add(row.normalised_name)
    for row in rows:
        basis = next(k for k, v in given.items() if clean_identifier(row.identifiers.get(k) or "") == v)
        named = compare_names(company, row.entity_name) if company else None
        shared = len(entities[row.snapshot_id]) > 1 and not (named and named.certain)
        how = NameMatch(basis, SHARED_IDENTIFIER_CONFIDENCE, False) if shared else NameMatch(basis, 1.0, True)
        key = matches.key(row.snapshot_id, row.normalised_name)
        matches.add(row.snapshot_id, key, row.entity_name, how, {row.id: None})


def _add_name_matches(matches: _Matches, rows: list[Any], given: Mapping[str, str], company: str) -> None:
    """Name matches. Where an identifier found the company in a snapshot, records of its name that
    carry another ISIN or LEI are other entities; elsewhere such records (or a name whose records
    carry two different ones: two companies of one name) make the name only a guess."""
    groups: dict[tuple[uuid.UUID, str], list[Any]] = {}
    for row in rows:
        groups.setdefault((row.snapshot_id, row.normalised_name), []).append(row)
    identified = matches.identified()
    for (snapshot_id, normalised), group in groups.items():
        if snapshot_id in identified:
            group = [row for row in group if not _conflicting([row], given)]
        strict = matches.snapshots[snapshot_id].kind in TARGET_REGISTRIES
        compared = [(row, compare_names(company, row.entity_name, forms_must_agree=strict)) for row in group]
        named = [(row, how) for row, how in compared if how is not None]
        if not named:
            continue
        kept = [pair for pair in named if pair[1].certain] or named
        how = kept[0][1]
        rows = [row for row, _ in kept]
        if how.certain and _conflicting(rows, given):
            how = NameMatch(how.basis, VARIANT_CONFIDENCE, False)
        key = matches.key(snapshot_id, normalised)
        matches.add(snapshot_id, key, rows[0].entity_name, how, dict.fromkeys(row.id for row in rows))


def _conflicting(group: list[Any], given: Mapping[str, str]) -> bool:
    """Whether the records carry an ISIN or LEI other than the company's, or two different ones."""
    for kind in IDENTIFIERS:
        values = {clean_identifier(row.identifiers[kind]) for row in group if row.identifiers.get(kind)}
        if len(values) > 1 or (kind in given and values and given[kind] not in values):
            return True
    return False


def _add_parent_matches(matches: _Matches, rows: list[Any], company: str) -> None:
    """One match per parent name that is the company's, over the facilities it owns (a parent EPA
    lists twice for one facility holds the sum of its shares)."""
    found: dict[tuple[uuid.UUID, str], tuple[str, NameMatch, dict[int, float | None]]] = {}
    for record_id, snapshot_id, parents in rows:
        for parent in parents or []:
            how = compare_names(company, parent["name"])
            if how is None:
                continue
            entity = (snapshot_id, f"{RegistryKind.EPA_GHGRP}:parent:{normalise_name(parent['name'])}")
            shares = found.setdefault(entity, (parent["name"], how, {}))[2]
            share = None if parent["share_percent"] is None else parent["share_percent"] / 100
            before = shares.get(record_id)
            shares[record_id] = share if before is None else before if share is None else before + share
    for (snapshot_id, key), (name, how, shares) in found.items():
        basis = NameMatch("parent_company", how.confidence, how.certain)
        matches.add(snapshot_id, key, name, basis, shares)


async def find_matches(
    session: AsyncSession,
    company_name: str | None,
    *,
    isin: str | None = None,
    lei: str | None = None,
    latest: Sequence[RegistrySnapshot] | None = None,
) -> list[EntityMatch]:
    """The registry entities that are (or may be) the company, in the newest snapshot of each
    registry and period (`latest`, when the caller has read them: `snapshots.latest_snapshots`); by
    kind, certain ones first, then by name."""
    snapshots = _snapshots(latest if latest is not None else await latest_snapshots(session))
    ids = [snapshot.id for snapshot in snapshots]
    given = {kind: clean_identifier(value) for kind, value in (("isin", isin), ("lei", lei)) if value}
    company = company_name if company_name and normalise_name(company_name) else ""
    matches = _Matches(snapshots)
    _add_identifier_matches(matches, await _identifier_rows(session, ids, given), given, company)
    if company:
        _add_name_matches(matches, await _name_rows(session, ids, company), given, company)
        ghgrp = [snapshot.id for snapshot in snapshots if snapshot.kind is RegistryKind.EPA_GHGRP]
        _add_parent_matches(matches, await _parent_rows(session, ghgrp, company), company)
    return matches.ordered()


def apply_decisions(matches: Iterable[EntityMatch], decisions: Mapping[str, bool]) -> list[EntityMatch]:
    """The matches after the organisation's word on them (by `entity_key`): a confirmed entity is
    certain, a rejected one is dropped, the rest stay as found."""
    decided = []
    for match in matches:
        verdict = decisions.get(match.entity_key)
        if verdict is None:
            decided.append(match)
        elif verdict:
            decided.append(replace(match, certain=True, confidence=1.0, confirmed=True))
    return decided
