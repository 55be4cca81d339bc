"""Who is who: a report's company matched to registry entities by identifier, name and parent company.

`NAME_SET` measures the name rules on pairs written for these tests (company as a report names it,
entity as a registry writes it, and whether they are the same company); the traps come from the
real registries' shapes. The database tests import small files of the real shape; the last test
runs on the real downloads beside the project (skipped when ../shared is absent).
"""

from __future__ import annotations

import time
import uuid
from datetime import date
from pathlib import Path

import pytest

from app.db.session import SessionFactory
from app.registries.importer import import_registry
from app.registries.matching import EntityMatch, apply_decisions, compare_names, find_matches
from app.registries.records import RegistryKind
from tests.app.registries import files
from tests.app.registries.test_real_files import GHGRP, NGER, REGISTRIES, SBTI

#: (company as a report names it, entity as a registry writes it, the same company?)
NAME_SET: list[tuple[str, str, bool]] = [
    # Another company that shares words with the company: never a match.
    ("Rio Tinto", "RIO TINTO CITRICOS S.L.", False),
    ("Rio Tinto plc", "RIO TINTO CITRICOS S.L.", False),
    ("Rio Tinto Limited", "RIO TINTO CITRICOS S.L.", False),
    ("Rio Tinto", "RIO TINTO SHIPPING (ASIA) PTE LTD", False),
    ("Siemens AG", "Siemens Energy AG", False),
    ("Siemens", "Siemens Energy", False),
    ("Siemens AG", "Siemens Healthineers AG", False),
    ("Siemens", "Siemens Healthineers AG", False),
    ("Siemens AG", "Siemens Gamesa Renewable Energy, S.A.", False),
    ("Siemens AG", "SIEMENS USA HOLDINGS INC", False),
    ("Volkswagen AG", "Volkswagen Financial Services", False),
    ("Volkswagen AG", "Volkswagen Group of America, Inc.", False),
    ("Volkswagen AG", "VOLKSWAGEN AIRSERVICE GMBH", False),
    ("Shell plc", "Shell Energy Retail Limited", False),
    ("Shell plc", "SHELL ENERGY HOLDINGS AUSTRALIA LIMITED", False),
    ("Shell plc", "Shell Chemical LP", False),
    ("Shell plc", "SHELL PETROLEUM INC", False),
    ("Anglo American", "Anglo American Platinum", False),
    ("Anglo American plc", "ANGLO AMERICAN AUSTRALIA LIMITED", False),
    ("BHP Group Limited", "BHP ENERGY COAL AUSTRALIA PTY LTD", False),
    ("Costco Wholesale Corporation", "COSTCO WHOLESALE AUSTRALIA, PTY. LTD.", False),
    ("AGL Energy", "AGL Resources Inc", False),
    ("Orica", "Oricon Inc", False),
    ("General Electric Company", "General Motors Company", False),
    ("American Electric Power", "American Water Works Company, Inc.", False),
    ("Prudential plc", "Prudential Financial, Inc.", False),
    ("Origin Energy", "Origin Materials", False),
    ("Santos Limited", "Santos Brasil Participações S.A.", False),
    ("BP p.l.c.", "BPCE", False),
    ("Air Liquide", "Air Products and Chemicals, Inc.", False),
    ("Mitsubishi Corporation", "Mitsubishi Electric Corporation", False),
    ("Toyota Motor Corporation", "Toyota Tsusho Corporation", False),
    ("Bayer AG", "Bayerische Motoren Werke AG", False),
    ("Swire Pacific", "Swire Properties", False),
    ("Holcim Ltd", "Holcim (Australia) Pty Ltd", False),
    # The same company as registries write it.
    ("Rio Tinto", "RIO TINTO LIMITED", True),
    ("Rio Tinto Ltd.", "RIO TINTO LIMITED", True),
    ("Rio Tinto plc", "RIO TINTO LIMITED", True),
    ("Rio Tinto", "Rio Tinto Public Limited Company", True),
    ("Siemens AG", "Siemens AG", True),
    ("Siemens", "Siemens AG", True),
    ("Siemens Aktiengesellschaft", "Siemens AG", True),
    ("Volkswagen AG", "Volkswagen", True),
    ("Volkswagen Group", "Volkswagen AG", True),
    ("BHP Group Limited", "BHP GROUP LIMITED", True),
    ("BHP", "BHP Group", True),
    ("BHP Billiton", "BHP Group", True),  # renamed in 2018: a name alone cannot tell
    ("Costco Wholesale Corporation", "COSTCO WHOLESALE CORP", True),
    ("Costco Wholesale Corporation", "Costco", True),  # the Net Zero Tracker's short name
    ("AGL Energy", "AGL ENERGY LIMITED", True),
    ("Orica", "ORICA LIMITED", True),
    ("Shell plc", "SHELL PLC", True),
    ("Anglo American", "Anglo American plc", True),
    ("The Southern Company", "THE SOUTHERN CO", True),
    ("Exxon Mobil Corporation", "EXXON MOBIL CORP", True),
    ("Chevron Corporation", "CHEVRON CORP", True),
    ("Nestlé S.A.", "Nestle SA", True),
    ("L'Oréal", "L'OREAL S.A.", True),
    ("H&M Hennes & Mauritz AB", "H & M Hennes & Mauritz AB", True),
    ("Telefónica, S.A.", "Telefonica SA", True),
    ("Unilever PLC", "Unilever Public Limited Company", True),
    ("Allianz SE", "Allianz Societas Europaea", True),
    ("Legal & General Group Plc", "Legal and General", True),
    ("Wells Fargo & Company", "Wells Fargo", True),
    ("Woolworths Group Limited", "WOOLWORTHS GROUP LIMITED", True),
    ("Fortescue Metals Group Ltd", "FORTESCUE METALS GROUP LTD", True),
    ("Qantas Airways Limited", "QANTAS AIRWAYS LIMITED", True),
    ("Toyota Motor Corporation", "Toyota Motor Corp.", True),
    ("Mercedes-Benz Group AG", "Mercedes-Benz Group", True),
    ("Daimler Truck Holding AG", "Daimler Truck", True),
]
#: Of NAME_SET's 35 same-company pairs: matched for certain, and matched at all (certain or variant).
#: The two missed are "BHP Billiton" (renamed) and the Net Zero Tracker's short "Costco".
EXPECTED_CERTAIN, EXPECTED_FOUND = 24, 33


