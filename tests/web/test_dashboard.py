"""The dashboard end to end in a real browser against a real `sibyl run`: sign in, upload by
drag-and-drop and watch the analysis complete live, add evidence and re-run, filter the claims by
verdict, open a claim and see its page highlighted, ask a question and follow a citation, read the
IFRS view and export. Every view is screenshotted at desktop and phone width and leaves no console
error."""

from __future__ import annotations

import asyncio
import base64
import re
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Page, expect

from tests.fixtures import pdfs
from tests.support.sibyl_process import graphql_data, upload_report
from tests.web.conftest import LiveSibyl

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
ANALYSIS_SECONDS = 90_000
EVIDENCE_TEXT = (
    "The Environment Agency confirmed that Northwind Minerals plc Scope 1 emissions fell 6.1% to "
    "2.3 Mt CO2e in 2023. The agency audited the Scope 1 figures at all Northwind sites."
)
EVIDENCE_URL = "https://www.reuters.com/business/northwind-scope-1-audit-2024-02-01/"
START = """
mutation Start($id: ID!) {
  startAnalysis(reportId: $id) { __typename ... on StartAnalysisError { message } }
}
"""
STATUS = "query Status($id: ID!) { report(id: $id) { status } }"
VERIFIED_CLAIM = "Scope 1 emissions fell 6.1% to 2.3 Mt CO2e in 2023."


# -- helpers shared with test_dashboard_failures.py ------------------------------------------


def graphql(live: LiveSibyl, query: str, key: str | None = None, **variables: Any) -> dict[str, Any]:
    return graphql_data(live.url, key or live.api_key, query, variables)


def get(live: LiveSibyl, url: str) -> httpx.Response:
    return httpx.get(url, headers={"Authorization": f"Bearer {live.api_key}"}, timeout=30)


def upload(live: LiveSibyl, pdf: bytes, filename: str, key: str | None = None) -> str:
    """Upload over the API (not the page) and wait until parsed; the report's id."""
    report_id = upload_report(live.url, key or live.api_key, pdf, filename, pdfs.COMPANY)
    wait_for_status(live, report_id, "PARSED", key=key)
    return report_id


def wait_for_status(live: LiveSibyl, report_id: str, status: str, key: str | None = None) -> None:
    deadline = time.monotonic() + ANALYSIS_SECONDS / 1000
    while (now := graphql(live, STATUS, key=key, id=report_id)["report"]["status"]) != status:
        assert now != "ERROR" and time.monotonic() < deadline, f"report is {now}:\n{live.log()[-3000:]}"
        time.sleep(0.2)


def analysed_report(live: LiveSibyl, filename: str = "northwind.pdf") -> str:
    report_id = upload(live, pdfs.synthetic_report().pdf, filename)
    started = graphql(live, START, id=report_id)["startAnalysis"]
    assert started["__typename"] == "StartAnalysisSuccess", started
    wait_for_status(live, report_id, "COMPLETED")
    return report_id


async def sign_in(page: Page, live: LiveSibyl, then: str = "#/reports") -> None:
    """Paste the key in the sign-in form, as a person does."""
    await page.goto(f"{live.url}/{then}")
    await page.get_by_label("API key").fill(live.api_key)
    await page.get_by_role("button", name="Sign in").click()
    await expect(page.get_by_role("heading", level=1)).not_to_have_text("Sign in")


async def both_widths(page: Page, screenshot: Any, name: str) -> None:
    """Screenshots at desktop and phone width (and back to desktop)."""
    await screenshot(page, f"{name}-desktop")
    await page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    await page.wait_for_timeout(150)
    await screenshot(page, f"{name}-phone")
    await page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]


async def feed_ids(page: Page) -> list[int]:
    ids = await page.locator("#event-feed li").evaluate_all(
        "items => items.map(li => Number(li.dataset.eventSequence))"
    )
    return [int(i) for i in ids]


