"""The textual signals of a checkable fact that check-worthiness scores (`app.claims.worthiness`):
figures with units, money, counts, dates, results, sustainability topics, places and facilities,
governance facts, certifications, and the boilerplate patterns (contents lines, navigation,
disclaimers, links, definitions, bare aspirations) that make a sentence no claim. Years and the
words that set a target are read as everywhere else (`app.language.years`, `app.language.intentions`).
"""

from __future__ import annotations

import re

_I = re.IGNORECASE
# Whether a sentence states an amount at all. Wider than the figures checks read and compare
# (`app.language.figures`): an amount in acres, gallons or "million" alone is still something a
# verifier can look up, so it makes a sentence check-worthy.
_NUMBER = r"(?<![\w.])(?:\d{1,3}(?:[,\u202f]\d{3})+|\d+)(?:\.\d+)?"
_UNIT = (
    r"(?:%|per\s?cent\b|percent\b|percentage points?\b|pp\b|t\b|kt\b|Mt\b|Gt\b|tonnes?\b|tons?\b|"
    r"metric tons?\b|"
    r"MT\b|t\s?CO2e?\b|tCO₂e?\b|kg\b|g\b|lbs?\b|[kMGT]Wh\b|[kMGTP]J\b|[kMG]Wp?\b|ha\b|hectares?\b|acres?\b|"
    r"km2?\b|km²|m2\b|m²|m3\b|m³|sq(?:uare)? (?:feet|ft|metres|meters)\b|ML\b|GL\b|megalit(?:re|er)s?\b|"
    r"(?:kilo)?lit(?:re|er)s?\b|gallons?\b|million\b|billion\b|trillion\b|bn\b|mn\b|thousand\b|"
    r"per (?:million|thousand|hundred|100|1,000|200,000)\b)"
)
FIGURE_WITH_UNIT = re.compile(rf"{_NUMBER}\s?(?:-\s?)?{_UNIT}(?:\s?(?:CO2e?|CO₂e?)\b)?")
CURRENCY = re.compile(
    rf"(?:[$€£¥]|\b(?:US|A|C|NZ)\$|\b(?:USD|EUR|GBP|CAD|AUD|CHF|JPY|SEK|NOK)\s?){_NUMBER}"
    rf"(?:\s?(?:million|billion|bn|mn|m|k)\b)?|{_NUMBER}\s?(?:million |billion )?(?:euros?|dollars?)\b"
)
_NUMBER_WORD = r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|fifty|hundred)"
COUNT = re.compile(
    rf"(?:{_NUMBER}|{_NUMBER_WORD})\s(?:[a-z-]+\s){{0,4}}(?:sites?|facilities|plants?|mines?|quarr(?:y|ies)|factories|warehouses|stores|"
    r"locations|countries|suppliers|projects|employees|vehicles|charging (?:points|stations)|trees|"
    r"properties|buildings|hours|times|members|directors|meetings|audits|assessments|models|"
    r"hydrogen|electric|smelters|refineries|vessels|ships|trucks|cases|incidents|participants|people|"
    r"customers|partners|patents|jobs|schools|communities|entries|tonnes|panels|modules|turbines|chargers)\b",
    _I,
)
NUMBER = re.compile(_NUMBER)
DATE = re.compile(
    r"\b(?:\d{1,2} )?(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December) (?:\d{1,2}, )?20\d\d\b"
)
TARGET_YEAR = re.compile(
    r"\b(?:by|until|before|through|to|in)\s(?:the end of\s|end-|year-end\s)?(?:FY\s?|fiscal (?:year )?)?"
    r"20(?:2[4-9]|[3-5]\d)\b",
    _I,
)
NET_ZERO = re.compile(r"\bnet[- ]?zero\b|\b(?:carbon|climate|CO2)[- ]neutral(?:ity)?\b|\b1\.5\s?°?C\b", _I)
#: A change stated as a multiple ("halved its water use", "nearly doubled our target"): a figure in words.
MULTIPLE = re.compile(r"\b(?:doubl|tripl|quadrupl|halv)(?:ed|ing)\b(?! down)", _I)
#: The entity prices carbon into its decisions (IFRS S2 asks whether and how it does): an internal or
#: shadow carbon price, or a price or cost of carbon it applies, uses or includes, either way round.
_CARBON_PRICE = r"(?:carbon pric(?:e|es|ing)|(?:cost|price) (?:of|on) carbon)"
_APPLIED = (
    r"(?:appl(?:y|ies|ied)|us(?:e|es|ed)|includ(?:e|es|ed)|integrat(?:e|es|ed)|incorporat(?:e|es|ed)|"
    r"embed(?:s|ded)?|factor(?:s|ed)? in)"
)
CARBON_PRICING = re.compile(
    rf"\b(?:internal|shadow) carbon pric(?:e|es|ing)\b|\b{_APPLIED}\b[^.;]{{0,40}}?\b{_CARBON_PRICE}\b|"
    rf"\b{_CARBON_PRICE}\b[^.;]{{0,40}}?\b{_APPLIED}\b",
    _I,
)
#: The EU taxonomy's share of revenue, capital or operating expenditure in environmentally sustainable
#: activities: money that is itself the environmental metric.
TAXONOMY = re.compile(r"\btaxonomy[- ](?:aligned|eligible|alignment|eligibility)\b", _I)
REDUCTION = re.compile(
    r"\b(?:reduc\w*|cut|lower\w*|decreas\w*|fell|fall\w*|declin\w*|increas\w*|rose|ris\w*|gr[eo]w\w*|"
    r"improv\w*|halv\w*|avoid\w*|saved?|sav\w*)\b.{0,60}?\b(?:by|to|of)\s",
    _I,
)
RESULT = re.compile(
    r"\b(?:achieved|completed|reached|adopted|established|installed|commissioned|launched|issued|"
    r"signed|received|obtained|awarded|became|opened|acquired|divested|closed|introduced|joined|"
    r"recorded|reported|validated|approved|verified)\b",
    _I,
)
COMPARISON = re.compile(
    r"\b(?:compared (?:with|to)|relative to|versus|vs\.?|year[- ]on[- ]year|year[- ]over[- ]year|"
    r"from (?:a |the |our )?(?:20\d\d|FY\d\d)|baseline|base year|"
    r"against (?:a |the |our )?(?:20\d\d|baseline)|"
    r"previous year|prior year|up from|down from)\b",
    _I,
)
EMISSIONS = re.compile(
    r"\b(?:scope\s?[123]|emissions?|GHG|greenhouse gas|CO2e?|CO₂e?|carbon (?:footprint|intensity)|"
    rf"decarboni[sz]\w*|{_CARBON_PRICE}|abatement)\b",
    _I,
)
ENVIRONMENT = re.compile(
    r"\b(?:renewable|solar|wind|energy|electricity|water|waste|landfill|recycl\w*|circular\w*|"
    r"biodiversity|habitat|species|deforestation|reforest\w*|trees|forest\w*|wetland|restor\w*|"
    r"hazardous|packaging|plastic|fuel|refrigerant|HFCs?|efficien\w*|electrif\w*|taxonomy|heat pumps?)\b",
    _I,
)
_NOT_PLACES = (
    r"January|February|March|April|May|June|July|August|September|October|November|December|Scope|Our|"
    r"The|This|These|Addition|Accordance|Line|Particular|Order|Total|Group|Company|Board|Committee|"
    r"Fiscal|Financial|Annual|Sustainability|Climate|Chapter|Section|Appendix|Table|Figure|Note|"
    r"Phase|Part|Q[1-4]|Category|Tier|Partnership|Collaboration|Cooperation|Support|Respect|Terms|"
    r"Relation|Connection|Response|Light|View|Spite|Case|Summary|Future|Recent|Some|All|Each|Many"
)
PLACE = re.compile(
    rf"\b(?:in|at|near|across)\s(?:the\s)?(?:(?:north|south|east|west|central|northern|southern|eastern|"
    rf"western|north-\w+|south-\w+)\s)?(?!(?:{_NOT_PLACES})\b)"
    r"(?:[A-Z][a-zà-ÿ]+(?:[- ](?:[A-Z][a-zà-ÿ]+|de|do|del|la|of))*)"
    r"(?:,\s[A-Z][a-zà-ÿ]+(?: [A-Z][a-zà-ÿ]+)?)?"
)
FACILITY = re.compile(
    r"\b(?:site|plant|mine|quarry|facility|factory|works|smelter|refinery|terminal|warehouse|depot|"
    r"mill|farm|park|concession|operations? in|hectares?|acres?|catchment|basin|reserve|region)\b",
    _I,
)
#: "board" as a company's own body, never the end of a standard setter's name ("Sustainability
#: Accounting Standards Board"): a piece of the governance patterns (here and in `app.claims.classify`).
COMPANY_BOARD = r"(?<!standards )\bboard"
GOVERNANCE = re.compile(
    rf"{COMPANY_BOARD}\b|"
    r"\b(?:committee|directors?|supervisory|managing board|chair(?:ed|man|woman|person)?|"
    r"CEO|CFO|executive|oversight|oversees|governance|remuneration|compensation|bonus|incentive|STIP|"
    r"LTIP|compliance|code of conduct|whistleblow\w*|shareholders?|annual general meeting|fines|"
    r"corruption|bribery|subsidiar(?:y|ies))\b",
    _I,
)
CADENCE = re.compile(
    r"\b(?:meets?|met|convene[sd]?|reviews?|reviewed|reports?|reported)\b[^.]{0,60}?"
    r"\b(?:quarterly|monthly|annually|twice|(?:one|two|three|four|five|six|seven|eight|nine|ten|\d+) times|"
    r"(?:every|each|once a) (?:year|quarter|month))\b",
    _I,
)
REMUNERATION = re.compile(
    r"\b(?:remuneration|compensation|bonus|incentive|STIP|LTIP|variable pay)\b[^.]{0,120}?"
    r"\b(?:linked|tied|weight\w*|accounts? for|includes?|based on|\d+\s?%)|"
    r"\b\d+\s?%[^.]{0,60}\b(?:remuneration|compensation|bonus|incentive|variable pay)\b",
    _I,
)
CHAIRED = re.compile(r"\bchaired by\b|\b(?:is|as) (?:the )?chair\b|\bindependent non-executive\b", _I)
ASSURANCE = re.compile(
    r"\b(?:assurance|assured|audited|verified|verification)\b[^.]{0,120}?\b(?:KPMG|EY|Ernst & Young|Deloitte|"
    r"PwC|PricewaterhouseCoopers|Bureau Veritas|DNV|SGS|ERM CVS|LRQA|Intertek|TÜV|Grant Thornton|BDO|"
    r"[A-Z][a-z]+ (?:&|and) (?:Co|Partners|Associates)\b|ISAE 3000|ISAE 3410)"
    r"|\b(?:KPMG|EY|Deloitte|PwC|Bureau Veritas|DNV|SGS)\b[^.]{0,80}?\b(?:assurance|assured|verified)",
    _I,
)
CERTIFICATION = re.compile(
    r"\b(?:SBTi|Science[- ]Based Targets?(?: initiative)?|ISO\s?(?:14001|14064|45001|50001|9001|26000)|"
    r"RE100|EV100|CDP(?: Climate| Water| Forests)?\s(?:score|rating|A-list|grade|of [A-D]-?)|A-list|"
    r"LEED|BREEAM|BOMA BEST|ENERGY STAR|FSC|PEFC|EcoVadis|validated|certified)\b",
)
COMPANY = re.compile(
    r"\b(?:we|our|us)\b|\bthe (?:Group|Company|Board|business)\b|\b(?:Group|company)[’']s\b", _I
)
VERB = re.compile(
    r"\b(?:is|are|was|were|be|been|being|has|have|had|will|shall|would|can|could|may|must|did|does|do)\b|"
    r"\b(?i:we|they|it|he|she|which|who|that)\s(?:\w+ly\s)?(?!(?:and|or|of|the|a|to|in)\b)[a-z]{3,}\b|"
    r"\b(?:met|fell|rose|grew|set|cut|spent|became|began|made|took|won|held|built|"
    r"withdrew|drew|brought|bought|sold|paid|led|left|lost|kept|sought|saw|gave|went|came|stood|"
    r"underwent|undertook|chose|wrote|sent|ran|put|got)\b|"
    r"\b(?:meets|sets|cuts|sits|lies|operates|covers|includes|accounts|represents|comprises|receives|"
    r"supplies|generates|aims|commits|remains|reaches|exceeds|reduces|increases|oversees|chairs|"
    r"provides|owns|employs|produces|consumes|withdraws|recycles|diverts|achieves|invests|expects|"
    r"intends|seeks|contributes|delivers|grows|falls|rises|emits|captures|saves|avoids|amounts|"
    r"ensures|requires|wants|applies|estimates|holds|shows|indicates|runs|leads|uses|plans to)\b|"
    r"\b(?:account|make|amount|come|consist|lead|result|contribute|apply|relate)s? "
    r"(?:for|up|to|from|of|in)\b",
)
# A word in -ed is as often an adjective ("market based", "hours worked") as a verb, so it only
# counts as the verb of a sentence that ends like one.
PAST_PARTICIPLE = re.compile(r"\b[a-z]{3,}ed\b")
SENTENCE_END = re.compile(r"[.!?:][\"'”’)\]]*(?:\d{1,2}|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)?$")
#: Action verbs that state an intention or support rather than something done.
INTENDING = re.compile(
    r"(?:commit|pledg|aim|target|support|help|continu|contribut|work|engag|align|embark|address|enabl|"
    r"partner|join|participat|set)",
    _I,
)
#: Phrases of `ASPIRATION` that frame a statement (belief, pride, striving) rather than replace it.
FRAMING = re.compile(
    r"we (?:believe|strive|aspire|are proud|recogni[sz]e|understand|are dedicated)",
    _I,
)
#: A present-tense verb after the subject of a whole sentence, whatever the verb ("The furnace burns
#: hydrogen", "Our ferries sail on electricity"): a word in -s right after the subject's noun
#: phrase at the start, followed by an object or a preposition. `VERB` names common verbs only.
FINITE_VERB = re.compile(
    r"^(?:[A-Z][\w’'-]*)(?:\s[\w’'-]+){0,5}?\s(?:now\s|also\s|still\s)?[a-z]{2,}[^s\W]s\s"
    r"(?:the|a|an|our|its|their|all|more|less|no|on|in|from|to|with|around|about|over|into|up|out|"
    r"\d[\d,.]*|[a-z]+ing)\b"
)
#: A plural noun right before a word (the subject of a verb in the plural), not "is", "has", "its".
PLURAL_BEFORE = re.compile(
    r"\b(?!(?:is|was|has|as|its|this|thus|us|his|hers|ours|theirs)\s)[a-z]{2,}[^s\W]s\s$"
)
#: A figure that measures money or a market (profit, prices, demand), even of a green business
#: ("Our renewables segment's profit rose 8%", "Carbon prices rose to €80"): a business result, not
#: the environmental performance a claim about the environment states.
MARKET_RESULT = re.compile(
    r"\b(?:revenues?|turnover|profits?|EBITDA|EBIT|margins?|earnings|dividends?|prices?|demand|"
    r"order (?:book|intake)|market share|valuation)\b",
    _I,
)
HEDGE = re.compile(r"\b(?:may|might|could|can|would|possibly|potentially|perhaps)\b", _I)

