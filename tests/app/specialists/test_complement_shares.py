"""Shares of a whole stated by their complement (`app.verification.reading.complements`): they
contradict when the two sides add up past the whole, never support, and only of the same whole."""

from __future__ import annotations

import pytest

from app.verification.reading.complements import complement_conflict
from app.verification.reading.contradictions import assess_by_rules

COMPANY = "Orwell Freight"


def _stance(claim: str, source: str) -> tuple[str, str | None]:
    assessment = assess_by_rules(claim, COMPANY, "", source)
    return assessment.stance, assessment.signal


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "We recycled 70% of the waste from our depots in 2023.",
            "Orwell Freight sent 45% of its depot waste to landfill in 2023, regulator returns show.",
        ),
        (
            "Renewable sources supplied 100% of the electricity at our UK depots in 2023.",
            "Orwell Freight's UK depots drew about 20% of their electricity from fossil sources in 2023.",
        ),
        (
            "Our depots ran on 100% renewable electricity in 2023.",
            "Orwell Freight's depots still drew part of their electricity from gas-fired supply in 2023.",
        ),
    ],
)
def test_the_other_side_past_the_whole_contradicts(claim: str, source: str) -> None:
    assert _stance(claim, source) == ("contradicts", "complement_share")


@pytest.mark.parametrize(
    "source",
    [
        # room left for both sides
        "Orwell Freight sent 25% of its depot waste to landfill in 2023, regulator returns show.",
        # another year
        "Orwell Freight sent 45% of its depot waste to landfill in 2021, regulator returns show.",
        # another whole
        "Orwell Freight sent 45% of its office paper to landfill in 2023, regulator returns show.",
    ],
)
def test_room_for_both_another_year_or_another_whole_decides_nothing(source: str) -> None:
    claim = "We recycled 70% of the waste from our depots in 2023."
    assert complement_conflict(claim, source, COMPANY) is None
    assert _stance(claim, source)[0] != "contradicts"


@pytest.mark.parametrize(
    ("source", "stance"),
    [
        (
            "Only 8% of Tollgate Mining's operational waste ended up in landfill in 2023, a regulator said.",
            "supports",
        ),
        (
            "Fewer than one in ten tonnes of Tollgate Mining's operational waste went to landfill in 2023, a "
            "regulator said.",
            "supports",
        ),
        (
            "About 20% of Tollgate Mining's operational waste went to landfill in 2023, a regulator said.",
            "contradicts",
        ),
    ],
)
def test_waste_kept_out_of_landfill_and_waste_sent_to_it_make_up_the_whole(source: str, stance: str) -> None:
    claim = "Tollgate Mining diverted 92% of its operational waste from landfill in 2023."
    assert assess_by_rules(claim, "Tollgate Mining", "", source).stance == stance


def test_recycled_and_landfilled_leave_room_for_what_was_burned() -> None:
    """Recycling and landfill are not the whole: waste may also be incinerated, so 8% landfilled says
    nothing of 92% recycled."""
    claim = "Tollgate Mining recycled 80% of its operational waste in 2023."
    source = "Only 8% of Tollgate Mining's operational waste went to landfill in 2023, a regulator said."
    assert assess_by_rules(claim, "Tollgate Mining", "", source).stance == "neutral"


def test_the_rest_of_a_whole_supports_only_when_both_name_the_whole() -> None:
    claim = "Tollgate Mining diverted 92% of its operational waste from landfill in 2023."
    source = "At Tollgate Mining, 8% went to landfill in 2023, a regulator said."
    assert assess_by_rules(claim, "Tollgate Mining", "", source).stance != "supports"
