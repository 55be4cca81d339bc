"""Verdicts from evidence-library documents that state a claim's figure without standing behind it,
end to end (offline pipeline, rule reader, real Postgres; trial s24 bugs 1, 2, 2b and 10).

Each document below, from a Tier 1–2 publisher, used to VERIFY its claim ("the source states the
same figure as the claim"): one disputes the figure it repeats, one negates it, one gives it for
the opposite change, one gives it as a share of something else. None may verify now; the first
three contradict.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.db.models import Finding, Verdict
from app.db.session import SessionFactory
from app.embeddings import create_embedder
from app.events import EventLog
from app.evidence.ingest import add_evidence_document
from tests.conftest import make_settings
from tests.support.pipeline import analyse_offline, seed_report
from tests.support.services import RunningServices

CASES = {
    # bug 1: the claim's 71% quoted to be disputed, with the audit's 45%
    "disputed": (
        "Renewable electricity supplied 71% of our electricity use in 2024, up 6 percentage points on 2023.",
        "Example Metals renewables claim questioned",
        "Example Metals claims renewable electricity supplied 71% of its electricity use in 2024, but a "
        "campaign group's audit found the true share was nearer 45%.",
        "https://www.theguardian.com/environment/example-metals-renewables",
        "contradicts",
    ),
    # bug 2: a negated figure and the inspectors' own figure
    "negated": (
        "We invested EUR 85 million in furnace upgrades in 2024.",
        "Example Metals furnace spending falls short",
        "Example Metals did not invest EUR 85 million in furnace upgrades in 2024, contrary to its report; "
        "inspectors found EUR 30 million.",
        "https://apnews.com/article/example-metals-furnaces",
        "contradicts",
    ),
    # bug 2b: Scope 2 "rose 25%" against "reduced … by 25%"
    "opposite": (
        "We reduced our Scope 2 emissions by 25% in 2024 by moving to renewable power contracts.",
        "Example Metals power bill climbs",
        "Example Metals said its Scope 2 emissions rose 25% in 2024 as its furnaces ran longer.",
        "https://www.reuters.com/business/example-metals-scope-2",
        "contradicts",
    ),
    # bug 10: 38% of total energy use is not 38% of electricity use
    "other_base": (
        "Solar and wind supplied 38% of our electricity use in 2023.",
        "Example Metals energy mix",
        "Example Metals said solar and wind supplied 38% of its total energy use in 2023, fuels included.",
        "https://www.reuters.com/business/example-metals-energy-mix",
        "neutral",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_a_source_that_does_not_stand_behind_a_figure_never_verifies_it(
    case: str, services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    # given: a claim of Example Metals and one Tier 1–2 library document repeating its figure
    claim, title, text, url, reading = CASES[case]
    settings = make_settings(services)
    await add_evidence_document(
        session_factory,
        create_embedder(settings),
        settings,
        title=title,
        text=text,
        source_url=url,
        published_date="2025-02-10",
    )
    seeded = await seed_report(
        session_factory, [{"text": claim, "claim_type": "quantitative", "page": 1}], pages=1
    )
    # when
    await analyse_offline(
        settings, session_factory, event_log, seeded.report_id, skip_claims_extraction=True, max_iterations=1
    )
    # then: the document is read as what it says, and the claim is not verified by it
    async with session_factory() as session:
        verdict = await session.scalar(select(Verdict.verdict))
        findings = list(await session.scalars(select(Finding).where(Finding.claim_id.is_not(None))))
    stances = {finding.details["stance"] for finding in findings if finding.details.get("source_url") == url}
    assert stances == {reading}
    assert verdict != "verified"
    if reading == "neutral":
        assert verdict == "unverified"
