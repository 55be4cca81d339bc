"""The dashboard when things go wrong, in a real browser against a real `sibyl run`: the socket
dies mid-run (the feed resumes with no gap and no duplicate), a bad key, another organisation's
report in the URL. None leaves a console error. Plus an automated accessibility check of every view
at desktop and phone width, and the 200-claim table's render time."""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

from playwright.async_api import Page, WebSocketRoute, expect

from tests.conftest import new_api_key
from tests.fixtures import pdfs
from tests.web.conftest import LiveSibyl
from tests.web.test_dashboard import (
    ANALYSIS_SECONDS,
    PHONE,
    analysed_report,
    both_widths,
    feed_ids,
    sign_in,
    upload,
)

BAD_KEY = "sibyl_deadbeef_" + "x" * 43
NOT_FOUND = "There is no report with this id in your organisation."

#: Problems an assistive technology would trip on, found in the live DOM (empty list: none).
A11Y_CHECK = """() => {
  const problems = [];
  const text = (id) => document.getElementById(id)?.textContent ?? '';
  const field = (el) => ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName);
  const name = (el) => [
    el.getAttribute('aria-label'),
    (el.getAttribute('aria-labelledby') || '').split(' ').map(text).join(' '),
    [...(el.labels ?? [])].map((label) => label.textContent).join(' '),
    field(el) ? '' : el.textContent,
    el.getAttribute('title'),
  ].find((candidate) => candidate && candidate.trim());
  const show = (el) => el.outerHTML.slice(0, 120);
  const fail = (message) => problems.push(message);
  const controls = 'input:not([type=hidden]), select, textarea, button, a[href]';
  for (const el of document.querySelectorAll(controls)) if (!name(el)) fail(`no name: ${show(el)}`);
  for (const img of document.querySelectorAll('img')) if (!img.hasAttribute('alt')) fail(`alt: ${show(img)}`);
  for (const svg of document.querySelectorAll('svg[role=img]')) if (!name(svg)) fail(`label: ${show(svg)}`);
  const levels = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]));
  const h1s = levels.filter((level) => level === 1).length;
  if (h1s !== 1) fail(`expected one h1, found ${h1s}`);
  levels.forEach((level, i) => i && level > levels[i - 1] + 1 && fail(`h${levels[i - 1]} then h${level}`));
  for (const table of document.querySelectorAll('table')) {
    if (!table.querySelector('caption') || !table.querySelector('th[scope]')) fail(`table: ${show(table)}`);
  }
  const ids = [...document.querySelectorAll('[id]')].map((el) => el.id);
  ids.filter((id, i) => ids.indexOf(id) !== i).forEach((id) => fail(`duplicate id ${id}`));
  if (!document.documentElement.lang) fail('no lang on <html>');
  const wide = document.documentElement.scrollWidth > window.innerWidth + 1;
  if (wide) fail(`the page scrolls sideways at ${window.innerWidth}px`);
  return problems;
}"""


async def test_feed_resumes_after_the_socket_dies_mid_run_with_no_gap_and_no_duplicate(
    live_sibyl: LiveSibyl, browser_page: Page, console_errors: list[str], screenshot: Any
) -> None:
    page = browser_page
    report_id = await asyncio.to_thread(upload, live_sibyl, pdfs.synthetic_report().pdf, "northwind.pdf")
    sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []

    def through(socket: WebSocketRoute) -> None:
        sockets.append((socket, socket.connect_to_server()))

    await page.route_web_socket("**/graphql", through)
    await sign_in(page, live_sibyl, f"#/reports/{report_id}")
    await expect(page.locator(".connection")).to_have_text("Live")
    await page.get_by_role("button", name="Start analysis").click()
    await expect(page.locator("#event-feed li").nth(7)).to_be_attached(timeout=30_000)

    before = await feed_ids(page)
    await screenshot(page, "mid-run")
    browser_side, server_side = sockets[-1]
    await server_side.close()
    await browser_side.close(code=1012, reason="restarting")

    await expect(page.locator("#report-status")).to_have_text("completed", timeout=ANALYSIS_SECONDS)
    await expect(page.locator("#event-feed li").last).to_contain_text("completed:")
    await expect(page.locator(".connection")).to_have_text("Live")
    ids = await feed_ids(page)
    assert ids == list(range(1, len(ids) + 1)), "no gap and no duplicate"
    assert len(ids) > len(before) + 50, "most of the run arrived after the socket died"
    assert len(sockets) >= 3, "sign-in check, the first subscription, and the one after reconnecting"
    await screenshot(page, "after-reconnect")
    assert console_errors == []


async def test_feed_resumes_after_the_api_server_restarts_mid_run(
    live_sibyl: LiveSibyl, browser_page: Page, console_errors: list[str]
) -> None:
    page = browser_page
    report_id = await asyncio.to_thread(upload, live_sibyl, pdfs.synthetic_report().pdf, "northwind.pdf")
    await sign_in(page, live_sibyl, f"#/reports/{report_id}")
    await expect(page.locator(".connection")).to_have_text("Live")
    await page.get_by_role("button", name="Start analysis").click()
    await expect(page.locator("#event-feed li").nth(7)).to_be_attached(timeout=30_000)

    server = live_sibyl.process
    restarts = len(server.pids("api")) + 1
    os.kill(server.pids("api")[-1], signal.SIGKILL)
    await expect(page.locator(".connection")).to_contain_text("reconnecting")
    await asyncio.to_thread(server.wait_for_pid, "api", restarts, 60)

    await expect(page.locator("#report-status")).to_have_text("completed", timeout=ANALYSIS_SECONDS)
    await expect(page.locator(".connection")).to_have_text("Live")
    ids = await feed_ids(page)
    assert ids == list(range(1, len(ids) + 1)), "no gap and no duplicate"
    await expect(page.locator("#event-feed li").last).to_contain_text("completed:")
    # While the server is down the browser itself logs each refused connection attempt; nothing else.
    refused = ("WebSocket connection to", "ERR_CONNECTION_REFUSED")
    assert [e for e in console_errors if not any(r in e for r in refused)] == []


