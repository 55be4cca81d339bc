"""Step 2 for disclosure questions ("Does the company report the scenarios it uses?"): the report's
own sentence windows first, then the claims Sibyl extracted on the topic.

Ranking fuses two orders by reciprocal rank, as the knowledge base does:

- a text order: each window's share of the question's topic words it contains, each word weighted
  by how rare it is in this report (inverse document frequency), plus a smaller share for the words
  of the IFRS requirement the question maps to (`expansion`). Analyst words are bridged to report
  words by `vocabulary`: "pay ... tied to" is held by a window saying "incentive ... depends on"
  (a synonym earns a little less than the question's own word in ranking, a related topic word
  less again), and "consume" by "consumption"; generic words ("climate", "change") weigh less;
- a vector order (weighted lower): the windows nearest the question and its expansion words.

Whether the report appears to address the question at all is decided by a calibrated threshold on
the rarity-weighted share of topic words (`MIN_RELEVANCE`), never by rank: every report ranks
*something* first. A topic word the report never uses weighs the most, so a question about tailings
dams is "not addressed" in a report that never says "tailings", however well "safety" matches.
A window over the threshold must also hold the question's core concept in the question's sense
(`grounding`): one rare shared word ("scenarios" of a product test, the "Standards Board") is not
enough.
"""

from __future__ import annotations

import math
import re
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models.knowledge import TEXT_SEARCH_CONFIG
from app.embeddings.tokens import tokenize
from app.knowledge.search import reciprocal_rank_scores
from app.questions.expansion import QUESTION_WORDS, Expansion, expand, subject_words, without_purpose
from app.questions.grounding import Group, Sense
from app.questions.search import QueryVectors, SearchQuery, fetch_passages, hybrid_search, vector_ranks
from app.questions.types import Confidence, Passage
from app.questions.vocabulary import GENERIC_WEIGHTS, WordGroup, concept_groups, derivation_groups

#: Weight of the IFRS requirement's words in the text order, against 1.0 for the question's own.
EXPANSION_WEIGHT = 0.35
#: Weight of the vector order in the fusion, against 1.0 for the text order: the text order knows
#: the analyst-to-report vocabulary and rarity; the vector of a long expanded query is vaguer.
VECTOR_WEIGHT = 0.3
#: Weight of the page's support (how much of the page is about the topic: the sum of its best
#: windows' scores, relative to the best page) added to each window's own text score, so that the
#: page where a topic is discussed outranks a page that merely mentions it once (a contents page).
PAGE_WEIGHT = 0.5
#: Windows of a page that count towards its support.
PAGE_WINDOWS = 3
#: A window addresses the question when it holds at least this rarity-weighted share of the
#: question's topic words (a concept word counts as held through any of its synonyms). Recalibrated
#: with the vocabulary on the tuning sets of bench/ask_grounding (`topic` and `analyst`: 71 answerable
#: questions, 19 that the reports do not address): 0.25 / 0.3 / 0.4 / 0.5 answer "not addressed" for
#: 6 / 7 / 9 / 12 of the 19 but wrongly for 0 / 2 / 6 / 13 of the 71; 0.25 keeps false "not
#: addressed" (the failure this type exists to fix) at none.
MIN_RELEVANCE = 0.25
#: With a semantic embedder, a window this similar to the question counts even without the words.
MIN_SIMILARITY = 0.6
#: Windows each order contributes before fusion.
CANDIDATES = 60
#: Most windows an answer quotes, most distinct pages among them, most windows from one page.
MAX_WINDOWS = 4
MAX_PAGES = 3
PER_PAGE = 2
#: Most weighted words a window carries (in `attributes["focus"]`) to pick the sentences it quotes.
FOCUS_WORDS = 24
#: Most extracted claims listed after the report's own words.
MAX_CLAIMS = 3
#: When no window passes the threshold, the best windows still holding at least this share of the
#: question's topic weight, including at least one of its topical word groups, are quoted as the
#: closest found (low confidence) instead of asserting that the report does not address it:
#: analyst checklist wording ("business model", "synergies") is often only partly the report's.
MIN_CLOSEST = 0.1
#: A window holding this share of the topic weight, in the question's sense, is a confident answer.
HIGH_RELEVANCE = 0.5
#: Most searched words an answer names when it says the report does not address the question.
MAX_SEARCHED = 16

