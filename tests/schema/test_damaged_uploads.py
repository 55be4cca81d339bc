"""Damaged PDFs uploaded four at a time, as a fuzzing user would: every answer is typed, no report is
left UPLOADED or PARSING, and the worker (in this process) goes on to parse a good report."""

from __future__ import annotations

import asyncio
import os

from tests.fixtures.damaged_pdfs import DAMAGED
from tests.fixtures.pdfs import synthetic_report
from tests.support.graphql import GraphQLClient
from tests.support.reports import wait_for_status

CODES = {"EMPTY_FILE", "NOT_A_PDF", "ENCRYPTED", "CORRUPT", "TRUNCATED", "NO_PAGES", "NO_TEXT_LAYER"}
CODES |= {"TOO_LARGE", "TOO_MANY_PAGES"}


async def test_damaged_uploads_get_typed_answers_and_never_stop_the_worker(
    client: GraphQLClient, worker: object
) -> None:
    pid = os.getpid()
    slots = asyncio.Semaphore(4)

    async def upload(name: str) -> tuple[str, dict[str, object]]:
        async with slots:
            return name, await client.upload_result(DAMAGED[name](), filename=f"{name}.pdf")

    answers = dict(await asyncio.gather(*(upload(name) for name in DAMAGED)))

    accepted = {
        name: answer for name, answer in answers.items() if answer["__typename"] == "UploadReportSuccess"
    }
    refused = {
        name: answer for name, answer in answers.items() if answer["__typename"] == "UploadReportError"
    }
    assert set(accepted) | set(refused) == set(DAMAGED)
    assert all(answer["code"] in CODES and answer["message"] for answer in refused.values())
    assert refused["empty_page_tree"]["code"] == "CORRUPT"  # a page tree that claims pages and lists none
    assert {"nul_text", "no_xref"} <= set(accepted)
    finished = await asyncio.gather(
        *(wait_for_status(client, answer["report"]["id"], "PARSED", "ERROR") for answer in accepted.values())
    )
    assert all(state["status"] in {"PARSED", "ERROR"} for state in finished)
    assert all(state["errorMessage"] for state in finished if state["status"] == "ERROR")

    good = await client.upload_result(synthetic_report(page_count=3).pdf, filename="good.pdf")
    assert (await wait_for_status(client, good["report"]["id"], "PARSED", "ERROR"))["status"] == "PARSED"
    assert os.getpid() == pid
