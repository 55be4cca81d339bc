"""The IFRS requirement registry: well-formed ids, complete hierarchy, and usable keywords."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from app.knowledge.registry import (
    REQUIREMENTS,
    children,
    is_under,
    parent_ids,
    parse_paragraph_id,
    requirement,
)

ID_SHAPE = re.compile(r"^S[12]\.\d{1,3}(\([a-h]\))?(\((i|ii|iii|iv|v|vi|vii)\))?(\([1-7]\))?$")
CORE_PILLARS = {"governance", "strategy", "risk_management", "metrics_targets"}
IDS = [r.paragraph_id for r in REQUIREMENTS]


def matches(sentence: str) -> set[str]:
    """Registry ids whose keywords occur in a sentence as whole words: what a suggester would see."""
    lowered = sentence.lower()
    return {
        r.paragraph_id
        for r in REQUIREMENTS
        if any(re.search(rf"(?<!\w){re.escape(k)}(?!\w)", lowered) for k in r.keywords)
    }


def test_ids_are_unique_and_well_formed() -> None:
    assert [i for i, n in Counter(IDS).items() if n > 1] == []
    assert [i for i in IDS if not ID_SHAPE.match(i)] == []


def test_size_is_plausible_for_both_standards() -> None:
    per_standard = Counter(r.standard for r in REQUIREMENTS)
    assert 150 <= len(REQUIREMENTS) <= 300
    assert per_standard["S1"] >= 80 and per_standard["S2"] >= 100


def test_every_parent_is_registered_and_listed_first() -> None:
    position = {pid: index for index, pid in enumerate(IDS)}
    for pid in IDS:
        for parent in parent_ids(pid):
            assert parent in position, f"{pid} lacks parent {parent}"
            assert position[parent] < position[pid], f"{parent} should precede {pid}"


def test_standard_and_source_type_follow_the_id() -> None:
    for r in REQUIREMENTS:
        assert r.paragraph_id.startswith(f"{r.standard}.")
        assert r.source_type == {"S1": "ifrs_s1", "S2": "ifrs_s2"}[r.standard]


@pytest.mark.parametrize("standard", ["S1", "S2"])
def test_each_standard_covers_the_four_core_pillars(standard: str) -> None:
    assert CORE_PILLARS <= {r.pillar for r in REQUIREMENTS if r.standard == standard}


@pytest.mark.parametrize(
    ("paragraph_id", "pillar"),
    [
        ("S2.6", "governance"),
        ("S2.6(a)(v)", "governance"),
        ("S2.6(b)(i)", "governance"),
        ("S2.10(b)", "strategy"),
        ("S2.14", "strategy"),
        ("S2.14(a)(iv)", "strategy"),
        ("S2.22", "strategy"),
        ("S2.22(b)(i)(4)", "strategy"),
        ("S2.25", "risk_management"),
        ("S2.29(a)(i)", "metrics_targets"),
        ("S2.29(a)(ii)", "metrics_targets"),
        ("S2.29(a)(iii)", "metrics_targets"),
        ("S2.29(a)(i)(1)", "metrics_targets"),
        ("S2.29(a)(i)(2)", "metrics_targets"),
        ("S2.29(a)(i)(3)", "metrics_targets"),
        ("S2.29(a)(v)", "metrics_targets"),
        ("S2.29(a)(vi)(2)", "metrics_targets"),
        ("S2.29(f)", "metrics_targets"),
        ("S2.29(g)", "metrics_targets"),
        ("S2.33", "metrics_targets"),
        ("S2.36(e)", "metrics_targets"),
        ("S1.27", "governance"),
        ("S1.27(a)", "governance"),
        ("S1.33", "strategy"),
        ("S1.44", "risk_management"),
        ("S1.46", "metrics_targets"),
        ("S1.51", "metrics_targets"),
        ("S1.59", "general"),
        ("S1.64", "general"),
        ("S1.70", "general"),
        ("S1.72", "general"),
        ("S1.74", "general"),
        ("S1.77", "general"),
    ],
)
def test_must_have_entries_exist_with_their_pillar(paragraph_id: str, pillar: str) -> None:
    entry = requirement(paragraph_id)
    assert entry is not None, paragraph_id
    assert entry.pillar == pillar


def test_every_entry_has_short_own_text_and_clean_keywords() -> None:
    for r in REQUIREMENTS:
        assert r.section.strip() and r.title.strip(), r.paragraph_id
        assert 20 <= len(r.summary) <= 260, r.paragraph_id
        assert r.summary.count(". ") <= 1, f"{r.paragraph_id}: keep summaries to one or two sentences"
        assert r.keywords, r.paragraph_id
        assert len(set(r.keywords)) == len(r.keywords), r.paragraph_id
        for keyword in r.keywords:
            assert keyword == keyword.strip().lower() and keyword, f"{r.paragraph_id}: {keyword!r}"


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Our Scope 1 emissions fell to 1.2 million tCO2e.", {"S2.29(a)(i)", "S2.29(a)(i)(1)"}),
        ("Scope 2 (location-based) emissions were 300 kt.", {"S2.29(a)(i)(2)", "S2.29(a)(v)"}),
        ("Scope 3 emissions from purchased goods and services dominate.", {"S2.29(a)(i)(3)"}),
        ("Our financed emissions follow PCAF.", {"S2.29(a)(vi)(2)"}),
        ("The Board's Sustainability Committee oversees climate risk.", {"S2.6(a)"}),
        ("We commit to net zero by 2050.", {"S2.33"}),
        ("Our transition plan sets out the decarbonisation levers.", {"S2.14(a)(iv)"}),
        ("We apply an internal carbon price of EUR 100.", {"S2.29(f)"}),
        ("Executive pay is linked to emission reductions.", {"S2.29(g)", "S2.29(g)(i)"}),
        ("Scenario analysis used IEA and NGFS pathways.", {"S2.22", "S2.22(b)(i)(1)"}),
        ("Physical risk from flooding affects two plants.", {"S2.10(b)", "S2.29(c)"}),
        ("We offset residual emissions with carbon credits.", {"S2.36(e)"}),
        ("Water withdrawal fell 8% and waste recycling rose.", {"S1.46"}),
        ("We target zero waste to landfill by 2025.", {"S1.51"}),
    ],
)
def test_keywords_steer_report_sentences_to_the_right_paragraph(sentence: str, expected: set[str]) -> None:
    assert expected <= matches(sentence)


def test_water_and_waste_do_not_claim_climate_metrics() -> None:
    hits = matches("Water consumption and biodiversity were stable; waste fell.")
    assert not {h for h in hits if h.startswith("S2.29")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("S2.29(a)(i)", "S2.29(a)(i)"),
        ("s2.29(a)(i)", "S2.29(a)(i)"),
        ("S2 29(a)(i)", "S2.29(a)(i)"),
        ("IFRS S2 paragraph 29(a)(i)", "S2.29(a)(i)"),
        ("IFRS S2 para. 29 (a) (i)", "S2.29(a)(i)"),
        ("ifrs s1 paragraphs 27(A)", "S1.27(a)"),
        ("IFRS S2.29(a)(i)(1)", "S2.29(a)(i)(1)"),
        ("  S1-46  ", "S1.46"),
        ("S2 ¶ 14(a)(iv)", "S2.14(a)(iv)"),
        ("S2.b63", "S2.B63"),
        ("S2", None),
        ("29(a)(i)", None),
        ("S3.29(a)", None),
        ("Scope 1 emissions", None),
        ("S2.29(a)(i) and more", None),
        ("", None),
    ],
)
def test_parse_paragraph_id(text: str, expected: str | None) -> None:
    assert parse_paragraph_id(text) == expected


def test_parent_ids_nearest_first() -> None:
    assert parent_ids("S2.29(a)(i)") == ["S2.29(a)", "S2.29"]
    assert parent_ids("S2.29(a)(vi)(2)") == ["S2.29(a)(vi)", "S2.29(a)", "S2.29"]
    assert parent_ids("IFRS S2 paragraph 6(a)") == ["S2.6"]
    assert parent_ids("S1.46") == []


def test_is_under() -> None:
    assert is_under("S2.29(a)(i)(1)", "S2.29")
    assert is_under("S2.29(a)(i)", "S2.29(a)")
    assert is_under("S2.29", "S2.29")
    assert not is_under("S2.29", "S2.29(a)")
    assert not is_under("S2.2", "S2.29")
    assert not is_under("S2.29(a)", "S1.29")


def test_children_are_direct_and_ordered() -> None:
    assert [r.paragraph_id for r in children("S2.29(a)(i)")] == [
        "S2.29(a)(i)(1)",
        "S2.29(a)(i)(2)",
        "S2.29(a)(i)(3)",
    ]
    assert [r.paragraph_id for r in children("S2.29")] == [f"S2.29({c})" for c in "abcdefg"]
    assert children("S2.29(a)(ii)") == []


def test_requirement_lookup_accepts_loose_spellings() -> None:
    entry = requirement("IFRS S2 paragraph 29(a)(i)(1)")
    assert entry is not None and entry.paragraph_id == "S2.29(a)(i)(1)"
    assert requirement("S2.99") is None
    assert requirement("not an id") is None


def test_keywords_are_telling_not_bare_numbers_or_fillers() -> None:
    fillers = {"zero", "net", "total", "scope", "by", "the", "and"}
    for req in REQUIREMENTS:
        for keyword in req.keywords:
            assert not re.fullmatch(r"[\d.,\s]+", keyword), (req.paragraph_id, keyword)
            assert keyword not in fillers, (req.paragraph_id, keyword)
