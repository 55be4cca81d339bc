"""The Content-Security-Policy lets pages connect only to their own origin.

An injected script (were one ever to run) could otherwise send what the page holds (the API key
the dashboard keeps) over a WebSocket to any host. `connect-src 'self'` covers the page's own
`ws:`/`wss:` origin in current browsers (CSP Level 3), so the dashboard's and GraphiQL's
subscriptions keep working; the browser test checks both in chromium.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.web.conftest import LAUNCH_ARGS, chromium_path, no_browser

try:
    from playwright.async_api import async_playwright
except ImportError:  # pragma: no cover - the dev extra installs it
    async_playwright = None  # type: ignore[assignment]

PAGES = ["/", "/graphiql", "/web/index.html"]

#: Opens a WebSocket to `url` and resolves to "open", "blocked" (CSP) or "failed" (no server).
TRY_SOCKET = """
(url) => new Promise((resolve) => {
  let socket;
  document.addEventListener("securitypolicyviolation", () => resolve("blocked"), { once: true });
  try {
    socket = new WebSocket(url, "graphql-transport-ws");
  } catch (error) {
    resolve(error.name === "SecurityError" ? "blocked" : "failed: " + error);
    return;
  }
  socket.onopen = () => { socket.close(); resolve("open"); };
  socket.onerror = () => setTimeout(() => resolve("failed"), 500);
})
"""


def connect_src(policy: str) -> list[str]:
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    return directives["connect-src"].split()


@pytest.mark.parametrize("path", PAGES)
async def test_pages_may_connect_to_their_own_origin_only(api_url: str, path: str) -> None:
    async with httpx.AsyncClient(base_url=api_url, timeout=30) as http:
        response = await http.get(path)

    assert connect_src(response.headers["content-security-policy"]) == ["'self'"]


@pytest.fixture
async def other_origin() -> AsyncIterator[int]:
    """A listening port that is not the page's origin (it answers nothing)."""
    server = await asyncio.start_server(lambda reader, writer: writer.close(), "127.0.0.1", 0)
    yield server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()


async def test_in_a_browser_the_own_websocket_opens_and_another_host_is_blocked(
    api_url: str, other_origin: int
) -> None:
    if async_playwright is None:
        no_browser("playwright is not installed (pip install -e '.[dev]')")
    executable = chromium_path()
    if executable is None:
        no_browser("no chromium on PATH (apt-get install chromium; `make test` does it as root)")
    own = api_url.replace("http://", "ws://") + "/graphql"
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=executable, headless=True, args=LAUNCH_ARGS
        )
        try:
            page = await browser.new_page()
            await page.goto(api_url + "/")
            same_origin = await page.evaluate(TRY_SOCKET, own)
            elsewhere = await page.evaluate(TRY_SOCKET, f"ws://127.0.0.1:{other_origin}/graphql")
        finally:
            await browser.close()

    assert same_origin == "open"
    assert elsewhere == "blocked"
