"""What a claim says of its SBTi status and of its net-zero (or carbon-neutral) end target.

A claim of validation ("validated by the SBTi", "approved by SBTi", "SBTi-validated", "science-based
targets ... validated"), of a commitment ("committed to set science-based targets", "joined the
SBTi") and a negative claim ("we have not adopted science-based targets") are decided differently
by the SBTi list (`sbti`), so they are told apart here, the negative first ("not yet validated" is
no claim of validation). Validation or a commitment only planned or pending ("will be submitted for
validation", "we plan to commit to the SBTi") is no claim of either.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from app.verification.reading.figures import attributed_elsewhere, quantity_marks

_I = re.IGNORECASE
_SBTI = r"(?:SBTi?|Science[- ]Based Targets?(?: initiative)?)"
_SBT = (
    r"(?:science[- ]based|SBTi?(?:[- ](?:validated|approved))?)\s"
    r"(?:near[- ]term\s|long[- ]term\s|net[- ]zero\s)?targets?"
)
_NOT_ADOPTED = re.compile(
    r"\b(?:(?:have|has|had|do|does|did)\s?(?:not|n't)|not|yet to|no)\s(?:yet\s|currently\s|formally\s)?"
    r"(?:adopted|adopt|set|established|establish|have|had|been (?:validated|approved)|validated|approved|"
    r"submitted|any)\b[^.;,]{0,40}?" + _SBTI + r"|\bno\s" + _SBT,
    _I,
)
_VALIDATED = re.compile(
    rf"\b(?:validated|approved|verified)\s(?:by|with)\s(?:the\s)?{_SBTI}"
    rf"|\b{_SBTI}\)?\s(?:has\s|have\s)?(?:confirmed|certified)\b[^.;]{{0,80}}?"
    rf"\b(?:meets?|fulfil\w*|in line with|requirements|conditions|consistent with)\b"
    rf"|\bSBTi?[- ](?:validated|approved)\b"
    rf"|\b{_SBTI}\s(?:has\s|have\s|had\s)?(?:validated|approved|validation|approval)\b"
    rf"|\bscience[- ]based targets?\b[^.;]{{0,60}}?\bvalidated\b(?!\s(?:by|with)\s(?!(?:the\s)?{_SBTI}))"
    rf"|\bvalidated\s(?:[\w-]+\s){{0,3}}?science[- ]based targets?"
    rf"|\b(?:validation|approval)\s(?:[\w-]+\s){{0,3}}?(?:by|from)\s(?:the\s)?{_SBTI}",
    _I,
)
_COMMITTED = re.compile(
    rf"\bcommit\w*\sto\s(?:set|setting|develop\w*|establish\w*|adopt\w*)\s(?:[\w-]+\s){{0,4}}?{_SBT}"
    rf"|\bcommit\w*\sto\s(?:the\s)?{_SBTI}"
    rf"|\b(?:joined|signed|signatory to)\s(?:the\s)?{_SBTI}"
    rf"|\b{_SBTI}\s(?:commitment|commitment letter)\b",
    _I,
)
#: Words before a validation or commitment that make it planned or pending, not done.
_PENDING = re.compile(
    r"\b(?:will|shall|to be|for|seek\w*|submit\w*|await\w*|pending|plan\w*|intend\w*|expect\w*|"
    r"process of|toward\w*|aim\w* to have|applied|apply|working)\b[^.;]{0,30}$",
    _I,
)
#: Others whose SBTi status a sentence may state ("70% of our suppliers have SBTi-validated targets").
_OTHER_COMPANIES = re.compile(
    r"\b(?:suppliers?|customers?|clients?|portfolio|investees?|peers?|companies|organi[sz]ations|"
    r"businesses|firms|subsidiar(?:y|ies))\b",
    _I,
)
_ATTRIBUTED = re.compile(
    _SBT + r"|\b" + _SBTI + r"[- ]?(?:validated|approved)?\s(?:near[- ]term\s)?targets?\b", _I
)
_ALIGNED_BEFORE = re.compile(
    r"\b(?:aligned (?:with|to)|in line with|consistent with|according to|in accordance with|based on)\s"
    r"(?:the\s)?(?:[\w-]+\s){0,2}$",
    _I,
)
#: A footnote marker may be glued to the word ("a Net Zero1 carbon footprint by 2030").
_NET_ZERO_KINDS = {
    "net zero": re.compile(r"\bnet[- ]?zero(?:\d{1,2})?\b", _I),
    "carbon neutral": re.compile(r"\bcarbon[- ]neutral(?:ity)?(?:\d{1,2})?\b", _I),
    "climate neutral": re.compile(r"\bclimate[- ]neutral(?:ity)?(?:\d{1,2})?\b", _I),
}
_YEAR_AFTER = re.compile(
    r"^[^.;%]{0,50}?\b(?:by|before|no later than|until)\s(?:the\s)?(?:end of\s)?(?:FY\s?)?"
    r"(?P<year>20[2-9]\d)\b",
    _I,
)
_YEAR_BEFORE = re.compile(r"\bby\s(?:FY\s?)?(?P<year>20[2-9]\d)\s?,[^.;%]{0,40}$", _I)
_OTHERS = re.compile(r"\b(?:customers?|clients?|suppliers?|partners?)(?:'|’)?\b", _I)
#: A net-zero goal for part of the company (its plants, fleet, supply chain, a share of something)
#: or of something else ("net zero fuel"): not the company's end target, so the Net Zero Tracker's
#: record of that target neither agrees nor differs with it.
_PART_OF_COMPANY = re.compile(
    r"\b(?:fleet|fuels?|facilit(?:y|ies)|buildings?|plants?|sites?|supply chain|products?|portfolio|"
    r"producers?|vessels?|shipping|data cent(?:er|re)s?|offices?|stores?)\b"
    r"|\d\s?%\s(?:of\s)?(?:our\s)?[\w-]+[^.;]{0,40}\bnet[- ]?zero"
    r"|\bnet[- ]?zero(?:\d{1,2})?\s(?:fuels?|ships?|vessels?|buildings?|steel|products?)\b",
    _I,
)
_VALUE_CHAIN = re.compile(r"\bvalue[- ]chain\b", _I)


class SbtiStatement(enum.StrEnum):
    """What a claim says of the company's SBTi status."""

    VALIDATED = "validated"  # its targets are validated (approved) by the SBTi
    COMMITTED = "committed"  # it has committed to set science-based targets
    NOT_ADOPTED = "not_adopted"  # it has not adopted, set or had validated science-based targets


