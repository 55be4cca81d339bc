"""The dashboard's files and the security headers: `/` and `/web/...` need no key, carry exact
content types, a CSP without inline code and nosniff; nothing outside clients/web is reachable."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from app.web.static import WEB_ROOT


@pytest.fixture
async def anonymous(api_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=api_url, timeout=30) as client:
        yield client


async def test_dashboard_files_are_public_typed_and_locked_down(anonymous: httpx.AsyncClient) -> None:
    if not (WEB_ROOT / "index.html").is_file():
        pytest.skip("clients/web/index.html is not there yet")
    index = await anonymous.get("/")
    graphql_file = next(WEB_ROOT.rglob("*.graphql")).relative_to(WEB_ROOT).as_posix()
    module = next(WEB_ROOT.rglob("*.js")).relative_to(WEB_ROOT).as_posix()

    assert index.status_code == 200 and index.headers["content-type"] == "text/html; charset=utf-8"
    csp = index.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp
    assert index.headers["x-content-type-options"] == "nosniff"
    assert (await anonymous.get(f"/web/{module}")).headers["content-type"] == "text/javascript; charset=utf-8"
    graphql = await anonymous.get(f"/web/{graphql_file}")
    assert graphql.status_code == 200 and graphql.headers["content-type"].startswith("application/graphql")
    again = await anonymous.get("/", headers={"if-none-match": index.headers["etag"]})
    assert again.status_code == 304


async def test_only_dashboard_files_are_served(anonymous: httpx.AsyncClient) -> None:
    for path in ("/web/../../pyproject.toml", "/web/%2e%2e/%2e%2e/Makefile", "/web/.hidden", "/web/nope.js"):
        response = await anonymous.get(path)
        assert response.status_code == 404, path


async def test_the_api_still_needs_a_key(anonymous: httpx.AsyncClient) -> None:
    response = await anonymous.post("/graphql", json={"query": "{ reports { totalCount } }"})

    assert response.status_code == 401
    assert response.headers["x-content-type-options"] == "nosniff"


async def test_large_static_files_are_gzipped(anonymous: httpx.AsyncClient) -> None:
    response = await anonymous.get("/graphiql/ide/graphiql.css", headers={"accept-encoding": "gzip"})
    script = await anonymous.get("/graphiql/ide/graphiql.js", headers={"accept-encoding": "gzip"})

    assert response.status_code == 200 and script.status_code == 200
    assert script.headers.get("content-encoding") == "gzip"
