"""Rule-based recognition of environmental claims: what a company asserts about the environmental
side of itself, its products or its operations.

A regulator or a reader checks such a sentence even when it has no figure in it ("our inks are
solvent-free", "new buildings are certified to BREEAM"), so a figure is not what makes it a claim.
Three things are: an environmental subject (emissions, energy, renewables, waste and recycling,
water, nature, pollution, certifications, environmental performance), an assertion by the reporting
entity or about its own products and sites (first person, "the Group", a named company as the
subject, or a product described as having a property), and a verb that states a fact, an action, a
programme or a commitment rather than an opinion. What rules a sentence out: spoken chatter (first
person singular, fillers, "--"), questions, a hedge with nothing specific, market or policy context
with no company in it, and money talk (revenue, margins, debt, guidance) with no environmental
subject.

The score is additive and its parts are named, so `reasons` can say why a sentence counted.
"""

from __future__ import annotations

import re

from app.claims.risk_flags import virtue_phrases

_I = re.IGNORECASE

#: Environmental subjects a reader could check, each worth points (the strongest matches count).
STRONG_TOPIC = re.compile(
    r"\b(?:(?:GHG|CO2e?|CO₂e?|carbon|methane|greenhouse[- ]gas|air|NOx|SOx|SO2|dust|particulate)"
    r"\s?emissions?|"
    r"emissions?|GHGs?|greenhouse gas(?:es)?|CO2e?|CO₂e?|decarboni[sz]\w*|low[- ]carbon|zero[- ]carbon|"
    r"carbon(?![- ](?:fib(?:re|er)s?|steel|black|copy|brush))"
    r"(?:[- ](?:neutral\w*|footprint|intensity|capture|offset\w*|free|dioxide|reduction|sinks?))?|"
    r"net[- ]?zero|climate(?:[- ](?:change|neutral\w*|positive|friendly|strategy|action|risks?|targets?))?|"
    r"global warming|1\.5\s?°C|"
    r"renewables?|solar|photovoltaic|wind (?:power|energy|farms?|turbines?|parks?)|"
    r"hydro(?:power|electric\w*|[- ]powered)|geothermal|"
    r"biogas|biomass|biofuels?|biomethane|biodiesel|bioethanol|renewable diesel|aviation fuel|hydrogen|"
    r"electric (?:[a-z-]+ )?(?:vehicles?|cars?|buses|trucks|vans|forklifts|"
    r"fleet)|EVs?|CCU?S|"
    r"(?-i:LED)(?:[- ](?:lighting|lights|lamps|retrofits?|upgrades?))?|(?-i:HVAC)[- ]\w+|retrofit\w*|"
    r"energy[- ](?:efficien\w*|saving\w*|consumption|use|intensity|management|performance)|"
    r"(?:fuel|water|resource|material)[- ]efficien\w*|"
    r"recycl\w*|recyclab\w*|upcycl\w*|reus\w*|biodegradab\w*|compost\w*|circular\w*|"
    r"waste(?:water)?|landfill|packaging|plastics?|single[- ]use|solvents?|refill\w*|returnable|"
    r"repair\w*|refurbish\w*|remanufactur\w*|second[- ]hand|pre[- ]owned|take[- ]back|"
    r"(?:fresh|ground|surface|drinking|rain|sea)?water (?:consumption|withdrawal|use|usage|quality|"
    r"stewardship|discharge|footprint|savings?|recycling|management)|"
    r"(?:fresh|ground|surface|drinking|rain|potable|clean|grey|gray)[- ]?water|"
    # Less of a resource used is an environmental subject, however the resource is named
    # ("conserve energy", "a fifth less fuel", "reduce the materials used").
    r"(?:less|fewer|lower|reduc\w*|sav(?:e|es|ed|ing)|conserv\w*|cut\w*)\s(?:[a-z-]+\s){0,2}?"
    r"(?:energy|fuel|water|electricity|(?:raw )?materials|resources)"
    r"(?! (?:prices?|costs?|bills?|demand|sales|tariffs?))|"
    r"fossil[- ](?:fuels?|free)|coal[- ]fired|thermal coal|electrif(?:y|ies|ied|ying|ication)|"
    # The EU taxonomy names economic activities that contribute to environmental objectives.
    r"taxonomy[- ](?:aligned|eligible|alignment|eligibility)|"
    # Leaving a fossil fuel behind ("phased out coal", "stopped burning oil", "instead of diesel").
    r"(?:phas\w* out|stop\w*|exit\w*|replac\w*|instead of|away from|ban\w*|divest\w*)\s"
    r"(?:[\w-]+\s){0,3}?(?:coal|oil|diesel|petrol|gasoline|natural gas|gas)|"
    r"clean(?:er)? (?:energy|air|water|technolog(?:y|ies)|transport|mobility|fuels?|power|electricity)|"
    r"biodiversity|habitats?|ecosystems?|species|wildlife|deforestation|reforest\w*|afforest\w*|"
    r"forests?|trees|wetlands?|soils?|pesticides?|fertili[sz]ers?|"
    r"pollut\w*|contaminat\w*|spills?|hazardous|toxic\w*|volatile organic|VOCs?|ozone|"
    r"refrigera(?:nts?|ting fluids?)|"
    r"environment(?:al(?:ly)?)?(?:[- ]\w+)?|eco[- ]?\w+|green (?:electricity|energy|power|buildings?|"
    r"bonds?|products?|procurement|hydrogen|steel|logistics)|"
    r"sustainab\w+|BREEAM|LEED|BOMA BEST|FSC|PEFC|EMAS|ISO\s?14001|ISO\s?50001|Ecolabel|Energy Star|"
    r"nature|natural resources?|planet|conservation|restor\w*)\b",
    _I,
)
#: Words that name an environmental subject only in passing: worth a little, not a claim alone.
WEAK_TOPIC = re.compile(r"\b(?:energy|fuels?|electricity|water|materials?|resources?|efficien\w*)\b", _I)
#: The reporting entity (or its products, sites, programmes, "NRG group") as the one asserting or
#: acting ("our time", "our planet" are everyone's).
OWN_ASSERTION = re.compile(
    r"\b(?:we|ours|us)\b|\bour\b(?! (?:times?|planet|society|world|generation|children|future|century)\b)|"
    r"\bthe (?:Group|Company|company|business|Bank|Board|firm|Corporation|"
    r"(?:new )?(?:plant|factory|site|facility|fleet|building|product|range|brand|store|warehouse|office|"
    r"mill|depot|campus|headquarters|(?:distribution )?cent(?:re|er)))\b|"
    r"\b(?:Group|company|Company)[’']s\b|(?-i:\b[A-Z]{2,}[\w&.\-]* [Gg]roup\b)",
    _I,
)
#: A capitalised name as a sentence's subject, followed by a verb ("Acme reduced", "Acme's plants use").
NAMED_SUBJECT = re.compile(
    r"^(?!(?:The|This|These|Those|That|A|An|All|Each|Every|Most|Some|Many|Such|Its|Their|In|On|At|For|By|"
    r"With|As|If|When|While|However|Although)\s)"
    r"(?P<name>[A-Z][\w&.\-]+(?:\s[A-Z][\w&.\-]+){0,3})(?:[’']s\s\w+(?:\s\w+)?)?\s"
    r"(?:has|have|had|is|are|was|were|will|aims?|plans?|commits?|committed|seeks?|"
    r"[a-z]+(?:ed|es|s))\b"
)
#: A pronoun standing for the entity's products, sites or programmes named just before.
PRONOUN_SUBJECT = re.compile(
    r"^(?:They|It|These|This (?:\w+ )?(?:product|plant|site|project|programme|initiative))\s", _I
)
#: A product or operation described as having an environmental property.
PRODUCT_PROPERTY = re.compile(
    r"\b(?:made (?:from|of|with)|produced (?:from|with|using)|certified|labell?ed|powered by|runs? on|"
    r"free (?:of|from)|(?:solvent|plastic|fossil|emission|carbon|waste|chemical|PVC)[- ]free|"
    r"lower (?:carbon|emissions?|energy(?! (?:prices?|costs?|bills?|demand))|impact)|"
    r"less (?:energy|water|waste|plastic|packaging)|"
    r"(?:smaller|lower|reduced|lighter) (?:\w+ )?footprint|"
    r"(?:the )?(?:lowest|least) (?:carbon|emissions?|energy|impact|footprint)|"
    r"(?:the )?most (?:energy[- ])?efficient|"
    r"(?:received|won|awarded|earned) (?:an?|the) [^.]{0,80}?\b(?:award|prize)|"
    r"(?:produces?|emits?|releases?|contains?|generates?|uses?|consumes?|requires?) "
    r"(?:no|less|fewer|zero|almost no|only))\b",
    _I,
)
#: The entity naming its own environmental impact ("our impact on the planet", "its carbon
#: footprint", "the Group's environmental impacts"): whatever it says of it, it speaks of itself.
OWN_IMPACT = re.compile(
    r"\b(?:our|its|(?:Group|company|Company)[’']s)\s(?:(?:\w+\s){0,2}?(?:environmental|ecological|carbon|"
    r"climate|water|plastic)\s(?:impacts?|footprints?|effects?)|(?:\w+\s)?(?:impacts?|footprints?|"
    r"effects?)\s(?:on|upon)\s(?:the\s)?(?:environment|planet|climate|nature|biodiversity|ecosystems))\b",
    _I,
)
#: Verbs that state a fact, an action, a programme or a commitment by the entity.
ACTION = re.compile(
    r"\b(?:reduc\w+|cut|cuts|lower\w*|decreas\w+|avoid\w*|sav(?:e|es|ed|ing)|minimi[sz]\w+|eliminat\w+|"
    r"phas(?:e|ed|es|ing) out|recycl\w+|recover\w*|divert\w*|reus\w+|replac\w+|switch\w*|convert\w*|"
    r"install\w*|launch\w*|implement\w*|introduc\w+|develop\w*|design\w*|built|build\w*|deploy\w*|"
    r"achiev\w+|reach\w*|complet\w+|obtain\w*|receiv\w+|award\w*|certif\w+|verif\w+|validat\w+|"
    r"us(?:e|es|ed|ing)|sourc\w+|purchas\w+|procur\w+|generat\w+|produc\w+|suppl\w+|provid\w+|offer\w*|"
    r"restor\w+|plant(?:ed|s|ing)|protect\w*|conserv\w+|monitor\w*|measur\w+|assess\w*|track\w*|"
    r"commit\w*|pledg\w+|target\w*|aim\w*|set|sets|invest\w*|fund\w*|financ\w+|support\w*|engag\w+|"
    r"partner\w*|join\w*|signed|adopt\w*|appl(?:y|ies|ied)|integrat\w+|align\w*|embark\w*|organi[sz]\w+|"
    r"work\w* (?:with|to|on)|help\w*|enabl\w+|improv\w+|increas\w+|expand\w*|excel\w*|merged|became|"
    r"continu\w+|manag\w+|operat\w+|run|runs|participat\w+|educat\w+|rais\w+ awareness|train\w*|"
    r"prevent\w*|mitigat\w+|address\w*|tackl\w+|transition\w*|cover\w*|contribut\w+|compensat\w+|offset\w*|"
    r"stop(?:s|ped|ping)?|remov\w+|exclud\w+|encourag\w+|promot\w+|heat(?:s|ed)|burn(?:s|ed|ing)?|"
    r"electrif(?:y|ies|ied|ying)|retir(?:e|es|ed|ing)|retrofit\w*|refill\w*|divest\w*)\b",
    _I,
)
#: Spoken or conversational text (earnings calls, interviews): never a reported claim.
CHATTER = re.compile(
    r"^(?:and|so(?! far\b)|but|well|yes|yeah|no|okay|ok|now|look|oh|right|sure|again|also,? I)\b[ ,]|"
    r"\bI(?:'m|’m|'d|’d|'ve|’ve|'ll|’ll)?\s|\b(?:you know|I mean|kind of|sort of|a lot of|frankly|"
    r"obviously|basically|pretty much|you guys|let me|we're going to|we’re going to|gonna|"
    r"we've said|as I said|right now|at this point|that[’']s|it[’']s|there[’']s|(?:do|does|did|ca|wo|is|was|"
    r"have)n[’']t)\b|\s--\s|—\s?$|\[$",
    _I,
)
QUESTION = re.compile(r"\?[\"'”’)]*$")
#: Money talk: results, guidance and balance sheet, which are not environmental claims on their own.
FINANCIAL = re.compile(
    r"\b(?:revenues?|sales|EBITDA|EBIT|margins?|profit\w*|earnings|EPS|dividends?|share (?:price|buyback)|"
    r"debt|leverage|delever\w*|balance sheet|cash flow|guidance|outlook|return on (?:equity|capital)|ROE|"
    r"basis points|run rate|synerg\w+|cost savings?|costs?|expenses?|pric(?:e|es|ing)|volumes?|"
    r"market share|capital expenditure|M&A|acquisitions?|valuation|offtake|wholesalers?|budgets?|"
    r"financial statements)\b",
    _I,
)
#: Context about markets, science, policy or other parties rather than the entity itself.
CONTEXT = re.compile(
    r"\b(?:the (?:industry|sector|market|economy)|markets?|global (?:trends?|demand)|demand for|"
    r"according to|scientists?|IPCC|governments?|policymakers|regulators|legislation|lawsuit|court|"
    r"the world|worldwide|globally|consumers? (?:are|want|expect)|customers (?:are|want|expect)|"
    r"is gaining momentum|trends?|taxe?s?|tariffs?|EPA|ministr(?:y|ies)|agenc(?:y|ies)|authorit(?:y|ies)|"
    r"auctions?|subsid(?:y|ies)|global (?:\w+ )?(?:emissions|warming|temperatures?|challenges?|economy)|"
    r"(?:challenge|issue) of (?:the|our) (?:century|time|generation))\b",
    _I,
)
HEDGE = re.compile(
    r"\b(?:may|might|could|can|possibly|potentially|perhaps|hopefully|we think|we believe|we see|"
    r"we expect|as we look (?:to|ahead))\b",
    _I,
)

