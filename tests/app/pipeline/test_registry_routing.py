"""Claims registries can decide go to Data/Metrics for a registry check, whatever else they were routed to."""

from __future__ import annotations

from app.pipeline.registry_evidence import registry_claims, report_year, without_registry_only
from app.pipeline.routing import REGISTRY_AGENT, rule_route, with_corroboration, with_registry_check
from app.verification.records import ClaimState, RoutingEntry, SpecialistTask

SBTI_CLAIM = ClaimState(
    claim_id="c1",
    text="Our near-term targets were validated by the Science Based Targets initiative.",
    claim_type="strategic",
    priority="high",
    source_page=1,
)
WATER_CLAIM = ClaimState(
    claim_id="c2",
    text="Total water withdrawal was 412 megalitres in 2023.",
    claim_type="quantitative",
    priority="high",
    source_page=1,
)


def task(agent: str, plan: list[RoutingEntry], claims: list[ClaimState]) -> SpecialistTask:
    return SpecialistTask(
        report_id="r", run_id="u", agent=agent, iteration=0, company_name="Vexmoor AG",
        claims=claims, routing=plan, info_requests=[],
    )  # fmt: skip


def test_a_registry_claim_gains_the_registry_agent_only_for_the_registries() -> None:
    entry = with_corroboration(rule_route(SBTI_CLAIM))
    assert REGISTRY_AGENT not in entry["assigned_agents"]

    checked = with_registry_check(entry, about_registries=True)

    assert checked["assigned_agents"] == [*entry["assigned_agents"], REGISTRY_AGENT]
    assert checked.get("registry_check") is True
    assert REGISTRY_AGENT in checked.get("corroborating_agents", [])
    assert "public registries" in checked["reasoning"]
    assert with_registry_check(entry, about_registries=False) == entry


def test_a_claim_already_routed_to_the_agent_keeps_its_own_checks_too() -> None:
    entry = with_corroboration(rule_route(WATER_CLAIM))
    assert REGISTRY_AGENT in entry["assigned_agents"]

    checked = with_registry_check(entry, about_registries=True)

    assert checked["assigned_agents"] == entry["assigned_agents"]
    assert REGISTRY_AGENT not in checked.get("corroborating_agents", [])
    own = without_registry_only(task(REGISTRY_AGENT, [checked], [WATER_CLAIM]))
    assert own["claims"] == [WATER_CLAIM]


def test_the_agents_own_investigator_never_sees_registry_only_claims() -> None:
    plan = [
        with_registry_check(with_corroboration(rule_route(SBTI_CLAIM)), about_registries=True),
        with_registry_check(with_corroboration(rule_route(WATER_CLAIM)), about_registries=False),
    ]
    metrics = task(REGISTRY_AGENT, plan, [SBTI_CLAIM, WATER_CLAIM])
    news = task("news_media", plan, [SBTI_CLAIM, WATER_CLAIM])

    assert without_registry_only(metrics)["claims"] == [WATER_CLAIM]
    assert registry_claims(metrics) == [SBTI_CLAIM]
    assert without_registry_only(news) == news  # the searching agents keep every claim
    assert registry_claims(news) == []


def test_the_report_year_is_the_year_it_names_most_and_never_a_future_one() -> None:
    pages = [
        (1, "Sustainability Report 2023. In 2023 we cut Scope 1 by 4% against 2019; net zero by 2050."),
        (2, "2023 highlights: 2,030 tonnes recycled (2022: 1,950). Target year 2030, 2030, 2030."),
    ]

    assert report_year(pages, today=2026) == 2023
    assert report_year(pages, today=2022) == 2022  # 2023 has not happened yet
    assert report_year([(1, "No year at all.")]) is None