@dataclass(frozen=True)
class EndTarget:
    """A net-zero-like end target a claim states: its kind, year and scopes (None: not stated)."""

    kind: str  # "net zero", "carbon neutral" or "climate neutral"
    year: int | None
    scopes: frozenset[str] | None


def sbti_statement(text: str, company_name: str | None = None) -> SbtiStatement | None:
    """The claim's statement of the company's SBTi status, if it makes one (none of others': not of
    its suppliers, nor of named companies other than itself, "Scania and MAN have committed ...")."""
    if _OTHER_COMPANIES.search(text) or _names_others(text, company_name):
        return None
    if _NOT_ADOPTED.search(text):
        return SbtiStatement.NOT_ADOPTED
    if _done(text, _VALIDATED):
        return SbtiStatement.VALIDATED
    if _done(text, _COMMITTED):
        return SbtiStatement.COMMITTED
    return None


#: A named subject right before the verb: "Scania and MAN have committed", "MAN also received".
_NAMED_SUBJECT = re.compile(
    r"(?P<names>[A-Z][\w&.'’-]*(?:(?:,\s|\s(?:and|&)\s|\s)[A-Z][\w&.'’-]*)*)\s(?:has\s|have\s|had\s)?"
    r"(?:also\s|now\s|recently\s)?(?:committed|joined|signed|received|obtained|had|set|been)\b"
)
#: Subjects that are the reporting company speaking of itself.
_SELF = frozenset({"we", "our", "the", "group", "company", "its", "this", "in", "addition", "also"})


def _names_others(text: str, company_name: str | None) -> bool:
    """Whether the sentence's subject names companies and none of them is the reporting company
    (without the company's name, only a subject of two or more names counts as others)."""
    found = _NAMED_SUBJECT.search(text)
    if found is None:
        return False
    words = {word.lower().strip(".,'’") for word in re.split(r"[\s,&]+", found["names"]) if word}
    words -= {"and"}
    if not words or words <= _SELF:
        return False
    own = {word.lower() for word in re.findall(r"[\w&'’-]+", company_name or "")} - _SELF
    if own:
        return not (words & own) and not words <= _SELF | own
    return " and " in found["names"] or "," in found["names"]


def _done(text: str, pattern: re.Pattern[str]) -> bool:
    return any(not _PENDING.search(text[max(0, m.start() - 40) : m.start()]) for m in pattern.finditer(text))


def attributes_to_sbti(text: str) -> bool:
    """Whether the claim presents its target as the SBTi-validated one ("our science-based target",
    "validated by the SBTi"), so SBTi's wording of that target can contradict it."""
    statement = sbti_statement(text)
    if statement is SbtiStatement.NOT_ADOPTED:
        return False
    if statement is SbtiStatement.VALIDATED:
        return True
    return any(
        not _ALIGNED_BEFORE.search(text[max(0, m.start() - 40) : m.start()])
        for m in _ATTRIBUTED.finditer(text)
    )


def mentions_net_zero(text: str) -> bool:
    """Whether the claim names a net-zero, carbon-neutral or climate-neutral goal."""
    return any(pattern.search(text) for pattern in _NET_ZERO_KINDS.values())


def end_target_kind(text: str) -> str | None:
    """The first end-target kind `text` names ("Carbon neutral(ity)": "carbon neutral")."""
    return next((kind for kind, pattern in _NET_ZERO_KINDS.items() if pattern.search(text)), None)


def end_targets(text: str, *, company_wide: bool = True) -> list[EndTarget]:
    """The company's own end targets the claim states, one per kind named (the first year after it);
    the scopes only where one kind is named (they may belong to either of two). With
    `company_wide`, only a goal for the whole company (not its plants, fleet or supply chain)."""
    if _OTHERS.search(text) or (company_wide and _PART_OF_COMPANY.search(text)):
        return []
    targets = []
    named = [pattern.search(text) for pattern in _NET_ZERO_KINDS.values()]
    scopes = _scopes(text) if sum(match is not None for match in named) == 1 else None
    for kind, pattern in _NET_ZERO_KINDS.items():
        match = pattern.search(text)
        if match is None or attributed_elsewhere(text, match.start()):
            continue
        after = _YEAR_AFTER.match(text[match.end() :])
        before = _YEAR_BEFORE.search(text[: match.start()])
        year = int(after["year"]) if after else int(before["year"]) if before else None
        targets.append(EndTarget(kind, year, scopes))
    return targets


def _scopes(text: str) -> frozenset[str] | None:
    """The scopes the claim names for its target: one scope group, or the value chain (all three)."""
    marks = quantity_marks(text.rstrip(". "))  # "Scopes 1, 2 and 3." is all three
    if len(marks) == 1:
        return marks[0].scopes
    if not marks and _VALUE_CHAIN.search(text):
        return frozenset("123")
    return None
