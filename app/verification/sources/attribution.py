"""Whose word a source's quote carries: an outlet's own finding, or the reporting company's.

An outlet that writes "Nordavia Metals said its Scope 3 emissions were 14.2 Mt CO2e" is independent;
the figure is not. Counting such a sentence as corroboration would turn "reported in the press"
into "independently confirmed", so a quote that attributes what it states to the company, or
states it in the company's first person, is the company's voice (`company_voice`; docs/decisions.md,
the company's word):

- **relayed**: "<Company> said/reported/announced/stated/disclosed …", "according to <Company>",
  "the company/group/miner said", "said in a statement", "its annual report shows", "a company
  spokesperson said";
- **first person**: "our Scope 3 emissions were …", "we spent …" — a source quoting the company,
  or the company's own document. A newsroom's own first person ("our reporters found", "we
  analysed") is not the company.

A relayed figure that supports the claim is self-reported, not corroboration. A relayed figure that
contradicts the claim is the company saying something else elsewhere: evidence that the report is
inconsistent, not an independent contradiction. But a sentence that sets someone else against the
company ("Nordavia claims 64%, but an audit found 40%") carries that someone's finding: a
contradiction there is independent, so it is not treated as a relay.

Rule-based and deliberately literal (`method` of the reading is unchanged); it is applied to every
reading, the analysis model's included.
"""

from __future__ import annotations

import re

from app.language.company_names import search_name
from app.language.years import MONTH
from app.verification.sources.company_names import MIN_DISTINCTIVE_CHARS, distinctive_first_word

RELAYED = "relays the company's own statement"
FIRST_PERSON = "states it in the company's own first person"