async def drop_file(page: Page, selector: str, filename: str, content: bytes) -> None:
    """Drag a file onto `selector`: a real `drop` event carrying a DataTransfer with the file."""
    await page.locator(selector).evaluate(
        """(zone, [name, b64]) => {
          const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          const transfer = new DataTransfer();
          transfer.items.add(new File([bytes], name, { type: 'application/pdf' }));
          for (const type of ['dragenter', 'dragover', 'drop']) {
            const init = { dataTransfer: transfer, bubbles: true, cancelable: true };
            zone.dispatchEvent(new DragEvent(type, init));
          }
        }""",
        [filename, base64.b64encode(content).decode()],
    )


# -- tests -------------------------------------------------------------------------------------


async def test_sign_in_drop_a_pdf_and_watch_the_analysis_complete_live(
    live_sibyl: LiveSibyl,
    browser_page: Page,
    console_errors: list[str],
    outside_requests: list[str],
    screenshot: Any,
) -> None:
    page = browser_page
    await sign_in(page, live_sibyl)
    assert await page.evaluate("sessionStorage.getItem('sibyl.apiKey')") == live_sibyl.api_key
    await both_widths(page, screenshot, "reports-empty")

    await drop_file(page, ".dropzone", "northwind-dropped.pdf", pdfs.synthetic_report().pdf)

    await expect(page.get_by_role("heading", level=1)).to_have_text("northwind-dropped.pdf")
    start = page.get_by_role("button", name="Start analysis")
    await expect(start).to_be_visible(timeout=30_000)
    await start.click()
    await expect(page.locator("#report-status")).to_have_text("completed", timeout=ANALYSIS_SECONDS)
    await expect(page.locator("#analysis-progress")).to_have_attribute("value", "100")
    await expect(page.locator('[data-stage="compile"]')).to_have_class("stage stage-done")
    await expect(page.locator("#event-feed li").last).to_contain_text("completed:")
    ids = await feed_ids(page)
    assert ids == list(range(1, len(ids) + 1)), "the live feed has every event once, in order"
    await both_widths(page, screenshot, "report-live")

    await page.get_by_role("link", name="Reports", exact=True).first.click()
    row = page.locator("#report-table tbody tr").first
    await expect(row).to_contain_text("northwind-dropped.pdf")
    await expect(row).to_contain_text("completed")
    await expect(row.locator("td").nth(3)).to_have_text("12")
    await both_widths(page, screenshot, "reports")
    assert console_errors == [] and outside_requests == []


