"""The dashboard's files (`clients/web/`): `/` is its `index.html`, `/web/{path}` the rest.

They need no API key: they are the same public code for everyone, and the page asks for the key
itself. Only files with a known type are served (a `.py` or dot-file next to them never is), each
with its exact content type, so `nosniff` browsers run modules and styles without guessing.
Responses carry an ETag and `Cache-Control: no-cache`: the browser revalidates and gets a 304.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

WEB_ROOT = Path(__file__).resolve().parents[2] / "clients" / "web"

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".graphql": "application/graphql; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
}


def safe_file(root: Path, relative: str) -> Path | None:
    """The file `relative` names inside `root`, or None if it is missing, hidden or outside (or
    not a name a file can have: one with a NUL, which the file system refuses with an error)."""
    if not relative or "\x00" in relative or any(part.startswith(".") for part in Path(relative).parts):
        return None
    base = root.resolve()
    candidate = (base / relative).resolve()
    if not candidate.is_relative_to(base) or not candidate.is_file():
        return None
    return candidate


def file_response(request: Request, path: Path | None, content_type: str | None = None) -> Response:
    """`path` with its type and an ETag (304 when the browser has it), or a plain 404."""
    media_type = content_type or (CONTENT_TYPES.get(path.suffix.lower()) if path else None)
    if path is None or media_type is None:
        return PlainTextResponse("Not found.", status_code=404)
    headers = {"cache-control": "no-cache"}
    response = FileResponse(path, media_type=media_type, headers=headers, stat_result=path.stat())
    etag = response.headers["etag"]
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers={"etag": etag, **headers})
    return response


def web_routes(root: Path = WEB_ROOT) -> list[BaseRoute]:
    """`GET /` (the dashboard's index.html) and `GET /web/{path}` (its modules, styles, documents)."""

    async def index(request: Request) -> Response:
        return file_response(request, safe_file(root, "index.html"))

    async def asset(request: Request) -> Response:
        return file_response(request, safe_file(root, request.path_params["path"]))

    return [
        Route("/", index, methods=["GET", "HEAD"]),
        Route("/web/{path:path}", asset, methods=["GET", "HEAD"]),
    ]
