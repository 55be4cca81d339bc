"""Adding evidence documents: text, HTML, PDF and URLs in; passages stored, embedded and traceable."""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator
from datetime import date, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.config import Settings
from app.db.models import EvidenceDocument, KnowledgePassage
from app.db.session import SessionFactory
from app.embeddings import Embedder, HashingEmbedder
from app.evidence.fields import clean_source_url
from app.evidence.ingest import EvidenceOutcome, EvidenceProblem, EvidenceRejected, add_evidence_document
from app.evidence.search import load_document_texts, search_evidence
from app.knowledge.search import KnowledgeSearch
from app.knowledge.store import embed_stale
from tests.conftest import make_settings
from tests.fixtures import pdfs
from tests.support.evidence import BrokenEmbedder, article
from tests.support.http_server import serve_asgi
from tests.support.services import RunningServices

EMBEDDER = HashingEmbedder(384)
SPILL = "Tailings from the Karoo nickel smelter spilled into the Vaal river in March."
ARTICLE_HTML = f"""<html><head><title>Smelter spill reported</title><script>var x = 1;</script></head>
<body><nav>Home | News</nav><p>{SPILL}</p><p>Residents reported dead fish downstream.</p></body></html>"""


@pytest.fixture
def small(services: RunningServices) -> Settings:
    """Small passages and a small size limit, so several passages and the limit are cheap to reach."""
    return make_settings(services, evidence_chunk_chars=300, evidence_max_document_bytes=20_000)


async def add(
    session_factory: SessionFactory, settings: Settings, embedder: Embedder = EMBEDDER, **kwargs: Any
) -> EvidenceOutcome:
    return await add_evidence_document(session_factory, embedder, settings, **kwargs)


async def passages_of(session_factory: SessionFactory, document_id: uuid.UUID) -> list[KnowledgePassage]:
    async with session_factory() as session:
        rows = await session.scalars(
            select(KnowledgePassage).where(
                KnowledgePassage.source_type == "evidence",
                KnowledgePassage.key.startswith(f"{document_id}/"),
            )
        )
        return sorted(rows, key=lambda row: int(row.attributes["chunk_index"]))


async def document_count(session_factory: SessionFactory) -> tuple[int, int]:
    async with session_factory() as session:
        documents = await session.scalar(select(func.count()).select_from(EvidenceDocument)) or 0
        passages = (
            await session.scalar(
                select(func.count())
                .select_from(KnowledgePassage)
                .where(KnowledgePassage.source_type == "evidence")
            )
            or 0
        )
    return documents, passages


async def test_text_is_stored_as_traceable_embedded_passages(
    clean_db: None, session_factory: SessionFactory, small: Settings
) -> None:
    text = article([SPILL], before=16, after=16)

    outcome = await add(
        session_factory,
        small,
        title="Smelter spill",
        text=text,
        source_url="https://www.Reuters.com/world/spill?id=1",
        published_date="2024-03-05",
    )

    document = outcome.document
    assert outcome.duplicate is False
    assert (document.title, document.media_type, document.source_domain) == (
        "Smelter spill",
        "text/plain",
        "reuters.com",
    )
    assert document.published_date == date(2024, 3, 5)
    assert document.char_count == len(text)
    stored = (await load_document_texts(session_factory, [str(document.id)]))[str(document.id)]
    assert stored == text
    passages = await passages_of(session_factory, document.id)
    assert len(passages) == document.chunk_count > 3
    for index, passage in enumerate(passages):
        attributes = passage.attributes
        assert passage.key == f"{document.id}/{index}"
        assert passage.title == "Smelter spill"
        assert passage.summary == stored[attributes["char_start"] : attributes["char_end"]]
        assert attributes["document_id"] == str(document.id)
        assert attributes["source_url"] == "https://www.Reuters.com/world/spill?id=1"
        assert attributes["published_date"] == "2024-03-05"
        assert passage.embedding_model == EMBEDDER.name
    assert any(SPILL in passage.summary for passage in passages)


async def test_html_is_read_without_scripts_and_named_by_its_title(
    clean_db: None, session_factory: SessionFactory, settings: Settings
) -> None:
    outcome = await add(session_factory, settings, content=ARTICLE_HTML.encode(), filename="spill.html")

    texts = await load_document_texts(session_factory, [str(outcome.document.id)])
    assert outcome.document.title == "Smelter spill reported"
    assert outcome.document.media_type == "text/html"
    assert outcome.document.filename == "spill.html"
    assert texts[str(outcome.document.id)] == f"{SPILL}\n\nResidents reported dead fish downstream."