DISCLAIMER = re.compile(
    r"forward[- ]looking (?:statement|information)|no representation(?:s)? or warrant|"
    r"should not be relied|undue reliance|safe harbou?r|does not constitute an offer|"
    r"risks and uncertainties|actual results (?:may|could) differ|speaks? only as of|"
    r"no (?:obligation|duty) to (?:update|revise)|disclaim|all rights reserved|©|"
    r"without (?:prior )?notice|not (?:be )?(?:construed|considered) as (?:an? )?(?:offer|advice)|"
    r"no (?:liability|responsibility) (?:is|will be) accepted|"
    # The rest of a forward-looking notice: "These statements are provided for the purpose of ...".
    r"\b(?:these|such|the above) (?:forward[- ]looking )?statements (?:are|is|were) (?:being )?"
    r"(?:provided|made|given|included|based)\b|\bfor the purpose of assisting\b|"
    r"\bassist(?:s|ing)? (?:readers|investors|shareholders|the reader)\b",
    _I,
)
#: A report describing itself ("It describes our strategy ...", "This report outlines ..."): what the
#: document contains, not what the entity does.
REPORT_DESCRIPTION = re.compile(
    r"^(?:It|This (?:report|document|publication|section|chapter|update)|The (?:report|document|publication))"
    r"\s(?:also\s)?(?:describes|outlines|presents|summari[sz]es|sets out|highlights|discusses|explains|"
    r"provides (?:an overview|a summary|details|information))\b|"
    # "The Sustainability Report 2023 supplements our financial reporting", "the chapter on
    # decarbonization is based on the guidelines of the TCFD": what the document is, not what the
    # entity does
    r"\b(?:report|document|publication|chapter|section)\b[^.;]{0,60}?\b(?:supplements|complements|"
    r"is based on the (?:guidelines|recommendations|requirements)|has been prepared|was prepared)\b",
    re.IGNORECASE,
)
#: How a figure is calculated or what a term counts, not a result: "is calculated based on the
#: location-based method", "represents the difference between", "is where we report zero Scope 2".
METHODOLOGY = re.compile(
    r"\b(?:is|are|was|were|has\sbeen|have\sbeen)\s(?:calculated|computed|measured|determined|derived)\s"
    r"(?:based\son|using|in\saccordance\swith|according\sto|on\sthe\sbasis\sof)\b|"
    r"\brepresents?\sthe\sdifference\sbetween\b|\b(?:is|are)\swhere\swe\s(?:report|record|count)\b|"
    r"^Wherein\b|\bon\san?\s\d+%\s(?:managed|equity|operated|ownership)\sbasis\b|"
    r"\breported\son\san?\s(?:\d+%\s)?(?:managed|equity|operated)\sbasis\b",
    re.IGNORECASE,
)
#: What a law or a regulation does ("This regulation aims to address ..."), or what others expect
#: of the company ("stakeholders have high expectations"): not the entity's own claim.
OTHERS_AIMS = re.compile(
    r"^(?:This|The|That|These)\s(?:[\w-]+\s){0,2}(?:regulations?|directives?|laws?|legislation|acts?|"
    r"ordinances?|rules?)\s(?:aims?|requires?|sets|establish(?:es)?|will|obliges?|mandates?)\b|"
    r"\bstakeholders?\b[^.;]{0,120}\b(?:have|has|hold|set)\s(?:high\s|growing\s|increasing\s)?"
    r"expectations\b",
    re.IGNORECASE,
)
#: A sentence defining a scheme or term rather than saying what the entity does: "A certification
#: programme that encourages ...", "The <Name> standard is ...", "<Name> certification recognizes ...".
SCHEME_DEFINITION = re.compile(
    r"^(?!(?:Our|Its|Their|This|These|Each|Every|All|The (?:Group|Company))\b)(?:A|An)\s(?:[\w-]+\s){0,3}?"
    r"(?:program(?:me)?|scheme|standard|certification|label|rating system|system|framework|initiative|"
    r"protocol|methodology|metric|index|tool)\s(?:that|which)\s|"
    r"^(?!(?:Our|Its|Their|This|These|Each|Every|All|The (?:Group|Company))\b)"
    r"(?:The\s)?(?:(?:[A-Z][\w&.\-]*|in|and|of|for|on|the|to)\s){1,10}?"
    r"(?:standard|certification|label|scheme|rating system|program(?:me)?|framework|protocol|initiative)"
    r"\s(?:is|are|was|recogni[sz]es|certifies|requires|measures|rewards|promotes|encourages|evaluates|"
    r"assesses|sets|defines|provides a framework)\b",
)
#: A general definition: a bare noun phrase (no "our", "the", "this") said to be a kind of thing that
#: does something ("Carbon credits are certificates that represent ...", "A heat pump is a device
#: which ..."). It explains a term; whose or when is nowhere in it.
GENERAL_DEFINITION = re.compile(
    r"^(?:An?\s)?(?!(?:Our|We|They|It|This|These|Those|The|Its|Their|Each|Every|All)\b)"
    r"(?:[\w-]+\s){1,4}(?:is|are)\s(?:an?\s|the\s)?(?:[\w-]+\s){0,3}?[\w-]+\s(?:that|which|where|used to)\b"
)
#: The lead-in to a list that follows ("These include, but are not limited to: water, forests ...").
LIST_LEAD = re.compile(
    r"^(?:These|They|Those|Such \w+|Examples|Other \w+)\s(?:\w+\s)?(?:include|includes|comprise|cover)\s?:"
    r"|\bbut (?:are |is )?not limited to\b",
)
#: What opens a notice whose following sentences are part of it (`app.claims.rules`).
NOTICE_START = re.compile(
    r"forward[- ]looking (?:statement|information)|safe harbou?r|cautionary (?:statement|note)", _I
)
#: A negation before a certification in the same clause ("we have not adopted SBTi", "no ISO 14001").
_NEGATION_BEFORE = re.compile(r"\b(?:not|never|no|nor|neither|without|yet to)\b[^,;:.()]{0,50}$", _I)
_NEGATION_AFTER = re.compile(
    r"^[^,;:.()]{0,40}?\b(?:is|are|was|were|has|have|had|be|been)\s(?:not|never)\b", _I
)
_SCHEME_KEY = re.compile(r"science[- ]based targets?(?: initiative)?|sbti", _I)

