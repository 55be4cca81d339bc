"""Question classification by rules, the entities every question is searched with, and the helpers
that shape answers (cache normalisation, search words, excerpts)."""

from __future__ import annotations

import pytest

from app.questions.cache import normalise_question
from app.questions.citations import best_sentences, clip
from app.questions.classify import classify, classify_by_rules, extract_entities
from app.questions.expansion import expand, topic_words, without_purpose
from app.questions.search import search_words
from app.questions.types import QueryType
from app.questions.vocabulary import concept_groups, derivation_groups, variants
from app.questions.windows import sentence_windows


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which claims were contradicted?", QueryType.VERDICT_SUMMARY),
        ("How many claims were verified?", QueryType.VERDICT_SUMMARY),
        ("Is any claim unverified?", QueryType.VERDICT_SUMMARY),
        ("What does the report say about scope 3?", QueryType.CLAIM_LOOKUP),
        ("scope 3 emissions", QueryType.CLAIM_LOOKUP),
        ("What evidence contradicts the net-zero claim?", QueryType.EVIDENCE),
        ("Which sources support the water figures?", QueryType.EVIDENCE),
        ("Which IFRS S2 paragraphs are unsupported?", QueryType.COMPLIANCE),
        ("Does the report comply with S2.29(a)?", QueryType.COMPLIANCE),
        ("Summarise this report", QueryType.GENERAL),
        (
            "Does the company report the climate change scenarios used to test the resilience of its "
            "business strategy?",
            QueryType.DISCLOSURE,
        ),
        (
            "Does the company have any engagements with industry peers in relation to climate change?",
            QueryType.DISCLOSURE,
        ),
        ("How does the company manage water risk?", QueryType.DISCLOSURE),
        ("How much does the group spend on decarbonisation?", QueryType.DISCLOSURE),
        ("Does the report describe the board's oversight of climate?", QueryType.DISCLOSURE),
        ("Does the report comply with IFRS S2?", QueryType.COMPLIANCE),
        ("Were the company's claims verified?", QueryType.VERDICT_SUMMARY),
        ("Is the report misleading?", QueryType.VERDICT_SUMMARY),
        # Reviewers' openings without "does the company ...".
        ("Is there a board committee that supervises climate matters?", QueryType.DISCLOSURE),
        ("Which executives are accountable for climate issues?", QueryType.DISCLOSURE),
        ("How are climate risks integrated into enterprise risk management?", QueryType.DISCLOSURE),
        ("Is executive pay tied to climate objectives?", QueryType.DISCLOSURE),
        ("Is there any claim that was contradicted?", QueryType.VERDICT_SUMMARY),
        ("Have the company's reduction goals been checked by an outside body?", QueryType.DISCLOSURE),
        ("Has the group's transition plan been approved by shareholders?", QueryType.DISCLOSURE),
        ("Were the company's statements on water verified?", QueryType.VERDICT_SUMMARY),
        ("Is the company's report compliant with IFRS S2?", QueryType.COMPLIANCE),
        ("How are claims verified?", QueryType.VERDICT_SUMMARY),
        # Checklist wording: what or which practice, body, target or metric the report describes.
        ("What process does the group follow to assess transition risks?", QueryType.DISCLOSURE),
        ("Which board committee holds responsibility for sustainability?", QueryType.DISCLOSURE),
        ("Who has oversight of climate matters?", QueryType.DISCLOSURE),
        ("What are the company's interim targets for cutting methane?", QueryType.DISCLOSURE),
        ("What steps has the firm taken to reduce supplier emissions?", QueryType.DISCLOSURE),
        ("Which metrics does the company use to track physical risk?", QueryType.DISCLOSURE),
        ("What is the company's water use?", QueryType.CLAIM_LOOKUP),
        ("What does the report say about the company's targets?", QueryType.CLAIM_LOOKUP),
        ("Which targets were contradicted?", QueryType.VERDICT_SUMMARY),
        ("What evidence supports the company's targets?", QueryType.EVIDENCE),
    ],
)
def test_rules_classify_typical_questions(question: str, expected: QueryType) -> None:
    assert classify_by_rules(question) is expected


async def test_without_an_llm_the_rules_classify_and_say_so() -> None:
    classification = await classify("Which claims were contradicted?", llm=None)

    assert classification.query_type is QueryType.VERDICT_SUMMARY
    assert classification.method == "rules"
    assert classification.entities.labels == ("contradicted",)


def test_entities_name_labels_paragraphs_statuses_pages_and_stance() -> None:
    verdicts = extract_entities("Which claims were not verified, and which were verified?")
    paragraphs = extract_entities("Is IFRS S2 paragraph 29(a)(iii) met, and S1.46?")
    standard = extract_entities("Which IFRS S2 paragraphs are unsupported or partially supported?")
    evidence = extract_entities("What evidence contradicts the claim on page 12?")

    assert verdicts.labels == ("unverified", "verified")
    assert paragraphs.paragraphs == ("S2.29(a)(iii)", "S1.46")
    assert paragraphs.standards == ()
    assert paragraphs.statuses == ("supported",)
    assert standard.standards == ("S2",)
    assert set(standard.statuses) == {"unsupported", "partially_supported"}
    assert evidence.pages == (12,) and evidence.stance == "contradicts"
    assert evidence.labels == ()  # "contradicts" is a stance, not the CONTRADICTED label


def test_unverified_is_not_read_as_verified() -> None:
    assert extract_entities("List the unverified claims").labels == ("unverified",)
    assert extract_entities("Which claims could not be verified?").labels == ("unverified",)


def test_cache_normalisation_ignores_case_spacing_and_trailing_punctuation() -> None:
    assert normalise_question("  Which claims   were CONTRADICTED?? ") == "which claims were contradicted"
    assert normalise_question("scope 3") != normalise_question("scope 1")


