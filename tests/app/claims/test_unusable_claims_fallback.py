"""An LLM answer that is valid JSON but gives no usable claim (every claim fails validation, or none
is in the report) is no better than malformed JSON: its window is read by the rule extractor, and an
EXTRACTION_FELL_BACK_TO_RULES warning names the cause, instead of 0 claims and no warning."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.claims.prompts import EXTRACTION_SYSTEM_PROMPT
from app.db.session import SessionFactory
from app.documents.pdf import open_pdf, read_pages
from app.events import EventLog
from app.llm import LLMClient
from tests.app.claims.test_llm_failure_fallback import CHUNKING, analyse, claim_rows
from tests.conftest import make_settings
from tests.fixtures.planted_report import planted_report
from tests.support.fake_llm import FakeLLM, FakeReply, fake_llm_server, settings_for
from tests.support.services import RunningServices

#: Claims the schema refuses: an unknown type, and a page 0.
INVALID = [
    {"claim_text": "Emissions fell by a tenth over the year.", "claim_type": "astrology", "source_page": 2},
    {
        "claim_text": "Water use dropped by 12% across all sites.",
        "claim_type": "quantitative",
        "source_page": 0,
    },
]
#: Valid claims that the report does not contain (the location check drops them).
INVENTED = [
    {
        "claim_text": "Our fleet of 9,431 airships emitted 77.7 Mt CO2e in 2019.",
        "claim_type": "quantitative",
        "source_page": 1,
        "source_context": "Our fleet of 9,431 airships emitted 77.7 Mt CO2e in 2019.",
    },
]
#: What the extraction model answers, and the cause the warning must name.
ANSWERS: dict[str, tuple[list[dict[str, Any]], str]] = {
    "all-invalid": (INVALID, "the model's claims failed validation"),
    "not-in-report": (INVENTED, "the model's claims were not in the report"),
}


@pytest.fixture(scope="module")
def pages() -> list[str]:
    with open_pdf(planted_report().pdf) as document:
        return [text for _, text in read_pages(document, 1, document.page_count)]


@pytest.fixture
async def fake_llm() -> AsyncIterator[FakeLLM]:
    async with fake_llm_server() as fake:
        yield fake


@pytest.mark.parametrize("answer", list(ANSWERS))
async def test_a_window_without_usable_claims_is_read_by_the_rules_with_a_warning(
    answer: str,
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    fake_llm: FakeLLM,
    pages: list[str],
) -> None:
    claims, cause = ANSWERS[answer]

    def reply(request: dict[str, Any]) -> FakeReply:
        if request["messages"][0]["content"] == EXTRACTION_SYSTEM_PROMPT:
            return FakeReply(content={"claims": claims, "extraction_summary": "Claims found."})
        return FakeReply(status=500, body='{"error": {"message": "only extraction is scripted"}}')

    fake_llm.handler = reply
    offline = make_settings(services, **CHUNKING)
    with_llm = make_settings(services, **settings_for(fake_llm, **CHUNKING))
    _, offline_run, offline_claims = await analyse(offline, session_factory, event_log, pages, None)
    llm = LLMClient(with_llm)
    try:
        _, run, found = await analyse(with_llm, session_factory, event_log, pages, llm)
    finally:
        await llm.aclose()

    assert len(offline_claims) >= 30
    assert claim_rows(found) == claim_rows(offline_claims)
    stats = run.extraction_stats
    assert (stats["chunks"], stats["chunks_fell_back_to_rules"], stats["method"]) == (4, 4, "rules")
    if answer == "all-invalid":
        assert stats["rejected_by_validation"] == 4 * len(INVALID)
    else:
        assert stats["location"]["dropped"] == 4 * len(INVENTED)
    extraction = next(w for w in run.warnings if w["code"] == "EXTRACTION_FELL_BACK_TO_RULES")
    assert extraction["message"] == f"4 of 4 extraction windows fell back to rules: {cause}"
    assert (extraction["count"], extraction["total"]) == (4, 4)
    assert offline_run.extraction_stats["claims"] == stats["claims"]
