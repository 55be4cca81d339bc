"""Our GraphiQL page: the IDE Strawberry would serve, with its assets from this server.

The page is plain HTML with no inline script (the CSP forbids it): it loads React, GraphiQL and
the explorer plugin from `/graphiql/assets/` (installed by `app.web.assets`) and starts GraphiQL
from `/graphiql/ide/graphiql.js`, which fills the headers editor with the dashboard's API key.
Served at `/graphql` to browsers (via `SibylGraphQL.render_graphql_ide`) and at `/graphiql`.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from app.web.assets import PACKAGES, installed
from app.web.static import file_response, safe_file

IDE_ROOT = Path(__file__).resolve().parent / "ide"
ASSETS_URL = "/graphiql/assets"
#: The pinned assets never change under a URL (the version is in it): browsers keep them.
IMMUTABLE = "public, max-age=31536000, immutable"


def _asset_urls(suffix: str) -> list[str]:
    return [
        f"{ASSETS_URL}/{package.folder}/{relative}"
        for package in PACKAGES
        for relative in package.files
        if relative.endswith(suffix)
    ]


def page_html() -> str:
    """The GraphiQL page: styles, then the scripts in dependency order, then our start-up script."""
    styles = [*_asset_urls(".css"), "/graphiql/ide/graphiql.css"]
    scripts = [*_asset_urls(".js"), "/graphiql/ide/graphiql.js"]
    head = "\n".join(f'    <link rel="stylesheet" href="{escape(url)}">' for url in styles)
    body = "\n".join(f'    <script src="{escape(url)}"></script>' for url in scripts)
    return f"""<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Sibyl · GraphiQL</title>
    <link rel="icon" href="data:,">
{head}
  </head>
  <body>
    <div id="graphiql">Loading GraphiQL…</div>
{body}
  </body>
</html>
"""


MISSING_HTML = """<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Sibyl · GraphiQL unavailable</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/graphiql/ide/graphiql.css">
  </head>
  <body>
    <main class="sibyl-missing">
      <h1>GraphiQL's files are not installed</h1>
      <p>Run <code>make install</code> (or <code>python -m app.web.assets install</code>) once with
      access to the npm registry, then reload. The GraphQL API itself works without them.</p>
    </main>
  </body>
</html>
"""


def graphiql_response(assets: Path) -> Response:
    """The page, or a 503 page saying how to install the assets when they are missing."""
    if not installed(assets):
        return HTMLResponse(MISSING_HTML, status_code=503)
    return HTMLResponse(page_html(), headers={"cache-control": "no-cache"})


def graphiql_routes(assets: Path) -> list[BaseRoute]:
    """`/graphiql` (the page), `/graphiql/ide/…` (our script and style), `/graphiql/assets/…`."""

    async def page(request: Request) -> Response:
        return graphiql_response(assets)

    async def ide_file(request: Request) -> Response:
        return file_response(request, safe_file(IDE_ROOT, request.path_params["path"]))

    async def asset(request: Request) -> Response:
        response = file_response(request, safe_file(assets, request.path_params["path"]))
        if response.status_code == 200:
            response.headers["cache-control"] = IMMUTABLE
        return response

    return [
        Route("/graphiql", page, methods=["GET", "HEAD"]),
        Route("/graphiql/ide/{path:path}", ide_file, methods=["GET", "HEAD"]),
        Route(f"{ASSETS_URL}/{{path:path}}", asset, methods=["GET", "HEAD"]),
    ]