def test_search_words_drop_what_every_question_says() -> None:
    assert search_words("What does the report say about scope 3 emissions?") == "the scope 3 emissions"
    assert search_words("Which claims were contradicted?", ["were", "contradicted"]) == ""


def test_excerpts_pick_the_sentences_that_share_the_question_words() -> None:
    text = "Our people matter. Scope 3 emissions were 31 Mt CO2e. Safety first. Suppliers cut Scope 3."
    long_text = "word " * 200

    assert best_sentences(text, "scope 3 emissions", count=1) == "Scope 3 emissions were 31 Mt CO2e."
    assert best_sentences(text, "biodiversity") == "Our people matter."
    assert len(clip(long_text)) <= 300 and clip(long_text).endswith("…")


def test_disclosure_questions_map_to_the_ifrs_requirement_and_add_its_words() -> None:
    scenarios = expand(
        "Does the company report the climate scenarios used to test its strategy's resilience?"
    )
    carbon_price = expand("Does the company use an internal carbon price?")
    unrelated = expand("Does the company have a code of conduct that employees must follow?")

    assert scenarios.paragraph_ids[0] == "S2.22"
    assert "analysis" in scenarios.terms and "stress" in scenarios.terms  # scenario analysis, stress test
    assert carbon_price.paragraph_ids[0] == "S2.29(f)" and "shadow" in carbon_price.terms
    assert unrelated.requirements == () and unrelated.terms == ()


def test_sentence_windows_cover_every_sentence_and_overlap() -> None:
    sentences = [f"Sentence number {index} says something about topic {index}." for index in range(30)]

    windows = sentence_windows(sentences, size=200)

    assert windows[0].first == 0 and windows[-1].last == 29
    assert all(later.first <= earlier.last + 1 for earlier, later in zip(windows, windows[1:], strict=False))
    assert all(later.first > earlier.first for earlier, later in zip(windows, windows[1:], strict=False))
    assert any(later.first <= earlier.last for earlier, later in zip(windows, windows[1:], strict=False))
    assert all(len(window.text) < 200 + 60 for window in windows)


def test_analyst_words_map_to_the_words_reports_use() -> None:
    groups = {
        group.covered: group
        for group in concept_groups(
            "Does the company work together with other firms in its sector, and is executive pay tied to it?"
        )
    }
    peers = next(group for covered, group in groups.items() if "firm" in covered)
    pay = next(group for covered, group in groups.items() if "pay" in covered)

    assert "trade associations" in peers.alternatives and "coalition" in peers.alternatives
    assert "incentive" in pay.alternatives and "remuneration" in pay.alternatives
    assert pay.asked == ("pay",)
    # "other companies" is a phrase: a question that merely says "the company" is not about peers.
    assert not any("peers" in group.alternatives for group in concept_groups("Does the company report it?"))
    # The longest phrase claims its words: "enterprise risk management" is one group.
    erm = concept_groups("How are climate risks folded into enterprise risk management?")
    assert [group.covered for group in erm] == [("fold",), ("enterpris", "risk", "management")]


def test_derivations_the_full_text_stemmer_keeps_apart_are_searched_together() -> None:
    assert variants("consume") == ("consumption",)
    assert "consume" in variants("consumption")
    assert variants("reduction") == ("reduce", "reduces")
    assert variants("water") == ()
    assert [group.alternatives for group in derivation_groups(["water", "consume"])] == [
        ("consume", "consumption")
    ]


def test_framework_qualifiers_do_not_decide_the_requirement_a_question_maps_to() -> None:
    """ "... of climate-related risks and opportunities" is how TCFD questions end; the board's
    oversight maps to the governance paragraph, management's role to management's."""
    board = expand(
        "Does the company describe the board's oversight of climate-related risks and opportunities?"
    )
    management = expand(
        "Does the company describe management's role in assessing and managing climate-related risks?"
    )
    risks = expand("Does the company describe the climate-related risks and opportunities it has identified?")

    assert board.paragraph_ids[0].startswith("S2.6")
    assert management.paragraph_ids[0].startswith("S2.6(b)")
    # With nothing but the qualifier left, it is the topic.
    assert risks.paragraph_ids[0].startswith("S2.10") or risks.paragraph_ids[0].startswith("S2.9")
    assert "risks" not in board.terms and "opportunities" not in board.terms


def test_connecting_words_of_questions_are_not_topic_words() -> None:
    assert topic_words(
        "Does the company apply a carbon price in relation to its investments?"
    ) == topic_words("carbon price investments")


def test_a_word_the_question_uses_twice_can_stand_for_two_concepts() -> None:
    """ "management's role in ... managing" asks who (executives) and what they do (handle)."""
    groups = concept_groups("Does the company describe management's role in managing climate risks?")
    executive = next(group for group in groups if "senior management" in group.alternatives)
    handle = next(group for group in groups if "handling" in group.alternatives)

    assert executive.covered == ("management",)
    assert handle.covered == ("manag",)
    # Once only, the word stands for one concept.
    assert len([g for g in concept_groups("Who handles climate risks?") if "handling" in g.alternatives]) == 1


def test_the_purpose_clause_of_a_targets_question_is_not_its_topic() -> None:
    """ "the targets it uses to manage climate-related risks" asks for targets, not risk management."""
    question = (
        "Does the company describe the targets it uses to manage climate-related risks and its progress?"
    )

    assert "risk" not in topic_words(without_purpose(question))
    assert "target" in topic_words(without_purpose(question))
    # With nothing else to ask about, the clause stays.
    alone = "Does the company use anything to manage climate-related risks?"
    assert without_purpose(alone) == alone