_WORD = re.compile(r"[^\W_][\w.\-'’]*")

_LEXEMES = text(
    """
    SELECT t.n, tsvector_to_array(to_tsvector(CAST(:config AS regconfig), t.s)) AS lexemes
    FROM unnest(CAST(:texts AS text[])) WITH ORDINALITY AS t(s, n)
    ORDER BY t.n
    """
)
_WINDOWS = text("SELECT count(*) FROM report_passages WHERE report_id = :report_id AND kind = 'page'")
# Every page window holding any of the lexemes, with all its lexemes (intersected with the searched
# ones in Python: cheaper than one tsquery per lexeme and row when concepts add many lexemes).
# Document frequencies are counted from the same rows, so no second pass over the report is needed.
_MATCHES = text(
    """
    WITH q AS (SELECT unnest(CAST(:lexemes AS text[])) AS lexeme)
    SELECT p.id, p.page_number, tsvector_to_array(p.search_vector) AS matched,
           p.attributes ? 'contents' AS contents
    FROM report_passages AS p
    WHERE p.report_id = :report_id AND p.kind = 'page'
      AND p.search_vector @@ to_tsquery('simple', (SELECT string_agg(quote_literal(lexeme), ' | ') FROM q))
    """
)


@dataclass(frozen=True)
class DisclosureSearch:
    """What was searched and found: the windows that address the question (best first), the
    related claims, the IFRS paragraphs the question maps to, how sure the match is and the
    words searched (what a "not addressed" answer names)."""

    windows: list[Passage]
    claims: list[Passage]
    expansion: Expansion
    confidence: Confidence = Confidence.NONE
    searched: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Scored:
    relevance: float  # rarity-weighted share of the topic words held
    text_score: float  # relevance plus the weighted share of expansion words
    contents: bool = False  # a table-of-contents window (`navigation`): never quoted or cited
    matched: frozenset[str] = frozenset()  # the searched lexemes the window holds
    shares: tuple[tuple[int, float, float], ...] = ()  # per held group: index, relevance, ranking


def topic_text(question: str, terms: Sequence[str] = ()) -> str:
    """The question's words without those every disclosure question uses, plus extra `terms`."""
    kept = [word for word in _WORD.findall(question) if not _is_question_word(word)]
    return " ".join([*kept, *terms])


