"""Same-year mismatches where one page states the level inside a change ("fell 25% to 1.5 Mt").

A change sentence names two levels: the new one after "to" and the old one after "from". The
cross-page check used to skip both, so a report saying its Scope 1 emissions "fell to 1.5 Mt" in a
year on one page and "were 1.7 Mt" for that year on another passed unnoticed, while the same set-up
stated as plain levels was caught.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import Claim, Finding, Verdict
from app.db.session import SessionFactory
from app.documents.pdf import open_pdf, read_pages
from app.events import EventLog
from app.services.analysis import open_analysis_run
from app.verification.checks.metric_index import MetricIndex, check_cross_page, mentions_in, page_year
from app.verification.investigators.data_metrics import investigate_data_metrics
from tests.fixtures.pdfs import make_report_pdf
from tests.support.pipeline import investigators, pipeline_runner, seed_parsed_pages

# Fictional company, our own sentences. Page 1 states the 2024 levels inside changes; page 2 states
# the same year's Scope 1 as a plain level that disagrees (3.4 vs 3.1 Mt) and water that agrees.
HERON_PAGES = [
    [
        "Heron Cement Annual Review 2024.",
        "In 2024 our Scope 1 emissions dropped 11% to 3.1 Mt CO2e, from 3.5 Mt in 2023.",
        "Water withdrawal decreased 20% to 8 million m3 in 2024, from 10 million m3 in 2023.",
    ],
    [
        "Performance data.",
        "Scope 1 emissions in 2024 were 3.4 Mt CO2e across all kilns.",
        "Water withdrawal in 2024 was 8 million m3.",
    ],
]


def _levels(text: str, page: int = 1, fallback: int | None = None) -> list[tuple[str, int, str]]:
    return [(m.key, m.year, m.figure.text) for m in mentions_in(text, page, fallback)]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "In 2024 our Scope 1 emissions dropped 11% to 3.1 Mt CO2e, from 3.5 Mt in 2023.",
            [("scope_1", 2024, "3.1 Mt CO2e"), ("scope_1", 2023, "3.5 Mt")],
        ),
        (
            "Scope 1 emissions dropped 11% to 3.1 Mt CO2e in 2024, from 3.5 Mt in 2023.",
            [("scope_1", 2024, "3.1 Mt CO2e"), ("scope_1", 2023, "3.5 Mt")],
        ),
        (
            "Scope 2 emissions decreased from 0.9 Mt CO2e in 2023 to 0.7 Mt CO2e in 2024.",
            [("scope_2", 2023, "0.9 Mt CO2e"), ("scope_2", 2024, "0.7 Mt CO2e")],
        ),
        # No year of its own for the old level: it is not dated from the other one's year.
        (
            "In 2024 Scope 1 emissions fell 11% to 3.1 Mt CO2e, from 3.5 Mt.",
            [("scope_1", 2024, "3.1 Mt CO2e")],
        ),
        # A baseline year is the comparison's, not the new level's.
        ("Scope 1 emissions fell 30% since 2019 to 3.1 Mt CO2e.", []),
        # A forecast, an amount of change and a site stay out.
        ("Scope 1 emissions are expected to fall to 2.9 Mt CO2e in 2025.", []),
        ("Scope 1 emissions fell by 0.4 Mt CO2e in 2024.", []),
        ("Scope 1 emissions at the Dunmore plant fell 5% to 0.6 Mt CO2e in 2024.", []),
    ],
)
def test_change_sentences_state_dated_levels(sentence: str, expected: list[tuple[str, int, str]]) -> None:
    assert _levels(sentence) == expected


def test_an_undated_change_takes_the_year_of_a_page_about_one_year() -> None:
    page = "Highlights of 2024. Scope 1 emissions dropped 11% to 3.1 Mt CO2e, from 3.5 Mt."
    assert page_year(page) == 2024
    assert _levels(page, fallback=page_year(page)) == [("scope_1", 2024, "3.1 Mt CO2e")]
    # A page naming two years dates nothing; targets and baselines do not count as the page's year.
    assert page_year("Results for 2023 and 2024. Scope 1 emissions fell 5% to 3.1 Mt CO2e.") is None
    assert page_year("Scope 1 fell 5% to 3.1 Mt. We target a 40% cut by 2030 against 2019.") is None
    # A plain level without a year is never dated from its page.
    assert _levels("Scope 1 emissions were 3.1 Mt CO2e.", fallback=2024) == []


def test_cross_page_catches_the_change_level_in_both_directions() -> None:
    pages = [(n, " ".join(sentences)) for n, sentences in enumerate(HERON_PAGES, 1)]
    index = MetricIndex(pages)
    plain = check_cross_page(HERON_PAGES[1][1], 2, index)
    assert plain is not None and plain.supports_claim is False
    assert plain.details["year"] == 2024 and plain.details["other_values"][0]["text"] == "3.1 Mt CO2e"
    change = check_cross_page(HERON_PAGES[0][1], 1, index)
    assert change is not None and change.supports_claim is False
    assert [source["report_page"] for source in change.details["sources"]] == [1, 2]
    water = check_cross_page(HERON_PAGES[1][2], 2, index)
    assert water is not None and water.supports_claim is None


def test_an_undated_change_claim_is_checked_against_its_page_year() -> None:
    index = MetricIndex(
        [
            (1, "Review of 2024. Our Scope 1 emissions dropped 11% to 3.1 Mt CO2e, from 3.5 Mt."),
            (2, "Scope 1 emissions in 2024 were 3.4 Mt CO2e."),
        ]
    )
    result = check_cross_page("Our Scope 1 emissions dropped 11% to 3.1 Mt CO2e, from 3.5 Mt.", 1, index)
    assert result is not None and result.supports_claim is False and result.details["year"] == 2024


async def test_pipeline_contradicts_the_same_year_mismatch_from_a_pdf(
    settings: Settings, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    with open_pdf(make_report_pdf(HERON_PAGES)) as document:
        pages = read_pages(document, 1, document.page_count)
    report_id = await seed_parsed_pages(
        session_factory, [text for _, text in pages], company_name="Heron Cement"
    )
    started = await open_analysis_run(event_log, settings, report_id)
    async with pipeline_runner(
        settings, session_factory, event_log, agents=investigators(data_metrics=investigate_data_metrics)
    ) as runner:
        outcome = await runner.run(started.run.id)
    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        claims = {claim.id: claim for claim in await session.scalars(select(Claim))}
        findings = list(await session.scalars(select(Finding).where(Finding.agent == "data_metrics")))
        verdicts = {
            v.claim_id: v for v in await session.scalars(select(Verdict).where(Verdict.is_final.is_(True)))
        }
    conflicts = {
        claims[f.claim_id].source_page: f
        for f in findings
        if f.details.get("check") == "cross_page" and f.supports_claim is False and f.claim_id is not None
    }
    assert set(conflicts) == {1, 2}
    assert all(f.evidence_type == "inconsistency" and f.method == "rules" for f in conflicts.values())
    plain = next(c for c in claims.values() if c.source_page == 2 and "3.4 Mt" in c.text)
    assert verdicts[plain.id].verdict == "contradicted"
