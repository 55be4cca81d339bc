"""GraphiQL in a real browser with no route to the internet: its page and assets come from the
API, it opens with the dashboard's API key in the headers editor, and it runs a query."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from playwright.async_api import Page, expect

from tests.conftest import make_settings, serve_api
from tests.fixtures import pdfs
from tests.support.services import RunningServices
from tests.web.conftest import LiveSibyl

KEY_STORAGE = "sibyl.apiKey"


async def sign_in(page: Page, live: LiveSibyl) -> None:
    """What the dashboard does on sign-in: keep the key for the browser session."""
    await page.goto(f"{live.url}/healthz")
    await page.evaluate("([name, key]) => sessionStorage.setItem(name, key)", [KEY_STORAGE, live.api_key])


async def test_graphiql_runs_a_query_offline_with_the_signed_in_key(
    live_sibyl: LiveSibyl,
    browser_page: Page,
    console_errors: list[str],
    outside_requests: list[str],
    screenshot: object,
) -> None:
    await live_sibyl.upload(pdfs.synthetic_report().pdf, "graphiql-offline.pdf")
    await sign_in(browser_page, live_sibyl)

    response = await browser_page.goto(f"{live_sibyl.url}/graphql")
    assert response is not None and response.status == 200
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]
    container = browser_page.locator(".graphiql-container")
    await expect(container, f"GraphiQL did not start: {console_errors}").to_be_visible(timeout=15_000)
    await expect(browser_page.locator(".graphiql-editor-tool")).to_contain_text(
        f"Bearer {live_sibyl.api_key}"
    )
    await browser_page.locator(".graphiql-execute-button").click()

    result = browser_page.locator(".result-window")
    await expect(result).to_contain_text("graphiql-offline.pdf", timeout=15_000)
    await expect(result).to_contain_text(re.compile(r'"totalCount":\s*1'))
    await screenshot(browser_page, "graphiql")  # type: ignore[operator]
    assert outside_requests == []
    assert console_errors == []


async def test_graphiql_page_and_assets_come_from_the_api(live_sibyl: LiveSibyl) -> None:
    async with httpx.AsyncClient(base_url=live_sibyl.url) as client:
        page = await client.get("/graphql", headers={"accept": "text/html"})
        assert page.status_code == 200
        assert "unpkg.com" not in page.text and "<script>" not in page.text
        sources = re.findall(r'(?:src|href)="(/graphiql/[^"]+)"', page.text)
        assert len(sources) == 8
        for source in sources:
            asset = await client.get(source)
            assert asset.status_code == 200, source
            kind = "text/javascript" if source.endswith(".js") else "text/css"
            assert asset.headers["content-type"].startswith(kind)
            assert asset.headers["x-content-type-options"] == "nosniff"


async def test_graphiql_opened_from_the_dashboard_has_its_key(
    live_sibyl: LiveSibyl, browser_page: Page, console_errors: list[str], outside_requests: list[str]
) -> None:
    page = browser_page
    await page.goto(f"{live_sibyl.url}/")
    await page.get_by_label("API key").fill(live_sibyl.api_key)
    await page.get_by_role("button", name="Sign in").click()
    await expect(page.get_by_role("heading", level=1)).not_to_have_text("Sign in")

    await page.get_by_role("link", name="GraphiQL").click()

    await expect(page).to_have_url(f"{live_sibyl.url}/graphql")
    await expect(page.locator(".graphiql-editor-tool")).to_contain_text(
        f"Bearer {live_sibyl.api_key}", timeout=15_000
    )
    await page.locator(".graphiql-execute-button").click()
    await expect(page.locator(".result-window")).to_contain_text('"totalCount": 0', timeout=15_000)
    assert outside_requests == []
    assert console_errors == []


async def test_without_installed_assets_graphiql_says_how_to_install_them(
    services: RunningServices, tmp_path: Path
) -> None:
    settings = make_settings(services, web_assets_dir=tmp_path / "empty")
    async with serve_api(settings) as url, httpx.AsyncClient(base_url=url) as client:
        page = await client.get("/graphql", headers={"accept": "text/html"})

    assert page.status_code == 503
    assert "python -m app.web.assets install" in page.text and "<script" not in page.text
