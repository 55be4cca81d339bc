"""What an analysis model's reading of a source may decide (trial s23, bugs 1 and 2), end to end:
the news/media agent reads evidence-library sources with a fake analysis model (real HTTP), then
the judge rules.

- A quote found in a Tier 2 source but saying nothing about the claim ("its data was published in
  its climate report") must not verify it.
- Two unlisted sites re-hosting the same text, which the model calls Tier 2, are neither two
  independent publishers nor Tier 2.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from app.db.models import Finding, Verdict
from app.db.session import SessionFactory
from app.embeddings import create_embedder
from app.events import EventLog
from app.evidence.ingest import add_evidence_document
from app.llm import LLMClient
from app.services.analysis import open_analysis_run
from app.verification.investigators.news_media import investigate_news
from app.verification.investigators.prompts import QUERY_SYSTEM_PROMPT
from app.verification.reading.prompts import SOURCE_ANALYSIS_SYSTEM_PROMPT
from app.verification.reading.quote_relevance import bears_on_claim
from tests.conftest import make_settings
from tests.support.fake_llm import FakeReply, fake_llm_server, settings_for
from tests.support.pipeline import investigators, pipeline_runner, seed_report
from tests.support.services import RunningServices

CLAIM = "Example Metals cut its Scope 1 emissions by 12% in 2024 to 2.30 Mt CO2e."
BESIDE_THE_POINT = "Example Metals said its emissions data was published in its 2024 climate report."
COPIED = "Example Metals cut its Scope 1 emissions by 12% in 2024 to 2.30 Mt CO2e, the report says."
FILLER = " ".join(f"Paragraph {n} covers the company's mines and markets." for n in range(6))


def test_bears_on_claim_needs_the_claims_figure_or_subject() -> None:
    company = "Example Metals"
    assert not bears_on_claim(CLAIM, company, BESIDE_THE_POINT, "supports")
    assert bears_on_claim(CLAIM, company, "Its Scope 1 emissions fell 12% to 2.3 million tonnes.", "supports")
    assert bears_on_claim(CLAIM, company, "Scope 1 emissions rose to 2.71 Mt CO2e.", "contradicts")
    assert not bears_on_claim(CLAIM, company, "Example Metals opened a cafeteria.", "contradicts")
    board = "Our board sustainability committee met four times in 2024 to review climate commitments."
    assert bears_on_claim(
        board, company, "Its board sustainability committee reviews climate risk.", "supports"
    )
    assert not bears_on_claim(board, company, "Example Metals published its annual report.", "supports")
    assert bears_on_claim(CLAIM, company, None, "neutral") and not bears_on_claim(
        CLAIM, company, None, "supports"
    )


@pytest.mark.parametrize(
    ("claim", "quote", "bears"),
    [
        # a count is the claim's figure: repeated, of the same things, it bears on the claim
        ("In 2024, we had 420 stores.", "Tollgate Retail had 420 stores in 2024, trade records show.", True),
        ("In 2024, we planted 40,000 trees.", "Tollgate Retail planted 40k trees in 2024.", True),
        ("In 2024, we planted 40,000 trees.", "Tollgate Retail planted 40,000 shrubs in 2024.", False),
        # the whole a claim takes a part of, repeated, says nothing of the part
        ("Half of our 400 stores were refitted in 2024.", "Tollgate Retail had 400 stores in 2024.", False),
        ("26% of our 3,400 employees work in Germany.", "Tollgate Retail has 3,400 employees.", False),
        ("We refitted all our 420 stores in 2024.", "Tollgate Retail had 420 stores in 2024.", False),
        # a count repeated is no more than the claim says when the claim says more, or the quote does
        ("In 2024, our 420 stores ran on renewable power.", "Tollgate Retail had 420 stores in 2024.", False),
        ("In 2024, we had 420 stores.", "Tollgate Retail sold 420 stores in 2024.", False),
        ("In 2024, we had 420 stores.", "Tollgate Retail's franchisees ran 420 stores in 2024.", False),
        ("In 2024, we had 420 stores.", "Tollgate Retail had more than 400 stores in 2024.", False),
        ("In 2024, we had 420 stores.", "Tollgate Retail had 420 stores with cafés in 2024.", False),
        ("In 2024, we had 420 stores in the UK.", "Tollgate Retail had 420 stores in 2024.", False),
        (
            "In 2024, we had 420 stores.",
            "The UK regulator said Tollgate Retail had 420 stores in 2024.",
            True,
        ),
    ],
)
def test_a_supporting_quote_may_repeat_the_claims_count(claim: str, quote: str, bears: bool) -> None:
    assert bears_on_claim(claim, "Tollgate Retail", quote, "supports") is bears


async def _plant(session_factory: SessionFactory, settings: Any) -> None:
    embedder = create_embedder(settings)
    for title, text, url in [
        (
            "Example Metals climate report out",
            BESIDE_THE_POINT,
            "https://www.reuters.com/business/example-metals",
        ),
        ("Example Metals report archive", COPIED, "https://esg-archive.example.org/example-metals"),
        ("Example Metals report mirror", COPIED, "https://report-mirror.example.net/example-metals"),
    ]:
        text = f"{text} {FILLER} Filed under {title}."  # the same quote, not the same page
        await add_evidence_document(
            session_factory, embedder, settings, title=title, text=text, source_url=url
        )


def _model(payload: dict[str, Any]) -> FakeReply:
    """Writes queries, and reads every source as support at Tier 2, quoting its first sentence."""
    system, user = payload["messages"][0]["content"], payload["messages"][1]["content"]
    if system == QUERY_SYSTEM_PROMPT:
        return FakeReply(
            content={
                "company_specific": "Example Metals Scope 1 emissions 2024",
                "industry_wide": "metals Scope 1 emissions 2024",
                "controversy": "Example Metals emissions report",
            }
        )
    if system == SOURCE_ANALYSIS_SYSTEM_PROMPT:
        quote = BESIDE_THE_POINT if "published in its 2024" in user else COPIED
        return FakeReply(
            content={
                "stance": "supports",
                "confidence": 0.9,
                "explanation": "The source confirms the claim.",
                "tier": 2,
                "quote": quote,
            }
        )
    return FakeReply(status=400, body='{"error": {"message": "not scripted"}}')


async def test_a_models_support_needs_a_quote_on_the_claim_and_a_listed_outlet(
    services: RunningServices, session_factory: SessionFactory, event_log: EventLog, clean_db: None
) -> None:
    async with fake_llm_server() as fake:
        fake.handler = _model
        settings = make_settings(services, search_providers=["library"], **settings_for(fake))
        await _plant(session_factory, settings)
        llm = LLMClient(settings)
        seeded = await seed_report(
            session_factory, [{"text": CLAIM, "claim_type": "quantitative", "page": 1}]
        )
        started = await open_analysis_run(
            event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=1
        )
        agents = investigators(news_media=investigate_news)
        async with pipeline_runner(settings, session_factory, event_log, agents=agents, llm=llm) as runner:
            outcome = await runner.run(started.run.id)
        await llm.aclose()
    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        findings = list(await session.scalars(select(Finding).where(Finding.agent == "news_media")))
        verdicts = list(await session.scalars(select(Verdict).where(Verdict.is_final.is_(True))))
    (verdict,) = verdicts
    assert verdict.verdict != "verified", verdict.reasoning
    by_domain = {f.details.get("source_domain"): f for f in findings if f.details.get("source_url")}
    assert {"reuters.com", "esg-archive.example.org", "report-mirror.example.net"} <= set(by_domain)
    reuters = by_domain["reuters.com"]
    assert reuters.details["source_tier"] == 2 and reuters.details["quote_verified"] is True
    assert reuters.details["quote_bears_on_claim"] is False and reuters.supports_claim is None
    for mirror in ("esg-archive.example.org", "report-mirror.example.net"):
        assert by_domain[mirror].details["source_tier"] == 4  # the model said 2
        assert by_domain[mirror].details["quote_bears_on_claim"] is True


@pytest.mark.parametrize(
    ("claim", "quote", "bears"),
    [
        # a claim of all of something is borne on by a quote saying all of it in the claim's words
        (
            "Northpine Paper held FSC chain-of-custody certification at all 9 of its mills in 2023.",
            "All nine Northpine Paper mills held valid FSC chain-of-custody certificates throughout 2023, "
            "the certifier's database shows, covering 2.3 million tonnes of annual capacity.",
            True,
        ),
        (
            "100% of the timber used in our plywood mills in 2022 came from certified forests.",
            "Auditors confirmed that all timber processed at Northpine Paper's mills in 2022 came from "
            "certified forests.",
            True,
        ),
        # not by a quote that says all of nothing
        (
            "100% of the timber used in our plywood mills in 2022 came from certified forests.",
            "Auditors confirmed that timber processed at Northpine Paper's mills in 2022 came from certified "
            "forests.",
            False,
        ),
    ],
)
def test_a_claim_of_all_is_borne_on_by_all(claim: str, quote: str, bears: bool) -> None:
    assert bears_on_claim(claim, "Northpine Paper", quote, "supports") is bears


@pytest.mark.parametrize(
    "quote",
    [
        # all of another thing, nearly all, all lost, or all of a narrower kind
        "Northpine Paper bought FSC-certified timber in 2023 and audited every supplier.",
        "Nearly all Northpine Paper mills held valid FSC chain-of-custody certificates in 2023.",
        "Each of Northpine Paper's nine mills lost its FSC chain-of-custody certificate in 2023.",
        "Every Swedish mill of Northpine Paper held an FSC chain-of-custody certificate in 2023.",
    ],
)
def test_a_claim_of_all_is_not_borne_on_by_all_of_something_else(quote: str) -> None:
    claim = "Northpine Paper held FSC chain-of-custody certification at all 9 of its mills in 2023."
    assert not bears_on_claim(claim, "Northpine Paper", quote, "supports")


def test_all_of_a_narrower_kind_bears_on_no_claim_of_all() -> None:
    claim = "We audited 100% of our suppliers in 2023."
    assert not bears_on_claim(
        claim, "Tessaly", "Every tier-one supplier of Tessaly was audited in 2023.", "supports"
    )
    claim = "We audited 100% of our tier-1 suppliers in 2023."
    assert bears_on_claim(
        claim, "Tessaly", "Every tier-one supplier of Tessaly was audited in 2023.", "supports"
    )


def test_a_ratio_in_other_units_bears_on_the_claim() -> None:
    claim = "We used 3.1 hectolitres of water per hectolitre of beer in 2023."
    quote = "Halden used 3.1 litres of water per litre of beer in 2023, a benchmarking group said."
    assert bears_on_claim(claim, "Halden", quote, "supports")
