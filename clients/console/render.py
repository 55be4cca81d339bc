"""The final result of `sibyl analyze`: a verdict table, a markdown report or one JSON document, each
ending with the run's warnings (what fell back to rules) when there are any.

Markdown and JSON come from `clients.console.export`, the renderer the API's `Report.export` field
uses too, so the CLI's output and a dashboard export are the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from clients.console.export import (
    NO_CLAIMS,
    NO_VERDICT,
    by_page,
    claim_row,
    no_claims_sentence,
    render_json,
    render_markdown,
    shorten,
    title,
    verdict_counts,
    warnings_of,
)
from clients.sibyl.models import Claim, Report

__all__ = [
    "NO_CLAIMS",
    "NO_VERDICT",
    "RENDERERS",
    "TABLE_TEXT_WIDTH",
    "render_json",
    "render_markdown",
    "render_table",
    "shorten",
    "verdict_counts",
]

TABLE_TEXT_WIDTH = 60
HEADERS = ["PAGE", "TYPE", "PRIORITY", "VERDICT", "CONF", "CLAIM"]


def render_table(report: Report, claims: Sequence[Claim]) -> str:
    """A plain-text table of claims by page, then the counts per verdict."""
    lines = [f"{title(report)} — report {report.id}, {report.status}, {report.page_count or '?'} pages", ""]
    if claims:
        lines += _table_lines([HEADERS] + [claim_row(claim, TABLE_TEXT_WIDTH) for claim in by_page(claims)])
    else:
        lines.append(no_claims_sentence(report))
    counts = "  ".join(f"{label} {count}" for label, count in verdict_counts(claims).items())
    lines += ["", f"{len(claims)} claims: {counts}"]
    warnings = warnings_of(report)
    if warnings:
        lines += ["", f"{len(warnings)} warning(s):"]
        lines += [f"  WARNING {warning.code}: {warning.message}" for warning in warnings]
    return "\n".join(lines) + "\n"


RENDERERS: dict[str, Callable[[Report, Sequence[Claim]], str]] = {
    "table": render_table,
    "markdown": render_markdown,
    "json": render_json,
}


def _table_lines(rows: list[list[str]]) -> list[str]:
    """The rows as aligned columns (the last column left as it is)."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(HEADERS) - 1)]
    return [
        "  ".join([*(cell.ljust(width) for cell, width in zip(row, widths, strict=False)), row[-1]]).rstrip()
        for row in rows
    ]
