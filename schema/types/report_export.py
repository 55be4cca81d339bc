"""`Report.export`: the report's verdicts as Markdown or JSON, the same bytes as
`sibyl analyze --markdown/--json`.

The CLI renders what two GraphQL queries return; so does this field, by running the same selection
through the schema in the caller's context (same organisation, same resolvers), then rendering with
the shared `clients.console.export`. Nothing is computed twice in two ways that could drift.
"""

from __future__ import annotations

import enum
from typing import Any

import strawberry
from graphql import GraphQLError

from clients.console.export import render_json, render_markdown
from clients.console.fallback import completed_or_latest, with_note
from clients.sibyl import documents
from clients.sibyl.models import Claim, Report
from schema.context import Context


@strawberry.enum(description="What `Report.export` renders.")
class ExportFormat(enum.Enum):
    MARKDOWN = strawberry.enum_value(
        "MARKDOWN", description="A Markdown report (`sibyl analyze --markdown`)."
    )
    JSON = strawberry.enum_value("JSON", description="One JSON document (`sibyl analyze --json`).")


async def _run(info: strawberry.Info[Context], query: str, **variables: Any) -> dict[str, Any]:
    result = await info.schema.execute(query, variable_values=variables, context_value=info.context)
    if result.errors:
        raise GraphQLError(f"Could not export the report: {result.errors[0].message}")
    assert result.data is not None
    return result.data


async def export_report(info: strawberry.Info[Context], report_id: str, format: ExportFormat) -> str:
    """The rendered export of the report `report_id` (already known to be the caller's)."""
    report = Report.from_json((await _run(info, documents.REPORT, id=report_id))["report"])
    claims: list[Claim] = []
    after: str | None = None
    while True:
        data = await _run(info, documents.CLAIMS, id=report_id, first=200, after=after, orderBy="PAGE")
        connection = data["report"]["claims"]
        claims += [Claim.from_json(edge["node"]) for edge in connection["edges"]]
        after = connection["pageInfo"]["endCursor"]
        if not connection["pageInfo"]["hasNextPage"] or not after:
            break
    shown = await completed_or_latest(
        lambda query, **variables: _run(info, query, **variables), report, claims
    )
    render = render_markdown if format is ExportFormat.MARKDOWN else render_json
    output = "markdown" if format is ExportFormat.MARKDOWN else "json"
    return with_note(output, render(shown.report, shown.claims), shown.note, report.analysis)
