"""`GET /reports/{id}/pages/{n}.png`: report pages rendered by the server (PyMuPDF in a document
process), authenticated like /graphql, confined to the caller's organisation, cached, and able to
highlight a claim's text on the page. Runs against the in-process API and worker (no browser)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import httpx
import pymupdf
import pytest
from strawberry.relay import to_base64

from app.db.models import Claim
from app.db.session import SessionFactory
from tests.conftest import new_api_key
from tests.fixtures import pdfs
from tests.support.graphql import GraphQLClient
from tests.support.reports import wait_for_status
from tests.support.sibyl_process import database_id

PAGE_QUERY = """
query Page($id: ID!) { report(id: $id) { pages(first: 1, after: 1) { number text imageUrl } } }
"""
#: The highlighter's yellow (app.documents.page_images.HIGHLIGHT_COLOR), as 8-bit RGB.
HIGHLIGHT_RGB = (255, 217, 0)


def yellow_pixels(png: bytes) -> int:
    """How many pixels are (nearly) the highlighter's yellow."""
    pixmap = pymupdf.Pixmap(png)
    samples, step = pixmap.samples, pixmap.n
    return sum(
        1
        for offset in range(0, len(samples), step)
        if all(abs(samples[offset + i] - HIGHLIGHT_RGB[i]) < 40 for i in range(3))
    )


async def parsed_report(client: GraphQLClient) -> str:
    uploaded = await client.upload_result(pdfs.synthetic_report().pdf, filename="pages.pdf")
    report_id = str(uploaded["report"]["id"])
    await wait_for_status(client, report_id, "PARSED")
    return report_id


async def claim_on_page_2(session_factory: SessionFactory, report_id: str, text: str) -> str:
    """A claim row quoting `text` (seeded: no analysis is needed to check a highlight)."""
    claim = Claim(
        report_id=uuid.UUID(database_id(report_id)),
        text=text,
        claim_type="strategic",
        priority="medium",
        source_page=2,
        source_context=text,
        method="rules",
    )
    async with session_factory() as session, session.begin():
        session.add(claim)
    return to_base64("Claim", str(claim.id))


@pytest.fixture
async def http(api_url: str, api_key: str) -> AsyncIterator[httpx.AsyncClient]:
    headers = {"Authorization": f"Bearer {api_key}"}
    async with httpx.AsyncClient(base_url=api_url, headers=headers, timeout=60) as client:
        yield client


async def test_page_image_is_rendered_cached_and_highlights_a_claim(
    client: GraphQLClient, worker: object, session_factory: SessionFactory, http: httpx.AsyncClient
) -> None:
    report_id = await parsed_report(client)
    page = (await client.data(PAGE_QUERY, id=report_id))["report"]["pages"][0]
    first_line = page["text"].splitlines()[0]
    claim_id = await claim_on_page_2(session_factory, report_id, first_line)

    plain = await http.get(page["imageUrl"])
    again = await http.get(page["imageUrl"])
    marked = await http.get(page["imageUrl"], params={"highlight": claim_id})

    assert page["imageUrl"] == f"/reports/{report_id}/pages/2.png"
    assert plain.status_code == 200 and plain.headers["content-type"] == "image/png"
    assert plain.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert (plain.headers["x-sibyl-cache"], again.headers["x-sibyl-cache"]) == ("miss", "hit")
    assert again.content == plain.content
    assert marked.status_code == 200 and int(marked.headers["x-sibyl-highlight-boxes"]) >= 1
    assert yellow_pixels(plain.content) == 0
    assert yellow_pixels(marked.content) > 500


async def test_page_image_needs_a_key_and_stays_in_the_organisation(
    client: GraphQLClient,
    worker: object,
    session_factory: SessionFactory,
    api_url: str,
    http: httpx.AsyncClient,
) -> None:
    report_id = await parsed_report(client)
    path = f"/reports/{report_id}/pages/1.png"
    other_key = await new_api_key(session_factory, "another-organisation")
    unknown = f"/reports/{to_base64('Report', str(uuid.uuid4()))}/pages/1.png"

    async with httpx.AsyncClient(base_url=api_url, timeout=60) as anonymous:
        missing_key = await anonymous.get(path)
        bad_key = await anonymous.get(path, headers={"Authorization": "Bearer sibyl_nope_" + "x" * 40})
        # one request id for both, so that their answers may be compared whole
        theirs_and_same_id = {"Authorization": f"Bearer {other_key}", "X-Request-ID": "same"}
        theirs = await anonymous.get(path, headers=theirs_and_same_id)
        nothing = await anonymous.get(unknown, headers=theirs_and_same_id)

    assert (missing_key.status_code, bad_key.status_code) == (401, 401)
    assert missing_key.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
    assert theirs.status_code == 404 and theirs.json() == nothing.json()
    assert theirs.json()["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    assert (await http.get(path)).status_code == 200
    assert (await http.get(f"/reports/{report_id}/pages/13.png")).status_code == 404
    assert (await http.get(path, params={"scale": "9"})).status_code == 400
    assert (await http.get(path, params={"highlight": "not-an-id"})).status_code == 400
    foreign_claim = to_base64("Claim", str(uuid.uuid4()))
    assert (await http.get(path, params={"highlight": foreign_claim})).status_code == 404