TOPIC_WEIGHT = 1.0
MAX_TOPICS = 3
WEAK_TOPIC_WEIGHT = 0.3
OWN_WEIGHT = 0.8
NAMED_WEIGHT = 0.6
PROPERTY_WEIGHT = 0.8
ACTION_WEIGHT = 0.7
#: A virtue word ("eco-friendly", "certified green", "our own seal") applied by the entity to itself.
VIRTUE_WEIGHT = 1.0
FINANCIAL_PENALTY = 0.8
CONTEXT_PENALTY = 0.9
HEDGE_PENALTY = 0.6
ENVIRONMENTAL_THRESHOLD = 2.5


def is_chatter(sentence: str) -> bool:
    """Spoken-style text or a question: what someone said, not what the report asserts."""
    return bool(CHATTER.search(sentence) or QUESTION.search(sentence))


def virtue_claim(sentence: str) -> bool:
    """The company (or a product of its own) called green, eco-friendly, sustainable or certified by
    a label of its own: the generic and self-declared claims the EU rules single out, which need no
    figure to be a claim."""
    if not any(_ENVIRONMENTAL_VIRTUE.search(match.group()) for match in virtue_phrases(sentence)):
        return False
    return bool(OWN_ASSERTION.search(sentence) or PRONOUN_SUBJECT.search(sentence) or _named(sentence))