async def test_add_evidence_re_run_filter_by_verdict_and_open_the_highlighted_claim(
    live_sibyl: LiveSibyl, browser_page: Page, console_errors: list[str], screenshot: Any
) -> None:
    page = browser_page
    report_id = await asyncio.to_thread(analysed_report, live_sibyl)
    await sign_in(page, live_sibyl, "#/evidence")

    await page.get_by_label("Text", exact=True).fill(EVIDENCE_TEXT)
    await page.get_by_label("Source URL").fill(EVIDENCE_URL)
    await page.get_by_label("Title (optional)").fill("Regulator audit of Northwind emissions")
    await page.get_by_label("Published (optional)").fill("2024-02-01")
    await page.get_by_role("button", name="Add to the library").click()
    await expect(page.locator("#evidence-table")).to_contain_text("Regulator audit of Northwind emissions")
    await expect(page.locator("#evidence-table")).to_contain_text("reuters.com")
    notes = {
        "name": "site-notes.md",
        "mimeType": "text/markdown",
        "buffer": b"# Site visit notes\n\nKestrel Ridge.",
    }
    await page.get_by_label("File (PDF, HTML, text or Markdown)").set_input_files(notes)  # type: ignore[arg-type]
    await page.get_by_role("button", name="Add to the library").click()
    await expect(page.locator("#evidence-table")).to_contain_text("text/markdown")
    await expect(page.locator("#evidence-table tbody tr")).to_have_count(2)
    await both_widths(page, screenshot, "evidence")
    await page.get_by_role("button", name=re.compile(r"^Delete .*(?<!emissions)$")).click()
    await expect(page.locator("#evidence-table tbody tr")).to_have_count(1)

    await page.goto(f"{live_sibyl.url}/#/reports/{report_id}")
    await page.get_by_role("button", name="Re-run analysis").click()
    await expect(page.locator("#analysis-status")).to_have_text("running", timeout=30_000)
    await expect(page.locator("#analysis-status")).to_have_text("completed", timeout=ANALYSIS_SECONDS)

    await page.get_by_role("link", name="Claims", exact=True).click()
    await expect(page.locator("#verdict-chart")).to_have_attribute(
        "aria-label",
        re.compile(r"^Verdicts: 1 verified, 0 contradicted, 0 insufficient evidence, \d+ unverified$"),
    )
    await page.get_by_label("Verdict", exact=True).select_option("VERIFIED")
    await page.get_by_role("button", name="Apply").click()
    rows = page.locator("#claim-table tbody tr")
    await expect(rows).to_have_count(1)
    await expect(rows.first).to_contain_text("verified")
    await expect(rows.first).to_contain_text(VERIFIED_CLAIM)
    assert "verdict=VERIFIED" in page.url
    await both_widths(page, screenshot, "claims-verified")

    async with page.expect_response(lambda r: ".png?highlight=" in r.url) as highlighted:
        await rows.first.get_by_role("link").click()
    response = await highlighted.value
    assert response.status == 200 and response.headers["content-type"] == "image/png"
    assert int(response.headers["x-sibyl-highlight-boxes"]) >= 1
    await expect(page.locator("#page-image")).to_be_visible()
    plain = await asyncio.to_thread(get, live_sibyl, response.url.split("?")[0])
    assert plain.status_code == 200 and plain.content != await response.body(), (
        "the highlight changes the page image"
    )
    assert await page.locator("#page-image").evaluate(
        "img => img.naturalWidth > 0 && img.src.startsWith('blob:')"
    )

    await expect(page.locator("#claim-verdict")).to_contain_text("verified")
    sources = page.locator("#deciding-sources")
    await expect(sources).to_contain_text("Regulator audit of Northwind emissions")
    await expect(sources).to_contain_text("quote found in the source")
    await expect(sources.locator(".badge-supports").first).to_have_text("supports")  # the source's side
    await expect(page.get_by_role("heading", name="Routing history")).to_be_visible()
    # Findings are grouped by pass; a claim verified by a Tier 1-2 source is not sent back, so one.
    await expect(page.get_by_role("heading", name="Pass 1")).to_be_visible()
    await expect(page.get_by_role("heading", name="Pass 2")).to_have_count(0)
    await both_widths(page, screenshot, "claim")

    await page.goto(f"{live_sibyl.url}/#/evidence")
    await page.get_by_role("button", name="Delete Regulator audit of Northwind emissions").click()
    await expect(page.get_by_text("The library is empty.")).to_be_visible()
    await expect(page.get_by_role("heading", name="Documents (0)")).to_be_visible()
    assert console_errors == []


#: True once the claim table shows rows, in priority order (high, medium, low).
SORTED_BY_PRIORITY = """() => {
  const rank = {high: 0, medium: 1, low: 2};
  const ranks = [...document.querySelectorAll('#claim-table tbody td[data-label="Priority"]')]
    .map((cell) => rank[cell.textContent.trim()]);
  return ranks.length > 0 && ranks.every((value, index) => index === 0 || ranks[index - 1] <= value);
}"""