async def search_disclosure(
    session: AsyncSession,
    report_id: uuid.UUID,
    question: str,
    terms: Sequence[str],
    vectors: QueryVectors,
) -> DisclosureSearch:
    """The report's windows that address `question` and the claims on its topic."""
    expansion = expand(" ".join([question, *terms]))
    question = without_purpose(question)
    topic = topic_text(question, terms)
    concepts = concept_groups(" ".join([question, *terms]))
    concepts += derivation_groups([w for w in _WORD.findall(topic) if not _covered(w, concepts)])
    plain = [word for word in _WORD.findall(topic) if not _covered(word, concepts)]
    related = [term for group in concepts for term in group.related]
    first = next(iter(_WORD.findall(question)), "")
    expanded = " ".join([*expansion.terms, *related])
    query = _Query(plain, concepts, expanded, _core_terms(expansion), subject_words(question), first)
    scored, weights, sense = await _score_windows(session, report_id, query)
    same = [term for group in concepts for term in group.alternatives[:4]]
    vector = await vectors.of(" ".join([topic, *same, *expansion.terms]))
    by_vector = (
        await vector_ranks(session, report_id, vector, vectors.name, ("page",), CANDIDATES)
        if vector is not None
        else []
    )
    by_text = sorted(scored, key=lambda passage_id: -scored[passage_id].text_score)[:CANDIDATES]
    scored = await _without_names(session, report_id, scored, sense, by_text)
    by_text = sorted(by_text, key=lambda passage_id: -scored[passage_id].text_score)
    fused = _fuse(by_text, [passage_id for passage_id, _ in by_vector])
    similarity = dict(by_vector)
    relevant = {
        passage_id: score
        for passage_id, score in fused.items()
        if not _contents(scored, passage_id)
        and (
            _relevance(scored, passage_id) >= MIN_RELEVANCE
            or similarity.get(passage_id, 0.0) >= MIN_SIMILARITY
        )
    }
    windows = [
        window
        for window in await fetch_passages(session, report_id, ids=list(relevant))
        if similarity.get(window.id, 0.0) >= MIN_SIMILARITY
        or sense.grounded(window.text, _matched(scored, window.id))
    ]
    confidence = _confidence(windows, scored, similarity)
    if not windows:
        relevant = _closest(fused, scored, sense)
        windows = [
            window
            for window in await fetch_passages(session, report_id, ids=list(relevant))
            if sense.grounded(window.text, _matched(scored, window.id))
        ]
        confidence = Confidence.LOW if windows else Confidence.NONE
    focus = dict(sorted(weights.items(), key=lambda item: -item[1])[:FOCUS_WORDS])
    ranked = sorted(
        (
            replace(window, score=relevant[window.id], attributes={**window.attributes, "focus": focus})
            for window in windows
        ),
        key=lambda window: (-window.score, window.page_number or 0),
    )
    claims = await _related_claims(session, report_id, topic, vectors) if ranked else []
    searched = searched_words(query, expansion)
    return DisclosureSearch(select_windows(ranked), claims, expansion, confidence, searched)


def _confidence(
    windows: list[Passage], scored: dict[uuid.UUID, _Scored], similarity: dict[uuid.UUID, float]
) -> Confidence:
    """HIGH when some window that holds the question in its sense holds most of its topic weight
    (or is semantically very close), MEDIUM when windows only pass the threshold, NONE without any."""
    if not windows:
        return Confidence.NONE
    best = max(max(_relevance(scored, w.id), similarity.get(w.id, 0.0)) for w in windows)
    return Confidence.HIGH if best >= HIGH_RELEVANCE else Confidence.MEDIUM


def _closest(
    fused: dict[uuid.UUID, float], scored: dict[uuid.UUID, _Scored], sense: Sense
) -> dict[uuid.UUID, float]:
    """The candidates closest to a question no window addresses over the threshold: those holding
    at least `MIN_CLOSEST` of its topic weight and one of its topical word groups (its subject, not
    only a generic word or a name), with their fused scores; the caller keeps those that also hold
    the core concept in the question's sense (`grounding`). None left: only then is the question
    "not addressed"."""
    return {
        passage_id: score
        for passage_id, score in fused.items()
        if passage_id in scored
        and not _contents(scored, passage_id)
        and _relevance(scored, passage_id) >= MIN_CLOSEST
        and sense.touches(_matched(scored, passage_id))
    }


def searched_words(query: _Query, expansion: Expansion) -> tuple[str, ...]:
    """What the search looked for, as a reader would write it: the question's own topic words,
    each concept's report wordings (`vocabulary`), then the IFRS requirement's words (`expansion`)."""
    words = [*query.plain]
    for group in query.concepts:
        words += group.alternatives[:4]
    words += expansion.terms[:6]
    unique = list(dict.fromkeys(word.lower() for word in words if not _is_question_word(word)))
    return tuple(unique[:MAX_SEARCHED])


