"""The company speaking for itself is never independent evidence, wherever it is printed (trial s24,
bugs 4, 5, 5b and 7), rule by rule: its own domains by name, its subsidiaries, its own report or CDP
response, a press release on a Tier 2 domain, an outlet relaying its statement, a quote in its first
person; and one wire story carried by several sites is one voice."""

from __future__ import annotations

from typing import Any

import pytest

from app.verification.evidence_kinds import evidence_kind_of
from app.verification.judge.decision import grounded_verdict
from app.verification.judge.grounding import ground, voices
from app.verification.records import Finding
from app.verification.sources.attribution import FIRST_PERSON, RELAYED, company_voice
from app.verification.sources.credibility import assign_tier, is_company_site
from app.verification.sources.own_documents import is_own_report_title, names_parent_company
from app.verification.sources.voices import credited_outlet, same_story, voice_of

NORDAVIA = "Nordavia Metals"


@pytest.mark.parametrize(
    ("domain", "company", "own"),
    [
        ("costco.com", "Costco Wholesale Corporation", True),
        ("costcowholesale.com", "Costco Wholesale Corporation", True),
        ("volkswagen-group.com", "Volkswagen AG", True),
        ("volkswagenag.com", "Volkswagen AG", True),
        ("nordavia.com", NORDAVIA, True),
        ("nordavia-energy.se", NORDAVIA, True),
        ("nordaviametals.com", NORDAVIA, True),
        ("riotinto.com", "Rio Tinto plc", True),
        ("tesco.co.uk", "Tesco PLC", True),
        ("generalelectric.com", "General Electric Company", True),
        ("firstsolar.com", "First Solar, Inc.", True),
        ("homedepot.com", "The Home Depot, Inc.", True),
        # A generic first word alone is nobody's site; a short one is too easily another name.
        ("general.com", "General Electric Company", False),
        ("first.com", "First Solar, Inc.", False),
        ("rionegro.com", "Rio Tinto plc", False),
        # Another company, a watchdog, a site that merely starts like the name, a table outlet.
        ("nordaviamining.com", NORDAVIA, False),
        ("amazonwatch.org", "Amazon.com, Inc.", False),
        ("appleinsider.com", "Apple Inc.", False),
        ("reuters.com", "Reuters Group", False),
        ("theguardian.com", NORDAVIA, False),
        # Names reserved for documentation (RFC 2606) are nobody's.
        ("esg-archive.example.org", "Example Metals plc", False),
    ],
)
def test_the_companys_own_domains_are_recognised_by_its_name(domain: str, company: str, own: bool) -> None:
    assert is_company_site(domain, company) is own


def test_a_subsidiarys_text_makes_an_unlisted_site_self_reported() -> None:
    text = "Kiruna Power AB, a Nordavia Metals subsidiary, confirms the smelter ran on hydropower in 2023."
    assert names_parent_company(text, NORDAVIA)
    assert names_parent_company("The plant is part of Nordavia Metals.", NORDAVIA)
    assert names_parent_company("Nordavia Metals' Swedish energy unit said it bought power.", NORDAVIA)
    assert not names_parent_company("Nordavia Mining, a Chilean producer, said …", NORDAVIA)
    tier = assign_tier("https://kirunapower.se/news", "kirunapower.se", "News", text, NORDAVIA)
    assert tier is not None and (tier.tier, tier.basis) == (3, "company_site")


@pytest.mark.parametrize(
    ("title", "own"),
    [
        ("Nordavia Metals Sustainability Report 2023", True),
        ("Nordavia Metals plc Annual Report 2023/24", True),
        ("Nordavia Metals CDP Climate Change Questionnaire 2024", True),
        ("Nordavia Metals ESG Data Book FY23", True),
        ("Nordavia Metals' Form 10-K 2023", True),
        ("Nordavia Metals sustainability report overstates cuts, NGO says", False),
        ("What Nordavia Metals disclosed this season", False),
        ("Nordavia Mining Sustainability Report 2023", False),
    ],
)
def test_a_library_document_titled_as_the_companys_own_report_is_self_reported(title: str, own: bool) -> None:
    assert is_own_report_title(title, NORDAVIA) is own
    tier = assign_tier(
        "library://d1", "", title, "Our Scope 3 emissions were 14.2 Mt CO2e in 2023.", NORDAVIA
    )
    assert (tier is not None and tier.basis == "company_report") is own


def test_a_cdp_response_is_the_companys_disclosure_but_cdp_research_is_not() -> None:
    response = assign_tier(
        "https://www.cdp.net/en/responses/nordavia-metals-2023", "cdp.net", "CDP response", "C6.5", NORDAVIA
    )
    assert response is not None and (response.tier, response.basis) == (3, "company_report")
    research = assign_tier("https://www.cdp.net/en/research/metals", "cdp.net", "Metals", "…", NORDAVIA)
    assert research is not None and (research.tier, research.basis) == (2, "domain")


