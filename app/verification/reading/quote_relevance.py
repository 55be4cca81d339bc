"""Whether a source's quote bears on the claim it is said to support or contradict.

The quote check (`app.search.sources`) proves a quoted sentence is in the source; it does not prove
the sentence is about the claim. An analysis model that answers "supports" while quoting "Rio Tinto
said its emissions data was published in its 2023 climate report" would otherwise verify every claim
of the report. So a quote decides nothing unless it bears on the claim:

- **support** of a claim that states figures needs one of them in the quote (the same value in the
  same kind of unit, paraphrases such as "16.2 million tonnes" for "16.2 Mt" included), or the rest
  of a whole with nothing between its sides ("9% went to landfill" for "91% diverted from
  landfill"); a count of the claim's things repeated ("had 420 stores in 2024") bears on it too,
  unless it is only the whole the claim takes a part of ("half of our 400 stores"); support of a
  claim without figures needs two of the claim's subject words in the quote, in any form of them;
- **a contradiction** needs one of the claim's subject words in the quote, in any form of the word
  ("fined" for "fines"), or the same emissions quantity ("Scope 1"): a different figure or an
  opposite reading is the point, but it must be about the claim's subject.

Subject words are content words that are not the company's name, units, scales or periods
(`figure_subjects.SUBJECTLESS_WORDS`). The rule reader applies stricter tests of its own
(`contradictions`); this one is what every reading, the model's included, must pass.
"""

from __future__ import annotations

import re

from app.language.figures import Figure, parse_figures, per_like_unit
from app.language.number_words import NUMBER_WORD, figures_in_digits
from app.language.plurals import singular
from app.verification.reading.change_mood import mood
from app.verification.reading.complements import complement_match
from app.verification.reading.contradictions import content_words, same_value
from app.verification.reading.figure_clauses import WORD_BEFORE_A_NUMBER, clause_span_at
from app.verification.reading.figure_comparison import compare_counts
from app.verification.reading.figure_subjects import share_base, subject_words, without_attribution
from app.verification.reading.figures import parse_counts, quantities
from app.verification.reading.implied_figures import WHEN_STEMS, as_read
from app.verification.reading.places import places_meet
from app.verification.reading.statements import stem, subject_stems

#: Subject words a supporting quote shares with a claim that states no figure.
SUPPORT_SUBJECT_WORDS = 2
#: Subject words a contradicting quote shares with the claim.
CONTRADICTION_SUBJECT_WORDS = 1


def shared_subjects(claim: str, company: str, quote: str) -> set[str]:
    """The claim's subject words that the quote also uses."""
    return subject_words(content_words(claim) & content_words(quote)) - content_words(company)


def states_claim_figure(claim_figures: list[Figure], quote: str, claim: str = "", company: str = "") -> bool:
    """Whether the quote states one of the claim's figures (same kind, same value), as written or
    worked out (an intensity is worked out only for a `claim` stating one)."""
    read = as_read(quote)
    written = parse_figures(read)
    theirs = written + (parse_figures(as_read(quote, claim=claim, company=company)) if claim else [])
    if any(mine.same_kind(other) and same_value(mine, other) for mine in claim_figures for other in theirs):
        return True
    # a ratio of like units in other units ("3.1 litres per litre" for "3.1 hl per hl")
    mine_per = [
        ratio for mine in claim_figures if claim and (ratio := per_like_unit(claim, mine)) is not None
    ]
    their_per = [ratio for other in written if (ratio := per_like_unit(read, other)) is not None]
    return any(same_value(mine, other) for mine in mine_per for other in their_per)


def bears_on_claim(claim: str, company: str, quote: str | None, stance: str) -> bool:
    """Whether `quote` can decide anything about `claim` with `stance` ("supports"/"contradicts");
    other stances decide nothing anyway and pass."""
    if stance not in {"supports", "contradicts"}:
        return True
    if not quote:
        return False
    # the claim's subject in another form of its words counts ("fined" for "no fines")
    stems = subject_stems(claim, company) & subject_stems(quote, company)
    shared_count = max(len(shared_subjects(claim, company, quote)), len(stems))
    # the same emissions quantity named on both sides ("Scope 1 output", "Scope 1 emissions")
    shared_count += bool(quantities(claim) & quantities(quote))
    if stance == "contradicts":
        return shared_count >= CONTRADICTION_SUBJECT_WORDS
    digits, read = figures_in_digits(claim), as_read(quote)
    if states_claim_count(digits, read, company):
        return True
    claim_figures = parse_figures(digits)
    if claim_figures and not _all_of(claim_figures, digits, read, company):
        # or the rest of the whole, where nothing lies between the two sides (`complements`)
        return (
            states_claim_figure(claim_figures, quote, digits, company)
            or complement_match(digits, read, company) is not None
        )
    return shared_count >= SUPPORT_SUBJECT_WORDS