async def _without_names(
    session: AsyncSession,
    report_id: uuid.UUID,
    scored: dict[uuid.UUID, _Scored],
    sense: Sense,
    candidates: list[uuid.UUID],
) -> dict[uuid.UUID, _Scored]:
    """The candidates' scores without the words they hold only inside another organisation's name
    (`grounding.NAME_MARKERS`): the "Board" of a standard setter earns a window neither relevance
    nor rank for a question about the company's board. Only the text order's candidates are read,
    since only they can rank."""
    rescored = dict(scored)
    for window in await fetch_passages(session, report_id, ids=candidates):
        found = scored[window.id]
        named = sense.named_groups(window.text, found.matched)
        if named:
            relevance = sum(share for index, share, _ in found.shares if index in named)
            ranking = sum(share for index, _, share in found.shares if index in named)
            rescored[window.id] = replace(
                found, relevance=found.relevance - relevance, text_score=found.text_score - ranking
            )
    return rescored


def _fuse(by_text: list[uuid.UUID], by_vector: list[uuid.UUID]) -> dict[uuid.UUID, float]:
    """Reciprocal-rank fusion with the vector order counting `VECTOR_WEIGHT` as much as the text's."""
    fused = reciprocal_rank_scores(by_text)
    for passage_id, score in reciprocal_rank_scores(by_vector).items():
        fused[passage_id] = fused.get(passage_id, 0.0) + VECTOR_WEIGHT * score
    return fused


def select_windows(ranked: list[Passage]) -> list[Passage]:
    """The best windows within the answer's budget: at most `MAX_PAGES` pages, `PER_PAGE` windows
    per page and `MAX_WINDOWS` in all, never two that overlap; grouped by page, best page first."""
    chosen: list[Passage] = []
    per_page: Counter[int | None] = Counter()
    for window in ranked:
        page = window.page_number
        if page not in per_page and len(per_page) >= MAX_PAGES:
            continue
        if per_page[page] >= PER_PAGE or any(_overlap(window, other) for other in chosen):
            continue
        per_page[page] += 1
        chosen.append(window)
        if len(chosen) >= MAX_WINDOWS:
            break
    pages = list(dict.fromkeys(window.page_number for window in chosen))
    return sorted(chosen, key=lambda window: pages.index(window.page_number))


def _overlap(window: Passage, other: Passage) -> bool:
    """Whether two windows of the same page share a sentence."""
    if window.page_number != other.page_number:
        return False
    first, last = window.attributes.get("sentences") or (0, -1)
    other_first, other_last = other.attributes.get("sentences") or (0, -1)
    return bool(first <= other_last and other_first <= last)


@dataclass(frozen=True)
class _Query:
    """What a window is scored on: the question's plain topic words, its concept word groups (each
    counting as one word, held through any of its alternatives) and the expansion words."""

    plain: list[str]
    concepts: list[WordGroup]
    expansion: str
    core: tuple[str, ...] = ()  # the mapped requirements' keywords (`grounding`)
    subject: frozenset[str] = frozenset()  # other words the question asks about (`subject_words`)
    first: str = ""  # the question's first word: capitalised without being a name


