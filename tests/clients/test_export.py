"""`Report.export`: the server renders a report's verdicts as exactly the bytes `sibyl analyze
--markdown` / `--json` print for it (one shared renderer, `clients.console.export`), and `sibyl
export` prints them again without a new analysis."""

from __future__ import annotations

import json

from app.db.session import SessionFactory
from tests.clients.cli_runner import run_cli
from tests.conftest import new_api_key
from tests.fixtures import pdfs
from tests.support.graphql import GraphQLClient

EXPORT = "query Export($id: ID!, $format: ExportFormat!) { report(id: $id) { export(format: $format) } }"
RUN_ID = "query Run($id: ID!) { report(id: $id) { analysis { id } } }"


async def test_export_is_byte_for_byte_the_cli_output(
    api_url: str, worker: object, api_key: str, client: GraphQLClient, report_pdf: str
) -> None:
    server = ["--server", api_url, "--api-key", api_key, "--company", pdfs.COMPANY]
    as_json = await run_cli("analyze", report_pdf, "--json", *server)
    assert as_json.code == 0, as_json.stderr
    report_id = json.loads(as_json.stdout)["report"]["id"]
    exported_json = (await client.data(EXPORT, id=report_id, format="JSON"))["report"]["export"]

    as_markdown = await run_cli("analyze", report_pdf, "--markdown", *server)
    assert as_markdown.code == 0, as_markdown.stderr
    exported_markdown = (await client.data(EXPORT, id=report_id, format="MARKDOWN"))["report"]["export"]

    assert json.loads(as_json.stdout)["claims"], "the synthetic report has claims"
    assert exported_json == as_json.stdout
    assert exported_markdown == as_markdown.stdout
    assert exported_markdown.startswith(f"# Sibyl analysis: {pdfs.COMPANY}\n")

    # `sibyl export` prints the same again without starting another analysis
    connection = ["--server", api_url, "--api-key", api_key]
    runs = (await client.data(RUN_ID, id=report_id))["report"]["analysis"]["id"]
    again = await run_cli("export", report_id, "--markdown", *connection)
    assert (again.code, again.stdout) == (0, exported_markdown), again.stderr
    assert (await client.data(RUN_ID, id=report_id))["report"]["analysis"]["id"] == runs

    unknown = await run_cli("export", "UmVwb3J0OjA=", *connection)
    assert unknown.code == 2 and "no report" in unknown.stderr and not unknown.stdout


async def test_export_of_another_organisations_report_is_null(
    client: GraphQLClient, worker: object, api_url: str, session_factory: SessionFactory
) -> None:
    uploaded = await client.upload_result(pdfs.synthetic_report().pdf, filename="mine.pdf")
    other = GraphQLClient(api_url, await new_api_key(session_factory, "export-outsiders"))
    try:
        body = await other.execute(EXPORT, id=uploaded["report"]["id"], format="JSON")
    finally:
        await other.aclose()

    assert body == {"data": {"report": None}}