async def test_claims_sort_by_priority_and_filter_by_type_and_agent(
    live_sibyl: LiveSibyl, browser_page: Page, console_errors: list[str]
) -> None:
    page = browser_page
    report_id = await asyncio.to_thread(analysed_report, live_sibyl)
    await sign_in(page, live_sibyl, f"#/reports/{report_id}/claims")
    priority = page.locator('#claim-table tbody td[data-label="Priority"]')
    await expect(priority.first).to_be_visible()

    await page.get_by_label("Sort by").select_option("PRIORITY")
    await page.get_by_role("button", name="Apply").click()
    await expect(page).to_have_url(re.compile(r"order=PRIORITY"))
    await expect(page.get_by_label("Sort by")).to_have_value("PRIORITY")
    # The page-ordered table stays on screen until the sorted page arrives, and is then replaced
    # (reading it in between read no rows): wait until the rows on screen are in priority order.
    await page.wait_for_function(SORTED_BY_PRIORITY)
    await expect(priority.first).to_be_visible()
    ranks = [{"high": 0, "medium": 1, "low": 2}[text] for text in await priority.all_inner_texts()]
    assert ranks == sorted(ranks) and ranks[0] == 0

    await page.get_by_label("Type").select_option("GEOGRAPHIC")
    await page.get_by_label("Agent", exact=True).select_option("geography")
    await page.get_by_role("button", name="Apply").click()
    await expect(page).to_have_url(
        re.compile(r"type=GEOGRAPHIC.*agent=geography|agent=geography.*type=GEOGRAPHIC")
    )
    rows = page.locator("#claim-table tbody tr")
    await expect(rows.first).to_be_visible()
    # The unfiltered table stays on screen until the filtered page arrives: wait for it to go.
    other_types = page.locator('#claim-table tbody td[data-label="Type"]:not(:text-is("geographic"))')
    await expect(other_types).to_have_count(0)
    await expect(rows.first).to_be_visible()
    for row in await rows.all():
        await expect(row.locator('td[data-label="Type"]')).to_have_text("geographic")
        await expect(row.locator('td[data-label="Agents"]')).to_contain_text("geography")
    assert console_errors == []


async def test_ask_a_question_and_follow_a_citation_to_its_page(
    live_sibyl: LiveSibyl, browser_page: Page, console_errors: list[str], screenshot: Any
) -> None:
    page = browser_page
    report_id = await asyncio.to_thread(analysed_report, live_sibyl)
    await sign_in(page, live_sibyl, f"#/reports/{report_id}/ask")

    await page.get_by_label("Your question").fill("What does the report say about Scope 1 emissions?")
    await page.get_by_role("button", name="Ask").click()
    citation = page.locator("#citations a.open-page").first
    await expect(citation).to_be_visible(timeout=30_000)
    await both_widths(page, screenshot, "ask")

    cited_page = (await citation.inner_text()).removeprefix("open page ")
    await citation.click()
    await expect(page.get_by_role("heading", level=1)).to_have_text(f"northwind.pdf, page {cited_page} of 12")
    await expect(page.locator("#page-image")).to_be_visible()
    assert await page.locator("#page-image").evaluate("img => img.complete && img.naturalWidth > 0")
    assert f"/pages/{cited_page}" in page.url
    await both_widths(page, screenshot, "cited-page")
    assert console_errors == []


async def test_ifrs_view_and_export_come_from_the_server(
    live_sibyl: LiveSibyl, browser_page: Page, console_errors: list[str], screenshot: Any
) -> None:
    page = browser_page
    report_id = await asyncio.to_thread(analysed_report, live_sibyl)
    await sign_in(page, live_sibyl, f"#/reports/{report_id}/ifrs")

    await expect(page.locator('[data-pillar="governance"]')).to_contain_text("S1.27(a)")
    await expect(page.locator('[data-pillar="metrics_targets"]')).to_be_visible()
    await expect(page.get_by_role("heading", name="Disclosure gaps", exact=False)).to_be_visible()
    await both_widths(page, screenshot, "ifrs")

    await page.get_by_role("link", name="Overview").click()
    for button, fmt in (("Download Markdown", "MARKDOWN"), ("Download JSON", "JSON")):
        async with page.expect_download() as download_info:
            await page.get_by_role("button", name=button).click()
        download = await download_info.value
        downloaded = await asyncio.to_thread(Path(await download.path()).read_text, encoding="utf-8")
        expected = graphql(
            live_sibyl,
            "query E($id: ID!, $f: ExportFormat!) { report(id: $id) { export(format: $f) } }",
            id=report_id,
            f=fmt,
        )
        assert downloaded == expected["report"]["export"]
    assert console_errors == []
