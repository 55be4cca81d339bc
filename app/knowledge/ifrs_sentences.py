"""One-sentence rules that read what a report sentence says about governance, pay and targets.

The registry's keywords say which topic a sentence touches; they cannot say who does what. "Executive
bonuses are linked 15% to emissions reduction targets" touches emissions but discloses pay; "countries
that have pledged to be carbon neutral by 2050" names a target period, but another party's; "the IEA
Net Zero 2050 scenario" names a scenario, not a net-zero target; "EUR 140 million" is an amount, not
the currency the report is presented in. These rules decide such cases for the IFRS mapping
(`app.claims.ifrs_mapping`) and the legal agent's evidence rules (`app.knowledge.ifrs_evidence`).
Each is a regular-expression test over one sentence, so findings built on them stay "rules".
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

# --- governance: a board-level body that oversees climate or sustainability -----------------------

# A body charged with governance; an executive or management board/committee is management's role.
_BODY = re.compile(
    r"\b(?:(?<!executive )(?<!management )(?:supervisory )?board(?! of management)(?: of directors)?|"
    r"directors|"
    r"(?:sustainability|esg|climate|audit|risk|governance|hse|safety|environment(?:al)?|responsibility)"
    r"\b[\w ,&-]{0,40}?\bcommittee)\b",
    _I,
)
_OVERSEES = re.compile(
    r"\b(?:overs(?:ee|ees|een|eeing|aw)|oversight|responsib\w+ for|accountable for|charged with|remit|"
    r"mandate\w*|monitors?|reviews?)\b",
    _I,
)
_GOVERNED_TOPIC = re.compile(
    r"\b(?:climate|sustainability|esg|environment\w*|emissions?|decarboni[sz]\w+|transition)\b", _I
)
_FREQUENCY = re.compile(
    r"\b(?:(?:once|twice|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})\s+times|"
    r"quarterly|monthly|annually|bi-?annually|twice|every (?:quarter|month|year|meeting)|"
    r"at (?:each|every) (?:of its )?(?:board )?meetings?|(?:per|a|each) (?:year|quarter))\b",
    _I,
)
_MEETS = re.compile(
    r"\b(?:me(?:t|ets|eting|etings)|convened|briefed|informed|updated|reports? to|reported to|"
    r"discuss\w*|review\w*)\b",
    _I,
)


def names_oversight_body(sentence: str) -> bool:
    """A board-level body (a board, or a committee such as the sustainability committee) named as
    overseeing or responsible for climate or sustainability matters."""
    return bool(_BODY.search(sentence) and _OVERSEES.search(sentence) and _GOVERNED_TOPIC.search(sentence))


def states_oversight_frequency(sentence: str) -> bool:
    """How often a named board-level body meets on, or is briefed about, the matter ("met six times")."""
    return bool(_BODY.search(sentence) and _MEETS.search(sentence) and _FREQUENCY.search(sentence))


# --- remuneration linked to climate ---------------------------------------------------------------

PAY = re.compile(
    r"\b(?:remuneration|compensation|bonus(?:es)?|incentives?|variable pay|executive pay|ltips?|stips?|"
    r"(?:long|short)[- ]term incentive\w*|pay(?:out)?)\b",
    _I,
)
_CLIMATE = re.compile(
    r"\b(?:climate|emissions?|carbon|ghg|greenhouse|decarboni[sz]\w+|net[- ]zero|energy transition)\b", _I
)
_LINKED = re.compile(
    r"\b(?:link(?:ed|s)?|tied|based on|depend\w*|weight\w*|reflects?|includ\w+|incorporat\w+|"
    r"connected|conditional|contingent|measured against|KPIs?)\b",
    _I,
)
_PERCENT = re.compile(r"\d+(?:[.,]\d+)?\s?(?:%|per ?cent\b|percent\b)", _I)
#: An emissions quantity: a sentence with one reports emissions even when it is about pay.
EMISSIONS_QUANTITY = re.compile(r"\d\s?(?:k?t|Mt|Gt|tonnes?|tons?)\s?(?:of\s)?CO2e?\b|\btCO2e?\b", _I)


def links_pay_to_climate(sentence: str) -> bool:
    """Executive pay (bonus, incentive, remuneration) said to be linked to a climate measure."""
    return bool(PAY.search(sentence) and _CLIMATE.search(sentence) and _LINKED.search(sentence))


def states_climate_pay_share(sentence: str) -> bool:
    """The share of pay linked to climate, as a percentage ("bonuses are linked 15% to ...")."""
    return links_pay_to_climate(sentence) and bool(_PERCENT.search(sentence))


# --- targets: the company's own, with a period ------------------------------------------------------

_TARGET_WORD = re.compile(
    r"\b(?:targets?|targeting|goals?|aims?|aiming|ambitions?|commit(?:s|ted|ment|ments)?|pledge[ds]?|"
    r"plans?|planned|strives? to|intends? to|seeks? to|wants? to|aspir\w+|reach|achieve|become|"
    r"(?:is|are) to be|will|shall|programs?|programmes?|roadmaps?|pathways?|strateg(?:y|ies))\b",
    _I,
)
_PERIOD = re.compile(
    r"\b(?:by|until|before|no later than)\s+(?:the end of\s+)?(?:FY\s?|fiscal (?:year )?)?20\d\d\b|"
    r"\btarget (?:year|date)\b",
    _I,
)
# "X, which has pledged ..." — the target belongs to X; "we" never introduce our own target that way.
_RELATIVE_TARGET = re.compile(
    r"\b(?!(?:target|targets|goal|goals|plan|strategy|commitment|ambition|roadmap)\b)\w+,?\s+"
    r"(?:which|that|who)\s+(?:has\s+|have\s+|had\s+)?(?:also\s+)?"
    r"(?:pledged|committed|set|announced|legislated|adopted|aims?|targets?|intends?|plans?)\b",
    _I,
)
_PUBLIC_PARTY = re.compile(
    r"\b(?:countr(?:y|ies)|governments?|nations?|national|economies|jurisdictions?|legislat\w+|"
    r"regulators?|reform|mechanism|ndcs?|parliament|federal)\b",
    _I,
)
_FIRST_PERSON = re.compile(r"\b(?:we|our|us|the (?:group|company|business))\b", _I)


def others_target(sentence: str) -> bool:
    """A target that belongs to another party: a country or government ("countries that have pledged
    to be carbon neutral by 2050", a policy reducing a nation's emissions by 2030), not the company."""
    if _RELATIVE_TARGET.search(sentence):
        return True
    return bool(_PUBLIC_PARTY.search(sentence) and not _FIRST_PERSON.search(sentence))


def states_target_period(sentence: str) -> bool:
    """The company's own target with the year it is to be met by ("net zero by 2040")."""
    return bool(_TARGET_WORD.search(sentence) and _PERIOD.search(sentence) and not others_target(sentence))


_NET_OR_GROSS = re.compile(r"\b(?:net[- ]zero|net emissions|net target|gross target|carbon neutral\w*)\b", _I)


def states_net_or_gross_target(sentence: str) -> bool:
    """The company's own target said to be net (net zero, carbon neutral) or gross; a scenario's
    name ("IEA Net Zero 2050") is not one."""
    text = without_scenario_names(sentence)
    return bool(_NET_OR_GROSS.search(text) and _TARGET_WORD.search(text) and not others_target(text))


# --- scenario names --------------------------------------------------------------------------------

# "IEA Net Zero 2050", "the Net Zero Emissions by 2050 Scenario", "Net Zero 2050 and Stated Policies
# scenarios": a name (capitalised, or after IEA/NGFS) directly followed by "scenario(s)".
_SCENARIO_NAME = re.compile(
    r"(?:\b(?:IEA|NGFS)(?:['’]s)?\s+(?:Net[- ]Zero|net[- ]zero)(?:\s+Emissions)?(?:\s+by)?(?:\s+20\d\d)?)|"
    r"(?:\bNet[- ]Zero(?:\s+Emissions)?(?:\s+by)?(?:\s+20\d\d)?(?=(?:\s+\(NZE\))?"
    r"(?:,?\s+and\s+(?:[A-Z][\w-]*\s?)+)?\s+[Ss]cenarios?\b))"
)


def without_scenario_names(text: str) -> str:
    """The text with net-zero scenario names replaced by "NZE scenario", so their "net zero" is not
    read as a target and the scenario is still recognised."""
    return _SCENARIO_NAME.sub(lambda m: "IEA NZE" if m.group(0).upper().startswith("IEA") else "NZE", text)


# --- presentation currency --------------------------------------------------------------------------

_CURRENCY = (
    r"(?:(?:thousands|millions|billions) of\s+)?"
    r"(?:[A-Z]{3}\b|euros?|(?:US |Canadian |Australian )?dollars?|pounds?(?: sterling)?|sterling|"
    r"Swiss francs?|yen)"
)
_PRESENTED_IN = re.compile(
    r"\b(?:presentation|functional|reporting) currency\b|"
    rf"\b(?:presented|reported|expressed|stated|denominated|shown)\s+in\s+{_CURRENCY}|"
    r"\ball (?:monetary )?(?:amounts|figures|values)(?: in this report)?\s+(?:are\s+)?"
    rf"(?:presented |shown )?in\s+{_CURRENCY}",
)


def states_presentation_currency(sentence: str) -> bool:
    """Which currency the report's amounts are presented in; an amount ("EUR 140 million") is not that."""
    return bool(_PRESENTED_IN.search(sentence))


# --- scope enumerations ------------------------------------------------------------------------------

_SCOPE_LIST = re.compile(r"\bscopes?\s*([123])((?:\s*(?:,|and|&|\+|/)\s*(?:scope\s*)?[123]\b)+)", _I)


def with_scopes_spelled_out(text: str) -> str:
    """The text with each scope list spelled out ("Scopes 1, 2 and 3" gains "scope 1 scope 2 scope 3"),
    so a claim about Scope 1 and 2 emissions is read as naming Scope 2 as well."""

    def spelled(match: re.Match[str]) -> str:
        numbers = [match.group(1), *re.findall(r"[123]", match.group(2))]
        return f"{match.group(0)} ({'; '.join(f'scope {number}' for number in numbers)})"

    return _SCOPE_LIST.sub(spelled, text)