TOC = re.compile(r"\.{4,}|(?:\. ){4,}|…{2,}|_{4,}|^(?:table of )?contents\b|\bcontinued on page\b", _I)
NAVIGATION = re.compile(
    r"^(?:you can (?:find|read|see)|for (?:more|further|additional) (?:information|details)|"
    r"see (?:pages?|section|the|our|also|chapter|"
    r"table|figure|note|appendix)|refer to|please (?:see|refer|visit|contact)|visit|click|read more|"
    r"learn more|find out more|more information (?:is|can be)|details (?:are|can be) (?:found|available)|"
    r"further information (?:is|can be)|information on|back to|go to)\b|"
    r"\b(?:is|are|can be) (?:found|available|provided|presented|described|discussed|explained|detailed|"
    r"set out|shown) (?:on|in) "
    r"(?:page|pages|section|our|the|chapter|appendix)\b|"
    r"\b(?:is|are) included (?:on|in) "
    r"(?:pages?|sections?|chapters?|appendix|annex|the (?:appendix|annex|table))\b",
    _I,
)
INDEX_PROMPT = re.compile(
    r"^(?i:disclose|describe|report|explain|provide|list|state|identify|indicate|outline|summari[sz]e)\s|"
    r"^(?:GRI|SASB|TCFD|ESRS|WEF|IFRS|SDG)\s?[\dA-Z]+[-\d.]*\b"
)
LINK = re.compile(r"https?://|\bwww\.|\S+@\S+\.\w+|\.(?:com|org|net|de|co\.uk)(?:/|\b)", _I)
DEFINITION = re.compile(
    # "this means reducing ..." draws a consequence; it defines nothing
    r"^[\"“‘']?[\w\s\-/()’',&]{1,80}?[\"”’']?(?<!\bthis)(?<!\bthat)(?<!\bwhich)(?<!\bit)\s"
    r"(?:means|mean|refers? to|is defined as|are defined as|"
    r"is the term|stands for|denotes|comprises? all)\b|\b(?:is|are) defined as\b|\brefers to\b|"
    r"[\"“‘'][^\"”’']{1,60}[\"”’']\s(?:means|refers to|stands for|denotes)\b|"
    r"\bhereinafter\b|\bwe define\b",
    _I,
)
ASPIRATION = re.compile(
    r"\b(?:sustainable future|better (?:future|tomorrow|world)|at the heart of|heart of everything|"
    r"we believe|we strive|we aspire|we are proud|we recogni[sz]e|we understand|we are dedicated|"
    r"important to us|our (?:purpose|vision|mission|values)|make a difference|positive impact|"
    r"journey|passionate|we care|we will continue to|continue to work|play (?:our|a) part|"
    r"on behalf of|thank|welcome to|message from|dear (?:reader|stakeholder|shareholder)|"
    r"every \w+(?: \w+){0,6} (?:is a|is one|counts))\b",
    _I,
)
GENERIC = re.compile(
    r"\b(?:globally|worldwide|the world|the (?:cement|mining|steel|construction|automotive|retail|"
    r"real estate|building|energy) (?:industry|sector)|the industry|the sector|across the economy|"
    r"scientists|according to|the IPCC|society as a whole|many companies|companies (?:are|must|should)|"
    r"European Commission|European Green Deal|the EU(?:[’']s)?|governments?|policymakers|regulators|"
    r"the (?:global|world) economy)\b",
    _I,
)
#: A word split by a hyphen and a space ("environ- ment"): two columns or lines run together. A
#: shared ending ("short- and long-term") is not a split.
BROKEN_WORD = re.compile(r"[a-z]- (?!(?:and|or|to|nor)\b)[a-z]")
#: A sentence that begins inside another: a parenthesis closed before a lower-case word.
CONTINUATION = re.compile(r"^\([^()]{0,80}\)\s[a-z]")
SELF_REFERENCE = re.compile(
    r"\bthis (?:report|document|section|chapter|publication|plan|index|table|chart|graphic)\b|"
    r"\b(?:the following|below|above) (?:table|chart|figure|graphic|section)\b|\bphoto:|\bimage:|"
    r"\b(?:this|the) (?:appendix|data|statements?)\b|\bcharts? above\b|\bdata (?:presented|shown)\b",
    _I,
)


def is_negated(text: str, start: int, end: int) -> bool:
    """Whether the mention at `text[start:end]` is denied in its own clause ("have not adopted X",
    "X has not been validated")."""
    return bool(_NEGATION_BEFORE.search(text[:start]) or _NEGATION_AFTER.search(text[end:]))


def affirmed(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first match of `pattern` in `text` that is not negated, nor another name for one that is
    ("While we have not adopted Science Based Targets, we consider SBTi's guidance": neither counts)."""
    matches = list(pattern.finditer(text))
    denied = {_scheme_key(m.group()) for m in matches if is_negated(text, m.start(), m.end())}
    return next((m for m in matches if _scheme_key(m.group()) not in denied), None)


def _scheme_key(name: str) -> str:
    return "sbti" if _SCHEME_KEY.fullmatch(name) else name.casefold()
