"""A report's table of contents names every topic and answers none: its windows are recognised
(`app.questions.navigation`) and a disclosure answer cites the page that discusses the topic, never
the contents page (real Postgres and Redis, offline hashing embedder)."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from app.config import Settings
from app.db.models import Report
from app.db.session import SessionFactory
from app.embeddings import HashingEmbedder
from app.organisations import LOCAL_ORGANISATION_ID
from app.questions import QueryType, ask_report
from app.questions.navigation import contents_windows, entry_run
from app.questions.passages import page_drafts
from app.questions.windows import page_sentences, sentence_windows
from tests.support.pipeline import seed_parsed_pages

#: Section headings of a made-up report, one per page from page 3 on; the carbon price section is
#: on page 31.
SECTIONS = [
    "Letter from the chair",
    "Our business model",
    "Markets we serve",
    "Strategy and outlook",
    "Governance of sustainability",
    "Board committees",
    "Executive remuneration",
    "Risk management",
    "Scenario analysis and resilience",
    "Physical risks at our depots",
    "Transition risks",
    "Opportunities in new services",
    "Energy use",
    "Scope 1 and 2 emissions",
    "Scope 3 emissions",
    "Targets and progress",
    "Renewable electricity",
    "Fleet electrification",
    "Suppliers",
    "Customers",
    "Water",
    "Waste and recycling",
    "Biodiversity",
    "Our people",
    "Health and safety",
    "Communities",
    "Ethics and compliance",
    "Internal carbon price",
    "Policy engagement",
    "Trade associations",
    "Data tables",
    "Assurance statement",
]
CARBON_PRICE_PAGE = 3 + SECTIONS.index("Internal carbon price")
CONTENTS_PAGE = 2
CARBON_PRICE = "Every capital project is appraised with an internal carbon price of EUR 90 per tonne of CO2e."
FILLER = (
    "The regional teams met their maintenance schedules during the year.",
    "Customer service answered most calls within two minutes.",
    "We renewed the lease on the northern office.",
)


def contents_text() -> str:
    lines = ["Contents"] + [f"{title}\n{3 + index}" for index, title in enumerate(SECTIONS)]
    return "\n".join(lines)


def report_pages() -> list[tuple[int, str]]:
    pages = [(1, "Larkspur Freight annual review.\n" + " ".join(FILLER)), (CONTENTS_PAGE, contents_text())]
    for index, title in enumerate(SECTIONS):
        number = 3 + index
        body = [title, *FILLER]
        if number == CARBON_PRICE_PAGE:
            body.insert(1, CARBON_PRICE)
        pages.append((number, "\n".join(body)))
    return pages


def test_the_windows_of_a_contents_page_are_recognised() -> None:
    text = contents_text()
    windows = [window.text for window in sentence_windows(page_sentences(CONTENTS_PAGE, text))]

    flagged = contents_windows(text, windows)

    assert len(windows) >= 3
    assert flagged == set(range(len(windows)))
    drafts = page_drafts(CONTENTS_PAGE, text)
    assert all(draft.attributes.get("contents") for draft in drafts)


def test_prose_tables_charts_and_numbered_labels_are_not_contents() -> None:
    prose = "We cut Scope 1 emissions by 12% in 2023. Category 3 emissions fell 4.5% against 2019."
    table = "Scope 1 12.4 11.9 10.2 Scope 2 8.1 7.7 6.9 Scope 3 Category 1 412 398 377 Category 11 95 93"
    chart = "Emissions by year 0 20 40 60 80 100 120 140"
    assert entry_run(prose) < 3
    assert entry_run(table) < 6
    # A chart axis rises like page numbers, but a page is contents only when it says so.
    assert contents_windows(chart, [chart, chart, chart]) == set()
    assert contents_windows("Table of Contents " + prose, [prose, table, prose]) == set()


@pytest.mark.usefixtures("clean_db")
async def test_a_disclosure_answer_cites_the_section_not_the_contents_page(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    pages = report_pages()
    assert [number for number, _ in pages] == list(range(1, len(pages) + 1))
    report_id = await seed_parsed_pages(
        session_factory, [text for _, text in pages], company_name="Larkspur Freight", filename="larkspur.pdf"
    )
    async with session_factory() as session:
        report = await session.get(Report, report_id)
    assert report is not None

    answer = await ask_report(
        session_factory,
        redis,
        HashingEmbedder(384),
        None,
        settings,
        report,
        LOCAL_ORGANISATION_ID,
        "Does the company use an internal carbon price?",
    )

    assert answer.query_type is QueryType.DISCLOSURE
    cited = [citation.page_number for citation in answer.citations]
    assert cited[0] == CARBON_PRICE_PAGE
    assert CONTENTS_PAGE not in cited
