"""Browser tests: Playwright for Python driving Debian's `chromium` against a real `sibyl run`.

Playwright's own browser download cannot work here, so the browser is the system's chromium
(`make test` installs it as root when missing). Without one the tests skip, except under
`CI=true`, where they fail: CI must never pass by skipping the only real-browser checks.

Fixtures:
- `live_sibyl`: a `sibyl run` subprocess (API + worker) on a free port against the test session's
  Postgres and Redis, with a fresh API key of the `local` organisation for each test (storage is
  cleaned first, as for every storage test). One server serves the whole `tests/web` package.
- `rate_limited_sibyl`: a second `sibyl run`, for one test, with a low `RATE_LIMIT_PER_MINUTE`
  (indirect parametrisation) and `live_sibyl`'s key.
- `browser_page`: a page in a fresh browser context at 1280×800 with no route to the internet
  (`outside_requests` lists what it tried to reach); `console_errors` collects the
  page's console errors and uncaught exceptions (assert it is empty); `screenshot(page, name)`
  saves a PNG under tests/web/screenshots/ (ignored by git).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from app.db.session import SessionFactory
from app.organisations import LOCAL_ORGANISATION_NAME
from tests.conftest import IN_PROCESS_WORKERS, new_api_key
from tests.support.services import RunningServices
from tests.support.sibyl_process import REPORT_STATUS, SibylProcess, running_sibyl, upload_report

try:
    from playwright.async_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Error,
        Page,
        Route,
        async_playwright,
    )
except ImportError:  # pragma: no cover - the dev extra installs it
    async_playwright = None  # type: ignore[assignment]

SCREENSHOTS = Path(__file__).parent / "screenshots"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 800}
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def no_browser(reason: str) -> None:
    """Skip the test, or fail it under CI (where a browser must be available)."""
    if in_ci():
        pytest.fail(f"CI=true but no browser test can run: {reason}", pytrace=False)
    pytest.skip(reason)


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass
class LiveSibyl:
    """The running server: its base URL (no trailing slash), an API key, and the process."""

    url: str
    api_key: str
    process: SibylProcess

    def log(self) -> str:
        return self.process.log()

    def client(self, api_key: str | None = None) -> httpx.AsyncClient:
        """An HTTP client for the server, sending `api_key` (default: this test's key)."""
        key = self.api_key if api_key is None else api_key
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.AsyncClient(base_url=self.url, headers=headers, timeout=30)

    async def graphql(self, query: str, **variables: Any) -> dict[str, Any]:
        """`data` of a query or mutation (asserting no errors)."""
        async with self.client() as client:
            body = (await client.post("/graphql", json={"query": query, "variables": variables})).json()
        assert "errors" not in body, body
        return dict(body["data"])

    async def upload(self, pdf: bytes, filename: str, company_name: str | None = None) -> str:
        """Upload a PDF; the new report's id."""
        return await asyncio.to_thread(upload_report, self.url, self.api_key, pdf, filename, company_name)

    async def wait_for_status(self, report_id: str, *statuses: str, timeout: float = 60) -> str:
        """Poll until the report is in one of `statuses`; the status reached."""
        deadline = time.monotonic() + timeout
        while True:
            report = (await self.graphql(REPORT_STATUS, id=report_id))["report"]
            if report["status"] in statuses:
                return str(report["status"])
            assert time.monotonic() < deadline, f"report still {report['status']}:\n{self.log()[-3000:]}"
            await asyncio.sleep(0.2)


@pytest.fixture(scope="package")
def sibyl_server(services: RunningServices) -> Iterator[SibylProcess]:
    """`sibyl run` against the test databases; stopped (Ctrl-C) after the package's tests."""
    with running_sibyl(services, prefix="sibyl-web-") as process:
        yield process


@pytest.fixture
def rate_limited_sibyl(
    request: pytest.FixtureRequest, live_sibyl: LiveSibyl, services: RunningServices
) -> Iterator[LiveSibyl]:
    """A second `sibyl run`, for this test only, whose `RATE_LIMIT_PER_MINUTE` is the test's
    `rate_limit` parameter (indirect parametrisation; default 12). Same databases and the same API
    key as `live_sibyl` (whose server the limit does not touch)."""
    per_minute = str(getattr(request, "param", 12))
    with running_sibyl(services, prefix="sibyl-web-", RATE_LIMIT_PER_MINUTE=per_minute) as process:
        yield LiveSibyl(f"http://127.0.0.1:{process.api_port}", live_sibyl.api_key, process)


@pytest.fixture
async def live_sibyl(
    sibyl_server: SibylProcess, session_factory: SessionFactory, clean_db: None
) -> LiveSibyl:
    # It would take jobs from the queue it shares with the server's workers.
    assert not IN_PROCESS_WORKERS, "an ARQ worker runs in this process (see tests.support.package_worker)"
    key = await new_api_key(session_factory, LOCAL_ORGANISATION_NAME)
    return LiveSibyl(f"http://127.0.0.1:{sibyl_server.api_port}", key, sibyl_server)


@pytest.fixture(scope="package")
async def browser() -> AsyncIterator[Browser]:
    """Chromium, launched once for the package (each test gets a fresh context, i.e. a fresh
    profile: no cookies, storage or cache shared between tests)."""
    if async_playwright is None:
        no_browser("playwright is not installed (pip install -e '.[dev]')")
    executable = chromium_path()
    if executable is None:
        no_browser("no chromium on PATH (apt-get install chromium; `make test` does it as root)")
    async with async_playwright() as playwright:
        try:
            launched = await playwright.chromium.launch(
                executable_path=executable, headless=True, args=LAUNCH_ARGS
            )
        except Error as exc:
            no_browser(f"chromium at {executable} did not start: {exc}")
        yield launched
        await launched.close()


@pytest.fixture
def outside_requests() -> list[str]:
    """URLs the page tried to fetch from anywhere but loopback (each was refused)."""
    return []


@pytest.fixture
async def browser_context(browser: Browser, outside_requests: list[str]) -> AsyncIterator[BrowserContext]:
    """A fresh context with no route to the internet: every request to a host other than
    loopback is aborted and recorded in `outside_requests`."""
    context = await browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]

    async def only_loopback(route: Route) -> None:
        host = urlsplit(route.request.url).hostname or ""
        if route.request.url.startswith(("data:", "blob:")) or host in LOOPBACK:
            await route.continue_()
        else:
            outside_requests.append(route.request.url)
            await route.abort("internetdisconnected")

    await context.route("**/*", only_loopback)
    yield context
    await context.close()


@pytest.fixture
def console_errors() -> list[str]:
    """Console errors and uncaught page exceptions of `browser_page`, in order."""
    return []


@pytest.fixture
async def browser_page(browser_context: BrowserContext, console_errors: list[str]) -> Page:
    page = await browser_context.new_page()

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            console_errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    page.on("console", on_console)
    page.on("pageerror", lambda error: console_errors.append(f"uncaught: {error}"))
    return page


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Callable[[Page, str], object]:
    """`await screenshot(page, "name")` saves tests/web/screenshots/<test>-<name>.png."""
    SCREENSHOTS.mkdir(exist_ok=True)

    async def take(page: Page, name: str) -> Path:
        path = SCREENSHOTS / f"{request.node.name}-{name}.png"
        await page.screenshot(path=str(path), full_page=True)
        return path

    return take
