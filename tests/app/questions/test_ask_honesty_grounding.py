"""askReport does not claim coverage a report lacks, words what it quotes honestly, and treats
yes/no practice questions as disclosure questions (real Postgres and Redis, offline hashing
embedder, no LLM).

A generated retailer report shares words with review questions without addressing them: product
test "scenarios", a "Standards Board" it follows, targets set by its executive team (no pay), and
on one page the Scope 3 categories that make up most of its footprint. All text is written for Sibyl.
"""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from app.config import Settings
from app.db.models import Report
from app.db.session import SessionFactory
from app.documents.pdf import open_pdf, read_pages
from app.embeddings import HashingEmbedder
from app.organisations import LOCAL_ORGANISATION_ID
from app.questions import Answer, QueryType, ask_report
from app.questions.answer import APPEAR_TO_ADDRESS, NOT_ADDRESSED
from app.questions.classify import classify_by_rules
from app.questions.grounding import word_stems
from tests.fixtures.disclosure_report import (
    BOARD,
    PAY,
    SCENARIOS,
    DisclosureReport,
    disclosure_report,
    store_report,
)
from tests.fixtures.pdfs import make_report_pdf

pytestmark = pytest.mark.usefixtures("clean_db")

EMBEDDER = HashingEmbedder(384)

PRODUCT_TEST = "Lab results shown in scenarios where our own-brand lubricant was tested against rivals."
STANDARDS = "Our governance of climate risks follows the Sustainability Accounting Standards Board."
TARGETS = "Our executive leadership team sets emission targets based on the latest available science."
CATEGORIES = "Most of our Scope 3 emissions come from Category 1 and Category 11 of the GHG Protocol."
RISKS = "Climate risks we identified include store flooding; opportunities include heat pump sales."
#: Pages that mention Scope 3 without naming a category, so ranking decides.
SCOPE_3_DECOYS = (
    "Scope 3 emissions rose as store sales grew in every region we serve.",
    "We ask suppliers to report their own emissions so our Scope 3 estimate improves.",
)

SCENARIO_QUESTION = (
    "Does Harbourline describe climate scenario analysis and which scenarios it used to test "
    "the resilience of its strategy?"
)
BOARD_QUESTION = "How does the board oversee climate-related risks and opportunities?"
PAY_QUESTION = "Is executive pay linked to climate targets?"
RISKS_QUESTION = (
    "Does the company describe the climate-related risks and opportunities it has identified over "
    "the short, medium and long term?"
)
CATEGORY_QUESTION = "Which Scope 3 categories are included in the reported Scope 3 emissions?"

_FILLER = (
    "Store teams restocked shelves overnight to keep aisles clear for members.",
    "Our membership renewal rate stayed high in every region we serve.",
    "We opened new warehouses in three regions during the year.",
    "Bakery and deli sales grew with new ready-to-eat products.",
)


def retailer_report() -> DisclosureReport:
    """Ten pages: decoys on pages 2, 3 and 5, Scope 3 decoys on 4 and 6, categories on 8, the
    risks and opportunities identified on 9."""
    planted = {
        2: [STANDARDS],
        3: [TARGETS],
        4: [SCOPE_3_DECOYS[0]],
        5: [PRODUCT_TEST],
        6: [SCOPE_3_DECOYS[1]],
        8: [CATEGORIES],
        9: [RISKS],
    }
    pages = [
        [f"Harbourline Stores Climate Update, page {number}.", *planted.get(number, [])]
        + [_FILLER[(number + offset) % len(_FILLER)] for offset in range(2)]
        for number in range(1, 11)
    ]
    pdf = make_report_pdf(pages)
    with open_pdf(pdf) as document:
        read = read_pages(document, 1, document.page_count)
    located = {sentence: number for number, sentences in planted.items() for sentence in sentences}
    return DisclosureReport(pdf=pdf, pages=read, planted=located)


@pytest.fixture(scope="module")
def retailer() -> DisclosureReport:
    return retailer_report()


@pytest.fixture(scope="module")
def planted() -> DisclosureReport:
    return disclosure_report()


async def ask(
    session_factory: SessionFactory, redis: Redis, settings: Settings, report: Report, question: str
) -> Answer:
    return await ask_report(
        session_factory, redis, EMBEDDER, None, settings, report, LOCAL_ORGANISATION_ID, question
    )


@pytest.mark.parametrize(
    ("question", "decoy", "paragraph"),
    [
        (SCENARIO_QUESTION, PRODUCT_TEST, "S2.22"),
        (BOARD_QUESTION, STANDARDS, "S2.6"),
        (PAY_QUESTION, TARGETS, "S2.29(g)"),
    ],
)
async def test_a_shared_word_in_another_sense_is_not_coverage(
    session_factory: SessionFactory,
    redis: Redis,
    settings: Settings,
    retailer: DisclosureReport,
    question: str,
    decoy: str,
    paragraph: str,
) -> None:
    """ "scenarios" of a product test, the "Standards Board", targets without pay: not addressed."""
    report = await store_report(session_factory, retailer)

    answer = await ask(session_factory, redis, settings, report, question)

    assert answer.query_type is QueryType.DISCLOSURE
    assert answer.answer.startswith(NOT_ADDRESSED), answer.answer
    assert answer.citations == []
    assert decoy not in answer.answer
    assert paragraph in answer.ifrs_paragraphs


