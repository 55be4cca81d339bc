"""Checklist-worded disclosure questions against a generated report written in report wording (real
Postgres and Redis, offline hashing embedder): a question worded like an analyst's checklist is
answered from the page that says it in the report's words, with a stated confidence, and a subject
the report never touches is "not addressed" naming what was searched."""

from __future__ import annotations

import uuid

import pytest
from redis.asyncio import Redis

from app.config import Settings
from app.db.models import Report, ReportPage, ReportStatus
from app.db.session import SessionFactory
from app.documents.pdf import open_pdf, read_pages
from app.embeddings import HashingEmbedder
from app.organisations import LOCAL_ORGANISATION_ID
from app.questions import Answer, QueryType, ask_report
from app.questions.answer import NOT_ADDRESSED
from app.questions.expansion import subject_words, without_purpose
from app.questions.grounding import Group, Sense
from app.questions.types import Confidence
from app.questions.vocabulary import concept_groups
from tests.fixtures.pdfs import make_report_pdf

pytestmark = pytest.mark.usefixtures("clean_db")

EMBEDDER = HashingEmbedder(384)
COMPANY = "Heronsgate Freight Services"
FLOOD_WORKS = (
    "Our warehouses in river valleys now have flood barriers and raised switch rooms, which "
    "strengthens their resilience to heavier rainfall."
)
CONSORTIUM = "We joined a consortium of freight operators that trials hydrogen trucks on shared routes."
PLANTED = {4: ["Resilience works", FLOOD_WORKS], 8: ["Working with the sector", CONSORTIUM]}
FILLER = (
    "Drivers completed the annual road safety refresher course.",
    "The customer portal now shows delivery windows to the hour.",
    "We renewed the lease of the head office for five more years.",
    "Apprentices joined the workshop teams in the spring intake.",
    "Parcel volumes grew in the run-up to the winter holidays.",
)
ADAPTATION_QUESTION = "Does the company describe climate adaptation measures for its facilities?"
PEERS_QUESTION = "How does the company engage with peers on decarbonisation?"
ABSENT_QUESTION = "Does the company disclose how it manages the safety of its tailings dams?"


def generated_pages() -> list[tuple[int, str]]:
    """Ten pages of filler, the two planted passages on pages 4 and 8, read as the parser reads them."""
    pages = []
    for number in range(1, 11):
        sentences = [f"{COMPANY} Operations Review, page {number}.", *PLANTED.get(number, [])]
        sentences += [FILLER[(number + offset) % len(FILLER)] for offset in range(3)]
        pages.append(sentences)
    with open_pdf(make_report_pdf(pages)) as document:
        return read_pages(document, 1, document.page_count)


async def stored_report(session_factory: SessionFactory) -> Report:
    pages = generated_pages()
    report = Report(
        id=uuid.uuid4(),
        organisation_id=LOCAL_ORGANISATION_ID,
        filename="heronsgate-2025.pdf",
        company_name=COMPANY,
        sha256=uuid.uuid4().hex * 2,
        size_bytes=1,
        status=ReportStatus.PARSED,
        page_count=len(pages),
    )
    async with session_factory() as session, session.begin():
        session.add(report)
        await session.flush()
        session.add_all(ReportPage(report_id=report.id, number=n, text=text) for n, text in pages)
    return report


async def ask(session_factory: SessionFactory, redis: Redis, settings: Settings, question: str) -> Answer:
    report = await stored_report(session_factory)
    return await ask_report(
        session_factory, redis, EMBEDDER, None, settings, report, LOCAL_ORGANISATION_ID, question
    )


def test_checklist_words_expand_to_report_words() -> None:
    """ "adapted its business model" reaches "resilience" and "strategy"; "peers" reaches
    "consortium" and "partnerships"; "synergies" reaches "co-benefits"."""
    groups = concept_groups("How has the company adapted its business model to climate change?")
    alternatives = {word for group in groups for word in group.alternatives}
    assert {"resilience", "strategy"} <= alternatives
    peers = {word for group in concept_groups("Does it engage with peers?") for word in group.alternatives}
    assert {"consortium", "partnerships", "industry associations", "working with"} <= peers
    synergy = concept_groups("Are there synergies between adaptation and other goals?")
    assert any("co-benefits" in group.alternatives for group in synergy)
    # physical hazards are the events a report names
    hazards = concept_groups("Has the trust assessed exposure to physical climate hazards?")
    held = [set(group.alternatives) for group in hazards if {"physical", "hazards"} & set(group.asked)]
    assert len(held) == 2 and all({"floods", "wildfires"} <= words for words in held)


def test_a_window_touches_the_subject_only_through_a_topical_group() -> None:
    """The closest-passage rule: a window holding a topical word group of the question touches its
    subject; one holding only a generic word ("climate", damped), a name or an action ("manage")
    does not."""
    topical = Group((frozenset({"tailing"}),), 1.0, words=("tailings",))
    generic = Group((frozenset({"climat"}),), 0.3, words=("climate",))
    name = Group((frozenset({"heronsg"}),), 1.0, words=("Heronsgate",), proper=True)
    action = Group((frozenset({"manag"}),), 1.0, words=("manage",), action=True)
    sense = Sense.of([topical, generic, name, action], [])

    assert sense.touches(frozenset({"tailing", "road"}))
    assert not sense.touches(frozenset({"climat", "heronsg", "manag"}))


