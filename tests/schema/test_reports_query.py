"""report, reports (connection + status filter), node and pages."""

from __future__ import annotations

from tests.fixtures import pdfs
from tests.support.graphql import GraphQLClient
from tests.support.reports import wait_for_status

REPORTS = """
query List($first: Int!, $after: String, $status: ReportStatus) {
  reports(first: $first, after: $after, status: $status) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node { id filename status } }
  }
}
"""
NODE = "query Node($id: ID!) { node(id: $id) { __typename ... on Report { id filename } } }"
PAGES = """
query Pages($id: ID!, $first: Int!, $after: Int!) {
  report(id: $id) { pages(first: $first, after: $after) { number text } }
}
"""


async def test_reports_pages_through_newest_first_and_filters_by_status(
    client: GraphQLClient, worker: object
) -> None:
    ids = []
    for n in range(3):
        result = await client.upload_result(pdfs.synthetic_report(page_count=2 + n).pdf, filename=f"r{n}.pdf")
        ids.append(result["report"]["id"])
    for report_id in ids:
        await wait_for_status(client, report_id, "PARSED")

    page1 = (await client.data(REPORTS, first=2))["reports"]
    page2 = (await client.data(REPORTS, first=2, after=page1["pageInfo"]["endCursor"]))["reports"]
    parsed = (await client.data(REPORTS, first=10, status="PARSED"))["reports"]
    errored = (await client.data(REPORTS, first=10, status="ERROR"))["reports"]

    assert page1["totalCount"] == 3
    assert [edge["node"]["filename"] for edge in page1["edges"]] == ["r2.pdf", "r1.pdf"]
    assert page1["pageInfo"]["hasNextPage"] is True
    assert [edge["node"]["filename"] for edge in page2["edges"]] == ["r0.pdf"]
    assert page2["pageInfo"]["hasNextPage"] is False
    assert parsed["totalCount"] == 3
    assert errored == {"totalCount": 0, "pageInfo": {"hasNextPage": False, "endCursor": None}, "edges": []}


async def test_node_and_pages(client: GraphQLClient, worker: object) -> None:
    report = pdfs.synthetic_report(page_count=6)
    report_id = (await client.upload_result(report.pdf, filename="n.pdf"))["report"]["id"]
    await wait_for_status(client, report_id, "PARSED")

    node = (await client.data(NODE, id=report_id))["node"]
    pages = (await client.data(PAGES, id=report_id, first=2, after=3))["report"]["pages"]

    assert node == {"__typename": "Report", "id": report_id, "filename": "n.pdf"}
    assert [page["number"] for page in pages] == [4, 5]
    assert report.sentences_on(4)[0].split()[0] in pages[0]["text"]


async def test_limits_and_unknown_ids_answer_clearly(client: GraphQLClient) -> None:
    too_many = await client.execute(REPORTS, first=1000)
    bad_cursor = await client.execute(REPORTS, first=5, after="not-a-cursor")
    unknown = await client.data('query { report(id: "UmVwb3J0OjEyMw==") { id } }')

    assert "between 0 and 100" in too_many["errors"][0]["message"]
    assert "cursor" in bad_cursor["errors"][0]["message"]
    assert unknown == {"report": None}
