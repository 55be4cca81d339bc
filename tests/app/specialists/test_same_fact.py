"""A source decides a claim only when its sentence states the claim's fact (trial s24, bugs 3, 6, 6b).

Unit checks of `same_fact`, `company_mentions` and `quote_sentences`, then end to end: the news/media
agent reads evidence-library documents, by a fake analysis model (real HTTP) or by the rules, and the
judge rules. Another company sharing the first word of the name, another year, a source published
before the year ended, an undated sentence, a forecast, another scope, and a fragment cut out of a
sentence that rejects the figure must not verify (or contradict) the claim; the right company,
year, outcome and scope still verify it.
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
from app.search.quote_sentences import whole_sentences
from app.services.analysis import open_analysis_run
from app.verification.investigators.news_media import investigate_news
from app.verification.investigators.prompts import QUERY_SYSTEM_PROMPT
from app.verification.reading.prompts import SOURCE_ANALYSIS_SYSTEM_PROMPT
from app.verification.reading.same_fact import intention_claim, not_same_fact, outcome_year
from app.verification.sources.company_mentions import mentions, other_company
from tests.conftest import make_settings
from tests.support.fake_llm import FakeReply, fake_llm_server, settings_for
from tests.support.pipeline import investigators, pipeline_runner, seed_report
from tests.support.services import RunningServices

COMPANY = "Example Metals"
CLAIM = "Our Scope 3 emissions were 14.2 Mt CO2e in 2023."
RIGHT = (
    "Example Metals' Scope 3 emissions were 14.2 Mt CO2e in 2023, a Reuters analysis of customs data found."
)


def _kind(
    sentence: str, stance: str = "supports", published: str | None = "2024-03-12", claim: str = CLAIM
) -> str:
    found = not_same_fact(claim, COMPANY, sentence, stance, published=published)
    return found.kind if found else "same"


# --- company ---------------------------------------------------------------------------------------


def test_another_company_sharing_the_first_word_decides_nothing_either_way() -> None:
    mining = (
        "Example Mining, the Chilean copper producer, said its Scope 3 emissions were 14.2 Mt CO2e in 2023."
    )
    assert _kind(mining) == "other_company"
    assert _kind(
        "Chile's Example Mining reported Scope 3 emissions of 9.8 Mt CO2e in 2023.", "contradicts"
    ) == ("other_company")
    # Positive controls: the company itself, by its name, a possessive or with its legal form.
    assert _kind(RIGHT) == "same"
    assert _kind("Example's Scope 3 emissions were 14.2 Mt CO2e in 2023, analysts found.") == "same"
    assert (
        _kind("Example Metals plc put its Scope 3 emissions at 19 Mt CO2e in 2023.", "contradicts") == "same"
    )


@pytest.mark.parametrize(
    ("company", "text", "other"),
    [
        ("Nordavia Metals", "Nordavia Mining, the Chilean copper producer, said", "Nordavia Mining"),
        ("Nordavia Metals", "Nordavia Energy AB, a subsidiary, said", "Nordavia Energy"),
        ("Siemens AG", "Siemens Energy said its emissions fell", "Siemens Energy"),
        ("Rio Tinto plc", "Rio Tinto's Scope 3 emissions rose", None),
        ("Costco Wholesale Corporation", "Costco said its warehouses", None),
        ("Costco Wholesale Corporation", "Costco Wholesale Corp. said", None),
        ("Volkswagen AG", "Volkswagen Group said; VW added", None),
        ("Nordavia Metals", "In 2023 Nordavia Scope 3 emissions rose", None),
        ("Nordavia Metals", "Nordavia Metals' Scope 3 emissions", None),
        ("The Home Depot", "The company said", None),
        ("Toyota Motor Corporation", "Toyota Motors said", None),
        ("Toyota Motor Corporation", "Toyota Tsusho said", "Toyota Tsusho"),
    ],
)
def test_other_company_names(company: str, text: str, other: str | None) -> None:
    assert other_company(text, company) == other


def test_a_bare_first_word_next_to_another_company_is_not_the_company() -> None:
    text = "Nordavia Mining said Nordavia's Scope 3 emissions were 9.8 Mt."
    assert [mention.own for mention in mentions(text, "Nordavia Metals")] == [False, None]
    assert other_company(text, "Nordavia Metals") == "Nordavia Mining"
    assert other_company(text + " Nordavia Metals disagreed.", "Nordavia Metals") is None


# --- period ----------------------------------------------------------------------------------------


def test_another_year_decides_nothing() -> None:
    assert _kind("Example Metals' Scope 3 emissions were 14.2 Mt CO2e in 2021.", published="2022-03-02") == (
        "other_period"
    )
    assert (
        _kind("Example Metals' Scope 3 emissions were 19 Mt CO2e in 2021.", "contradicts") == "other_period"
    )
    assert _kind(
        "Its Scope 3 emissions were 14.2 Mt CO2e in 2018, analysts found.", published="2019-05-02"
    ) == ("other_period")
    assert _kind(RIGHT) == "same"  # positive control


def test_a_source_published_before_the_year_ended_cannot_report_its_outcome() -> None:
    assert _kind(
        "Example Metals' Scope 3 emissions are 14.2 Mt CO2e, a review found.", published="2023-06-01"
    ) == ("stale")
    assert _kind(RIGHT, published="2023-12-01") == "stale"
    assert _kind(RIGHT, published="2024-01-15") == "same"  # positive control
    fiscal = "Scope 3 emissions were 14.2 Mt CO2e in FY2023."
    assert _kind(RIGHT.replace("in 2023", "in FY2023"), published="2023-09-01", claim=fiscal) == "same"


def test_the_figure_of_an_earlier_year_of_the_claim_is_stale_only_until_that_year_ended() -> None:
    rose = "Scope 3 emissions rose from 13.9 Mt CO2e in 2022 to 14.2 Mt CO2e in 2023."
    earlier = "Figures compiled by analysts show Example Metals' Scope 3 emissions were 13.9 Mt CO2e in 2022."
    assert _kind(earlier, published="2023-05-14", claim=rose) == "same"
    assert _kind(earlier, published="2022-11-30", claim=rose) == "stale"
    # The claim's latest year still needs a source published after it ended.
    latest = "Figures compiled by analysts show Example Metals' Scope 3 emissions were 14.2 Mt CO2e in 2023."
    assert _kind(latest, published="2023-05-14", claim=rose) == "stale"


def test_an_undated_sentence_stands_for_the_year_only_within_18_months() -> None:
    undated = "Example Metals' Scope 3 emissions are 14.2 Mt CO2e, a review of its filings found."
    assert _kind(undated, published=None) == "undated"
    assert _kind(undated, published="2026-01-10") == "undated"
    assert _kind(undated, published="2024-04-01") == "same"  # positive control
    assert _kind(undated, published="2025-06-15") == "same"
    titled = not_same_fact(CLAIM, COMPANY, undated, "supports", published=None, title="2023 emissions review")
    assert titled is None


def test_only_a_reported_outcome_has_a_year_a_source_must_come_after() -> None:
    assert outcome_year(CLAIM) == 2023
    assert outcome_year("Scope 1 emissions fell 9% in 2023 from 2022.") == 2023
    # A present state, a start date, a range and a forecast report no outcome of a year that is over.
    assert outcome_year("Executive pay carries a 12% weighting for climate goals in 2024.") is None
    assert outcome_year("Switched the haul fleet to biofuel, with a supply deal starting from 2024.") is None
    assert outcome_year("Our planned spending is now $2-3 billion between 2022 and 2030.") is None
    assert outcome_year("We expect that half of the cuts by 2030 will be delivered by partners.") is None
    assert intention_claim("We expect that half of the cuts by 2030 will be delivered by partners.")
    state = "Executive pay carries a 12% weighting for climate goals in 2024."
    assert (
        _kind(
            "The 2024 pay plan gives climate goals a 12% weighting, filings show.",
            claim=state,
            published="2024-02-01",
        )
        == "same"
    )


# --- mood ------------------------------------------------------------------------------------------


def test_a_forecast_or_target_does_not_corroborate_an_outcome() -> None:
    forecast = (
        "Analysts expect Example Metals' Scope 3 emissions could be around "
        "14.2 Mt CO2e in 2023 if output holds."
    )
    assert _kind(forecast, published="2024-02-01") == "forecast"
    goal = "Example Metals set a goal of keeping Scope 3 emissions at 14.2 Mt CO2e in 2023."
    assert _kind(goal, published="2024-02-01") == "forecast"
    assert (
        _kind("Example Metals plans to keep Scope 3 at 14.2 Mt CO2e in 2023.", published="2024-02-01")
        == "forecast"
    )
    # Positive controls: the outcome, with a relative clause about an aim; a target claim and its target.
    aside = (
        "Example Metals, which aims to reach net zero by 2040, saw Scope 3 "
        "emissions of 14.2 Mt CO2e in 2023, "
        "a Reuters analysis found."
    )
    assert _kind(aside) == "same"
    target = "We aim to keep Scope 3 emissions at 14.2 Mt CO2e by 2030."
    assert intention_claim(target) and not intention_claim(CLAIM)
    stated = "Example Metals set a goal of keeping Scope 3 emissions at 14.2 Mt CO2e by 2030."
    assert _kind(stated, published="2021-01-10", claim=target) == "same"


# --- scope -----------------------------------------------------------------------------------------


def test_another_scope_decides_nothing() -> None:
    combined = (
        "Example Metals' combined Scope 1, 2 and 3 emissions were 14.2 Mt CO2e in 2023, analysts found."
    )
    assert _kind(combined) == "other_quantity"
    assert _kind("Example Metals' Scope 1 emissions rose sharply in 2023.", "contradicts") == "other_quantity"
    assert (
        _kind("Example Metals' Scope 3 figure for 2023 was 19 Mt CO2e, analysts found.", "contradicts")
        == "same"
    )


# --- the whole sentence ----------------------------------------------------------------------------


def test_a_fragment_is_read_as_its_whole_sentence() -> None:
    text = (
        "Auditors met in May. Auditors rejected the company's statement that its Scope 3 emissions were "
        "14.2 Mt CO2e in 2023 and put them at 19 Mt. They published the review."
    )
    sentence = whole_sentences("its Scope 3 emissions were 14.2 Mt CO2e in 2023", text)
    assert sentence is not None and sentence.startswith("Auditors rejected") and sentence.endswith("19 Mt.")
    assert whole_sentences("not in the text at all, anywhere", text) is None
    assert whole_sentences("Auditors met ... published the review", text) == text
    assert _kind(sentence) == "disputed"
    assert _kind("Example Metals did not emit 14.2 Mt CO2e of Scope 3 in 2023, auditors found.") == "disputed"
    assert _kind("Contrary to its report, Example Metals' Scope 3 emissions were 14.2 Mt CO2e in 2023.") == (
        "disputed"
    )
    assert _kind(RIGHT) == "same"  # positive control


# --- end to end ------------------------------------------------------------------------------------

#: (kind, address, published, text, the model's quote, the model's stance): readings by the model
#: that must decide nothing, with the kind of reason their findings must give. Every sentence is the
#: outlet's own finding (not "the company said"), so only the same-fact checks can set it aside.
SUPPORT_MISREAD: list[tuple[str, str, str | None, str, str, str]] = [
    (
        "other_company",
        "https://www.bbc.co.uk/news/example-mining",
        "2024-03-05",
        "Example Mining's Scope 3 emissions were 14.2 Mt CO2e in 2023, a BBC analysis of customs data found. "
        "Example Mining is not related to Example Metals.",
        "Example Mining's Scope 3 emissions were 14.2 Mt CO2e in 2023",
        "supports",
    ),
    (
        "other_period",
        "https://www.reuters.com/business/example-metals-2021",
        "2022-03-02",
        "Example Metals' Scope 3 emissions were 14.2 Mt CO2e in 2021, a "
        "Reuters analysis of customs data found.",
        "Example Metals' Scope 3 emissions were 14.2 Mt CO2e in 2021",
        "supports",
    ),
    (
        "stale",
        "https://apnews.com/article/example-metals-review",
        "2023-06-01",
        "Example Metals' Scope 3 emissions are 14.2 Mt CO2e, an AP review of its filings found.",
        "Example Metals' Scope 3 emissions are 14.2 Mt CO2e",
        "supports",
    ),
    (
        "undated",
        "https://www.wsj.com/articles/example-metals-filings",
        None,
        "Example Metals' Scope 3 emissions are 14.2 Mt CO2e, a WSJ review of its filings found.",
        "Example Metals' Scope 3 emissions are 14.2 Mt CO2e",
        "supports",
    ),
    (
        "forecast",
        "https://www.ft.com/content/example-metals-outlook",
        "2024-02-01",
        "Analysts expect Example Metals' Scope 3 emissions could be around "
        "14.2 Mt CO2e in 2023 if output holds.",
        "Example Metals' Scope 3 emissions could be around 14.2 Mt CO2e in 2023",
        "supports",
    ),
    (
        "other_quantity",
        "https://www.theguardian.com/environment/example-metals",
        "2024-03-07",
        "Example Metals' combined Scope 1, 2 and 3 emissions were 14.2 Mt CO2e "
        "in 2023, a Guardian analysis found.",
        "combined Scope 1, 2 and 3 emissions were 14.2 Mt CO2e in 2023",
        "supports",
    ),
    (
        "disputed",
        "https://www.bloomberg.com/news/example-metals-audit",
        "2024-05-02",
        "Auditors rejected the company's statement that Example Metals' Scope "
        "3 emissions were 14.2 Mt CO2e in "
        "2023 and put them at 19 Mt.",
        "Example Metals' Scope 3 emissions were 14.2 Mt CO2e in 2023",
        "supports",
    ),
]
#: Contradicting readings by the model that must decide nothing.
CONTRA_MISREAD: list[tuple[str, str, str | None, str, str, str]] = [
    (
        "other_company",
        "https://www.propublica.org/article/example-mining",
        "2024-04-02",
        "Example Mining's Scope 3 emissions were 31 Mt CO2e in 2023, ProPublica found.",
        "Example Mining's Scope 3 emissions were 31 Mt CO2e in 2023",
        "contradicts",
    ),
    (
        "other_company",
        "https://www.ft.com/content/example-mining",
        "2024-03-20",
        "Example Mining's Scope 3 emissions were 9.8 Mt CO2e in 2023, an FT analysis of customs data found. "
        "Example Mining is not related to Example Metals.",
        "Example Mining's Scope 3 emissions were 9.8 Mt CO2e in 2023",
        "contradicts",
    ),
    (
        "other_period",
        "https://www.reuters.com/business/example-metals-2021-scope-3",
        "2022-03-02",
        "Example Metals' Scope 3 emissions were 19 Mt CO2e in 2021, a Reuters "
        "analysis of customs data found.",
        "Example Metals' Scope 3 emissions were 19 Mt CO2e in 2021",
        "contradicts",
    ),
]
RIGHT_SOURCE = (
    "same",
    "https://www.reuters.com/business/example-metals-2023",
    "2024-03-12",
    RIGHT,
    RIGHT,
    "supports",
)
FILLER = " ".join(f"Paragraph {n} covers the metals market." for n in range(3))


async def _plant(session_factory: SessionFactory, settings: Any, sources: list[tuple[Any, ...]]) -> None:
    embedder = create_embedder(settings)
    for _, url, published, text, _, _ in sources:
        await add_evidence_document(
            session_factory,
            embedder,
            settings,
            title="Scope 3 emissions in the metals sector",
            text=f"{text} {FILLER}",
            source_url=url,
            published_date=published,
        )


def _model(sources: list[tuple[Any, ...]]) -> Any:
    def reply(payload: dict[str, Any]) -> FakeReply:
        system, user = payload["messages"][0]["content"], payload["messages"][1]["content"]
        if system == QUERY_SYSTEM_PROMPT:
            return FakeReply(
                content={
                    "company_specific": "Example Metals Scope 3 emissions 2023",
                    "industry_wide": "metals Scope 3 emissions 2023",
                    "controversy": "Example Metals Scope 3 emissions",
                }
            )
        if system == SOURCE_ANALYSIS_SYSTEM_PROMPT:
            for _, _, _, text, quote, stance in sources:
                if text[:60] in user:
                    return FakeReply(
                        content={
                            "stance": stance,
                            "confidence": 0.9,
                            "explanation": "The source bears on the claim.",
                            "tier": 2,
                            "quote": quote,
                        }
                    )
            return FakeReply(
                content={"stance": "neutral", "confidence": 0.5, "explanation": "Other.", "quote": ""}
            )
        return FakeReply(status=400, body='{"error": {"message": "not scripted"}}')

    return reply


async def _run(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    sources: list[tuple[Any, ...]],
    *,
    with_model: bool,
) -> tuple[Verdict, dict[str, list[Finding]]]:
    async with fake_llm_server() as fake:
        fake.handler = _model(sources)
        llm_settings = settings_for(fake) if with_model else {}
        settings = make_settings(services, search_providers=["library"], **llm_settings)
        await _plant(session_factory, settings, sources)
        llm = LLMClient(settings) if with_model else None
        seeded = await seed_report(
            session_factory, [{"text": CLAIM, "claim_type": "quantitative", "page": 1}]
        )
        started = await open_analysis_run(
            event_log, settings, seeded.report_id, skip_claims_extraction=True, max_iterations=1
        )
        agents = investigators(news_media=investigate_news)
        async with pipeline_runner(settings, session_factory, event_log, agents=agents, llm=llm) as runner:
            outcome = await runner.run(started.run.id)
        if llm is not None:
            await llm.aclose()
    assert outcome.result.value == "completed", outcome.detail
    async with session_factory() as session:
        findings = list(await session.scalars(select(Finding).where(Finding.agent == "news_media")))
        (verdict,) = list(await session.scalars(select(Verdict).where(Verdict.is_final.is_(True))))
    by_url: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding.details.get("source_url"):
            by_url.setdefault(finding.details["source_url"], []).append(finding)
    return verdict, by_url


def _wrongly_deciding(
    by_url: dict[str, list[Finding]],
    sources: list[tuple[Any, ...]],
    model: bool,
    may_contradict: frozenset[str] = frozenset(),
) -> list[str]:
    """The kinds whose source was found and decided something (or, read by the model, without the
    reason of its kind); every kind of `sources` is checked before the verdict is. The kinds in
    `may_contradict` hold a finding of their own against the claim, which may contradict it."""
    wrong = []
    for kind, url, *_ in sources:
        for finding in by_url.get(url, []):
            signal = finding.details.get("signal")
            contradicts = finding.supports_claim is False or finding.details["contradicts_claim"]
            decided = finding.supports_claim is True or (contradicts and kind not in may_contradict)
            if decided or (model and signal != f"not_same_fact:{kind}"):
                wrong.append(f"{kind} {url}: {finding.summary}")
    return wrong


@pytest.mark.parametrize("with_model", [True, False], ids=["llm", "rules"])
async def test_support_for_another_fact_does_not_verify(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    with_model: bool,
) -> None:
    verdict, by_url = await _run(services, session_factory, event_log, SUPPORT_MISREAD, with_model=with_model)
    assert len([item for item in SUPPORT_MISREAD if item[1] in by_url]) >= 6, sorted(by_url)
    # the auditors' own figure (19 Mt) set against the company's is a contradiction, read by rules
    disputed = frozenset() if with_model else frozenset({"disputed"})
    assert _wrongly_deciding(by_url, SUPPORT_MISREAD, with_model, disputed) == []
    assert verdict.verdict != "verified", verdict.reasoning
    if with_model:  # the fragment is shown and judged as its whole sentence
        (fragment,) = by_url["https://www.bloomberg.com/news/example-metals-audit"]
        assert fragment.details["snippet"].startswith("Auditors rejected the company's statement")
        assert fragment.summary.endswith("so this source decides nothing.")
        assert "disputes the figure" in fragment.summary


@pytest.mark.parametrize("with_model", [True, False], ids=["llm", "rules"])
async def test_contradiction_by_another_fact_does_not_contradict(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    with_model: bool,
) -> None:
    verdict, by_url = await _run(services, session_factory, event_log, CONTRA_MISREAD, with_model=with_model)
    assert _wrongly_deciding(by_url, CONTRA_MISREAD[1:], with_model) == []
    # A source naming only the other company is not about the reporting company at all.
    for finding in by_url.get(CONTRA_MISREAD[0][1], []):
        assert finding.details["stance"] == "irrelevant" and finding.supports_claim is None, finding.summary
    assert verdict.verdict != "contradicted", verdict.reasoning


#: The right company, year, outcome and scope, in the outlets' own words, against the claim's figure.
RIGHT_CONTRA = [
    (
        "same",
        "https://www.ft.com/content/example-metals-scope-3",
        "2024-03-20",
        "Example Metals' Scope 3 emissions were 19 Mt CO2e in 2023, an FT analysis of customs data found.",
        "Example Metals' Scope 3 emissions were 19 Mt CO2e in 2023",
        "contradicts",
    ),
    (
        "same",
        "https://www.bloomberg.com/news/example-metals-scope-3",
        "2024-04-11",
        "Customs data analysed by Bloomberg show Example Metals' Scope 3 emissions were 19 Mt CO2e in 2023.",
        "Customs data analysed by Bloomberg show Example Metals' Scope 3 emissions were 19 Mt CO2e in 2023",
        "contradicts",
    ),
]


@pytest.mark.parametrize("with_model", [True, False], ids=["llm", "rules"])
async def test_the_right_company_year_outcome_and_scope_still_verify(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    with_model: bool,
) -> None:
    verdict, by_url = await _run(
        services, session_factory, event_log, [*SUPPORT_MISREAD[:3], RIGHT_SOURCE], with_model=with_model
    )
    right = by_url[RIGHT_SOURCE[1]]
    assert any(finding.supports_claim is True for finding in right), [f.summary for f in right]
    assert verdict.verdict == "verified", verdict.reasoning


@pytest.mark.parametrize("with_model", [True, False], ids=["llm", "rules"])
async def test_the_right_company_year_and_scope_still_contradict(
    services: RunningServices,
    session_factory: SessionFactory,
    event_log: EventLog,
    clean_db: None,
    with_model: bool,
) -> None:
    verdict, by_url = await _run(
        services, session_factory, event_log, [*CONTRA_MISREAD[1:], *RIGHT_CONTRA], with_model=with_model
    )
    for _, url, *_ in RIGHT_CONTRA:
        assert any(finding.supports_claim is False for finding in by_url[url]), [
            f.summary for f in by_url[url]
        ]
    assert verdict.verdict == "contradicted", verdict.reasoning
