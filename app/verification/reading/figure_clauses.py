"""Which clause of a source sentence a figure is stated in, and whether that clause speaks of the
claim's subject: in "Scope 1 emissions fell 9% last year, even as ore output rose 3%", the 3% is
ore output's, not the emissions'. Only one figure among several is set aside so, and only when
another figure of its kind is stated in a clause about the claim's subject: a sentence with one
figure of the kind keeps it, however it words the subject."""

from __future__ import annotations

import re

from app.language.figures import Figure
from app.verification.reading.change_mood import DECREASE, INCREASE
from app.verification.reading.statements import subject_stems

#: Where a clause ends: a comma or semicolon, or a word joining two clauses.
_BREAK = re.compile(r"[;,]\s|\s(?:while|whereas|even\sas|as|but|although|though|and)\s", re.IGNORECASE)


#: Words of a change or a comparison in time, which name no subject.
_CHANGE_WORDS = re.compile(
    rf"{DECREASE.pattern}|{INCREASE.pattern}|\b(?:unchanged|change[ds]?|less|more|than|year|earlier|before|"
    r"previous|prior|compared|against|versus|from|on|since)\b",
    re.IGNORECASE,
)
#: A clause speaking of what the sentence named before it: "but the share slipped to 11%", "the true
#: share was nearer 45%".
_BACK_REFERENCE = re.compile(
    r"\b(?:it|this|that|they|them|these|those|which|the\s(?:[\w-]+\s)?(?:share|figure|total|rate|proportion|number|level|amount|"
    r"ratio|value))\b",
    re.IGNORECASE,
)


def clause_of(sentence: str, figure: Figure) -> str:
    """The clause of `sentence` that states `figure`."""
    start = max((match.end() for match in _BREAK.finditer(sentence, 0, figure.start)), default=0)
    after = _BREAK.search(sentence, figure.end)
    return sentence[start : after.start() if after else len(sentence)]


def of_another_subject(claim: str, sentence: str, figure: Figure, others: list[Figure], company: str) -> bool:
    """Whether `figure`'s clause names only subjects the claim does not, while one of `others` (the
    sentence's figures of its kind) is stated in a clause that shares one with the claim."""
    claims = subject_stems(claim, company)
    clause = clause_of(sentence, figure)
    # a change alone ("an increase of 11% on 2020", "15% less than a year earlier") is the change of
    # what the sentence named before it
    own = subject_stems(_CHANGE_WORDS.sub(" ", clause), company)
    if not own or own & claims or _BACK_REFERENCE.search(clause):
        return False
    return any(
        subject_stems(clause_of(sentence, other), company) & claims for other in others if other is not figure
    )
