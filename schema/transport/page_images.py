"""`GET /reports/{reportId}/pages/{pageNumber}.png`: a report page as an image, for the dashboard.

Authenticated exactly like `/graphql` (`Authorization: Bearer <key>`, counted against the key's
rate limit) and confined to the caller's organisation: another organisation's report, or a claim
of another report, is a 404 like an unknown one, so ids reveal nothing. Query parameters:
`highlight=<claim id>` marks that claim's text on the page (the `X-Sibyl-Highlight-Boxes` header
says how many text boxes were marked, 0 when the text could not be found), `scale` (0.25 to 4,
default 1.5; 1 = 72 dpi). Ids are the API's global ids or bare UUIDs. Errors have the GraphQL
error shape, `{"errors": [{"message", "extensions": {"code"}}]}`.
"""

from __future__ import annotations

import uuid

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from app.documents.pdf import PdfRejected
from app.documents.processes import DocumentCrashed, DocumentFailed, DocumentTimedOut
from app.web.page_images import DEFAULT_SCALE, MAX_SCALE, MIN_SCALE, PageImages, find_target
from schema.context import Services
from schema.errors import ErrorCode, error_document
from schema.transport.auth import Refused, admit, client_address, key_from_headers, log_refusal
from schema.types.ids import parse_node_id

PATH = "/reports/{report_id}/pages/{page_number:int}.png"


def page_image_url(report_id: str, page_number: int, claim_id: str | None = None) -> str:
    """The image's URL path (relative to the API root), highlighting `claim_id` when given."""
    url = f"/reports/{report_id}/pages/{page_number}.png"
    return f"{url}?highlight={claim_id}" if claim_id else url


class BadRequest(Exception):
    """A parameter the route cannot use; the message says which and why."""


def _error(status: int, code: ErrorCode, message: str, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse(error_document(message, {"code": code.name}), status_code=status, headers=headers)


def _not_found(what: str) -> Response:
    return _error(404, ErrorCode.NOT_FOUND, f"No {what} with that id.")


def _scale(request: Request) -> float:
    raw = request.query_params.get("scale")
    if raw is None:
        return DEFAULT_SCALE
    try:
        scale = round(float(raw), 2)
    except ValueError:
        raise BadRequest(f"`scale` must be a number, not {raw!r}.") from None
    if not MIN_SCALE <= scale <= MAX_SCALE:
        raise BadRequest(f"`scale` must be between {MIN_SCALE} and {MAX_SCALE}.")
    return scale


def _claim_id(request: Request) -> uuid.UUID | None:
    raw = request.query_params.get("highlight")
    if not raw:
        return None
    claim_id = parse_node_id(raw, "Claim")
    if claim_id is None:
        raise BadRequest("`highlight` must be a claim id (its global id or UUID).")
    return claim_id


def page_image_route(page_images: PageImages) -> Route:
    """The route, rendering through `page_images` (its cache lives as long as the app)."""

    async def endpoint(request: Request) -> Response:
        services: Services = request.app.state.services
        try:
            key = key_from_headers(request.headers)
            principal = await admit(services, key, client_address(request.scope))
        except Refused as exc:
            log_refusal(exc, "page image request")
            headers = {name.decode(): value.decode() for name, value in exc.headers}
            return JSONResponse(
                error_document(str(exc), exc.extensions), status_code=exc.status, headers=headers
            )
        try:
            scale, claim_id = _scale(request), _claim_id(request)
        except BadRequest as exc:
            return _error(400, ErrorCode.INVALID_ARGUMENT, str(exc))
        report_id = parse_node_id(request.path_params["report_id"], "Report")
        if report_id is None:
            return _not_found("report")
        target = await find_target(services.session_factory, principal.organisation_id, report_id, claim_id)
        if target is None:
            return _not_found("report" if claim_id is None else "report, or no such claim in it,")
        page = request.path_params["page_number"]
        if not 1 <= page <= target.page_count:
            return _error(404, ErrorCode.NOT_FOUND, f"The report has pages 1 to {target.page_count}.")
        try:
            image, cached = await page_images.image(services.session_factory, target, page, claim_id, scale)
        except LookupError:
            return _not_found("report file")
        except (PdfRejected, DocumentCrashed, DocumentTimedOut, DocumentFailed) as exc:
            return _error(500, ErrorCode.INTERNAL_SERVER_ERROR, f"The page could not be rendered: {exc}")
        return Response(
            image.png,
            media_type="image/png",
            headers={
                "cache-control": "private, max-age=3600",
                "x-sibyl-cache": "hit" if cached else "miss",
                "x-sibyl-highlight-boxes": str(image.highlighted_boxes),
                "access-control-expose-headers": "x-sibyl-cache, x-sibyl-highlight-boxes",
            },
        )

    return Route(PATH, endpoint, methods=["GET"])
