"""Word lists the place extractor uses to tell a place from a word that merely looks like one.

Many towns share their name with an English word ("Mobile", "Reading", "March", "Of"). Such a
name counts as a place only with a cue: a preposition of place before it ("in Reading"), or a
country or region after a comma ("Reading, England"). Months and weekdays need the comma cue even
after a preposition ("in March" is a date). `COMMON_WORDS` started from the gazetteer's one-word
names that the sample reports in ../shared also use in lower case, pruned of word fragments and
extended by hand.
"""

from __future__ import annotations

COMMON_WORDS: frozenset[str] = frozenset(
    """
    alliance along annex bank bar basic bath battle bay bear beaver begun bell best bone borne
    buffalo buy can central chester come commerce commonwealth concord confederation cork crystal
    date deal derby dig dual eagle eden energy enterprise faith federal fleet flora forest freedom
    friendship gap garden goes gold golden green greenfield grove harmony hope hub hull hurricane
    independence industry lag liberty lima lime lion man manage marina mentor mesa mine mission
    mobile most much name nice normal ocean of officer opportunity oral orange pace paradise
    paramount pearl peer plains police pristine progress prosper providence reading republic rest
    rich roles sake sale salt same sandy save savanna shaping sour split sulphur summit surprise
    tank tape temple than time tire to turn tyre union unity university vista ware wells worth
    young
    """.split()
)

TIME_WORDS: frozenset[str] = frozenset(
    """
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday
    """.split()
)

#: Words before a name that say a place follows.
PLACE_PREPOSITIONS: frozenset[str] = frozenset(
    {"in", "at", "near", "from", "around", "outside", "across", "throughout", "within"}
)

#: Capitalised words before a name that do not make it part of a longer proper noun
#: ("In Nanjing", "Our Calgary centre"; but "Canadian Tire", "Lake Victoria").
FUNCTION_WORDS: frozenset[str] = frozenset(
    {"the", "our", "its", "their", "this", "these", "that", "a", "an", "for", "with", "by", "and", "or"}
    | {"both", "each", "all", "every", "as", "including", "of", "on"}
)

#: Lower-case words allowed inside a multi-word name ("Isle of Man", "Rio de Janeiro").
CONNECTORS: frozenset[str] = frozenset(
    {"of", "the", "and", "de", "da", "do", "dos", "das", "del", "della", "di", "la", "le", "les"}
    | {"upon", "on", "am", "an", "der", "den", "y", "el", "sur", "en", "au", "aux", "im"}
)

#: A capitalised word after a name that makes the whole a named thing, not a place
#: ("Paris Agreement", "Montreal Protocol", "Frankfurt Stock Exchange").
NON_PLACE_FOLLOWERS: frozenset[str] = frozenset(
    {"agreement", "accord", "accords", "protocol", "convention", "pact", "declaration", "principles"}
    | {"commitment", "stock", "exchange", "index", "framework", "climate", "rules", "club"}
)

#: One-word names this short are abbreviations or fragments far more often than towns.
SHORT_NAME_LETTERS = 3