def score_names(pairs: list[tuple[str, str, bool]]) -> dict[str, int]:
    """How `compare_names` does on `pairs`: same-company pairs matched for certain and at all, and
    other-company pairs matched for certain and at all (both should be 0)."""
    score = dict.fromkeys(("same", "same_certain", "same_found", "other", "other_certain", "other_found"), 0)
    for company, entity, same in pairs:
        found, side = compare_names(company, entity), "same" if same else "other"
        score[side] += 1
        score[f"{side}_certain"] += bool(found and found.certain)
        score[f"{side}_found"] += found is not None
    return score


def test_the_name_set_has_no_match_to_another_company() -> None:
    score = score_names(NAME_SET)
    print(f"name set: {score}")

    assert (score["other_certain"], score["other_found"]) == (0, 0)
    assert (score["same_certain"], score["same_found"]) == (EXPECTED_CERTAIN, EXPECTED_FOUND)


@pytest.mark.parametrize(
    ("company", "entity", "basis"),
    [
        ("Rio Tinto Ltd.", "RIO TINTO LIMITED", "name"),
        ("Rio Tinto plc", "RIO TINTO LIMITED", "name"),
        ("Siemens Aktiengesellschaft", "Siemens AG", "name_variant"),
        ("BHP", "BHP Group Limited", "name_variant"),
        ("Rio Tinto", "RIO TINTO CITRICOS S.L.", None),
        ("Siemens AG", "Siemens Energy AG", None),
        ("Volkswagen AG", "Volkswagen Financial Services", None),
        ("...", "...", None),
    ],
)
def test_compare_names(company: str, entity: str, basis: str | None) -> None:
    found = compare_names(company, entity)

    assert (found and found.basis) == basis
    if found is not None:
        assert (found.certain, found.confidence) == ((True, 0.95) if basis == "name" else (False, 0.7))