async def test_a_file_that_is_not_a_pdf_is_refused_with_a_sentence(
    live_sibyl: LiveSibyl, browser_page: Page, console_errors: list[str]
) -> None:
    page = browser_page
    await sign_in(page, live_sibyl)
    picture = {"name": "picture.pdf", "mimeType": "application/pdf", "buffer": pdfs.not_a_pdf()}
    await page.locator("#upload-file").set_input_files(picture)  # type: ignore[arg-type]

    await expect(page.get_by_role("alert")).to_have_text(
        "picture.pdf was not uploaded. The file is not a PDF (it has no %PDF- header)."
    )
    await expect(page.get_by_role("heading", level=1)).to_have_text("Reports")
    assert console_errors == []


async def test_a_bad_key_is_refused_with_a_sentence(
    live_sibyl: LiveSibyl, browser_page: Page, console_errors: list[str], screenshot: Any
) -> None:
    page = browser_page
    await page.goto(f"{live_sibyl.url}/#/reports")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    await page.get_by_label("API key").fill(BAD_KEY)
    await page.get_by_role("button", name="Sign in").click()

    await expect(page.get_by_role("alert")).to_contain_text("This API key was not accepted")
    assert await page.evaluate("sessionStorage.getItem('sibyl.apiKey')") is None
    await both_widths(page, screenshot, "bad-key")

    await page.evaluate("key => sessionStorage.setItem('sibyl.apiKey', key)", BAD_KEY)
    await page.goto(f"{live_sibyl.url}/#/evidence")
    await page.reload()
    await expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    await expect(page.get_by_role("alert")).to_contain_text("refused your API key")
    assert "next=%2Fevidence" in page.url
    # The revoked key's one refused HTTP request is logged by the browser itself, nothing else.
    assert [e for e in console_errors if "status of 401" not in e] == []


async def test_another_organisations_report_is_not_found(
    live_sibyl: LiveSibyl,
    browser_page: Page,
    console_errors: list[str],
    session_factory: Any,
    screenshot: Any,
) -> None:
    page = browser_page
    other_key = await new_api_key(session_factory, "another-organisation")
    theirs = await asyncio.to_thread(upload, live_sibyl, pdfs.synthetic_report().pdf, "theirs.pdf", other_key)
    await sign_in(page, live_sibyl)

    for path in ("", "/claims", "/ifrs", "/ask", "/pages/1"):
        await page.goto(f"{live_sibyl.url}/#/reports/{theirs}{path}")
        await expect(page.get_by_role("heading", level=1)).to_have_text("Report not found")
        await expect(page.get_by_role("alert")).to_have_text(
            "There is no report with this id in your organisation."
        )
    await both_widths(page, screenshot, "not-found")
    await expect(page.locator("#report-table")).to_have_count(0)
    assert console_errors == []


async def test_every_view_passes_the_accessibility_check_at_both_widths(
    live_sibyl: LiveSibyl, browser_page: Page, console_errors: list[str]
) -> None:
    page = browser_page
    report_id = await asyncio.to_thread(analysed_report, live_sibyl)
    await page.goto(f"{live_sibyl.url}/")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    assert await page.evaluate(A11Y_CHECK) == []
    await sign_in(page, live_sibyl)
    await page.goto(f"{live_sibyl.url}/#/reports/{report_id}/claims")
    first_claim = await page.locator("#claim-table tbody a").first.get_attribute("href")
    views = ["#/reports", f"#/reports/{report_id}", f"#/reports/{report_id}/claims", first_claim,
             f"#/reports/{report_id}/ifrs", f"#/reports/{report_id}/ask", f"#/reports/{report_id}/pages/2",
             "#/evidence"]  # fmt: skip
    for width in (None, PHONE):
        if width:
            await page.set_viewport_size(width)  # type: ignore[arg-type]
        for view in views:
            await page.goto(f"{live_sibyl.url}/{view}")
            await expect(page.get_by_role("heading", level=1)).to_be_focused()
            await page.wait_for_load_state("networkidle")
            problems = await page.evaluate(A11Y_CHECK)
            assert problems == [], f"{view} at {width or 'desktop'}: {problems}"
    assert console_errors == []


async def test_keyboard_only_sign_in_upload_field_and_navigation(
    live_sibyl: LiveSibyl, browser_page: Page, console_errors: list[str]
) -> None:
    page = browser_page
    await page.goto(f"{live_sibyl.url}/")
    await expect(page.get_by_role("heading", level=1)).to_be_focused()
    await page.keyboard.press("Tab")
    await expect(page.get_by_label("API key")).to_be_focused()
    await page.keyboard.type(live_sibyl.api_key)
    await page.keyboard.press("Enter")

    heading = page.get_by_role("heading", level=1)
    await expect(heading).to_have_text("Reports")
    await expect(heading).to_be_focused()
    await page.keyboard.press("Tab")
    await expect(page.get_by_label("Company (optional)")).to_be_focused()
    await page.keyboard.press("Tab")
    await expect(page.locator("#upload-file")).to_be_focused()
    await page.get_by_role("link", name="Evidence library").focus()
    await page.keyboard.press("Enter")
    await expect(heading).to_have_text("Evidence library")
    await expect(heading).to_be_focused()
    assert console_errors == []