async def _score_windows(
    session: AsyncSession, report_id: uuid.UUID, query: _Query
) -> tuple[dict[uuid.UUID, _Scored], dict[str, float], Sense]:
    """Each window holding any topic or expansion word, with its relevance and text score; each
    searched lexeme's weight (its group's rarity; expansion words count `EXPANSION_WEIGHT` as much);
    and what `grounding` checks the windows that pass the threshold against."""
    groups, expansion_lexemes, keywords = await _lexemes(session, query)
    sense = Sense.of(groups, keywords, query.subject)
    windows = (await session.execute(_WINDOWS, {"report_id": report_id})).scalar_one()
    if not groups or not windows:
        return {}, {}, sense
    topic_lexemes = {lexeme for group in groups for words in group.alternatives for lexeme in words}
    topic_lexemes |= {lexeme for group in groups for words in group.related for lexeme in words}
    expansion_lexemes = [lexeme for lexeme in expansion_lexemes if lexeme not in topic_lexemes]
    lexemes = [*sorted(topic_lexemes), *expansion_lexemes]
    matches = (await session.execute(_MATCHES, {"lexemes": lexemes, "report_id": report_id})).all()
    searched = set(lexemes)
    held = [(passage_id, page, searched.intersection(matched)) for passage_id, page, matched, _ in matches]
    contents = {passage_id for passage_id, _, _, flagged in matches if flagged}
    group_idf = [
        group.factor * math.log((windows + 1) / (sum(group.held(m) for _, _, m in held) + 0.5))
        for group in groups
    ]
    frequency: Counter[str] = Counter(lexeme for _, _, matched in held for lexeme in matched)
    idf = {lexeme: math.log((windows + 1) / (frequency[lexeme] + 0.5)) for lexeme in expansion_lexemes}
    topic_weight = sum(group_idf) or 1.0
    expansion_weight = sum(idf.values()) or 1.0
    own: dict[uuid.UUID, tuple[int | None, float, float]] = {}
    shares: dict[uuid.UUID, tuple[tuple[int, float, float], ...]] = {}
    for passage_id, page, matched in held:
        shares[passage_id] = tuple(
            (index, (w if group.held(matched) else 0.0) / topic_weight, w * credit / topic_weight)
            for index, (group, w) in enumerate(zip(groups, group_idf, strict=True))
            if (credit := group.credit(matched))
        )
        relevance = sum(share for _, share, _ in shares[passage_id])
        ranking = sum(share for _, _, share in shares[passage_id])
        extra = sum(idf[lexeme] for lexeme in expansion_lexemes if lexeme in matched) / expansion_weight
        own[passage_id] = (page, relevance, ranking + EXPANSION_WEIGHT * extra)
    # A contents page names every topic and answers none: it neither counts as support for its
    # page nor is ever quoted, so answers cite the pages that discuss the topic.
    support = _page_support([value for passage_id, value in own.items() if passage_id not in contents])
    matched_by_id = {passage_id: frozenset(matched) for passage_id, _, matched in held}
    scored = {
        passage_id: _Scored(
            relevance,
            score + PAGE_WEIGHT * support.get(page, 0.0),
            passage_id in contents,
            matched_by_id[passage_id],
            shares[passage_id],
        )
        for passage_id, (page, relevance, score) in own.items()
    }
    weights = {lexeme: round(idf[lexeme] * EXPANSION_WEIGHT, 3) for lexeme in expansion_lexemes}
    for group, weight in zip(groups, group_idf, strict=True):
        for alternative in group.alternatives:
            weights |= {lexeme: round(weight, 3) for lexeme in alternative}
    # Only what the report uses can pick a window's sentences.
    return scored, {lexeme: weight for lexeme, weight in weights.items() if frequency[lexeme]}, sense


async def _lexemes(
    session: AsyncSession, query: _Query
) -> tuple[list[Group], list[str], list[frozenset[str]]]:
    """The query's word groups, expansion lexemes and requirement keywords, as the report's full-text
    index spells them: each plain topic lexeme is a group of its own; a concept is one group of all
    its alternatives; each keyword is one lexeme set."""
    alternatives = [words for group in query.concepts for words in (*group.alternatives, *group.related)]
    texts = [*query.plain, query.expansion, *alternatives, *query.core]
    params = {"config": TEXT_SEARCH_CONFIG, "texts": texts}
    rows = [list(row.lexemes or []) for row in (await session.execute(_LEXEMES, params)).all()]
    count = len(query.plain)
    plain, expansion, spelled = rows[:count], rows[count], rows[count + 1 : len(rows) - len(query.core)]
    keywords = [frozenset(row) for row in rows[len(rows) - len(query.core) :] if row]
    keywords = [words for words in keywords if any(_generic(lexeme) >= 1.0 for lexeme in words)]
    groups = _plain_groups(query, plain, {lexeme for words in keywords for lexeme in words})
    start = 0
    for concept in query.concepts:
        count, extra = len(concept.alternatives), len(concept.related)
        found = [frozenset(lexemes) for lexemes in spelled[start : start + count]]
        near = [frozenset(lexemes) for lexemes in spelled[start + count : start + count + extra]]
        start += count + extra
        own = tuple(
            w for w, same in zip(found, concept.alternatives, strict=True) if w and same in concept.asked
        )
        if any(found):
            single = tuple(same for same in concept.alternatives if _WORD.fullmatch(same) and "-" not in same)
            near_found = tuple(w for w in near if w)
            held_by = tuple(w for w in found if w)
            groups.append(Group(held_by, 1.0, near_found, own, single, action=concept.action))
    return groups, list(dict.fromkeys(expansion)), keywords