@pytest.mark.parametrize(
    ("company", "entity", "strict_basis", "lenient_basis"),
    [
        ("Siemens AG", "Siemens Limited", "name_variant", "name"),  # India's listed Siemens
        ("BASF SE", "BASF CORPORATION", "name_variant", "name"),
        ("Costco Wholesale Corporation", "COSTCO WHOLESALE CORP", "name", "name"),
        ("Rio Tinto", "RIO TINTO LIMITED", "name", "name"),  # no form given: nothing to disagree
        ("Siemens AG", "SIEMENS AKTIENGESELLSCHAFT", "name_variant", "name_variant"),
    ],
)
def test_forms_of_two_families_are_a_guess_for_target_registries(
    company: str, entity: str, strict_basis: str, lenient_basis: str
) -> None:
    strict = compare_names(company, entity, forms_must_agree=True)
    lenient = compare_names(company, entity)

    assert strict is not None and lenient is not None
    assert (strict.basis, strict.certain) == (strict_basis, strict_basis == "name")
    assert (lenient.basis, lenient.certain) == (lenient_basis, lenient_basis == "name")


def match(key: str, certain: bool = False) -> EntityMatch:
    return EntityMatch(
        RegistryKind.SBTI, uuid.uuid4(), None, None, key, key, "name_variant", 0.7, certain, [1]
    )


def test_decisions_confirm_and_reject() -> None:
    matches = [match("sbti:a"), match("sbti:b"), match("sbti:c", certain=True)]

    decided = apply_decisions(matches, {"sbti:a": True, "sbti:c": False})

    assert [(m.entity_key, m.certain, m.confidence, m.confirmed, m.basis) for m in decided] == [
        ("sbti:a", True, 1.0, True, "name_variant"),
        ("sbti:b", False, 0.7, False, "name_variant"),
    ]


def sbti_row(sbti_id: int, name: str, isin: str | None = None, lei: str | None = None) -> list[object]:
    """A company with validated targets, in the export's columns."""
    return [float(sbti_id), name, isin, lei, "Corporate", "Germany", "Europe", "Mining", "Targets set",
            "1.5°C", "FY2030", None, None, None, None, None, "Wording.", None, None, None, None,
            None]  # fmt: skip


def sbti_file(folder: Path, day: str, rows: list[list[object]]) -> Path:
    path = folder / f"sbti-companies-taking-action-{day}.xlsx"
    return files.write_xlsx(path, {"Data": [files.SBTI_HEADER, *rows]})


KAROO_SBTI = [
    sbti_row(1, "Karoo Metals AG", "DE0000000001", "529900KAROO000000001"),
    sbti_row(2, "Karoo Metals Energy AG", "DE0000000002"),
    sbti_row(3, "KAROO METALS CITRICOS S.L."),
    sbti_row(4, "Karoo Metals Holding Aktiengesellschaft"),
    sbti_row(5, "Harbour Foods plc", "GB0000000005"),
    sbti_row(6, "Harbour Foods Ltd", "AU0000000006"),  # another company of the same name
    sbti_row(7, "Nordic Fuels Oyj", "FI0000000007"),
    sbti_row(8, "Nordic Power Oyj", "FI0000000007"),  # the registry gives both one ISIN
]


def ghgrp_parents() -> dict[str, files.Rows]:
    """The plant's owner listed twice (60% and 35.92%) beside a coop; the pipeline half a trap's."""
    row = [0.0, 1000001.0, 110000000001.0, 2020.0, "Karoo Power Plant", "AL"]
    pipe = [0.0, 1000002.0, 110000000002.0, 2020.0, "Karoo Gas Transmission", "TX"]
    return {
        "DE_parentcompanies": [
            files.GHGRP_PARENT_HEADER,
            [*row, "KAROO METALS INC", 60.0, 221112.0, 1001158.75, 600695.25],
            [*row, "SOUTHERN COOP", 4.08, 221112.0, 1001158.75, 40847.2],
            [*row, "KAROO METALS INC", 35.92, 221112.0, 1001158.75, 359616.3],
            [*pipe, "KAROO METALS INC", 50.0, 486210.0, 400.75, 200.375],
            [*pipe, "KAROO METALS ENERGY LLC", 50.0, 486210.0, 400.75, 200.375],
        ]
    }