def names_subject(sentence: str) -> bool:
    """A name or a pronoun for the entity's own products or sites is the sentence's subject."""
    return bool(PRONOUN_SUBJECT.search(sentence) or _named(sentence))


def _named(sentence: str) -> bool:
    """A name as the subject ("Acme is", "Acme Foods offers"), not a common noun that opens a
    sentence ("Partnerships are key", "Doing business sustainably is")."""
    match = NAMED_SUBJECT.search(sentence)
    if match is None:
        return False
    first, _, rest = match.group().partition(" ")
    if first in _NOT_NAMES or first.endswith("ing"):
        return False
    if first.endswith("s") and rest.split()[:1] == ["are"]:
        return False
    # "Carbon offsets are", "Plastic bottles can": the "verb" in -s is the plural of a common noun
    # when a verb follows it at once.
    following = sentence[match.end() :].split()[:1]
    return not (match.group().endswith("s") and following and following[0] in _VERBS_AFTER_A_NOUN)


def named_actor(sentence: str) -> bool:
    """A name as the subject that does not open with an environmental subject: "Acme Water cut its
    leakage" names the actor, "Carbon prices rose" and "Sustainability is" name the matter spoken of."""
    return _named(sentence) and _subject_opening(sentence)


def _subject_opening(sentence: str) -> bool:
    """A capitalised subject and its verb open the sentence, and the subject is no environmental
    subject ("Carbon prices rose", "Waste emissions are" speak of a topic, not of an actor)."""
    match = NAMED_SUBJECT.search(sentence)
    if match is None:
        return False
    first = match.group("name").split()[0]
    return not (STRONG_TOPIC.fullmatch(first) or WEAK_TOPIC.fullmatch(first))


