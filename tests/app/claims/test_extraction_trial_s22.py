"""Extraction problems a new user met (trial s22), on sentences and page layouts of our own:
disclaimers and report self-descriptions, scheme definitions, headings glued onto sentences, list
lead-ins, negated certifications, short virtue claims about the entity's own products, and
"Standards Board" read as a board."""

from __future__ import annotations

import pymupdf
import pytest

from app.claims.classify import build_reasoning, classify_claim_type
from app.claims.ranking import rank_parts
from app.claims.risk_flags import RiskFlagKind, claim_flags, flag_claims, future_flag, report_milestones
from app.claims.rules import check_worthiness, extract_rule_claims, is_boilerplate, is_check_worthy
from app.documents.pdf import open_pdf, read_pages

GENERIC = RiskFlagKind.GENERIC_ENVIRONMENTAL_CLAIM
LABEL = RiskFlagKind.SELF_DECLARED_LABEL
FUTURE = RiskFlagKind.FUTURE_COMMITMENT_WITHOUT_PLAN


def claim_texts(page_text: str) -> list[str]:
    return [claim.text for claim in extract_rule_claims([(1, page_text)])]


# --- 1. disclaimers and the report describing itself ---------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "These statements are being provided to help readers follow our plans for solar roofs and waste.",
        "Such statements are made for the purpose of assisting investors in judging our climate strategy.",
        "It describes our environmental programme and our approach to cutting emissions at every store.",
        "This report outlines how our depots recycle waste and reduce their carbon emissions.",
    ],
)
def test_notice_sentences_and_report_self_descriptions_are_boilerplate(sentence: str) -> None:
    assert is_boilerplate(sentence)
    assert not is_check_worthy(sentence)


def test_every_sentence_of_a_forward_looking_notice_is_skipped() -> None:
    page = (
        "CAUTIONARY NOTE\n"
        "Some statements in this update about our recycling and renewable energy plans are\n"
        "forward-looking statements. They cover our plan to install solar panels on 40 depots by 2027\n"
        "and to recycle all depot waste. Results may differ materially from these expectations.\n"
        "\n"
        "Our depots recycled 81% of their waste in 2023, up from 64% in 2021.\n"
    )
    plan = "They cover our plan to install solar panels on 40 depots by 2027 and to recycle all depot waste."
    assert is_check_worthy(plan)  # alone it reads as a claim; inside the notice it is part of the notice
    assert claim_texts(page) == ["Our depots recycled 81% of their waste in 2023, up from 64% in 2021."]


# --- 2. definitions of schemes and terms ---------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "A rating programme that rewards efficient and sustainable warehouses, promoting low-carbon design.",
        "The Harbour Green Building standard is a widely recognised mark of sustainable construction.",
        "Verde Star Buildings certification recognizes strong energy and environmental performance.",
    ],
)
def test_a_sentence_defining_a_scheme_is_not_a_claim(sentence: str) -> None:
    assert is_boilerplate(sentence)
    assert not is_check_worthy(sentence)


def test_the_entitys_own_use_of_a_scheme_is_still_a_claim() -> None:
    assert is_check_worthy("Our Lakeside warehouse was certified to BREEAM Excellent in 2023.")
    assert not is_boilerplate("The LEED standard is now applied to all our new warehouses across Ontario.")


# --- 3. fragments: a heading glued on, a table cell, a list lead-in -------------------------------


def test_a_heading_tail_glued_onto_a_sentence_is_cut_off_or_dropped() -> None:
    # A narrow timeline column: the heading "2030 & later" sits right above its first line.
    page = (
        "Roadmap\n"
        "2030 & \n"
        "later\n"
        "Continued rollout of our \n"
        "fleet plan with a focus on \n"
        "cutting our GHG emissions \n"
        "and sourcing renewable power.\n"
    )
    assert not any(text.startswith("later") for text in claim_texts(page))


def test_a_capitalised_heading_glued_onto_a_table_cell_is_dropped() -> None:
    page = (
        "The committee met four times in 2023 and reviewed our emissions targets.\n"
        "NOMINATING \n"
        "COMMITTEE\n"
        "Board renewal and director \n"
        "search, including related \n"
        "skills reviews; environmental \n"
        "management oversight; and \n"
        "environmental sustainability.\n"
    )
    texts = claim_texts(page)
    assert not any("COMMITTEE" in text or "renewal" in text for text in texts)


def test_a_heading_trim_keeps_a_real_sentence_under_a_capitalised_heading() -> None:
    page = (
        "Our stores in 2023.\nHIGHLIGHTS\nOur stores cut their electricity use by 14% in 2023 against 2021.\n"
    )
    assert "Our stores cut their electricity use by 14% in 2023 against 2021." in claim_texts(page)


@pytest.mark.parametrize(
    "sentence",
    [
        "These include but are not limited to: soil health, pollinators, rivers and a fair deal for growers.",
        "They include: wetlands, hedgerows, ponds and the wider biodiversity around our farms.",
    ],
)
def test_a_list_lead_in_is_not_a_claim(sentence: str) -> None:
    assert not is_check_worthy(sentence)