async def import_karoo(session_factory: SessionFactory, folder: Path) -> None:
    await import_registry(session_factory, RegistryKind.SBTI, [sbti_file(folder, "2026-03-05", KAROO_SBTI)])
    nger = files.write_csv(folder / "au-nger-corporate-emissions-2021-22.csv", files.nger_rows())
    await import_registry(session_factory, RegistryKind.NGER, [nger])
    summary = files.write_xlsx(folder / "us-epa-ghgrp-2020-data-summary.xlsx", files.ghgrp_summary_sheets())
    parents = files.write_xlsx(folder / "us-epa-ghgrp-parent-companies.xlsx", ghgrp_parents())
    await import_registry(session_factory, RegistryKind.EPA_GHGRP, [summary, parents])


async def matches_of(
    session_factory: SessionFactory, company: str | None, isin: str | None = None, lei: str | None = None
) -> list[EntityMatch]:
    async with session_factory() as session:
        return await find_matches(session, company, isin=isin, lei=lei)


def summary(matches: list[EntityMatch]) -> list[tuple[str, str, str, bool]]:
    return [(m.kind.value, m.entity_name, m.basis, m.certain) for m in matches]


@pytest.mark.usefixtures("no_registries")
async def test_names_match_the_company_and_not_its_namesakes(
    session_factory: SessionFactory, tmp_path: Path
) -> None:
    await import_karoo(session_factory, tmp_path)

    found = await matches_of(session_factory, "Karoo Metals AG")

    assert summary(found) == [
        ("epa_ghgrp", "KAROO METALS INC", "parent_company", True),
        ("nger", "KAROO METALS LIMITED", "name", True),
        ("sbti", "Karoo Metals AG", "name", True),
        ("sbti", "Karoo Metals Holding Aktiengesellschaft", "name_variant", False),
    ]
    assert [m.entity_key for m in found] == [
        "epa_ghgrp:parent:karoo metals",
        "nger:karoo metals",
        "sbti:karoo metals",
        "sbti:karoo metals holding aktiengesellschaft",
    ]
    assert [(m.confidence, len(m.record_ids)) for m in found[1:]] == [(0.95, 1), (0.95, 1), (0.7, 1)]
    assert found[0].period == "2020" and found[1].period == "2021-22"
    assert found[2].snapshot_date == date(2026, 3, 5)


@pytest.mark.usefixtures("no_registries")
async def test_a_parent_company_gets_its_facilities_with_its_shares(
    session_factory: SessionFactory, tmp_path: Path
) -> None:
    await import_karoo(session_factory, tmp_path)

    (parent,) = [m for m in await matches_of(session_factory, "Karoo Metals Inc.") if m.kind == "epa_ghgrp"]

    plant, pipeline = parent.record_ids
    assert parent.shares == {plant: pytest.approx(0.9592), pipeline: 0.5}
    assert (parent.basis, parent.certain, parent.entity_name) == ("parent_company", True, "KAROO METALS INC")


@pytest.mark.usefixtures("no_registries")
async def test_identifiers_identify(session_factory: SessionFactory, tmp_path: Path) -> None:
    await import_karoo(session_factory, tmp_path)

    by_isin = await matches_of(session_factory, "Karoo Metals AG", isin=" de 0000000001")
    by_lei = await matches_of(session_factory, None, lei="529900karoo000000001")
    other_name = await matches_of(session_factory, "Karoo Group", isin="DE0000000002")

    assert [
        (m.entity_name, m.basis, m.confidence, len(m.record_ids)) for m in by_isin if m.kind == "sbti"
    ] == [
        ("Karoo Metals AG", "isin", 1.0, 1),
        ("Karoo Metals Holding Aktiengesellschaft", "name_variant", 0.7, 1),
    ]
    assert summary(by_lei) == [("sbti", "Karoo Metals AG", "lei", True)]
    assert ("sbti", "Karoo Metals Energy AG", "isin", True) in summary(other_name)