def _subject(sentence: str) -> bool:
    """Someone is the subject: a name, a pronoun or "We" as the opening subject (first person counts
    here as well as in `OWN_ASSERTION`: the environmental threshold was set with it counted twice)."""
    return _subject_opening(sentence) or bool(PRONOUN_SUBJECT.search(sentence))


def _subject_weight(sentence: str) -> float:
    """A named company acting is the entity as much as "we" is; a pronoun only stands for it."""
    return OWN_WEIGHT if named_actor(sentence) else NAMED_WEIGHT


#: Verbs that follow a plural subject at once ("offsets are", "bottles can"), never the object of a verb.
_VERBS_AFTER_A_NOUN = frozenset(
    "are were have had can could may might must should would will do did remain become need".split()
)


#: Capitalised openers that are no name ("Our future is green" is everyone's, see `OWN_ASSERTION`).
_NOT_NAMES = frozenset(
    {"Our", "We", "Its", "Their", "Your", "Every", "Any", "No"}
    # Pronouns and sentence adverbs open a sentence in capitals too ("It is", "Further details are").
    | set("It They There Here Both Other Several Further Furthermore Moreover Also Overall Today Now".split())
)


#: Virtue words that are about the environment ("responsible business", "our diversity index" are not).
_ENVIRONMENTAL_VIRTUE = re.compile(
    r"\b(?:eco|environment\w*|climate|nature|planet|earth|green\w*|sustainabl\w+|ecological|"
    r"label|seal|mark|badge|certification|certified|labell?ed)\b",
    _I,
)


