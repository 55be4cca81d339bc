"""GraphiQL's npm assets: pinned, integrity-checked, only the needed files extracted. The registry
is a local HTTP server serving tarballs built here (the real one is only used by `make install`)."""

from __future__ import annotations

import asyncio
import io
import json
import tarfile
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.web.assets import PACKAGES, IntegrityError, NpmPackage, install, installed, integrity_of
from tests.support.http_server import serve_asgi


def tarball(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, content in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


GOOD = tarball({"dist/widget.js": b"window.Widget = 1;", "dist/widget.css": b"a{}", "README.md": b"hi"})
PINNED = NpmPackage("@acme/widget", "2.0.1", integrity_of(GOOD), ("dist/widget.js", "dist/widget.css"))


@pytest.fixture
async def registry() -> AsyncIterator[tuple[str, dict[str, bytes]]]:
    """A registry serving whatever the test puts in its dict, by tarball path; and that dict."""
    served: dict[str, bytes] = {}

    async def tarball_route(request: Request) -> Response:
        content = served.get(request.url.path)
        return (
            Response(content, media_type="application/octet-stream") if content else Response(status_code=404)
        )

    app = Starlette(routes=[Route("/{path:path}", tarball_route)])
    async with serve_asgi(app) as url:
        yield url, served


async def test_install_verifies_and_extracts_only_the_needed_files(
    registry: tuple[str, dict[str, bytes]], tmp_path: Path
) -> None:
    url, served = registry
    served["/@acme/widget/-/widget-2.0.1.tgz"] = GOOD

    first = await asyncio.to_thread(install, tmp_path, url, None, [PINNED])
    second = await asyncio.to_thread(install, tmp_path, url, None, [PINNED])

    assert (first, second) == (True, False)
    assert (tmp_path / "acme-widget-2.0.1" / "dist" / "widget.js").read_bytes() == b"window.Widget = 1;"
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == [
        "manifest.json",
        "widget.css",
        "widget.js",
    ]
    assert json.loads((tmp_path / "manifest.json").read_text()) == {"@acme/widget": PINNED.integrity}
    assert installed(tmp_path, [PINNED])


async def test_a_tampered_tarball_is_refused_and_nothing_is_written(
    registry: tuple[str, dict[str, bytes]], tmp_path: Path
) -> None:
    url, served = registry
    served["/@acme/widget/-/widget-2.0.1.tgz"] = tarball(
        {"dist/widget.js": b"steal()", "dist/widget.css": b""}
    )

    with pytest.raises(IntegrityError):
        await asyncio.to_thread(install, tmp_path, url, None, [PINNED])

    assert list(tmp_path.iterdir()) == []
    assert not installed(tmp_path, [PINNED])


async def test_a_missing_tarball_fails_the_install(
    registry: tuple[str, dict[str, bytes]], tmp_path: Path
) -> None:
    url, _ = registry

    with pytest.raises(httpx.HTTPStatusError):
        await asyncio.to_thread(install, tmp_path, url, None, [PINNED])


def test_every_pin_is_a_sha512_of_a_real_npm_package() -> None:
    names = {package.name for package in PACKAGES}

    assert names == {"react", "react-dom", "graphiql", "@graphiql/plugin-explorer"}
    assert all(
        package.integrity.startswith("sha512-") and len(package.integrity) == 95 for package in PACKAGES
    )
    assert all(package.tarball_url("https://r").endswith(f"-{package.version}.tgz") for package in PACKAGES)