@pytest.mark.usefixtures("no_registries")
async def test_names_and_identifiers_that_two_companies_share_are_only_guesses(
    session_factory: SessionFactory, tmp_path: Path
) -> None:
    await import_karoo(session_factory, tmp_path)

    by_name = await matches_of(session_factory, "Harbour Foods")
    by_name_and_isin = await matches_of(session_factory, "Harbour Foods", isin="GB0000000005")
    by_shared_isin = await matches_of(session_factory, "Nordic Power Oyj", isin="FI0000000007")
    other_isin = await matches_of(session_factory, "Karoo Metals AG", isin="DE0000000009")

    assert [(m.basis, m.certain, len(m.record_ids)) for m in by_name] == [("name", False, 2)]
    assert [(m.basis, m.certain, len(m.record_ids)) for m in by_name_and_isin] == [("isin", True, 1)]
    assert [(m.entity_name, m.certain, m.confidence) for m in by_shared_isin] == [
        ("Nordic Power Oyj", True, 1.0),
        ("Nordic Fuels Oyj", False, 0.5),
    ]
    assert ("sbti", "Karoo Metals AG", "name", False) in summary(other_isin)


@pytest.mark.usefixtures("no_registries")
async def test_only_the_newest_snapshot_of_each_kind_and_period_is_matched(
    session_factory: SessionFactory, tmp_path: Path
) -> None:
    await import_registry(session_factory, RegistryKind.SBTI, [sbti_file(tmp_path, "2026-03-05", KAROO_SBTI)])
    newer = await import_registry(
        session_factory, RegistryKind.SBTI, [sbti_file(tmp_path, "2026-04-02", KAROO_SBTI[:1])]
    )
    for period, scope_1 in (("2020-21", "7,000,000"), ("2021-22", "7,405,060")):
        rows = files.nger_rows()
        rows[1][2] = scope_1
        path = files.write_csv(tmp_path / f"au-nger-corporate-emissions-{period}.csv", rows)
        await import_registry(session_factory, RegistryKind.NGER, [path])

    found = await matches_of(session_factory, "Karoo Metals AG")
    only_in_older = await matches_of(session_factory, "Harbour Foods plc")
    (tmp_path / "later").mkdir()
    same_day = sbti_file(tmp_path / "later", "2026-04-02", [KAROO_SBTI[0], KAROO_SBTI[4]])
    latest = await import_registry(session_factory, RegistryKind.SBTI, [same_day])
    after = await matches_of(session_factory, "Harbour Foods plc")

    assert [m.snapshot_id for m in found if m.kind == "sbti"] == [newer.snapshot.id]
    assert [m.period for m in found if m.kind == "nger"] == ["2020-21", "2021-22"]
    assert only_in_older == []
    assert [(m.snapshot_id, m.entity_name) for m in after] == [(latest.snapshot.id, "Harbour Foods plc")]


@pytest.mark.shared_data
@pytest.mark.timeout(300)
@pytest.mark.skipif(not REGISTRIES.is_dir(), reason="../shared/data/registries is not present")
@pytest.mark.usefixtures("no_registries")
async def test_real_registries(session_factory: SessionFactory) -> None:
    for kind, names in (
        (RegistryKind.SBTI, (SBTI,)),
        (RegistryKind.NGER, (NGER,)),
        (RegistryKind.EPA_GHGRP, GHGRP),
    ):
        await import_registry(session_factory, kind, [REGISTRIES / name for name in names])

    found = {}
    for company in (
        "Siemens AG",
        "Rio Tinto",
        "Volkswagen AG",
        "BHP Group Limited",
        "Costco Wholesale Corporation",
    ):
        started = time.perf_counter()
        found[company] = await matches_of(session_factory, company)
        elapsed_ms = (time.perf_counter() - started) * 1000
        print(f"find_matches({company!r}): {elapsed_ms:.1f} ms, {summary(found[company])}")

    # Not "Siemens Energy", "Siemens Healthineers", SBTi's "RIO TINTO CITRICOS S.L.", NGER's
    # "RIO TINTO SHIPPING (ASIA) PTE LTD", nor GHGRP's "SIEMENS USA HOLDINGS INC" or "VOLKSWAGEN
    # GROUP OF AMERICA INC" (parents of US facilities, other companies by name).
    assert summary(found["Siemens AG"]) == [("sbti", "Siemens AG", "name", True)]
    assert summary(found["Rio Tinto"]) == [("nger", "RIO TINTO LIMITED", "name", True)]
    assert summary(found["Volkswagen AG"]) == [("sbti", "Volkswagen AG", "name", True)]
    assert summary(found["BHP Group Limited"]) == [("nger", "BHP GROUP LIMITED", "name", True)]
    assert found["Costco Wholesale Corporation"] == []  # NGER lists only its Australian subsidiary