@pytest.mark.parametrize(
    "text",
    [
        "STOCKHOLM -- Nordavia Metals today said its Kiruna smelter ran on 100% hydropower in 2023. "
        "Contact: investor relations, Nordavia Metals.",
        "Nordavia Metals today announced its 2023 results.",
        "The smelter ran on hydropower in 2023.\nMedia contact: press office, +46 000 000",
        "FOR IMMEDIATE RELEASE Nordavia Metals posts results.",
    ],
)
def test_a_press_release_on_a_tier_2_domain_is_self_reported(text: str) -> None:
    tier = assign_tier("https://www.spglobal.com/x", "spglobal.com", "Kiruna smelter", text, NORDAVIA)
    assert tier is not None and (tier.tier, tier.basis) == (3, "press_release")


def test_a_publication_named_today_reporting_is_no_release() -> None:
    text = "Nordavia's smelters handled 1.2 Mt of ore in 2023, trade title Mining Today reported."
    tier = assign_tier("https://www.reuters.com/x", "reuters.com", "Nordavia", text, NORDAVIA)
    assert tier is not None and (tier.tier, tier.basis) == (2, "domain")


def test_news_that_mentions_a_release_keeps_its_tier() -> None:
    text = "Nordavia Metals' press release claimed 64%, but our investigation found 40%."
    tier = assign_tier("https://www.propublica.org/x", "propublica.org", "Nordavia", text, NORDAVIA)
    assert tier is not None and (tier.tier, tier.basis) == (1, "domain")


@pytest.mark.parametrize(
    ("quote", "stance", "voice"),
    [
        ("Nordavia Metals said its Scope 3 emissions were 14.2 Mt CO2e in 2023.", "supports", RELAYED),
        ("Scope 3 emissions were 14.2 Mt CO2e for 2023, the miner said in a statement.", "supports", RELAYED),
        ("Scope 3 emissions were 14.2 Mt CO2e in 2023, according to Nordavia Metals.", "supports", RELAYED),
        ("Scope 3 emissions came to 14.2 Mt CO2e in 2023, the company reported.", "supports", RELAYED),
        ("Its annual report shows Scope 3 emissions of 14.2 Mt CO2e in 2023.", "supports", RELAYED),
        ("Our Scope 3 emissions were 14.2 Mt CO2e in 2023.", "supports", FIRST_PERSON),
        ('"We spent EUR 140 million on it," the chief executive said.', "supports", FIRST_PERSON),
        # the company's officers, however the press titles them
        (
            "Scope 3 emissions were 14.2 Mt in 2023, chief executive Helga Morn told reporters.",
            "supports",
            RELAYED,
        ),
        ("Scope 3 emissions were 14.2 Mt in 2023, its sustainability director said.", "supports", RELAYED),
        # a spokesperson of no one named is the company's, another body's is not
        ("Nordavia Metals emitted 14.2 Mt CO2e in 2023, a spokesperson said.", "supports", RELAYED),
        (
            "Nordavia Metals emitted 14.2 Mt CO2e in 2023, a spokesperson for the regulator said.",
            "supports",
            None,
        ),
        (
            "Scope 3 emissions fell 4% in 2023, the company's operations chief told a trade fair.",
            "supports",
            RELAYED,
        ),
        (
            "Nordavia Metals' chief executive, Helga Morn, told reporters it spent EUR 140 million.",
            "supports",
            RELAYED,
        ),
        # another body's officer, or an officer spoken of, is not the company speaking
        (
            "Scope 3 emissions were 14.2 Mt in 2023, the regulator's chief executive Jane Doe said.",
            "supports",
            None,
        ),
        ("Nordavia Metals' chief executive was fined EUR 2 million, the court said.", "supports", None),
        # The company saying something else elsewhere: a relay on the contradicting side too.
        ("Nordavia Metals said its Scope 2 emissions rose 30% in 2023.", "contradicts", RELAYED),
        # The outlet's own finding, or a finding set against the company's: not the company's word.
        (
            "Nordavia Metals' Scope 3 emissions were 31 Mt CO2e in 2023, ProPublica found.",
            "contradicts",
            None,
        ),
        ("Nordavia Metals claims 64%, but an NGO audit found the true share was 40%.", "contradicts", None),
        ("According to filings examined by our reporters, the figure came to 14.2 Mt.", "supports", None),
        ("We analysed satellite data: Nordavia Metals emitted 14.2 Mt in 2023.", "supports", None),
        ("US Scope 3 emissions of Nordavia Metals were 14.2 Mt CO2e in 2023.", "supports", None),
        ("Nordavia Metals said its products are popular.", "neutral", None),
        # "put … at" is an estimate the company gives; putting water into supply is no one speaking
        ("Nordavia Metals put its 2023 Scope 3 emissions at 14.2 Mt CO2e.", "supports", RELAYED),
        (
            "Nordavia Metals put 1.02 gigalitres of water into supply each day in 2023, regulator data show.",
            "supports",
            None,
        ),
        ("Leakage was a fifth of the water Nordavia Metals put into its network in 2023.", "supports", None),
        (
            "Nordavia Metals put its Scope 1 and Scope 2 greenhouse gas emissions for 2023 at 14.2 Mt CO2e.",
            "supports",
            RELAYED,
        ),
        ("Nordavia Metals put the plant into service in 2023 at a cost of EUR 40 million.", "supports", None),
    ],
)
def test_a_quote_in_the_companys_voice_is_recognised(quote: str, stance: str, voice: str | None) -> None:
    assert company_voice(quote, NORDAVIA, stance) == voice


