"""Question classification by rules, the entities every question is searched with, and the helpers
that shape answers (cache normalisation, search words, excerpts)."""

from __future__ import annotations

import pytest

from app.questions.cache import normalise_question
from app.questions.citations import best_sentences, clip
from app.questions.classify import classify, classify_by_rules, extract_entities
from app.questions.search import search_words
from app.questions.types import QueryType


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
