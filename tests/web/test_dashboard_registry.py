"""The report page lists the registry entities matched to the company, and the owner settles an
uncertain one there: confirm, then reject, each button stating what it does to which entity."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, expect

from app.db.session import SessionFactory
from app.registries.importer import import_registry
from app.registries.records import RegistryKind
from tests.app.registries import files
from tests.fixtures import pdfs
from tests.web.conftest import LiveSibyl
from tests.web.test_dashboard import graphql, sign_in, upload

pytestmark = pytest.mark.usefixtures("no_registries")
GROUP = "Northwind Minerals Group plc"  # only a variant of the report's "Northwind Minerals plc"
MATCHES = "query M($id: ID!) { report(id: $id) { registryMatches { entityName decision used } } }"


async def import_sbti(session_factory: SessionFactory, folder: Path) -> None:
    rows: files.Rows = [
        files.SBTI_HEADER,
        [40000001.0, GROUP, None, None, "Corporate", "United Kingdom", "Europe", "Mining", "Targets set",
         "1.5°C", "FY2030", None, None, None, None, None, "Wording.", None, None, None, None,
         datetime(2024, 1, 9)],
        [40000002.0, "Northwind Minerals Shipping Ltd", None, None, "SME", "United Kingdom", "Europe",
         "Shipping", "Committed", None, None, None, None, None, None, None, None, None, None, None, None,
         datetime(2024, 1, 9)],
    ]  # fmt: skip
    path = files.write_xlsx(folder / "sbti-companies-taking-action-2026-03-05.xlsx", {"Data": rows})
    await import_registry(session_factory, RegistryKind.SBTI, [path])


async def test_the_owner_confirms_and_rejects_a_match_on_the_report_page(
    live_sibyl: LiveSibyl,
    browser_page: Page,
    console_errors: list[str],
    screenshot: Any,
    session_factory: SessionFactory,
    tmp_path: Path,
) -> None:
    page = browser_page
    await import_sbti(session_factory, tmp_path)
    report_id = await asyncio.to_thread(upload, live_sibyl, pdfs.synthetic_report().pdf, "northwind.pdf")
    await sign_in(page, live_sibyl, f"#/reports/{report_id}")

    table = page.locator("#registry-table")
    await expect(page.get_by_role("heading", name="Registry matches (1)")).to_be_visible()
    await expect(table).to_contain_text(GROUP)
    await expect(table).not_to_contain_text("Shipping")  # another company sharing words
    await expect(table).to_contain_text("uncertain")
    await screenshot(page, "registry-matches")

    await page.get_by_role("button", name=f"Confirm {GROUP} (SBTi)").click()
    await expect(page.get_by_role("status").filter(has_text="Confirmed")).to_contain_text(GROUP)
    await expect(table).to_contain_text("confirmed")
    matches = await asyncio.to_thread(graphql, live_sibyl, MATCHES, id=report_id)
    assert matches["report"]["registryMatches"] == [
        {"entityName": GROUP, "decision": "CONFIRMED", "used": True}
    ]

    await page.get_by_role("button", name=f"Reject {GROUP} (SBTi)").click()
    await expect(table).to_contain_text("rejected")
    await expect(page.get_by_role("button", name=f"Confirm {GROUP} (SBTi)")).to_be_visible()
    matches = await asyncio.to_thread(graphql, live_sibyl, MATCHES, id=report_id)
    assert matches["report"]["registryMatches"] == [
        {"entityName": GROUP, "decision": "REJECTED", "used": False}
    ]
    assert console_errors == []
