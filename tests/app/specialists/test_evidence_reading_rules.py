"""The rule reading of a source compares like with like: figures and directions only for the same
emissions quantity (Scope 1, 2, 3, or the total of all three), intentions never against reported
changes, counts of things ("212 depots") too, and only sources about the report's company count."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from app.verification.investigators.academic import academic_queries
from app.verification.investigators.search_queries import key_terms
from app.verification.reading.change_mood import intended
from app.verification.reading.contradictions import assess_by_rules
from app.verification.reading.figures import covered_scopes, denied, parse_counts, quantities, quantity_at
from app.verification.sources.company_names import about_company
from schema.types.verdict_sources import deciding_sources

COMPANY = "Northwind"
TOTAL_CLAIM = "Our footprint across all three scopes came to 41.5 Mt CO2e in FY24, up 9% on FY23."
SCOPE3_CLAIM = "Scope 3 emissions increased 9% in FY24, driven by higher purchased goods."
SCOPE1_CLAIM = "Scope 1 emissions increased 14% in FY24 as two new furnaces started."
COMMITMENT = "Northwind is committed to doing its part to reduce emissions across its value chain."
TARGET = "We have committed to a Scope 1 and Scope 2 reduction target: a 45% absolute cut by 2033."
LED_CLAIM = "We fitted efficient LED lighting at 212 depots across the region, lowering wattage by 30%."

SCOPE1_NEWS = "Northwind said its Scope 1 emissions increased 14% in fiscal 2024 after two furnaces started."
TOTAL_NEWS = "Northwind said its total emissions across all three scopes increased 9% in fiscal 2024."
INTENT_NEWS = "The company says it is committed to cutting emissions."
PAST_CUT_NEWS = "Northwind said its Scope 1 emissions fell 3% in fiscal 2024."
BLOG = "Northwind fitted LED lighting at only 75 depots, not 212, staff at 2 sites told us."


def _read(claim: str, source: str, title: str = "Northwind emissions update") -> tuple[str, str | None]:
    assessment = assess_by_rules(claim, COMPANY, title, source)
    return assessment.stance, assessment.signal


def test_all_three_scopes_is_the_total_not_each_scope() -> None:
    assert quantities("emissions across all three scopes") == {"total"}
    assert quantities("Scopes 1, 2 and 3 emissions") == {"total"}
    assert quantities("Scope 1 and Scope 2 emissions") == {"scope 1+2"}
    assert covered_scopes("total emissions across all three scopes") == frozenset("123")
    text = "Scope 1 emissions rose 14% while total emissions rose 9%."
    assert quantity_at(text, text.index("14%")) == "scope 1"
    assert quantity_at(text, text.index("9%")) == "total"


def test_a_total_figure_supports_only_the_total_claim() -> None:
    assert _read(TOTAL_CLAIM, TOTAL_NEWS) == ("supports", "same_figure")
    # the same 9%, but of the total: it says nothing about Scope 3 on its own
    assert _read(SCOPE3_CLAIM, TOTAL_NEWS)[0] == "neutral"
    # the total's 9% neither contradicts Scope 1's 14% nor does Scope 1's 14% contradict the total
    assert _read(SCOPE1_CLAIM, TOTAL_NEWS)[0] == "neutral"
    assert _read(TOTAL_CLAIM, SCOPE1_NEWS)[0] == "neutral"
    assert _read(SCOPE1_CLAIM, SCOPE1_NEWS) == ("supports", "same_figure")


def test_a_source_figure_that_names_no_scope_is_read_as_the_claims() -> None:
    # the sentence shares the claim's topic and labels no other quantity: it may be the same one
    assert _read("Scope 1 emissions fell 3% in FY24.", "Northwind's emissions fell 3% in fiscal 2024.") == (
        "supports",
        "same_figure",
    )
    # but a claim figure that names no scope is not compared with a source's Scope 2 figure
    assert _read("Emissions fell 3% in FY24.", "Northwind's Scope 2 emissions fell 5% in fiscal 2024.")[
        0
    ] == ("neutral")


def test_a_direction_is_compared_only_for_the_same_quantity() -> None:
    claim = "Scope 1 emissions fell in FY24 as furnaces were electrified."
    total_rose = "Northwind said its total emissions across all three scopes rose in fiscal 2024."
    assert _read(claim, total_rose)[0] == "neutral"
    scope1_rose = "Northwind said its Scope 1 emissions rose in fiscal 2024 as furnaces ran longer."
    assert _read(claim, scope1_rose) == ("contradicts", "opposite_direction")


def test_a_commitment_is_not_a_reported_decrease() -> None:
    assert intended(INTENT_NEWS, INTENT_NEWS.index("cutting"), INTENT_NEWS.index("cutting") + 7)
    assert intended(TARGET, TARGET.index("45%"), TARGET.index("45%") + 3)  # a deadline still to come
    reported = "Scope 1 emissions fell 3% in FY24."
    assert not intended(reported, reported.index("fell"), reported.index("fell") + 4)
    # an intention neither supports nor is contradicted by a reported change
    assert _read(COMMITMENT, INTENT_NEWS)[0] == "neutral"
    assert _read(TARGET, INTENT_NEWS)[0] not in {"supports", "contradicts"}
    assert _read(COMMITMENT, SCOPE1_NEWS)[0] == "neutral"
    assert _read(COMMITMENT, TOTAL_NEWS)[0] == "neutral"
    # and a reported change is not confirmed by a commitment
    assert _read("Scope 1 emissions fell 3% in FY24.", "Northwind aims to cut Scope 1 emissions 3%.")[0] != (
        "supports"
    )
    assert _read("Scope 1 emissions fell 3% in FY24.", PAST_CUT_NEWS) == ("supports", "same_figure")
    # a target restated as a target confirms the target's figure
    restated = "Northwind's filing puts its Scope 1 and 2 reduction target for 2033 at 45%."
    assert _read(TARGET, restated) == ("supports", "same_figure")


def test_explanations_use_the_right_article() -> None:
    claim = "Scope 1 emissions fell in FY24 as furnaces were electrified."
    rose = assess_by_rules(claim, COMPANY, "", "Northwind's Scope 1 emissions rose in fiscal 2024.")
    assert rose.explanation == "The claim reports a decrease; the source reports an increase."
    also = assess_by_rules(
        "Scope 1 emissions rose in FY24.", COMPANY, "", "Northwind's Scope 1 emissions rose in fiscal 2024."
    )
    assert also.explanation == "The source also reports an increase."


def test_a_different_count_of_the_same_things_contradicts() -> None:
    assert [(count.value, count.noun) for count in parse_counts(BLOG)] == [(75, "depot"), (2, "site")]
    assert denied(BLOG, BLOG.index("212"))
    assert _read(LED_CLAIM, BLOG) == ("contradicts", "numeric_mismatch")
    same = "Northwind fitted LED lighting at 212 depots last year, its filings show."
    assert _read(LED_CLAIM, same) == ("supports", "same_figure")
    # other depots in another context are not the claim's depots
    opened = "Northwind opened 12 depots and hired drivers."
    assert _read(LED_CLAIM, opened)[0] != "contradicts"
    # Scope 2 percentages say nothing about lighting wattage
    scope2 = "Northwind said its Scope 2 emissions fell 3% in fiscal 2024 thanks to LED lighting."
    assert _read(LED_CLAIM, scope2)[0] != "contradicts"


def test_a_source_must_name_the_reports_company() -> None:
    assert about_company("Northwind", "Northwind update", "text")
    assert about_company("Northwind", None, "Figures from Northwind's filing")
    assert not about_company("Acme Metals", "Northwind update", "Northwind said its emissions rose.", None)
    assert about_company("", "anything")  # no company name known: nothing can be ruled out


def _grounded(*items: dict[str, Any]) -> dict[str, Any]:
    return {"evaluation": {"grounding": {"corroborating": list(items)}}}


def test_a_deciding_source_is_listed_once() -> None:
    bbc: dict[str, Any] = {
        "finding_id": "f1",
        "agent": "news_media",
        "kind": "independent",
        "publisher": "bbc.co.uk",
        "url": "https://www.bbc.co.uk/news/x",
        "tier": 2,
        "summary": "s",
    }
    internal = {"finding_id": "f3", "agent": "data_metrics", "kind": "internal", "url": None, "summary": "i"}
    sources = deciding_sources("verified", _grounded(bbc, {**bbc, "finding_id": "f2"}, internal, internal))
    assert [source.url for source in sources] == ["https://www.bbc.co.uk/news/x", None, None]
    assert str(sources[0].finding_id) != str(sources[1].finding_id)


@pytest.mark.parametrize("source", [TOTAL_NEWS, SCOPE1_NEWS])
def test_a_source_about_another_company_is_irrelevant_to_the_report(source: str) -> None:
    assert not about_company("Acme Metals", "Emissions round-up", source)


def test_a_rule_query_names_the_company_once() -> None:
    claim: Any = {
        "claim_id": "c",
        "text": "Northwind's first depot energy study was completed in 2024.",
        "claim_type": "strategic",
        "priority": "high",
        "source_page": 1,
    }
    queries = [query.query for query in academic_queries(claim, "Northwind", dt.date(2025, 1, 1))]
    assert queries == [
        "first depot energy study peer-reviewed research benchmark",
        "Northwind first depot energy study",
    ]
    assert "Northwind's" not in key_terms(claim["text"], known="Northwind")