async def test_pdf_text_is_extracted_page_by_page(
    clean_db: None, session_factory: SessionFactory, settings: Settings
) -> None:
    content = pdfs.make_report_pdf([["Notice of violation issued to Karoo Metals."], [SPILL]])

    outcome = await add(session_factory, settings, content=content, filename="notice.pdf")

    text = (await load_document_texts(session_factory, [str(outcome.document.id)]))[str(outcome.document.id)]
    assert outcome.document.media_type == "application/pdf"
    assert outcome.document.title == "Notice of violation issued to Karoo Metals."
    assert text.index("Notice of violation") < text.index(SPILL)


async def test_titles_fall_back_to_the_first_line_then_the_filename(
    clean_db: None, session_factory: SessionFactory, settings: Settings
) -> None:
    markdown = await add(
        session_factory, settings, text="# Field notes\n\nSamples were taken.", filename="n.md"
    )
    html = await add(session_factory, settings, content=b"<html><body>\n</body></html>x", filename="x.html")

    paragraph = await add(session_factory, settings, content=article(["x"]).encode(), filename="minutes.txt")

    assert (markdown.document.title, markdown.document.media_type) == ("Field notes", "text/markdown")
    assert html.document.title == "x"  # the page's only text is its first line
    assert paragraph.document.title == "minutes.txt"  # a paragraph is no title


async def test_the_same_text_twice_is_one_document(
    clean_db: None, session_factory: SessionFactory, settings: Settings
) -> None:
    text = article([SPILL])
    first = await add(session_factory, settings, title="First", text=text)

    again = await add(session_factory, settings, title="Second", text=text.replace("\n", "\r\n") + "  \n")

    assert again.duplicate is True
    assert again.document.id == first.document.id
    assert again.document.title == "First"
    assert await document_count(session_factory) == (1, first.document.chunk_count)


REFUSALS: list[tuple[str, dict[str, Any], EvidenceProblem, str | None]] = [
    ("nothing", {}, EvidenceProblem.NO_INPUT, None),
    ("blank text", {"text": "  \n "}, EvidenceProblem.EMPTY_TEXT, "text"),
    ("text and file", {"text": "a", "content": b"b"}, EvidenceProblem.CONFLICTING_INPUT, "text"),
    ("empty file", {"content": b"", "filename": "a.txt"}, EvidenceProblem.EMPTY_TEXT, "file"),
    (
        "image",
        {"content": b"\x89PNG\r\n", "content_type": "image/png"},
        EvidenceProblem.UNSUPPORTED_TYPE,
        "file",
    ),
    ("corrupt pdf", {"content": pdfs.corrupt_pdf()}, EvidenceProblem.UNREADABLE_FILE, "file"),
    ("encrypted pdf", {"content": pdfs.encrypted_pdf()}, EvidenceProblem.UNREADABLE_FILE, "file"),
    ("scanned pdf", {"content": pdfs.scanned_pdf()}, EvidenceProblem.EMPTY_TEXT, "file"),
    ("big text", {"text": "word " * 5000}, EvidenceProblem.TOO_LARGE, "text"),
    ("big file", {"content": b"a" * 20_001, "filename": "a.txt"}, EvidenceProblem.TOO_LARGE, "file"),
    (
        "bad date",
        {"text": "a", "published_date": "2024-02-30"},
        EvidenceProblem.INVALID_DATE,
        "publishedDate",
    ),
    (
        "future date",
        {"text": "a", "published_date": date.today() + timedelta(days=30)},
        EvidenceProblem.INVALID_DATE,
        "publishedDate",
    ),
    ("bad url", {"text": "a", "source_url": "ftp://x.org/a"}, EvidenceProblem.INVALID_URL, "sourceUrl"),
    ("long title", {"text": "a", "title": "t" * 501}, EvidenceProblem.INVALID_TITLE, "title"),
    (
        "long url",
        {"text": "a", "source_url": "https://x.org/" + "a" * 2035},
        EvidenceProblem.INVALID_URL,
        "sourceUrl",
    ),
    (
        "long file name",
        {"content": b"notes", "filename": "n" * 252 + ".txt"},
        EvidenceProblem.INVALID_FILENAME,
        "file",
    ),
]


@pytest.mark.parametrize(("name", "kwargs", "code", "field"), REFUSALS, ids=[case[0] for case in REFUSALS])
async def test_bad_input_is_refused_with_a_code_and_field_and_stores_nothing(
    clean_db: None,
    session_factory: SessionFactory,
    small: Settings,
    name: str,
    kwargs: dict[str, Any],
    code: EvidenceProblem,
    field: str | None,
) -> None:
    with pytest.raises(EvidenceRejected) as refused:
        await add(session_factory, small, **kwargs)

    assert (refused.value.code, refused.value.field) == (code, field)
    assert isinstance(refused.value, ValueError) and len(refused.value.message) > 10
    assert await document_count(session_factory) == (0, 0)