def _plain_groups(query: _Query, plain: list[list[str]], keyword_lexemes: set[str]) -> list[Group]:
    """One group per distinct lexeme of the plain topic words, with the word as written; a word
    capitalised mid-question ("Costco", "CT REIT") that no requirement keyword uses is a name."""
    groups: dict[str, Group] = {}
    for word, lexemes in zip(query.plain, plain, strict=True):
        proper = word[:1].isupper() and word != query.first
        for lexeme in lexemes:
            if lexeme not in groups:
                name = proper and lexeme not in keyword_lexemes
                groups[lexeme] = Group((frozenset([lexeme]),), _generic(lexeme), words=(word,), proper=name)
    return list(groups.values())


def _generic(lexeme: str) -> float:
    """GENERIC_WEIGHTS damping of a full-text lexeme (its `tokenize` stem may differ: "climat")."""
    stems = tokenize(lexeme)
    return GENERIC_WEIGHTS.get(stems[0], 1.0) if stems else 1.0


def _covered(word: str, concepts: list[WordGroup]) -> bool:
    """Whether a concept group stands for every stem of `word`."""
    stems = tokenize(word)
    covered = {stem for group in concepts for stem in group.covered}
    return bool(stems) and all(stem in covered for stem in stems)


def _page_support(windows: list[tuple[int | None, float, float]]) -> dict[int | None, float]:
    """Each page's sum of its `PAGE_WINDOWS` best window scores, relative to the best page's."""
    by_page: dict[int | None, list[float]] = {}
    for page, _, score in windows:
        by_page.setdefault(page, []).append(score)
    sums = {page: sum(sorted(scores, reverse=True)[:PAGE_WINDOWS]) for page, scores in by_page.items()}
    best = max(sums.values(), default=0.0) or 1.0
    return {page: total / best for page, total in sums.items()}


async def _related_claims(
    session: AsyncSession, report_id: uuid.UUID, topic: str, vectors: QueryVectors
) -> list[Passage]:
    """The claims Sibyl extracted that match the topic (second to the report's own words)."""
    query = SearchQuery(
        words=topic, vector=await vectors.of(topic), embedder_name=vectors.name, kinds=("claim",)
    )
    hits = await hybrid_search(session, report_id, query, limit=MAX_CLAIMS * 2)
    return [hit for hit in hits if hit.relevant][:MAX_CLAIMS]


def _core_terms(expansion: Expansion) -> tuple[str, ...]:
    """The keywords (as phrases) of the requirements the question maps to."""
    return tuple(dict.fromkeys(k for requirement in expansion.requirements for k in requirement.keywords))


def _matched(scored: dict[uuid.UUID, _Scored], passage_id: uuid.UUID) -> frozenset[str]:
    found = scored.get(passage_id)
    return found.matched if found is not None else frozenset()


def _contents(scored: dict[uuid.UUID, _Scored], passage_id: uuid.UUID) -> bool:
    found = scored.get(passage_id)
    return found is not None and found.contents


def _relevance(scored: dict[uuid.UUID, _Scored], passage_id: uuid.UUID) -> float:
    found = scored.get(passage_id)
    return found.relevance if found is not None else 0.0


def _is_question_word(word: str) -> bool:
    tokens = tokenize(word)
    return not tokens or all(token in QUESTION_WORDS for token in tokens)