def test_a_word_inside_a_standard_setters_name_holds_nothing_of_the_question() -> None:
    """ "Board" in the name of a body that writes reporting standards is not the company's board:
    the window holds the group only there, so it earns neither relevance nor rank for it."""
    board = Group((frozenset({"board"}),), 1.0, words=("board",))
    progress = Group((frozenset({"progress"}),), 1.0, words=("progress",))
    sense = Sense.of([board, progress], [])
    matched = frozenset({"board", "progress"})

    setter = "Progress is reported as the Global Reporting Standards Board recommends."
    own = "Progress is reported to the Board every quarter."

    assert sense.named_groups(setter, matched) == frozenset({0})
    assert sense.named_groups(own, matched) == frozenset()


def test_an_action_is_never_the_core_of_a_question() -> None:
    """ "Which body is responsible for climate risks?": even where the requirement's keywords are
    mostly about responsibility, the window must name the body and the risks, not the verb."""
    responsible = Group(
        (frozenset({"respons"}), frozenset({"mandat"})), 1.0, words=("responsible",), action=True
    )
    body = Group((frozenset({"board"}), frozenset({"committe"})), 1.0, words=("board", "committee"))
    risks = Group((frozenset({"risk"}),), 1.0, words=("risks",))
    sense = Sense.of([responsible, body, risks], [frozenset({"respons"}), frozenset({"mandat"})])

    assert sense.core == (False, False, False)
    assert sense.grounded("The committee reviews climate risks.", frozenset({"committe", "risk"}))


def test_governance_body_wording_reaches_boards_and_committees() -> None:
    groups = concept_groups("Which governance body has responsibility for climate-related matters?")
    body = next(group for group in groups if "governanc" in group.covered)

    assert {"board", "committee", "trustees"} <= set(body.alternatives)
    assert body.action is False


@pytest.mark.parametrize(
    ("question", "sentence", "page"),
    [(ADAPTATION_QUESTION, FLOOD_WORKS, 4), (PEERS_QUESTION, CONSORTIUM, 8)],
)
async def test_a_checklist_question_is_answered_from_the_page_in_report_wording(
    session_factory: SessionFactory,
    redis: Redis,
    settings: Settings,
    question: str,
    sentence: str,
    page: int,
) -> None:
    answer = await ask(session_factory, redis, settings, question)

    assert answer.query_type is QueryType.DISCLOSURE
    assert not answer.answer.startswith(NOT_ADDRESSED)
    assert (answer.citations[0].kind, answer.citations[0].page_number) == ("page", page)
    assert sentence in answer.citations[0].excerpt
    assert answer.confidence in (Confidence.HIGH, Confidence.MEDIUM, Confidence.LOW)
    assert f"Confidence: {answer.confidence.value.lower()}." in answer.answer


async def test_an_absent_subject_is_not_addressed_and_names_what_was_searched(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    answer = await ask(session_factory, redis, settings, ABSENT_QUESTION)

    assert answer.answer.startswith(NOT_ADDRESSED)
    assert answer.citations == []
    assert answer.confidence is Confidence.NONE
    assert "tailings" in answer.searched and "dams" in answer.searched
    assert "Searched for: " in answer.answer and "tailings" in answer.answer


async def test_a_datapoint_request_no_passage_matches_word_for_word_is_searched_in_report_wording(
    session_factory: SessionFactory, redis: Redis, settings: Settings
) -> None:
    """A checklist item written as a datapoint, with a standard's reference, is a lookup; no page
    holds most of its words, so it is searched again as a disclosure question before the report is
    said not to address it."""
    question = "Climate adaptation measures at facilities (ESRS E1-3)?"
    answer = await ask(session_factory, redis, settings, question)

    assert answer.query_type is QueryType.CLAIM_LOOKUP
    assert not answer.answer.startswith("The report does not appear to address this")
    assert (answer.citations[0].kind, answer.citations[0].page_number) == ("page", 4)
    assert FLOOD_WORKS in answer.citations[0].excerpt


def test_a_standards_reference_is_not_the_subject_of_a_question() -> None:
    question = "Describe refrigerant leakage reduction (SASB FB-FR-110b.2) and report GRI 305-1 totals."
    assert without_purpose(question) == "Describe refrigerant leakage reduction   and report   totals."


def test_either_of_two_things_a_question_ends_on_is_its_subject() -> None:
    """ "integrated into acquisition due diligence and new development decisions": a page on new
    developments addresses it; a list of horizons or the framework's "risks and opportunities" are
    no such pair."""
    question = "How are climate risks weighed in acquisition due diligence and new development decisions?"
    assert {"acquisition", "development", "decisions"} <= subject_words(question)
    assert subject_words("Which risks arise over the short, medium and long term?") == frozenset()
    assert (
        subject_words("Does it describe the board's oversight of climate-related risks and opportunities?")
        == frozenset()
    )