async def test_embedder_down_stores_the_document_searchable_by_text_until_reindexed(
    clean_db: None, session_factory: SessionFactory, small: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="app.evidence.ingest"):
        outcome = await add(session_factory, small, BrokenEmbedder(), text=article([SPILL]))

    passages = await passages_of(session_factory, outcome.document.id)
    assert passages and all(passage.embedding_model is None for passage in passages)
    assert "without vectors" in caplog.text
    hits = await search_evidence(
        KnowledgeSearch(session_factory, BrokenEmbedder()), "nickel smelter tailings", 3
    )
    assert [hit.document_id for hit in hits] == [str(outcome.document.id)]
    assert SPILL in hits[0].text

    embedded = await embed_stale(session_factory, EMBEDDER)  # what `sibyl corpus reindex` runs

    assert embedded >= len(passages)
    assert all(
        p.embedding_model == EMBEDDER.name for p in await passages_of(session_factory, outcome.document.id)
    )


def _site() -> Starlette:
    async def page(request: Request) -> Response:
        return Response(ARTICLE_HTML, media_type="text/html; charset=utf-8")

    async def notice(request: Request) -> Response:
        return Response(pdfs.make_report_pdf([[SPILL]]), media_type="application/pdf")

    async def moved(request: Request) -> Response:
        return Response(status_code=302, headers={"location": "/news/spill"})

    async def gone(request: Request) -> Response:
        return Response("gone", status_code=404)

    async def to_long(request: Request) -> Response:
        return Response(status_code=302, headers={"location": "/news/spill?ref=" + "r" * 3000})

    return Starlette(
        routes=[
            Route("/news/spill", page),
            Route("/files/notice", notice),
            Route("/old", moved),
            Route("/gone", gone),
            Route("/to-long", to_long),
        ]
    )


@pytest.fixture
async def site() -> AsyncIterator[str]:
    async with serve_asgi(_site()) as url:
        yield url


async def test_a_url_alone_is_fetched_read_and_stored(
    clean_db: None, session_factory: SessionFactory, services: RunningServices, site: str
) -> None:
    local = make_settings(services, fetch_allow_private_addresses=True)

    page = await add(session_factory, local, source_url=f"{site}/old", published_date=date(2024, 3, 6))
    notice = await add(session_factory, local, source_url=f"{site}/files/notice")

    assert page.document.source_url == f"{site}/news/spill"  # where the redirect led
    assert page.document.source_domain == "127.0.0.1"
    assert (page.document.title, page.document.media_type) == ("Smelter spill reported", "text/html")
    assert notice.document.media_type == "application/pdf"
    assert notice.document.title == SPILL
    with pytest.raises(EvidenceRejected) as unreachable:
        await add(session_factory, local, source_url=f"{site}/gone")
    assert (unreachable.value.code, unreachable.value.field) == (EvidenceProblem.URL_UNREACHABLE, "sourceUrl")


async def test_a_redirect_to_an_overlong_url_keeps_the_url_asked_for(
    clean_db: None, session_factory: SessionFactory, services: RunningServices, site: str
) -> None:
    local = make_settings(services, fetch_allow_private_addresses=True)

    outcome = await add(session_factory, local, source_url=f"{site}/to-long")

    assert outcome.document.source_url == f"{site}/to-long"
    passages = await passages_of(session_factory, outcome.document.id)
    assert passages and {p.attributes["source_url"] for p in passages} == {f"{site}/to-long"}


def test_a_url_of_the_longest_length_is_kept_whole() -> None:
    url = "https://x.org/" + "a" * (2048 - len("https://x.org/"))

    assert clean_source_url(url) == url


async def test_private_urls_are_refused_unless_allowed(
    clean_db: None, session_factory: SessionFactory, settings: Settings, site: str
) -> None:
    assert settings.fetch_allow_private_addresses is False

    with pytest.raises(EvidenceRejected) as refused:
        await add(session_factory, settings, source_url=f"{site}/news/spill")

    assert (refused.value.code, refused.value.field) == (EvidenceProblem.URL_REFUSED, "sourceUrl")
    assert "private" in refused.value.message or "loopback" in refused.value.message
    assert await document_count(session_factory) == (0, 0)


async def test_a_page_over_the_size_limit_is_refused_while_fetching(
    clean_db: None, session_factory: SessionFactory, services: RunningServices, site: str
) -> None:
    tiny = make_settings(services, fetch_allow_private_addresses=True, evidence_max_document_bytes=100)

    with pytest.raises(EvidenceRejected) as refused:
        await add(session_factory, tiny, source_url=f"{site}/news/spill")

    assert (refused.value.code, refused.value.field) == (EvidenceProblem.TOO_LARGE, "sourceUrl")
