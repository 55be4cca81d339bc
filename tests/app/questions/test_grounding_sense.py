"""`Sense.grounded` on hand-built word groups: the core and sense checks, window by window."""

from __future__ import annotations

from app.questions.grounding import Group, Sense

SCENARIO = Group(alternatives=(frozenset({"scenario"}),), factor=1.0, words=("scenarios",))
RESILIENCE = Group(alternatives=(frozenset({"resili"}),), factor=1.0, words=("resilience",))
CLIMATE = Group(alternatives=(frozenset({"climat"}),), factor=0.3, words=("climate",))  # generic
KEYWORDS = (frozenset({"scenario"}), frozenset({"scenario", "analysi"}), frozenset({"resili"}))


def test_a_window_needs_two_ideas_or_a_corroborating_keyword() -> None:
    sense = Sense.of([SCENARIO, RESILIENCE, CLIMATE], KEYWORDS)
    assert sense.grounded("Scenarios test our resilience.", frozenset({"scenario", "resili"}))
    assert not sense.grounded("Scenarios of climate.", frozenset({"scenario", "climat"}))
    assert sense.grounded("Scenario analysis.", frozenset({"scenario", "analysi"}))
    assert not sense.grounded("Climate matters.", frozenset({"climat"}))


def test_one_sense_answers_each_window_on_its_own_words() -> None:
    sense = Sense.of([SCENARIO, RESILIENCE], KEYWORDS)
    windows = [
        ("Scenarios test our resilience.", frozenset({"scenario", "resili"}), True),
        ("Resilience alone.", frozenset({"resili"}), False),
        (
            "The Accounting Standards Scenarios Resilience Council met.",
            frozenset({"scenario", "resili"}),
            False,
        ),
    ]
    for _ in range(2):
        assert [sense.grounded(text, matched) for text, matched, _ in windows] == [w[2] for w in windows]


def test_a_question_without_topical_words_is_grounded_anywhere() -> None:
    assert Sense.of([CLIMATE], KEYWORDS).grounded("Anything at all.", frozenset())