def test_a_list_with_a_figure_is_still_checkable() -> None:
    assert is_check_worthy(
        "These include 14 solar installations with a combined capacity of 9 MW at our sites."
    )


# --- 4. negated certifications ------------------------------------------------------------------


def test_a_negated_certification_is_not_reasoned_as_one() -> None:
    sentence = (
        "Although we have not adopted Science Based Targets, we follow SBTi guidance when we set our "
        "climate goals for our depots."
    )
    _, signals = check_worthiness(sentence)
    assert "certification" not in signals
    reasoning = build_reasoning(sentence, classify_claim_type(sentence), signals)
    assert "certification or validation" not in reasoning


def test_an_affirmed_certification_beside_a_negated_one_still_counts() -> None:
    sentence = (
        "Our plants are not yet FSC certified, but all 12 of them hold ISO 14001 certification since 2022."
    )
    _, signals = check_worthiness(sentence)
    assert "certification" in signals
    assert "ISO 14001" in build_reasoning(sentence, classify_claim_type(sentence), signals)


def test_a_negated_scheme_does_not_back_a_generic_claim_or_a_label() -> None:
    assert GENERIC in {
        flag.kind for flag in claim_flags("Our crates are eco-friendly, though not FSC certified.")
    }
    assert LABEL in {flag.kind for flag in claim_flags("Our own Leafmark label is not ISO 14024 verified.")}


def test_a_negated_scheme_is_not_a_plan_behind_a_future_commitment() -> None:
    pages = [(1, "We have not adopted Science Based Targets for our emissions.")]
    flag = future_flag("We will reach net zero emissions by 2045.", report_milestones(pages))
    assert flag is not None and flag.kind is FUTURE


# --- 5. short virtue claims about the entity's own products --------------------------------------


def beta_pages() -> list[tuple[int, str]]:
    text = (
        "Orchard Lane Juices Update 2024\n\n"
        "Orchard Lane is a planet friendly business that bottles sustainable juices for schools nearby. "
        "Our juices are eco-friendly. "
        "Our new Orchard Green Seal certifies our own juices as certified green. "
        "Revenue rose by 9% to 30 million dollars in 2024."
    )
    document = pymupdf.open()
    document.new_page().insert_textbox(pymupdf.Rect(56, 56, 540, 800), text, fontsize=11)
    with open_pdf(document.tobytes()) as pdf:
        return read_pages(pdf, 1, pdf.page_count)


def test_short_virtue_claims_are_extracted_from_a_generated_pdf_and_flagged() -> None:
    pages = beta_pages()
    claims = extract_rule_claims(pages)
    flags = flag_claims([(claim.text, claim.source_context) for claim in claims], pages)
    by_text = {claim.text: {flag.kind for flag in found} for claim, found in zip(claims, flags, strict=True)}
    assert by_text["Our juices are eco-friendly."] == {GENERIC}
    assert LABEL in by_text["Our new Orchard Green Seal certifies our own juices as certified green."]
    company = next(text for text in by_text if text.startswith("Orchard Lane is"))
    assert GENERIC in by_text[company]  # a revenue figure nearby substantiates nothing


@pytest.mark.parametrize(
    "sentence",
    [
        "Eco-friendly products matter.",
        "Green is our colour.",
        "Our juices are tasty.",
        "Our future is green.",
    ],
)
def test_short_sentences_without_an_entitys_virtue_claim_stay_fragments(sentence: str) -> None:
    assert not is_check_worthy(sentence)


def test_a_recognised_scheme_named_first_in_an_own_label_is_third_party() -> None:
    assert LABEL not in {
        flag.kind for flag in claim_flags("Our new FSC certification covers all our crates.")
    }


def test_an_environmental_figure_nearby_still_substantiates() -> None:
    context = "Each bottle now uses 30% less glass than in 2020."
    assert GENERIC not in {flag.kind for flag in claim_flags("Our juices are eco-friendly.", context)}


# --- 6. "Standards Board" is not a board --------------------------------------------------------


def test_a_standards_board_is_not_board_oversight() -> None:
    sentence = (
        "Our climate reporting is aligned with the Sustainability Accounting Standards Board and the "
        "International Sustainability Standards Board standards for our emissions."
    )
    score, signals = check_worthiness(sentence)
    claim_type = classify_claim_type(sentence)
    reasoning = build_reasoning(sentence, claim_type, signals)
    assert "board oversight" not in reasoning
    assert "governance" not in signals


def test_a_companys_board_is_still_board_oversight() -> None:
    sentence = "The Board reviews our climate strategy and its progress twice a year."
    assert classify_claim_type(sentence) == "legal_governance"
    assert "board oversight" in build_reasoning(sentence, "legal_governance", check_worthiness(sentence)[1])


def test_a_negated_certification_earns_no_ranking_bonus() -> None:
    denied = "We have not adopted Science Based Targets for the emissions of our depots."
    held = "We have adopted Science Based Targets for the emissions of our depots."
    assert "environmental_evidence" not in dict(rank_parts(denied, 2.5))
    assert "environmental_evidence" in dict(rank_parts(held, 2.5))