_SPEAKS = (
    r"(?:said|says|reported|reports|announced|announces|stated|states|disclosed|discloses|"
    r"confirmed|confirms|told|tells|published|publishes|posted|estimated|estimates|expects|expected|"
    # "listed equity", "listed companies": "listed" there says where a security trades, not who spoke
    # "put its emissions at 3.1 Mt" is an estimate; "put 1.02 GL into supply" is no one speaking
    r"claimed|claims|declared|revealed|puts?(?=\s(?!(?:about|around|some|nearly|roughly)\s)[^\s,;\d][^\s,;]*\s(?:[^\s,;]+\s){0,13}?"
    r"(?:at|near|around|close\sto|about)\s"
    r"(?:(?:about|around|some|nearly|roughly)\s)?[\d£$€])|gave|gives|showed|shows|lists|"
    r"listed(?!\s(?:equit|compan|firms?\b|shares?\b|stocks?\b|securit|bonds?\b|assets?\b|real\sestate)))"
)
#: What the press calls a company once it has named it.
_COMPANY_NOUNS = (
    r"(?:company|group|firm|miner|producer|retailer|carmaker|automaker|manufacturer|maker|bank|insurer|"
    r"utility|operator|conglomerate|chipmaker|airline|lender|developer|supplier|trust|business)"
)
#: Who speaks for a company: "its sustainability director", "the company's operations chief".
_OFFICER = (
    r"(?:spokes\w*|chief\s+executive|ceo|cfo|coo|chair\w*|president|management|executives?|board|founder|"
    # a director, head or chief of one of the company's own functions: "its sustainability director";
    # "its research director" may be a research group's
    r"(?:sustainability|operations|finance|financial|environment(?:al)?|communications|press|investor\s+relations)"
    r"\s+(?:chief|director|head|officer|manager))"
)
#: A title written before its holder's name, as the press does for a company's officers.
_TITLE = (
    r"(?:chief\s+executive|ceo|cfo|coo|chair(?:man|woman|person)?|managing\s+director|"
    r"(?:chief\s+)?(?:sustainability|operations|financial|finance|technology)\s+(?:chief|officer|director|head))"
)
_GENERIC_RELAYS = (
    rf"\bthe\s+{_COMPANY_NOUNS}\s+(?:\w+\s+){{0,3}}?{_SPEAKS}\b",
    rf"\b(?:a|the)\s+{_COMPANY_NOUNS}\s+(?:spokes(?:person|man|woman)|statement|filing|release)\b",
    # "…, a spokesperson said": a spokesperson of no one named speaks for the company the news is of
    rf"(?:^|,\s+)a\s+spokes(?:person|man|woman)\s+(?!for\b|of\b|at\b)(?:\w+\s+){{0,2}}?{_SPEAKS}\b",
    r"\b(?:said|stated|announced|reported|disclosed|confirmed)\s+in\s+(?:a|its|an)\s+"
    r"(?:\w+\s+)?(?:statement|filing|release|report|presentation|disclosure)\b",
    r"\bin\s+a\s+statement\b",
    r"\b(?:according\s+to|from|in|as\s+(?:stated|shown)\s+in)\s+(?:its|the\s+company['’]s|the\s+group['’]s)\s+"
    r"(?:own\s+)?(?:\w+\s+){0,2}?(?:statement|filings?|reports?|disclosures?|accounts|results|data|figures|"
    r"release|presentation)\b",
    rf"\b(?:its|the\s+{_COMPANY_NOUNS}['’]s)\s+(?:\w+\s+){{0,2}}?(?:filings?|reports?|disclosures?|accounts|release)\s+"
    r"(?:shows?|showed|says|said|states|stated|put|puts|gives|gave)\b",
    r"\bcompany\s+(?:officials|executives|data|figures|filings?)\b",
    # "the company's chief sustainability officer told reporters"
    rf"\bthe\s+{_COMPANY_NOUNS}['’]s\s+(?:[\w-]+\s+){{0,3}}?{_OFFICER},?\s+(?:[\w'’-]+,?\s+){{0,3}}?{_SPEAKS}\b",
    r"\baccording\s+to\s+(?:the\s+)?" + _COMPANY_NOUNS + r"\b",
)
#: An officer named without the company's name: theirs only when the last name before it is the
#: company's ("Varkstad plans …, chief executive Helga Morn told reporters"; "Speaking at a Greenwatch
#: briefing, chair Anna Berg said" is Greenwatch's chair).
_OFFICER_RELAYS = (
    # "its sustainability director said", "its chief executive, Helga Morn, told reporters"
    rf"\bits\s+(?:[\w-]+\s+){{0,2}}?{_OFFICER},?\s+(?:[\w'’-]+,?\s+){{0,3}}?{_SPEAKS}\b",
    # "…, chief executive Helga Morn told reporters": a title opening its clause before a name; a
    # title after another body's name is theirs ("Greenwatch chief executive Anna Berg")
    rf"(?:^|,\s+){_TITLE}\s+(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+){{0,2}},?\s+{_SPEAKS}\b",
)
#: A name in a sentence: capitalised words, not a month nor a word that opens sentences.
_PROPER_NAME = re.compile(
    rf"\b(?!(?:{MONTH}|Scope|The|Its|A|An|In|At|On|By|For|From|With|Speaking|Asked)\b)"
    # a word, not a unit ("Mt", "GWh")
    r"[A-Z][a-z][\w&'’-]+(?:\s+[A-Z][\w&'’-]*)*"
)
#: Who else speaks in the press: public bodies, courts, auditors, researchers, trackers.
_THIRD_PARTY = (
    r"(?:agency|authority|regulator|ministry|department|inspectorate|inspectors?|court|tribunal|commission|"
    r"ombudsman|auditors?|watchdog|ngo|researchers?|analysts?|index|benchmark|monitor|tracker|register|"
    r"registry|review|survey|study|audit|institute|government|council|parliament|prosecutors?)"
)
#: A third party stating what the sentence says: "the environment agency said in a statement".
_THIRD_PARTY_SPEAKS = re.compile(
    rf"\b{_THIRD_PARTY}(?:['’]s)?\s+(?:\w+\s+){{0,3}}?{_SPEAKS}\b|"
    rf"\b{_SPEAKS}\s+by\s+(?:the\s+|an?\s+)?(?:[\w'’-]+\s+){{0,3}}?{_THIRD_PARTY}\b",
    re.IGNORECASE,
)
#: Someone other than the company weighs in: the sentence contrasts its finding with the company's.
_OTHER_VOICE = re.compile(
    r"\b(?:but|however|yet|although|though|whereas|while|instead)\b|contrary\s+to|\bnot\s+true\b|"
    r"\b(?:found|finds|find|estimates?|estimated|calculated|puts?\s+(?:it|them|the\s+\w+)\s+at)\b|"
    r"\b(?:audit|auditors?|analysts?|researchers?|investigat\w+|regulators?|ngos?|watchdogs?|"
    r"campaigners?|scientists?|satellite|records|data\s+show|agency|authority|ministry|inspectorate|"
    r"inspectors?|court|tribunal|commission|ombudsman|benchmark|monitor|tracker|register|registry|"
    r"database|dataset|scorecard)\b|"
    r"\b(?:disput\w+|reject\w+|challeng\w+|understat\w+|overstat\w+|inflat\w+|misleading|false|wrong)\b|"
    r"\b(?:more|less|higher|lower|greater|fewer|above|below|smaller|bigger|larger)\s+(?:\w+\s+)?than\s+"
    r"(?:the\s+\w+|it|its\s+\w+)\s+(?:(?:has|had)\s+)?"
    r"(?:reports?|reported|discloses?|disclosed|says|said|claims?|claimed|stated)\b",
    re.IGNORECASE,
)
#: A figure set against the one the company gave ("well above the figure the airline published", "three
#: times the figure in its report"): another voice, unless the company itself says it or compares it
#: with an earlier year's ("below the level the company reported a year earlier").
_SET_AGAINST_ITS_OWN = re.compile(
    r"\b(?:above|below|beyond|under|over|than|times|twice|double|half|short\s+of|different\s+from|"
    r"at\s+odds\s+with)\s+the\s+(?:figure|number|one|level|total|amount)\s+(?:that\s+)?"
    r"(?:(?:the\s+\w+|it)\s+(?:(?:has|had)\s+)?(?:published|reported|disclosed|claimed|stated|gave)|"
    r"in\s+its\s+(?:own\s+)?(?:\w+\s+)?report)\b"
    r"(?!\s+(?:a\s+year\s+(?:earlier|before)|for\s+(?:19|20)\d\d|in\s+(?:19|20)\d\d|last\s+year|"
    r"the\s+(?:year|period)\s+before|previously))",
    re.IGNORECASE,
)
#: "We", "our", "ours", "us" ("US" is a country).
_FIRST_PERSON = re.compile(r"\b(?:[Ww]e|[Oo]urs?|us)\b")
#: A capitalised word right before: "Our" after it is part of a name ("Insure Our Future").
_NAME_BEFORE = re.compile(r"\b[A-Z][a-z]+\s$")
#: A newsroom's or researcher's own first person ("our reporters", "we analysed").
_NEWSROOM_FIRST_PERSON = re.compile(
    r"\b(?:our|we)\s+(?:own\s+)?(?:reporters?|journalists?|newsroom|correspondents?|editors?|readers?|"
    r"analysis|analy[sz]ed|investigation|investigated|review(?:ed)?|calculations?|calculated|"
    r"estimates?|estimated|found|find|examined|obtained|asked|contacted|understand|survey(?:ed)?|"
    r"research|team|sources?|reporting|data\s+(?:team|desk)|modell?ing|modell?ed)\b|"
    r"\b(?:told|showed|sent|gave)\s+us\b",
    re.IGNORECASE,
)


