"""Sentences that state a claim's figure or direction without asserting it: disputes and negation.

News wording often repeats a company's figure in order to reject it: "X claims 64% …, but an NGO
audit found the true share was closer to 40%", "a figure analysts say is understated by a third",
"auditors rejected the company's statement that …", "contrary to its report". A sentence like that
states the claim's figure, yet it is evidence against the claim, never for it. So is a negated
statement: "X did not spend EUR 140 million", "did not cut its Scope 1 emissions", "no reduction".
The rule reader of sources (`app.verification.reading.contradictions`) asks this module whether a sentence
disputes what it reports (`disputes`), whether a figure in it is negated (`negated`), and which
direction of change it denies (`denied_direction`).

Negation is read only from an auxiliary with "not" ("did not", "hasn't"), "never", "no longer",
"failed to", "yet to", "fell short of", "missed", "nor", or "no" before a change noun ("no
reduction"); idioms that bound or add rather than deny ("not only", "no more than", "not less than")
are not negations. A negator reaches to the end of its clause (a comma, semicolon, colon, bracket or
"but"/"while"/"although"), so "did not say that it spent EUR 140 million" leaves the figure
unasserted, too.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

#: Words that reject or doubt a stated figure or claim, wherever they stand in the sentence.
_DISPUTE_WORDS = re.compile(
    r"\b(?:disputed|contested|(?:under|over)stated|exaggerat(?:ed|es|ing)|inflated|misstated|"
    r"misrepresent\w*|misleading|inaccura\w*|untrue|incorrect(?:ly)?|erroneous(?:ly)?|falsely|"
    r"contrary\sto|at\sodds\swith|not\s(?:true|accurate|correct|the\scase)|"
    r"(?:does|did|do)\s?(?:not|n['’]t)\s(?:add\sup|hold\sup|stand\sup)|"
    r"(?:the\s)?(?:true|real|correct)\s(?:share|figure|number|value|level|amount|total|count)|"
    r"in\sreality)\b",
    _I,
)
#: A verb of rejection with what it rejects: "rejected the company's statement", "disputes its figure".
_REJECTION = re.compile(
    r"\b(?:reject\w*|disput\w*|contest\w*|challeng(?:e|es|ed|ing)|question(?:s|ed|ing)?|refut\w*|"
    r"debunk\w*|doubt\w*|den(?:y|ies|ied|ying)|cast(?:s|ing)?\sdoubt\s(?:on|over))\s"
    r"(?:[\w'’-]+\s){0,4}?(?:claims?|figures?|statements?|numbers?|data|reports?|accounts?|assertions?|"
    r"estimates?|totals?|disclosures?|reporting)\b",
    _I,
)
#: "X claims …, but an audit found …": an attributed claim answered by someone's finding.
_CLAIM_BUT = re.compile(
    r"\b(?:claims|claimed|insists?|insisted|asserts|asserted)\b[^;.]*?\b(?:but|however|yet|whereas)\b"
    r"[^;.]*?\b(?:found|finds|shows?|showed|shown|estimat\w*|puts?|calculat\w*|says?|said|argu\w*|"
    r"true|actual|real|closer|only|just)\b",
    _I,
)

#: Falling short of a figure or target: "fell well short of 3,500 vans", "falls short of its goal".
FELL_SHORT_OF = r"f(?:e|a)ll(?:s|en)?\s(?:\w+\s)?short\sof"
_AUX = r"(?:do|does|did|has|have|had|is|are|was|were|can|could|will|would|should)"
#: A negator of what follows it in its clause.
_NEGATOR = re.compile(
    rf"\b(?:{_AUX}\s?(?:not|n['’]t)|cannot|can['’]t|never|no\slonger|fail(?:ed|s)?\sto|(?:has|have|is|are)\syet\sto|"
    rf"{FELL_SHORT_OF}|missed|nor|far\sfrom(?=\s[a-z]+ing\b|\s?$)|rather\sthan|instead\sof)\b"
    r"(?!\s(?:only|just|least|less|more|to\smention)\b)",
    _I,
)
#: "no" (or "not a", "not any") before a change noun denies the change: "no reduction", "no meaningful cut".
_NO_CHANGE = re.compile(
    r"\b(?:no|not\sa|not\sany)\s(?:[a-z]+\s)?(?P<noun>reduction|decrease|decline|cut|drop|fall|"
    r"increase|rise|growth)s?\b",
    _I,
)
_CLAUSE_END = re.compile(r"[;:()\[\]—–]|,\s|\s-\s|\b(?:but|while|whereas|although|though|however)\b", _I)
#: Between a negator and the change it denies, only these words may stand ("did not actually cut").
_BRIDGE = (
    r"(?:(?:be|been|being|actually|really|significantly|substantially|materially|meaningfully|much|"
    r"manage|managed|succeed|succeeded|in|to|come|gone|go)\s){0,3}"
)
_NEGATED_BEFORE = re.compile(rf"{_NEGATOR.pattern}\s{_BRIDGE}$", _I)
_NO_BEFORE = re.compile(r"\b(?:no|not\sa|not\sany)\s(?:[a-z]+\s)?$", _I)
_DECREASE_NOUNS = {"reduction", "decrease", "decline", "cut", "drop", "fall"}


def disputes(sentence: str) -> bool:
    """Whether the sentence disputes a figure or statement it reports ("claims … but an audit found",
    "a figure analysts say is understated", "rejected the company's statement", "contrary to its
    report")."""
    return bool(
        _DISPUTE_WORDS.search(sentence)
        or _REJECTION.search(sentence)
        or _CLAIM_BUT.search(sentence)
        or any(not _NOT_CHARGED.search(sentence, 0, match.start()) for match in _GREENWASH.finditer(sentence))
    )


#: A charge of greenwashing, which disputes what it names ("a claim campaigners called greenwash").
_GREENWASH = re.compile(r"(?<!anti-)\bgreenwash\w*", _I)
#: Right before it, words saying no such charge was made or it failed: "drew no accusations of".
_NOT_CHARGED = re.compile(r"\b(?:no|not|never|without|cleared\sof|free\sof|rejected)\s(?:[\w-]+\s){0,3}$", _I)


def _clause_start(text: str, at: int) -> int:
    start = 0
    for cut in _CLAUSE_END.finditer(text, 0, at):
        start = cut.end()
    return start


def negated(text: str, at: int) -> bool:
    """Whether the words at offset `at` are negated: a negator earlier in their clause ("did not spend
    EUR 140 million", "has not reduced its emissions by 12%")."""
    return _NEGATOR.search(text, _clause_start(text, at), at) is not None


def negated_word(text: str, start: int) -> bool:
    """Whether a direction word at `start` is denied by a negator right before it ("did not cut",
    "has not actually reduced", "failed to lower")."""
    before = text[_clause_start(text, start) : start]
    return _NEGATED_BEFORE.search(before) is not None or _NO_BEFORE.search(before) is not None


def denied_direction(text: str, decrease: re.Pattern[str], increase: re.Pattern[str]) -> str | None:
    """The direction of change the text denies ("did not cut" -> "decrease", "no increase" ->
    "increase"), None when it denies none or both. `decrease` and `increase` are the direction
    words (`change_mood.DECREASE`, `change_mood.INCREASE`)."""
    denied = {
        name
        for name, pattern in (("decrease", decrease), ("increase", increase))
        for match in pattern.finditer(text)
        if negated_word(text, match.start())
    }
    for match in _NO_CHANGE.finditer(text):
        denied.add("decrease" if match["noun"].lower() in _DECREASE_NOUNS else "increase")
    return denied.pop() if len(denied) == 1 else None