@pytest.mark.parametrize(
    ("question", "sentence"),
    [(SCENARIO_QUESTION, SCENARIOS), (BOARD_QUESTION, BOARD), (PAY_QUESTION, PAY)],
)
async def test_the_same_questions_still_find_a_real_disclosure(
    session_factory: SessionFactory,
    redis: Redis,
    settings: Settings,
    planted: DisclosureReport,
    question: str,
    sentence: str,
) -> None:
    """The check that refuses the decoys keeps the passages that do address the question."""
    report = await store_report(session_factory, planted)

    answer = await ask(session_factory, redis, settings, report, question.replace("Harbourline", "Larkspur"))

    page = planted.planted[sentence]
    assert answer.citations and answer.citations[0].page_number == page
    assert sentence in answer.citations[0].excerpt


async def test_extractive_answers_say_the_passages_appear_to_address_the_question(
    session_factory: SessionFactory, redis: Redis, settings: Settings, planted: DisclosureReport
) -> None:
    report = await store_report(session_factory, planted)

    answer = await ask(
        session_factory, redis, settings, report, "Does the company use an internal carbon price?"
    )

    pages = ", ".join(
        str(p) for p in dict.fromkeys(c.page_number for c in answer.citations if c.kind == "page")
    )
    assert answer.answer.startswith(f"{APPEAR_TO_ADDRESS} (page{'s' if ',' in pages else ''} {pages}):")
    assert "The report addresses this" not in answer.answer


async def test_a_question_naming_scope_3_categories_cites_the_sentence_that_names_them(
    session_factory: SessionFactory, redis: Redis, settings: Settings, retailer: DisclosureReport
) -> None:
    report = await store_report(session_factory, retailer)

    answer = await ask(session_factory, redis, settings, report, CATEGORY_QUESTION)

    assert answer.query_type is QueryType.DISCLOSURE and answer.ifrs_paragraphs
    first = answer.citations[0]
    assert (first.kind, first.page_number) == ("page", retailer.planted[CATEGORIES])
    assert CATEGORIES in first.excerpt


async def test_risks_and_opportunities_asked_for_are_the_subject_not_only_the_time_horizons(
    session_factory: SessionFactory, redis: Redis, settings: Settings, retailer: DisclosureReport
) -> None:
    """The question maps to the time-horizon requirement, but asks for the risks and opportunities
    identified: a passage naming them is cited though it names no horizon."""
    report = await store_report(session_factory, retailer)

    answer = await ask(session_factory, redis, settings, report, RISKS_QUESTION)

    assert answer.citations and answer.citations[0].page_number == retailer.planted[RISKS]


async def test_a_yes_no_question_about_a_named_company_carries_its_ifrs_paragraph(
    session_factory: SessionFactory, redis: Redis, settings: Settings, planted: DisclosureReport
) -> None:
    report = await store_report(session_factory, planted)

    answer = await ask(
        session_factory, redis, settings, report, "Does Larkspur use climate scenario analysis?"
    )

    assert answer.query_type is QueryType.DISCLOSURE
    assert "S2.22" in answer.ifrs_paragraphs
    assert answer.citations[0].page_number == planted.planted[SCENARIOS]


@pytest.mark.parametrize(
    "question",
    [
        "Does CT REIT use climate scenario analysis?",
        "Does Rio Tinto have a net zero target?",
        "Do Acme and its suppliers report water use?",
        "Has Harbourline set a Scope 3 target?",
        "Is executive pay climate-linked?",
        "Are supplier emissions included in the Scope 3 figure?",
        "Which Scope 3 categories are included in the reported Scope 3 emissions?",
        "Which Scope 3 categories make up most of the company's Scope 3 emissions?",
        # participles of the practice verbs, and subjects other than "the company"
        "Has the trust assessed its properties' exposure to physical climate hazards?",
        "Have the directors quantified the financial effects of climate-related risks?",
        "How does the plan address refrigerant leakage emissions?",
    ],
)
def test_yes_no_and_which_questions_about_practices_are_disclosure_questions(question: str) -> None:
    assert classify_by_rules(question) is QueryType.DISCLOSURE


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Does the evidence support the net-zero claim?", QueryType.EVIDENCE),
        ("Do any sources contradict the water claim?", QueryType.EVIDENCE),
        ("Does the report comply with S2.29(a)?", QueryType.COMPLIANCE),
        ("Which claims were contradicted?", QueryType.VERDICT_SUMMARY),
        ("Is any claim unverified?", QueryType.VERDICT_SUMMARY),
        ("Which IFRS S2 paragraphs are unsupported?", QueryType.COMPLIANCE),
    ],
)
def test_questions_about_sibyls_output_keep_their_type(question: str, expected: QueryType) -> None:
    assert classify_by_rules(question) is expected


def test_a_word_inside_a_standard_setters_name_is_not_the_companys() -> None:
    free, named = word_stems(
        "We follow the International Sustainability Standards Board and the California Air Resources Board."
    )
    own_free, _ = word_stems(
        "The Board Climate Committee and the Harbourline Sustainability Board meet monthly."
    )

    assert "board" in named and "board" not in free
    assert "board" in own_free