def _name_alternatives(company: str) -> list[str]:
    """How a sentence names the company: its search name, or its distinctive first word."""
    name = search_name(company)
    if not name:
        return []
    names = [name]
    first = distinctive_first_word(name)
    if first is not None and first != name:
        names.append(first)
    return names


def _relay_patterns(company: str, *, generic: bool = True) -> list[str]:
    patterns = list(_GENERIC_RELAYS) if generic else []
    for name in _name_alternatives(company):
        named = r"\s+".join(re.escape(word) for word in name.split())
        if len(name) <= MIN_DISTINCTIVE_CHARS:
            # a short first word speaks for the company as written, inside a sentence and never
            # inside another name ("…, Tarn said", not "the best estimate", "Data published …" nor
            # "the Tarn Valley water board said")
            named = rf"(?<=[a-z,]\s)(?-i:{named}(?!\s+[A-Z]))"
        patterns.append(rf"(?<!\w){named}(?:['’]s?)?\s+(?:[\w'’-]+\s+){{0,3}}?{_SPEAKS}\b")
        # "Varkstad's chief executive, Helga Morn, told reporters"
        patterns.append(
            rf"(?<!\w){named}['’]s?\s+(?:[\w-]+\s+){{0,2}}?{_OFFICER},?\s+(?:[\w'’-]+,?\s+){{0,3}}?{_SPEAKS}\b"
        )
        patterns.append(rf"\baccording\s+to\s+{named}\b")
        patterns.append(rf"\b{_SPEAKS}\s+by\s+{named}\b")
    return patterns


