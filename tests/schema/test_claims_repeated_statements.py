"""A statement the report repeats on two pages comes back from the API as one claim with both pages;
the same words with another figure stay another claim."""

from __future__ import annotations

from tests.fixtures.pdfs import make_report_pdf
from tests.support.graphql import GraphQLClient
from tests.support.reports import wait_for_status

START = """
mutation Start($id: ID!) {
  startAnalysis(reportId: $id) { __typename ... on StartAnalysisError { code message } }
}
"""
CLAIMS = """
query Claims($id: ID!) {
  report(id: $id) {
    analysis { extractionStats }
    claims(first: 100, orderBy: PAGE) { edges { node { text sourcePage alsoOnPages } } }
  }
}
"""
REPEATED = "Halvorsen Freight cut its Scope 1 emissions by 18% in 2024 against its 2019 baseline."
OTHER_FIGURE = "Halvorsen Freight cut its Scope 2 emissions by 11% in 2024 against its 2019 baseline."
PAGES = [
    ["Halvorsen Freight plc", "Climate Transition Plan 2024", REPEATED],
    [
        "The Board Audit Committee reviews climate-related risks at each of its quarterly meetings.",
        OTHER_FIGURE,
    ],
    ["Halvorsen Freight operates 42 depots in Norway, Sweden and Denmark."],
    ["Progress at a glance", REPEATED, "Our electric vans covered 3.2 million kilometres in 2024."],
]


async def test_a_statement_on_two_pages_is_one_claim_listing_the_other_page(
    client: GraphQLClient, worker: object
) -> None:
    report_id = (await client.upload_result(make_report_pdf(PAGES)))["report"]["id"]
    await wait_for_status(client, report_id, "PARSED")
    started = (await client.data(START, id=report_id))["startAnalysis"]
    await wait_for_status(client, report_id, "COMPLETED", "ERROR", timeout=120)

    assert started["__typename"] == "StartAnalysisSuccess", started
    report = (await client.data(CLAIMS, id=report_id))["report"]
    claims = [edge["node"] for edge in report["claims"]["edges"]]
    repeated = [claim for claim in claims if claim["text"] == REPEATED]
    assert [(claim["sourcePage"], claim["alsoOnPages"]) for claim in repeated] == [(1, [4])]
    other = [claim for claim in claims if claim["text"] == OTHER_FIGURE]
    assert [(claim["sourcePage"], claim["alsoOnPages"]) for claim in other] == [(2, [])]
    assert all(claim["alsoOnPages"] == [] for claim in claims if claim["text"] not in (REPEATED,))
    assert report["analysis"]["extractionStats"]["dedup"]["repeated"] == 1