# --- the judge -----------------------------------------------------------------------------------


def _source(domain: str, tier: int, stance: str, quote: str, **details: Any) -> Finding:
    contradicts = stance == "contradicts"
    return {
        "finding_id": f"{domain}-{stance}-{len(quote)}",
        "agent_name": "news_media",
        "claim_id": "c1",
        "evidence_type": "news_contradiction" if contradicts else "news_source",
        "summary": f"{domain}: read",
        "details": {
            "source_url": details.pop("url", f"https://{domain}/story"),
            "source_title": "A story",
            "source_domain": domain,
            "source_tier": tier,
            "tier_basis": "domain",
            "published_date": details.pop("date", "2024-03-12"),
            "stance": stance,
            "contradicts_claim": contradicts,
            "snippet": quote,
            "quote_verified": True,
            **details,
        },
        "supports_claim": True if stance == "supports" else None,
        "confidence": 0.8,
        "iteration": 0,
        "method": "rules",
    }


SAID = "Nordavia Metals said its Scope 3 emissions were 14.2 Mt CO2e in 2023."


def test_a_relayed_statement_is_self_reported_not_corroboration() -> None:
    relayed = _source("reuters.com", 2, "supports", SAID, relays_company=True, company_voice=RELAYED)
    assert evidence_kind_of("news_media", "news_source", relayed["details"]) == "internal"
    grounding = ground([relayed])
    assert grounded_verdict(grounding) == "unverified"
    assert [source["publisher"] for source in grounding["self_reported"]] == ["reuters.com"]


def test_a_relayed_contradiction_is_an_internal_doubt_not_an_independent_contradiction() -> None:
    other = "Nordavia Metals said its Scope 3 emissions were 19 Mt CO2e in 2023."
    relayed = _source("reuters.com", 1, "contradicts", other, relays_company=True, company_voice=RELAYED)
    grounding = ground([relayed, _source("ft.com", 2, "supports", "Scope 3 came to 14.2 Mt CO2e, FT found.")])
    assert grounded_verdict(grounding) == "insufficient_evidence"
    assert not grounding["contradicting"] and not grounding["weak_contradiction"]
    assert [source["publisher"] for source in grounding["internal_doubts"]] == ["reuters.com"]


def test_copies_credited_to_one_wire_are_one_voice() -> None:
    assert credited_outlet("Nordavia cut emissions in 2023. (Reuters)", None) == "reuters.com"
    assert credited_outlet("… for 2023, Reuters reported.", None) == "reuters.com"
    assert credited_outlet("Nordavia cut emissions.\n— Bloomberg", None) == "bloomberg.com"
    assert credited_outlet("LONDON (AP) — Nordavia cut emissions.", None) == "apnews.com"
    assert credited_outlet("text", "https://www.morningstar.com/news/reuters/2024/x") == "reuters.com"
    assert credited_outlet("AP courses and the apple harvest", "https://a.example/ap/x") is None
    screener = _source("marketscreener.com", 3, "supports", "Scope 3 came to 14.2 Mt in 2023. (Reuters)")
    star = _source("morningstar.com", 3, "supports", "Its Scope 3 emissions: 14.2 Mt CO2e last year.")
    star["details"]["source_url"] = "https://www.morningstar.com/news/reuters/2024/03/12/nordavia"
    assert grounded_verdict(ground([screener, star])) == "insufficient_evidence"
    # A stored voice (read from the whole text at reading time) wins over what the citation shows.
    assert voice_of({"publisher": "finance.yahoo.com", "voice": "reuters.com", "quote": "x"}) == "reuters.com"


def test_reworded_copies_of_one_story_are_one_voice_other_days_or_figures_are_not() -> None:
    first = {
        "publisher": "marketscreener.com",
        "published_date": "2024-03-12",
        "quote": "Nordavia Metals' Scope 3 emissions were 14.2 Mt CO2e in 2023, up 4% on a year earlier.",
    }
    reworded = {
        "publisher": "seekingalpha.com",
        "published_date": "2024-03-12",
        "quote": "Scope 3 emissions at Nordavia Metals were up 4% on a year earlier, at 14.2 Mt CO2e "
        "in 2023.",
    }
    assert same_story(first, reworded)
    assert not same_story(first, {**reworded, "published_date": "2024-03-13"})
    assert not same_story(first, {**reworded, "quote": reworded["quote"].replace("4%", "5%")})
    own = {
        **reworded,
        "quote": "An FT review of plant data puts Nordavia's 2023 Scope 3 total at 14.2 Mt CO2e.",
    }
    assert not same_story(first, own)
    assert len(voices([_cited(first), _cited(reworded)])) == 1  # type: ignore[list-item]
    assert len(voices([_cited(first), _cited(own)])) == 2  # type: ignore[list-item]


def _cited(source: dict[str, str]) -> dict[str, object]:
    return {**source, "url": f"https://{source['publisher']}/x", "voice": None}
