"""askReport through the real server: answers with citations (claim global ids, pages), the cache,
and the typed errors."""

from __future__ import annotations

import uuid
from typing import Any

from strawberry.relay import GlobalID

from app.db.models import ReportStatus
from app.db.session import SessionFactory
from app.organisations import ensure_organisation
from app.questions.service import LLM_UNCITED
from tests.app.questions.seed import NET_ZERO, seed_report
from tests.conftest import make_settings, serve_api
from tests.fixtures.disclosure_report import (
    BOARD,
    SCENARIO_QUESTION,
    SCENARIOS,
    TAILINGS_QUESTION,
    disclosure_report,
    store_report,
)
from tests.support.fake_llm import FakeReply, fake_llm_server, settings_for
from tests.support.graphql import GraphQLClient
from tests.support.services import RunningServices

ASK = """
query Ask($reportId: ID!, $question: String!) {
  askReport(reportId: $reportId, question: $question) {
    __typename
    ... on ReportAnswer {
      question answer queryType method classificationMethod caveats cached generatedAt
      citations { kind claimId pageNumber excerpt score }
    }
    ... on AskReportError { code message field }
  }
}
"""


def report_gid(report_id: uuid.UUID) -> str:
    return str(GlobalID("Report", str(report_id)))


async def test_the_contradicted_claim_is_cited_with_its_global_id_and_page_then_served_from_cache(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_report(session_factory)

    first = (
        await client.data(
            ASK, reportId=report_gid(seeded.report_id), question="Which claims were contradicted?"
        )
    )["askReport"]
    second = (
        await client.data(ASK, reportId=str(seeded.report_id), question="which claims were contradicted")
    )["askReport"]

    assert first["__typename"] == "ReportAnswer"
    assert (first["queryType"], first["method"], first["classificationMethod"]) == (
        "VERDICT_SUMMARY",
        "extractive",
        "rules",
    )
    assert NET_ZERO in first["answer"]
    assert first["citations"] == [
        {
            "kind": "verdict",
            "claimId": str(GlobalID("Claim", str(seeded.claims["net_zero"]))),
            "pageNumber": 2,
            "excerpt": first["citations"][0]["excerpt"],
            "score": 1.0,
        }
    ]
    assert first["citations"][0]["excerpt"].startswith("CONTRADICTED")
    assert first["cached"] is False and second["cached"] is True
    assert second["answer"] == first["answer"] and second["generatedAt"] == first["generatedAt"]
    assert second["question"] == "which claims were contradicted"


async def test_a_topic_question_cites_the_page_that_states_it(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_report(session_factory)

    answer = (await client.data(ASK, reportId=report_gid(seeded.report_id), question="What about scope 3?"))[
        "askReport"
    ]

    assert answer["queryType"] == "CLAIM_LOOKUP"
    assert answer["citations"][0]["pageNumber"] == 3
    assert "Scope 3" in answer["citations"][0]["excerpt"]


async def test_invalid_questions_unparsed_reports_and_unknown_reports_are_typed_errors(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_report(session_factory)
    unparsed = await seed_report(session_factory, status=ReportStatus.PARSING, pages=[], run_status=None)
    async with session_factory() as session, session.begin():
        other = await ensure_organisation(session, "someone-else")
    foreign = await seed_report(session_factory, organisation_id=other.id)
    gid = report_gid(seeded.report_id)

    empty = (await client.data(ASK, reportId=gid, question="   "))["askReport"]
    too_long = (await client.data(ASK, reportId=gid, question="why " * 300))["askReport"]
    not_parsed = (await client.data(ASK, reportId=report_gid(unparsed.report_id), question="Anything?"))[
        "askReport"
    ]
    unknown = (await client.data(ASK, reportId=report_gid(uuid.uuid4()), question="Anything?"))["askReport"]
    garbage = (await client.data(ASK, reportId="not-an-id", question="Anything?"))["askReport"]
    other_org = (await client.data(ASK, reportId=report_gid(foreign.report_id), question="Anything?"))[
        "askReport"
    ]

    assert {key: empty[key] for key in ("__typename", "code", "field")} == {
        "__typename": "AskReportError",
        "code": "INVALID_QUESTION",
        "field": "question",
    }
    assert (too_long["code"], too_long["field"]) == ("INVALID_QUESTION", "question")
    assert "1000 characters" in too_long["message"]
    assert (not_parsed["code"], not_parsed["field"]) == ("NOT_PARSED", "reportId")
    for refused in (unknown, garbage, other_org):
        assert (refused["code"], refused["field"]) == ("NOT_FOUND", "reportId")


DISCLOSURE_ASK = """
query Ask($reportId: ID!, $question: String!) {
  askReport(reportId: $reportId, question: $question) {
    ... on ReportAnswer { answer queryType ifrsParagraphs citations { kind pageNumber excerpt } }
  }
}
"""


CONFIDENCE_ASK = """
query Ask($reportId: ID!, $question: String!) {
  askReport(reportId: $reportId, question: $question) {
    ... on ReportAnswer { answer queryType confidence searched citations { pageNumber } }
  }
}
"""
#: Checklist wording with no "does the company ...": routed as a disclosure question all the same.
BOARD_QUESTION = "Which governance body has responsibility for climate-related risks?"


async def test_a_disclosure_answer_states_its_confidence_and_what_was_searched(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    generated = disclosure_report()
    report = await store_report(session_factory, generated)

    async def ask(question: str) -> dict[str, Any]:
        data = await client.data(CONFIDENCE_ASK, reportId=report_gid(report.id), question=question)
        return dict(data["askReport"])

    scenarios, board, tailings = [
        await ask(question) for question in (SCENARIO_QUESTION, BOARD_QUESTION, TAILINGS_QUESTION)
    ]

    assert scenarios["queryType"] == "DISCLOSURE" and scenarios["confidence"] in ("HIGH", "MEDIUM")
    assert scenarios["answer"].endswith(f"Confidence: {scenarios['confidence'].lower()}.")
    assert "scenarios" in scenarios["searched"]
    assert board["queryType"] == "DISCLOSURE" and board["confidence"] in ("HIGH", "MEDIUM", "LOW")
    assert board["citations"][0]["pageNumber"] == generated.planted[BOARD]
    assert (tailings["confidence"], tailings["citations"]) == ("NONE", [])
    assert "tailings" in tailings["searched"]
    assert f"Searched for: {', '.join(tailings['searched'])}." in tailings["answer"]


async def test_other_question_types_have_no_confidence_and_searched_nothing(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    seeded = await seed_report(session_factory)

    answer = (
        await client.data(
            CONFIDENCE_ASK, reportId=report_gid(seeded.report_id), question="Which claims were contradicted?"
        )
    )["askReport"]

    assert answer["queryType"] == "VERDICT_SUMMARY"
    assert (answer["confidence"], answer["searched"]) == (None, [])


async def test_a_disclosure_question_cites_the_planted_page_and_names_its_ifrs_paragraph(
    client: GraphQLClient, session_factory: SessionFactory
) -> None:
    generated = disclosure_report()
    report = await store_report(session_factory, generated)

    answered = (
        await client.data(DISCLOSURE_ASK, reportId=report_gid(report.id), question=SCENARIO_QUESTION)
    )["askReport"]
    uncovered = (
        await client.data(DISCLOSURE_ASK, reportId=report_gid(report.id), question=TAILINGS_QUESTION)
    )["askReport"]

    assert answered["queryType"] == "DISCLOSURE"
    assert answered["ifrsParagraphs"][0] == "S2.22"
    assert answered["citations"][0]["pageNumber"] == generated.planted[SCENARIOS]
    assert SCENARIOS in answered["citations"][0]["excerpt"]
    assert uncovered["queryType"] == "DISCLOSURE"
    assert uncovered["citations"] == [] and "does not appear to address this" in uncovered["answer"]


def unbacked_answer(request: dict[str, Any]) -> FakeReply:
    """Classifies as GENERAL, then answers with a claim resting on a passage id it was never given."""
    if request["model"] == "test/route":
        return FakeReply(content={"reasoning": "overview", "query_type": "GENERAL", "terms": []})
    claim = "All of the company's emissions claims were verified by independent newspapers [P99]."
    return FakeReply(content={"answer": claim, "citations": ["P99"], "caveats": []})


async def test_an_llm_answer_citing_no_given_passage_is_not_shown_and_the_fallback_is_not_cached(
    services: RunningServices, session_factory: SessionFactory, api_key: str
) -> None:
    seeded = await seed_report(session_factory)
    async with fake_llm_server() as fake:
        fake.handler = unbacked_answer
        settings = make_settings(
            services, **settings_for(fake, llm_model_routing="test/route", llm_model_analysis="test/answer")
        )
        async with serve_api(settings) as url:
            client = GraphQLClient(url, api_key)
            try:
                asked = [
                    (await client.data(ASK, reportId=report_gid(seeded.report_id), question="Which claims?"))[
                        "askReport"
                    ]
                    for _ in range(2)
                ]
            finally:
                await client.aclose()

    first, second = asked
    assert (first["method"], first["classificationMethod"]) == ("extractive", "llm")
    assert LLM_UNCITED in first["caveats"]
    assert "newspapers" not in first["answer"] and "[P99]" not in first["answer"]
    assert first["citations"] and NET_ZERO in first["answer"]
    assert second["cached"] is False