def topic_terms(sentence: str) -> list[str]:
    """The distinct environmental subjects named in `sentence`, in reading order (lower case)."""
    seen: list[str] = []
    for match in STRONG_TOPIC.finditer(sentence):
        term = match.group().lower()
        if term not in seen:
            seen.append(term)
    return seen


def environmental_score(sentence: str) -> tuple[float, tuple[str, ...]]:
    """How strongly `sentence` reads as an environmental claim by the reporting entity, and why.

    Zero for chatter, questions, sentences with no environmental subject, and sentences that name
    subjects without asserting anything of them (no entity, action, product property or virtue
    word): however many topics a sentence lists, topics alone are not a claim.
    """
    text = sentence.strip()
    topics = topic_terms(text)
    virtue = virtue_claim(text)
    if not (topics or virtue) or is_chatter(text):
        return 0.0, ()
    reasons = ["environmental_topic"]
    score = TOPIC_WEIGHT * min(max(len(topics), 1), MAX_TOPICS)
    if virtue:
        score += VIRTUE_WEIGHT
        reasons.append("virtue_claim")
    if WEAK_TOPIC.search(text):
        score += WEAK_TOPIC_WEIGHT
    for name, matched, weight in (
        ("own_assertion", OWN_ASSERTION.search(text), OWN_WEIGHT),
        ("named_subject", _subject(text), _subject_weight(text)),
        ("product_property", PRODUCT_PROPERTY.search(text), PROPERTY_WEIGHT),
        ("environmental_action", ACTION.search(text), ACTION_WEIGHT),
        ("own_impact", OWN_IMPACT.search(text), ACTION_WEIGHT),
    ):
        if matched:
            score += weight
            reasons.append(name)
    if len(reasons) == 1:
        return 0.0, ()  # subjects named with no one asserting or doing anything: a list of topics
    score -= _penalties(text, reasons, len(topics))
    return round(max(score, 0.0), 2), tuple(reasons)


def _penalties(text: str, reasons: list[str], topics: int) -> float:
    """Money talk (unless the sentence is mostly about the environment), context, hedges."""
    penalty = 0.0
    if FINANCIAL.search(text) and topics < 2:
        penalty += FINANCIAL_PENALTY
    acting = "own_assertion" in reasons or "named_subject" in reasons
    if CONTEXT.search(text):
        penalty += CONTEXT_PENALTY / 2 if acting else CONTEXT_PENALTY
    if HEDGE.search(text):
        # A hedge with no one acting reads as a general possibility ("X can lower emissions").
        penalty += HEDGE_PENALTY if acting else 2 * HEDGE_PENALTY
    return penalty


def is_environmental_claim(sentence: str) -> bool:
    """Whether `sentence` passes the environmental-claim bar on its own (no figure needed)."""
    return environmental_score(sentence)[0] >= ENVIRONMENTAL_THRESHOLD