def relays_company(quote: str, company: str) -> bool:
    """Whether the quote attributes what it states to the company ("Acme said …", "the miner said").
    Words that name no speaker ("said in a statement", "its annual report shows") are the company's
    only when no third party speaks in the sentence ("the environment agency said in a statement")."""
    generic = _THIRD_PARTY_SPEAKS.search(quote) is None
    if any(re.search(pattern, quote, re.IGNORECASE) for pattern in _relay_patterns(company, generic=generic)):
        return True
    return generic and any(
        _named_last(quote, match.start(), company)
        for pattern in _OFFICER_RELAYS
        for match in re.finditer(pattern, quote, re.IGNORECASE)
    )


def _a_name(quote: str, match: re.Match[str]) -> bool:
    """Whether a capitalised run is a name: anywhere but at the sentence's start, where one word is
    a name only when a verb of doing or saying follows it ("Greenwatch published", not "Emissions
    were")."""
    if match.start() > 0 or " " in match.group().strip():
        return True
    return _ACTS_AFTER.match(quote, match.end()) is not None


#: A verb right after a sentence's first word that makes it a name: "Greenwatch published …".
_ACTS_AFTER = re.compile(
    r"['’]s\b|\s+(?:\w+ed|said|says|found|finds|told|wrote|puts?|estimates?)\b", re.IGNORECASE
)


def _named_last(quote: str, at: int, company: str) -> bool:
    """Whether no name stands before offset `at` but the company's: the last one is (part of) its
    name, or there is none (a source about the company)."""
    names = [match.group() for match in _PROPER_NAME.finditer(quote, 0, at) if _a_name(quote, match)]
    if not names:
        return True
    words = {word.lower() for name in _name_alternatives(company) for word in name.split()}
    return bool({word.lower().rstrip("'’s") for word in names[-1].split()} & words)


def in_first_person(quote: str) -> bool:
    """Whether the quote speaks as "we"/"our" other than a newsroom's or researcher's own first person."""
    newsroom = [match.span() for match in _NEWSROOM_FIRST_PERSON.finditer(quote)]
    return any(
        not any(start <= match.start() < end for start, end in newsroom)
        and not (match.group()[0].isupper() and _NAME_BEFORE.search(quote, 0, match.start()))
        for match in _FIRST_PERSON.finditer(quote)
    )


def company_voice(quote: str | None, company: str, stance: str) -> str | None:
    """Why a supporting or contradicting quote is the company's own word (`RELAYED`,
    `FIRST_PERSON`), or None when it is the source's own. A contradiction that sets another voice
    against the company (an audit, analysts, "but …") stays the source's own."""
    if not quote or stance not in {"supports", "contradicts"}:
        return None
    if stance == "contradicts" and _OTHER_VOICE.search(quote):
        return None
    if stance == "contradicts" and _SET_AGAINST_ITS_OWN.search(quote):
        # the company named inside "the figure the airline published" is not the one speaking
        if not relays_company(_SET_AGAINST_ITS_OWN.sub("", quote), company):
            return None
    if in_first_person(quote):
        return FIRST_PERSON
    if relays_company(quote, company):
        return RELAYED
    return None