def _all_of(claim_figures: list[Figure], claim: str, quote: str, company: str) -> bool:
    """Whether the claim's only figure is all of something ("100% of its mills", "all 9 of its mills")
    and the quote says all of that thing ("all nine Northpine mills", "every tier-one supplier"), not
    nearly all nor all losing it: a statement then, borne on by the claim's subject words."""
    if not all(figure.dimension == "percent" and figure.value == 100 for figure in claim_figures):
        return False
    if _NOT_ALL.search(quote):
        return False
    things = {singular(word) for figure in claim_figures for word in share_base(claim, figure.end)}
    claim_words = set(re.findall(r"[a-z0-9-]+", _tiers_in_words(claim.lower())))
    names = set(re.findall(r"[a-z0-9-]+", company.lower()))
    return any(
        singular(match["thing"].lower()) in things
        # a kind in between must be the claim's ("every tier-one supplier", "every Asian supplier"),
        # besides the company's name
        and _kinds_between(match) <= claim_words | names
        for match in _ALL_OF_A_THING.finditer(quote)
    )


def _kinds_between(match: re.Match[str]) -> set[str]:
    """The kinds named between "all" and its thing: "tier-one", a capitalised "Asian" (lower-cased)."""
    between = match.group()[: match.start("thing") - match.start()].split(" ", 1)[-1]
    kinds = set(_KINDS.findall(_tiers_in_words(between.lower())))
    return kinds | {
        word.lower().removesuffix("'s").removesuffix("’s") for word in _CAPITALISED.findall(between)
    }


def _tiers_in_words(text: str) -> str:
    """ "tier-1" as "tier-one", as either may be written."""
    return text.replace("-1", "-one").replace("-2", "-two")


#: All of a thing: "all nine Northpine Paper mills", "every tier-one supplier", "each of its smelters",
#: "all timber processed".
_ALL_OF_A_THING = re.compile(
    r"\b(?:all|every|each)(?:\s(?:of|the|its|their|(?-i:[A-Z])[\w'’&-]*|\d[\d,]*|dozen|[a-z]+-(?:one|two|1|2)|"
    rf"{NUMBER_WORD}))*\s(?P<thing>[a-z-]+)",
    re.IGNORECASE,
)
#: A capitalised word: a name or a place's adjective ("Northpine", "Asian").
_CAPITALISED = re.compile(r"\b[A-Z][\w'’&-]*")
#: A kind named between "all" and the thing: "tier-one".
_KINDS = re.compile(r"\b[a-z]+-(?:one|two)\b")
#: Words saying not all: "nearly all", "all but two", "lost", "refused".
_NOT_ALL = re.compile(
    r"\b(?:nearly|almost|virtually|not|never|except|but\s(?:one|two|three|\d)|lost|lose|refused|failed|"
    r"withdrawn|suspended|revoked)\b",
    re.IGNORECASE,
)


def states_claim_count(claim: str, read: str, company: str) -> bool:
    """Whether the quote (`read`, as the rule reader reads it: `as_read`) repeats one of the claim's
    counts of the same things, as the rule reader
    compares counts ("about 310,000 old phones" for "310,000 used handsets": the company's own count,
    of the claim's kind of thing, for its stretch of time), and the count is all either says: done
    alike (the same verb before it: "had", not "sold" or "refurbished"), every word of the claim in
    the quote ("our 420 stores ran on renewable electricity" is more than 420 stores), and nothing
    said of the quote's count that the claim does not say ("… on zero-hours contracts")."""
    if not subject_stems(claim, company) <= subject_stems(without_attribution(read), company) | WHEN_STEMS:
        return False
    theirs_counts = parse_counts(read)
    for count in parse_counts(claim):
        if _A_WHOLE_BEFORE.search(claim, 0, count.start):
            continue
        mine = ((count, mood(claim, count.start, count.end)),)
        if compare_counts(mine, read, set(), claim, company) != "match":
            continue
        verb = _verb_before(claim, count.start)
        claim_said = claim[slice(*clause_span_at(claim, count.start, count.end))]
        for theirs in theirs_counts:
            if (
                theirs.noun != count.noun
                or theirs.bound is not None
                or not theirs.holds(count.value)
                or _verb_before(read, theirs.start) != verb
            ):
                continue
            clause = clause_span_at(read, theirs.start, theirs.end)
            said_after = read[theirs.end : clause[1]]
            # "420 stores in the UK" is not all it has; the claim's place may be said in another clause
            theirs_said = read[slice(*clause)]
            if (
                subject_stems(said_after, company) <= subject_stems(claim, company) | WHEN_STEMS
                and places_meet(claim_said, theirs_said, company)
                and places_meet(read, claim_said, company)
            ):
                return True
    return False


def _verb_before(text: str, start: int) -> str | None:
    found = WORD_BEFORE_A_NUMBER.search(text, 0, start)
    return stem(found[1]) if found else None


#: Right before a count, the words that make it the whole the claim takes a part of ("half of our
#: 400 branches", "26% of its 3,400 employees", "412 of the 1,030 buses"): the whole repeated says
#: nothing of the part.
_A_WHOLE_BEFORE = re.compile(
    r"\b(?:of|among|across|at|in|half|all)\s(?:all\s)?(?:(?:of\s)?(?:our|its|their|the)\s)?$", re.IGNORECASE
)
