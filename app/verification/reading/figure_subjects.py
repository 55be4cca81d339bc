"""What a figure measures beyond its unit and emissions scope, so that a source contradicts a claim
only with a figure for the same thing.

Most figures in a climate report are tonnes of CO2e of one year, yet measure different things:
"we helped our customers avoid 190 Mt CO2e", "employee commuting came to 105 kt CO2e" and
"emissions fell to 350 kt CO2e" are three quantities. Sharing a unit ("metric tons of CO2e") is not
sharing a topic, and a source's "emissions fell to 350 kt" says nothing against a claim that
customers avoided 190 Mt. A source figure may contradict a claim figure only when:

- **the subjects meet:** the two sentences share a word that is not a unit, a scale, a period, an
  emissions scope (compared by its label instead) or the company's name (`SUBJECTLESS_WORDS`);
- **the qualifiers agree:** avoided, saved, financed, sold-product, supplier, commuting, travel,
  transport, processing, intensity, offset, renewable or waste figures are their own quantities
  (`QUALIFIERS`); a sentence naming one and a sentence not naming it measure different things.
  Qualifiers are read over the whole sentence: a claim with two figures and one qualifier is then
  not contradicted on either, a false contradiction being worse than a missed one. A clause
  breaking a figure down ("578 Mt, mostly from customers processing iron ore") names no qualifier
  of the figure: that total is not the processing part of Scope 3;

- **the boundaries agree:** when both sentences name a region, an accounting basis (operated or
  equity share), like-for-like or absolute, a kind of property or premises, franchised or own
  operations, wild or farmed catch, a pollutant or gas, a counting by floor area or by number, an
  asset class, lost-time or recordable injuries, electricity or all energy, coal or oil and gas (or
  all fossil fuels), a commodity, owned or contracted, upfront or whole-life carbon, an annual bonus
  or a long-term incentive, a shipping index, a waste stream, or a drivetrain, they name the same
  (`BOUNDARIES`);

- **the roles agree:** a change amount ("reduced by 32 kt", "an 8% cut", "down 8%") is never
  compared with a level ("fell to 350 kt", "from 420 kt"). A figure whose wording says neither
  ("came to", "at", "were") may be either.

Percentages need two more tests, for support too (`same_percentage`): a relative change ("rose
9%") is never the same quantity as a share ("made up 64% of …", "9% of …") — an absolute change
in percentage points is a dimension of its own (`app.language.figures.Figure`) — and two shares are the same
quantity only of the same base: "64% of total energy use" is not "64% of electricity use", and only when
they count the same part of it (`share_parts`: women and independent directors of one board).

Matching figures (support) do not need this: the same value in the same unit is rarely a
coincidence, and support alone never decides a verdict without a quote check and an independent
publisher (`app.verification.judge.grounding`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from app.language.plurals import singular

_I = re.IGNORECASE

#: Words that say how much or when, never what: units, scales, periods, filler of figure phrases.
SUBJECTLESS_WORDS = frozenset(
    {
        "metric", "ton", "tons", "tonne", "tonnes", "co2", "co2e", "co2eq", "equivalent", "carbon",
        "dioxide", "thousand", "million", "billion", "kwh", "mwh", "gwh", "twh", "litre", "liter",
        "hectare", "percent", "per", "cent", "percentage", "point", "fiscal", "year", "annual",
        "annually", "compared", "approximately", "around", "about", "roughly", "some", "total",
        "totaled", "totalled", "amount", "amounted", "figure", "came", "reached", "stood", "level",
        "scope", "scopes",
    }
)  # fmt: skip

#: Scope 2 by the market-based and by the location-based method: two quantities when both sides name
#: a method, and none apart when one does not (most sources quoting Scope 2 name no method).
SCOPE2_METHODS = {
    "market-based": re.compile(r"\bmarket[\s-]based\b", _I),
    "location-based": re.compile(r"\blocation[\s-]based\b", _I),
}
#: Words that make a figure a quantity of its own (label -> pattern).
QUALIFIERS: dict[str, re.Pattern[str]] = {
    # waste that "avoided landfill" was diverted from it: no avoided quantity of its own
    "avoided": re.compile(r"\bavoid\w*\b(?!\s(?:landfill|disposal))", _I),
    "saved": re.compile(r"\bsav(?:e|es|ed|ing|ings)\b", _I),
    "financed": re.compile(r"\bfinanc(?!ial\s(?:year|statements?|reports?)\b)\w*|\binvestments?\b", _I),
    "sold products": re.compile(r"\bproducts?\s(?:\w+\s)?sold\b|\bsold\sproducts?\b|\buse\sphase\b", _I),
    "supply chain": re.compile(
        r"\bsuppl(?:ier|iers|y\schain)\b|\bupstream\b|\bpurchased\s(?:goods|services)\b", _I
    ),
    "downstream": re.compile(r"\bdownstream\b", _I),
    "commuting": re.compile(r"\bcommut\w*|\bworking\sfrom\shome\b", _I),
    # An airline's flights are its operations; the flights staff take are business travel.
    "travel": re.compile(r"\b(?:business|air)\s(?:travel|flights?)\b", _I),
    "transport": re.compile(r"\bshipping\b|\blogistics?\b|\btransport\w*|\bfreight\b", _I),
    "processing": re.compile(r"\bprocessing\b", _I),
    # an average over several years is not one year's figure
    "multi-year average": re.compile(
        r"\b(?:two|three|four|five|[2-9]|10)[\s-]year\s(?:rolling\s|running\s)?average\b|"
        r"\b(?:rolling|running)\saverage\b|\baverage\s(?:over|across)\s(?:the\s)?(?:last\s|past\s)?"
        r"(?:two|three|four|five|[2-9]|10)\syears\b",
        _I,
    ),
    # A figure per unit of something else ("per tonne of product", "per passenger-kilometre", "per
    # person"), not per period of time, is an intensity.
    "intensity": re.compile(
        # a rate per hours worked is a safety rate, whichever number of hours it is per
        r"\bintensity\b|\b(?:per|for\s(?:every|each))\s"
        r"(?!of\b|cent\b|annum\b|year\b|month\b|week\b|day\b|hour\b|quarter\b|million\shours\b)[a-z]|"
        # "kg/ha", "kgCO2e/m²", "gCO2/dwt-nm": a unit per something, as units write it
        r"[a-z0-9]/(?:ha|m²|m2|t|tonnes?|MWh|kWh|GJ|km|pkm|rpk|ask|dwt-nm|t-nm|unit|head|employee)\b",
        _I,
    ),
    "offset": re.compile(r"\boffset\w*|\bcarbon\scredits?\b|\bremovals?\b", _I),
    "renewable": re.compile(r"\brenewabl\w*|\bgreen\s(?:electricity|power)\b|\bsolar\b|\bwind\b", _I),
    "waste": re.compile(r"\bwaste\b|\blandfill\w*|\brecycl\w*|\bincinerat\w*", _I),
    # Where waste goes: landfill, incineration and recycling are three quantities.
    "landfill": re.compile(r"\blandfill\w*", _I),
    "incinerated": re.compile(r"\bincinerat\w*|\benergy\srecovery\b|\bwaste[\s-]to[\s-]energy\b", _I),
    "recycled": re.compile(r"\brecycl\w*", _I),
    # Water taken in, used up, let out and lost are four quantities.
    "withdrawn": re.compile(
        r"\bwithdr[ae]w\w*|\bdrew\b(?=(?:\s[\w.,]+){0,5}\s(?:of\s)?(?:fresh\s|ground\s|surface\s)?water\b)|"
        r"\babstract(?:ed|ion|s)\b",
        _I,
    ),
    "consumed water": re.compile(
        r"\bconsum\w*(?=(?:\s[\w.,]+){0,5}\s(?:of\s)?(?:fresh|ground|surface)?water\b)|"
        r"\bwater\s(?:[\w.,'’]+\s){0,4}?consum\w*",
        _I,
    ),
    "discharged": re.compile(r"\bdischarg\w*", _I),
    "lost": re.compile(r"\bleak\w*|\blost\b(?![\s-]time)", _I),  # "lost-time injuries" lose no water
    # Land restored and land cleared are two quantities.
    "restored land": re.compile(
        r"\brestor\w*|\brehabilitat\w*|\brevegetat\w*|\breplant\w*|\breforest\w*", _I
    ),
    "cleared land": re.compile(
        r"\bclear(?:ed|ing|s)\b|\bdeforest\w*|\bbulldoz\w*|\bdisturbed\s(?:about\s|some\s)?\d", _I
    ),
}

#: Boundaries a figure is stated for, in families of alternatives: when both sentences name members of
#: a family and not the same ones, they measure different things ("European sales" is not "global
#: sales", "operated" emissions are not "equity-share" ones, "retail centres" are not "offices").
BOUNDARIES: dict[str, dict[str, re.Pattern[str]]] = {
    "region": {
        "global": re.compile(r"\b(?:global(?:ly)?|worldwide|world-wide|group-wide)\b", _I),
        "europe": re.compile(r"\beurope(?:an)?\b|(?-i:\bEU\b)", _I),
        "americas": re.compile(
            r"\b(?:north|south|latin)\samerica(?:n)?\b|(?-i:\bUS\b)|\bU\.S\.|\bunited\sstates\b", _I
        ),
        "asia": re.compile(r"\basia(?:n)?\b|\bchin(?:a|ese)\b|\bjapan(?:ese)?\b|\bindia(?:n)?\b", _I),
        "oceania": re.compile(r"\baustralia(?:n)?\b|\bnew\szealand\b", _I),
        "uk": re.compile(r"(?-i:\bUK\b)|\bbritish\b|\bbritain\b", _I),
    },
    # a country by name or adjective: "Portuguese hotels" are not "Spanish hotels"
    "country": {
        country: re.compile(rf"\b(?:{pattern})\b", _I)
        for country, pattern in {
            "uk": "(?-i:UK)|britain|british|united\\skingdom",
            "france": "france|french",
            "germany": "germany|german",
            "spain": "spain|spanish",
            "portugal": "portugal|portuguese",
            "italy": "italy|italian",
            "netherlands": "netherlands|dutch",
            "belgium": "belgium|belgian",
            "ireland": "ireland|irish",
            "poland": "(?-i:Poland|Polish)",
            "sweden": "sweden|swedish",
            "norway": "norway|norwegian",
            "denmark": "denmark|danish",
            "finland": "finland|finnish",
            "canada": "canada|canadian",
            "mexico": "mexico|mexican",
            "brazil": "brazil|brazilian",
            "chile": "chile|chilean",
            "peru": "peru|peruvian",
            "south africa": "south\\safrica(?:n)?",
        }.items()
    },
    "basis": {
        "operated": re.compile(r"\boperated\b|\boperational\scontrol\b", _I),
        "equity": re.compile(r"\bequity[\s-](?:share|basis)\b", _I),
    },
    "comparison": {
        "like-for-like": re.compile(r"\blike[\s-]for[\s-]like\b", _I),
        "absolute": re.compile(r"\babsolute\b", _I),
    },
    "property": {
        "office": re.compile(r"\boffices?\b", _I),
        "retail": re.compile(
            r"\bretail\s(?:centres?|centers?|parks?|properties|portfolio|assets)\b|\bshopping\s(?:centres?|centers?|malls?)\b",
            _I,
        ),
        "industrial": re.compile(r"\bindustrial\s(?:properties|portfolio|assets)\b", _I),
        "residential": re.compile(r"\bresidential\b", _I),
        "data centres": re.compile(r"\bdata[\s-]cent(?:re|er)s?\b", _I),
    },
    "premises": {
        "stores": re.compile(r"\bstores?\b|\b(?<!coffee\s)shops?\b|\bsupermarkets?\b", _I),
        "distribution": re.compile(
            r"\bdistribution\s(?:centres?|centers?)\b|\bwarehouses?\b|\bdepots?\b", _I
        ),
        "production": re.compile(
            r"\bfactor(?:y|ies)\b|\broaster(?:y|ies)\b|\bbrewer(?:y|ies)\b|\bbottling\s(?:plants?|sites?)\b|"
            r"\bmanufacturing\s(?:plants?|sites?)\b|\bprocessing\s(?:plants?|sites?|facilit(?:y|ies))\b",
            _I,
        ),
        "hospitality": re.compile(r"\bcaf[eé]s?\b|\brestaurants?\b|\bcoffee\sshops?\b", _I),
    },
    "operation": {
        "franchised": re.compile(r"\bfranchis\w*", _I),
        "company-operated": re.compile(r"\bcompany[\s-](?:operated|owned|run)\b", _I),
    },
    "catch": {
        "wild": re.compile(r"\bwild[\s-]caught\b|\bwild\sfisher\w*", _I),
        "farmed": re.compile(r"\bfarmed\b|\baquaculture\b", _I),
    },
    "pollutant": {
        "sulphur oxides": re.compile(
            r"\bsulph?ur\s(?:di)?oxides?\b|\bsulfur\s(?:di)?oxides?\b|\bSO2\b|\bSOx\b", _I
        ),
        "nitrogen oxides": re.compile(r"\bnitrogen\s(?:di)?oxides?\b|\bNOx\b|\bNO2\b", _I),
        "particulates": re.compile(r"\bparticulate\w*|\bPM(?:2\.5|10)\b", _I),
        "methane": re.compile(r"\bmethane\b|\bCH4\b", _I),
        "nitrous oxide": re.compile(r"\bnitrous\soxide\b|\bN2O\b", _I),
        # CO2 alone, not CO2e: the gas, where the other side names another gas
        "carbon dioxide": re.compile(
            r"\bcarbon\sdioxide\b(?![\s-]equivalent)|\bCO2\b(?![\s-]?e(?:q|quivalent)?\b)", _I
        ),
    },
    # a share of a portfolio by floor area is not a share of its buildings by number
    "counted by": {
        "floor area": re.compile(r"\bby\s(?:floor\s)?area\b|\bfloor\s(?:area|space)\b", _I),
        "number": re.compile(r"\bby\s(?:number|count)\b", _I),
        "value": re.compile(r"\bby\s(?:market\s|book\s)?value\b", _I),
    },
    # money lent or invested for green ends is not money lent to fossil-fuel companies
    "financed for": {
        "green": re.compile(
            r"\b(?:green|sustainable|climate|renewable|transition)\s(?:lending|loans?|financ\w*|bonds?|investments?)\b|"
            r"\b(?:lending|loans?|financ\w*|lent|invest\w*)\s(?:[\w£$€.,]+\s){0,4}?(?:to|in|for)\s(?:[\w-]+\s)?"
            r"(?:renewabl\w*|green|clean|solar|wind|sustainab\w*)\b",
            _I,
        ),
        "fossil fuels": re.compile(
            r"\b(?:lending|loans?|financ\w*|lent|invest\w*)\s(?:[\w£$€.,]+\s){0,4}?(?:to|in|for)\s(?:[\w-]+\s)?"
            r"(?:fossil[\s-]fuel|oil\sand\sgas|oil|coal|gas)\b",
            _I,
        ),
    },
    # an investor's listed equities, bonds and loans are portfolios of their own
    "asset class": {
        "equity": re.compile(
            r"\blisted\sequit(?:y|ies)\b|\bequity\s(?:portfolio|holdings|investments)\b|\bequities\b", _I
        ),
        "bonds": re.compile(
            r"\b(?:corporate|sovereign|government)\sbonds?\b|\bbond\sportfolio\b|\bfixed[\s-]income\b", _I
        ),
        "loans": re.compile(r"\bloan\s(?:book|portfolio)\b|\blending\sportfolio\b", _I),
    },
    "injury rate": {
        "lost-time": re.compile(r"\blost[\s-]time\b|\bLTIF?R?s?\b", _I),
        "recordable": re.compile(r"\brecordable\b|\bTRIF?R\b", _I),
    },
    "carrier": {
        "electricity": re.compile(
            r"\belectricity\s(?:consumption|use|usage|used)\b|\bconsumed\s[\d.,]+\s\w+\sof\selectricity\b", _I
        ),
        "energy": re.compile(r"\benergy\s(?:consumption|use|usage|used)\b|\btotal\senergy\b", _I),
    },
    "fossil fuel": {
        "coal": re.compile(r"\bcoal\b", _I),
        "oil and gas": re.compile(
            r"(?<!palm\s)\boil\b|\bnatural\sgas\b|\bLNG\b|\bgas\s(?:producers?|fields?|production)\b", _I
        ),
        "all fossil fuels": re.compile(r"\b(?:all|total)\sfossil[\s-]fuels?\b", _I),
    },
    # one commodity's sourcing is not another's
    "commodity": {
        "palm oil": re.compile(r"\bpalm\s(?:oil|kernel)\b", _I),
        "soy": re.compile(r"\bsoy(?:a|bean)?s?\b", _I),
        "cocoa": re.compile(r"\bcocoa\b", _I),
        "coffee": re.compile(r"\bcoffee\b", _I),
        "cattle": re.compile(r"\bcattle\b|\bbeef\b", _I),
        "timber": re.compile(r"\btimber\b|\bwood\b|\bpulp\b", _I),
    },
    # what the company owns is not what it buys from contracted growers or makers
    "holding": {
        "owned": re.compile(
            r"\b(?:our|its)\sowned\b|\bowned\s(?:farms?|sites?|plants?|fleet|estates?)\b", _I
        ),
        "contracted": re.compile(
            r"\bcontract(?:ed)?\s(?:growers?|farm(?:s|ers?)?|manufacturers?|suppliers?)\b|\bgrower\snetwork\b",
            _I,
        ),
    },
    # the carbon of a building's materials up to completion is not that of its whole life
    "life cycle": {
        "upfront": re.compile(r"\bupfront\b|\bcradle[\s-]to[\s-]gate\b|\bA1[\s-]A[35]\b", _I),
        "whole life": re.compile(r"\bwhole[\s-]life\b|\blife[\s-]?cycle\b|\bcradle[\s-]to[\s-]grave\b", _I),
    },
    # an executive's annual bonus is not the long-term incentive plan
    "pay element": {
        "annual bonus": re.compile(
            r"\bannual\s(?:bonus|incentive)\b|\bshort[\s-]term\sincentive\b|\bSTI\b", _I
        ),
        "long-term incentive": re.compile(r"\blong[\s-]term\sincentive\b|\bLTIP?\b", _I),
    },
    # shipping's carbon indicators are computed differently
    "shipping index": {
        "AER": re.compile(r"\bAER\b|\bannual\sefficiency\sratio\b", _I),
        "EEOI": re.compile(r"\bEEOI\b|\benergy\sefficiency\soperational\sindicator\b", _I),
        "CII": re.compile(r"\bCII\b|\bcarbon\sintensity\sindicator\b", _I),
    },
    # waste from building sites is not the waste of offices or households
    "waste stream": {
        "construction": re.compile(r"\bconstruction(?:\sand\sdemolition)?\swaste\b|\bC&D\swaste\b", _I),
        "office": re.compile(
            r"\boffice(?:\sand\s[\w-]+)?\swaste\b|\boperational\swaste\b|"
            # "waste from Acme's operations", the name left out
            r"\bwaste\sfrom\s+(?:(?:its|our|their|the)\s+|['’]s\s+)?operations\b",
            _I,
        ),
        "municipal": re.compile(r"\bmunicipal\b|\bhousehold\swaste\b", _I),
        "commercial": re.compile(r"\bcommercial\s(?:and\sindustrial\s)?waste\b", _I),
    },
    # a mean is not a median ("mean gender pay gap", "median pay gap")
    "statistic": {
        "mean": re.compile(r"\bmean\b", _I),
        "median": re.compile(r"\bmedian\b", _I),
    },
    # packaging that can be recycled is not packaging made of recycled material
    "recycling": {
        "recyclable": re.compile(r"\brecyclable\b|\b(?:could|can)\sbe\srecycled\b", _I),
        "recycled content": re.compile(
            r"\brecycled\s(?:content|material|plastic|pet|fibre|fiber|paper|glass|aluminium)\b|"
            r"\bmade\s(?:from|of)\srecycled\b",
            _I,
        ),
    },
    # a total is not a figure per unit ("total water consumption" against "per guest night")
    "measure": {
        "total": re.compile(r"\btotal\b(?!\srecordable)|\babsolute\b", _I),
        "per unit": re.compile(
            r"\bper\s(?:guest|unit|tonne|employee|capita|person|head|passenger|vehicle|product|"
            r"square|m2|m²|litre|hectolitre|megawatt-hour|MWh|\$|€|£)|\bintensity\b",
            _I,
        ),
    },
    "drivetrain": {
        "battery-electric": re.compile(r"\bbattery[\s-]electric\b|\bBEVs?\b|\bfully\selectric\b", _I),
        "plug-in hybrid": re.compile(r"\bplug-in\shybrids?\b|\bPHEVs?\b", _I),
        "hybrid": re.compile(r"\b(?<!plug-in\s)hybrids?\b", _I),
    },
    # a safety rate or a headcount for the company's own people is not one for its contractors
    "workforce": {
        # a headcount ("which has 5,000 employees") says whom the company employs, not whose figure it is
        "employees": re.compile(r"(?<!\d\s)\bemployees?\b|\bown\s(?:staff|workforce|people)\b", _I),
        "contractors": re.compile(r"\bcontractors?\b|\bcontract\s(?:workers|staff)\b", _I),
    },
    # a share of the people hired in a year is not a share of the people employed
    "people counted": {
        "hires": re.compile(r"\b(?:new\s)?hires\b|\bnew\srecruits\b|\bhired\sin\b", _I),
        "workforce": re.compile(r"\bworkforce\b|\bheadcount\b", _I),
    },
    # packaging of one material is not packaging of another
    "packaging material": {
        "plastic": re.compile(
            r"\bplastics?\s(?:[\w-]+\s)?(?:(?:used\s)?in\s(?:its\s|their\s|our\s)?)?packag", _I
        ),
        "paper": re.compile(r"\b(?:cardboard|paper|card|fibre-based)\s(?:[\w-]+\s)?packag", _I),
        "glass": re.compile(r"\bglass\s(?:[\w-]+\s)?packag", _I),
        "metal": re.compile(r"\b(?:aluminium|aluminum|metal|tin)\s(?:[\w-]+\s)?packag", _I),
    },
    # suppliers one step up the chain, or further up
    "supplier tier": {
        "tier 1": re.compile(r"\btier[\s-](?:1|one)\b|\bfirst[\s-]tier\b|\bdirect\ssuppliers?\b", _I),
        "tier 2": re.compile(r"\btier[\s-](?:2|two)\b|\bsecond[\s-]tier\b", _I),
        "tier 3": re.compile(r"\btier[\s-](?:3|three)\b|\bthird[\s-]tier\b", _I),
    },
    # emissions or an intensity before or after what is netted off (offsets, credits, removals);
    # "net zero" is a goal, not a basis
    "netting": {
        "net": re.compile(
            r"\bnet\b(?![\s-](?:zero|positive|negative|income|profit|sales|revenue|debt|assets?))", _I
        ),
        "gross": re.compile(r"\bgross\b(?!\s(?:margin|profit|domestic|income|revenue))", _I),
    },
}

_CHANGE_NOUN = r"(?:reduction|decrease|increase|cut|drop|fall|rise|decline|improvement|saving|growth)"
_CHANGE_VERB = (
    r"(?:reduc\w*|decreas\w*|increas\w*|cut|cutting|fell|fall(?:s|ing)?|rose|ris(?:e|es|ing)|"
    r"dropp?\w*|declin\w*|grew|grow(?:s|ing)?|lower\w*|rais\w*|improv\w*|down|up|slipp?\w*|slid|dipp?\w*|"
    r"eased|sank|plung\w*|tumbl\w*|climb\w*|jump\w*|soar\w*)"
)
_HEDGE = r"(?:(?:about|around|approximately|nearly|almost|over|more\sthan|some|roughly|only|just)\s)?"
#: Before a figure: "by", "a reduction of", "fell", "down" -> the figure is a change amount.
_CHANGE_BEFORE = re.compile(rf"(?:\bby|\b{_CHANGE_NOUN}\sof|\b{_CHANGE_VERB})\s{_HEDGE}$", _I)
#: After a figure: "less", "lower", "reduction", "cut" -> a change amount ("an 8% cut").
_CHANGE_AFTER = re.compile(rf"^\s?(?:less|lower|fewer|more|higher|below|above|{_CHANGE_NOUN}s?)\b", _I)
#: Before a figure: a change verb or noun then "to" or "from" -> a level ("fell to 350 kt").
_LEVEL_BEFORE = re.compile(
    rf"\b(?:{_CHANGE_VERB}|{_CHANGE_NOUN})\b(?:\s[\w-]+){{0,6}}?\s(?:to|from)\s{_HEDGE}$", _I
)
_LOOK_BEHIND = 80
#: A share of those who did something, after a passive verb: "used by 30% of the cruise ships",
#: "adopted by 40% of its suppliers" (a change verb keeps "reduced by 30%" a change).
_DONE_BY_A_SHARE = re.compile(
    rf"\b(?!(?:{_CHANGE_VERB}|trimm\w*|slash\w*|curb\w*|halved)\b)(?P<deed>[a-z]{{2,}}(?:ed|en|wn))\sby\s{_HEDGE}$",
    _I,
)
#: Phrases with a direction word that state no change: "made up 64%", "up to 30%".
_NO_CHANGE_BEFORE = re.compile(
    rf"\b(?:(?:made|make|makes|making|add(?:s|ed)?|summ?ed)\sup|up\sto)\s{_HEDGE}$", _I
)
#: What a share is a share of: up to four words after "of", to the next preposition or punctuation.
_SHARE_OF = re.compile(r"\s?of\s(?P<phrase>(?:[\w'’-]+\s?){1,4})")
#: A share named after its figure: "42% is the renewable share of its installed capacity", "42% was
#: the share of renewables in its generation" (of its generation).
_IS_A_SHARE_OF = re.compile(
    r"\s(?:is|was)\s(?:the|its|their)\s(?:[\w-]+\s){0,2}?(?:share|proportion)\sof\s"
    r"(?:(?:[\w'’-]+\s){1,3}?(?:in|on|among|within)\s)?(?P<phrase>(?:[\w'’-]+\s?){1,4})",
    _I,
)
_PHRASE_END = re.compile(
    r"\b(?:in|from|by|for|at|on|to|as|and|or|with|during|across|since|than|over|under|"
    r"was|were|is|are|has|have|had|will|would|came|went|used|(?!(?:recycled|reused|purchased|treated)\b)[a-z]{3,}ed)\b",
    _I,
)
#: Words for all a company holds, which a measure after them ("by floor area") may stand for.
_WHOLE_ESTATE = frozenset({"portfolio", "estate", "property"})
#: How a whole is measured, after it: "of its portfolio by floor area".
_MEASURED_BY = re.compile(
    r"\s?of\s[^,;.]{0,50}?\sby\s(?:sales\s(?=value)|rental\s(?=income))?"
    r"(?P<measure>(?:floor\s)?(?:area|space)|(?:market\s)?value|weight|mass|tonnage|sales\svolume|volume|"
    r"headcount|number|count|units|revenue|sales|turnover|rent|income|spend|cost|capacity)\b",
    _I,
)
#: What each way of measuring a whole is, written one way: "by floor area" and "by space" are by area.
_BASES = {
    "area": "area", "space": "area", "value": "value", "revenue": "value", "sales": "value",
    "turnover": "value", "spend": "value", "cost": "value", "weight": "weight", "mass": "weight",
    "tonnage": "weight", "volume": "volume", "headcount": "number", "number": "number", "count": "number",
    "units": "number", "rent": "rent", "income": "rent", "capacity": "capacity",
}  # fmt: skip


#: What was done with a share's whole, in three kinds that are different wholes: what a company made
#: ("the electricity it generated", "our electricity generation"), what it sold ("the electricity
#: Quarry sold to customers", "its sales"), and what it used or bought ("the timber we used", "the
#: cocoa it sourced").
_ACTIVITY_VERBS = {
    "made": r"generated|generates|produced|produces|manufactured|manufactures",
    "sold": r"sold|sells|retailed|supplied|supplies|delivered|delivers",
    "used": (
        r"used|uses|consumed|consumes|bought|buys|purchased|purchases|procured|sourced|sources|burned|burnt"
    ),
}
_ACTIVITY_NOUNS = {
    "made": r"generation|production|output",
    "sold": r"sales",
    "used": r"use|consumption|purchases",
}
_VERB = "|".join(rf"(?P<{name}>{words})" for name, words in _ACTIVITY_VERBS.items())
_NOUN = "|".join(rf"(?P<{name}>{words})" for name, words in _ACTIVITY_NOUNS.items())
#: Where a whole says what was done with it: a clause with its own subject right after the whole's
#: noun ("of the electricity Quarry sold", "of the energy its sites used", "of the power it supplies"),
#: a participle followed by a preposition ("of the timber used in"; "of its packaging used recycled
#: content" says what the share is; what was "supplied to" a company it bought, and what was "used by
#: its customers" it sold), a noun for the activity as the whole's head ("of our electricity
#: generation"), or a participle before the whole's noun ("of its purchased electricity").
_ACTIVITY_WAYS = (
    re.compile(
        r"^\s?of\s(?:(?:the|its|our|their)\s)?(?:(?!(?:in|of|at|on|for|from|by|to|with)\b)[\w-]+\s){1,2}?"
        r"(?:it|we|they|(?:its|our|their)\s[\w-]+(?:\s[\w-]+)?|"
        rf"(?-i:(?:[A-Z][\w&'’-]*\s)*[A-Z][\w&'’-]*(?:\s[a-z-]+){{0,2}}))\s(?:{_VERB})\b",
        _I,
    ),
    re.compile(
        rf"^\s?of\s(?:(?:the|its|our|their)\s)?[\w-]+\s(?!supplied|delivered)(?:{_VERB})\s"
        r"(?:in|at|on|by(?!\s(?:[\w'’-]+\s){0,3}(?:customers|households|clients|users))|across|for|during|from|to)\b",
        _I,
    ),
    re.compile(
        rf"^\s?of\s(?:the|its|our|their|(?-i:(?:[A-Z][\w&-]*\s)*[A-Z][\w&-]*)['’]s?)\s(?:[\w-]+\s)?(?:{_NOUN})\b",
        _I,
    ),
    # a participle before the whole's noun: "of its purchased electricity", "of its produced water"
    re.compile(rf"^\s?of\s(?:the|its|our|their)\s(?:{_VERB})\s[\w-]+", _I),
)
#: The whole of a share, after it: "of the electricity Quarry sold to customers", to its clause's end
#: or the share's own verb ("… was grown in …" says what the share is, not its whole).
_WHOLE_AFTER = re.compile(r"\s?of\s(?:(?!\s(?:was|were|is|are|came|comes|had|has|went)\b)[^,;.]){0,80}")
#: The whole of a share, before it: "Of the electricity Quarry sold in 2023, 38% was renewable".
_WHOLE_BEFORE = re.compile(r"\b[Oo]f\s(?:the|its|our|their)\s[^,;.]{0,60},\s(?:about\s|around\s|some\s)?$")


def share_whole(text: str, start: int, end: int) -> str:
    """The words naming the whole of the share at `start:end`, after it ("of the electricity Quarry
    sold to customers") or before it ("Of the electricity Quarry sold in 2023, 38% …"); "" if none."""
    whole = _WHOLE_AFTER.match(text, end) or _WHOLE_BEFORE.search(text, max(0, start - 80), start)
    return whole.group() if whole else ""


def share_activity(text: str, start: int, end: int) -> str | None:
    """What was done with the whole of the share at `start:end`, where its whole says it in one of
    `_ACTIVITY_WAYS` ("made", "sold" or "used"): "64% of the electricity Quarry sold" is of what it
    sold, "9% of its fleet" of what it used."""
    whole = share_whole(text, start, end)
    activity = next(filter(None, (way.search(whole) for way in _ACTIVITY_WAYS)), None)
    if activity is None and _FLEET.search(whole):
        return "used"  # a fleet is what the company runs, never what it sold or made
    return activity.lastgroup if activity else None


_FLEET = re.compile(r"\bfleets?\b", _I)


def passive_deed(text: str, start: int, end: int) -> str | None:
    """What those a share counts did, when the share is said in the passive ("used" in "Shore power was
    used by 30% of the cruise ships"); None otherwise."""
    done = _done_by_a_share(text, start, end)
    if done is None or done["deed"].lower() in _CAUSED:
        return None
    return done["deed"].lower()


def _done_by_a_share(text: str, start: int, end: int) -> re.Match[str] | None:
    """The passive verb before the share at `start:end` when the share is of things counted ("used by
    30% of the cruise ships"): a share of those who did it, not a change."""
    done = _DONE_BY_A_SHARE.search(text[max(0, start - _LOOK_BEHIND) : start])
    return done if done is not None and counted_whole(text, end) else None


#: Participles of causing, after which a share is what caused something, not those who did a deed:
#: "driven by 60% of its sites switching".
_CAUSED = frozenset(
    {"driven", "caused", "led", "helped", "explained", "offset", "prompted", "fuelled", "fueled"}
)


def share_basis(text: str, end: int) -> str | None:
    """How the whole of the share ending at `end` is measured, when the text says ("of its portfolio
    by floor area" is by area, "of its packaging by weight" by weight); None when it does not."""
    measured = _MEASURED_BY.match(text, end)
    if measured is None:
        # a share of things counted, said plainly, is by their number ("85% of its suppliers"), or
        # for things also weighed or measured, by their weight or volume (`same_basis`)
        # a measure written elsewhere in the sentence ("(by spend)", "By floor area, 62% …") is its basis
        return THINGS if counted_whole(text, end) and not _A_MEASURE.search(text) else None
    measure = measured["measure"].lower()
    # a "sales volume" may be a number of things sold or their volume ("of its cars", "of its drinks")
    return None if measure == "sales volume" else _BASES[measure.split()[-1]]


_A_MEASURE = re.compile(
    r"\b(?:by|measured\sby|in\sterms\sof)\s(?:floor\s)?(?:spend|value|area|space|revenue|sales|turnover|rent|"
    r"income|capacity|premiums?|weight|volume|tonnage|headcount|number)\b|\bon\sa\s\w+\sbasis\b",
    _I,
)
#: The basis of a share of things said plainly: by number, or for things also weighed or measured
#: ("of its drinks", "of its bonds"), by weight or volume; never by value, area, rent or capacity.
THINGS = "things"
_THINGS_MAY_BE = frozenset({THINGS, "number", "weight", "volume"})


def same_basis(first: str | None, second: str | None) -> bool:
    """Whether two shares' bases (`share_basis`) may be one: the same, unsaid, or things said plainly
    against a basis things may be counted by."""
    if first is None or second is None or first == second:
        return True
    return THINGS in {first, second} and {first, second} <= _THINGS_MAY_BE


def counted_whole(text: str, end: int) -> bool:
    """Whether the share ending at `end` is of things counted one by one ("of its suppliers")."""
    counted = _COUNTED_WHOLE.match(text, end)
    return counted is not None and counted["things"].lower() not in _NOT_COUNTED


_NO_VERB = (
    r"(?!(?:was|were|is|are|has|have|had|been|does|came|comes|went|made|this|thus|plus|less|across|always|"
    r"perhaps|from|in|at|to|by|for|with|on|and|or|[a-z]+ed)\b)"
)
#: A share of things counted: a plural after "of", its owner and up to two words ("85% of its
#: suppliers", "of Acme's UK stores"), the whole's phrase ending there.
_COUNTED_WHOLE = re.compile(
    rf"\s?of\s(?:(?:the|its|our|their)\s)?(?:(?:{_NO_VERB}[\w&.-]+\s){{0,2}}[\w&.-]+['’]s?\s)?"
    rf"(?:{_NO_VERB}[\w-]+\s){{0,2}}?(?P<things>{_NO_VERB}[a-z]{{3,}}(?<!ss)(?<!us)(?<!is)s)\b(?!['’]|\sof\b)",
    _I,
)
#: Plurals that are no things counted one by one.
_NOT_COUNTED = frozenset(
    {
        "emissions", "sales", "revenues", "earnings", "savings", "operations", "purchases", "proceeds",
        "assets", "goods", "resources", "materials", "waters", "premises", "means", "gases", "fuels",
        "needs", "requirements", "hours", "funds", "investments", "loans", "awards", "incentives",
        "bonuses", "costs", "expenses", "volumes", "flows", "outputs", "inputs", "imports", "exports",
        "tonnes", "tons", "litres", "liters", "hectares", "acres", "kilometres", "miles", "metres", "days",
        "years", "months", "pounds", "dollars", "euros", "watts", "megawatts", "gigawatts", "kilograms",
        "ingredients", "beans", "soybeans", "solvents", "plastics", "textiles", "chemicals", "fertilisers",
        "fertilizers", "feedstocks", "biofuels", "renewables", "drinks", "beverages", "holdings", "bonds",
        "mortgages", "equities", "securities", "commodities", "minerals", "metals", "grains", "crops",
        "foods", "fibres", "fibers", "oils", "liquids", "wastes", "residues", "effluents",
        "refrigerants", "pesticides", "supplies", "inventories", "stocks", "portfolios", "shares",
        "deposits", "premiums", "royalties", "fees", "dividends", "wages", "salaries", "payments", "taxes",
    }
)  # fmt: skip

#: Words of a share's base that do not say what it is a share of ("our total electricity use").
_GENERIC_BASE = frozenset(
    {
        "the", "its", "our", "their", "his", "her", "we", "a", "an", "all", "total", "overall", "group",
        "company", "companys", "annual", "global", "relevant", "use", "used", "usage", "consumption",
        "consumed", "needs", "need", "demand", "mix", "share", "requirements",
    }
)  # fmt: skip
#: Words for one base of a share ("power" is electricity).
_SAME_BASE = {
    "power": "electricity",
    "electric": "electricity",
    "emission": "emissions",
    # A board's seats are its directors.
    "directors": "seats",
    "members": "seats",
    "board": "seats",
    # An executive's bonus is a short- or long-term incentive.
    "bonus": "incentive",
    "bonuses": "incentive",
    "incentives": "incentive",
    # A factory, a facility or a plant is one of the company's sites.
    "factory": "site",
    "factories": "site",
    "facility": "site",
    "facilities": "site",
    # Generating capacity is counted in megawatts.
    "megawatts": "capacity",
    "gigawatts": "capacity",
    "capex": "capital",
    "expenditure": "capital",
    # Logs and wood are timber.
    "logs": "timber",
    "log": "timber",
    "wood": "timber",
    # A bank's loans are its lending; its staff, workers and workforce are its employees.
    "loans": "lending",
    "loan": "lending",
    "staff": "employees",
    "workforce": "employees",
    "employee": "employees",
    # Managers are the management; sales and turnover are revenue; heat is thermal energy.
    "management": "manager",
    "sales": "revenue",
    "turnover": "revenue",
    "heat": "thermal",
    # A fleet is its aircraft, ships or vehicles ("two-fifths of its fleet" for "40% of our aircraft").
    **dict.fromkeys("aircraft jets planes ships vessels boxships trucks lorries vans".split(), "fleet"),
}
#: Sales said to be counted in money, after what a share is of: "… sales by value".
_SALES_IN_MONEY = re.compile(
    r"\bsales\s(?:(?:by|in)\s)?(?:value|revenue|money)\b|\bmeasured\sin\s(?:euros|dollars|pounds|value)\b|"
    r"\bin\s(?:value|euro|dollar|sterling|revenue|money)\sterms\b|\bby\s(?:value|revenue)\b",
    _I,
)
#: The base word of things sold, which sales may also be.
_SOLD = "sold"
#: The base word of a fleet and of what it is made of.
FLEET = "fleet"


#: A clause saying what a figure is mostly made of ("…578 Mt, mostly from customers processing iron
#: ore"): its words break the figure down and do not make it a quantity of its own.
_BREAKDOWN = re.compile(
    r"(?:,\s?|\s)(?:(?:most|much|the\sbulk|the\smajority|(?:about\s|around\s)?half)\sof\swhich|"
    r"(?:mostly|mainly|largely|primarily|chiefly|predominantly|principally)\s(?:from|due\sto|"
    r"because\sof|in|through|by|driven\sby|related\sto|linked\sto|attributable\sto)|"
    r"(?:driven|caused)\s(?:mostly\s|mainly\s|largely\s)?by)\b[^;:.]*",
    _I,
)
#: A clause giving the reason for a figure ("…fell to 120 kt as more depots moved onto renewable
#: contracts", "…, helped by higher water recycling", "by moving to renewable power", "despite renewable
#: power purchases"): its words explain the figure, they do not make it
#: a quantity of its own. It ends where the sentence goes on to its figure ("despite our growth,
#: decreased 3%"). ("After" is left out: "emissions after offsets" is a quantity of its own.)
_EXPLANATION = re.compile(
    # "as organic or recycled in 2023" says what a share is of; "as renewable purchases rose" is a reason
    r"(?:,\s?|\s)(?:as(?!\s(?:well|much|many|a|an|of|part|per|at|in|for)\b)(?!\s(?:organic|recycled|renewable|"
    r"certified|sustainabl\w*|hazardous|recyclable|reusable|compostable|low-carbon|green|fairtrade)"
    r"(?:\s(?:or|and)\s[\w-]+)?(?:\s(?:in|by|at|during|for|from|across|on)\b|[,.;]|$))|"
    r"because|thanks\sto|helped\sby|"
    r"(?:by|through)(?=\s[a-z]+ing\b)|despite|in\sspite\sof|"
    r"reflecting|owing\sto|due\sto|driven\sby|on\sthe\sback\sof|largely\sas|mainly\sas)\b"
    rf"(?:(?!,\s(?:\w+\s)?(?:{_CHANGE_VERB}\b|\d))[^;:.])*",
    _I,
)
#: Who says it ("…, according to analysis by the campaign group Transport & Ocean", "a study by X
#: found"): the words of an attribution qualify no figure.
_ATTRIBUTION = re.compile(
    r"(?:,\s?|\s)according\sto\b[^;:]*$|"
    r"(?:,\s?|\s)(?:an?|the)\s(?:\w+\s)?(?:analysis|study|review|report|audit|survey|assessment)\s(?:of\s[^,]*?\s)?"
    r"by\b[^;:]*$|"
    # an investigation that found or confirmed what the sentence says, not one the company faces
    # (a regulator's, an authority's or the police's investigation is enforcement, whatever it found)
    r",\s?(?:an?|the)\s(?:\w+\s)?(?:investigation|inquiry)\sby\s"
    r"(?![^;:,]*\b(?:regulator|authority|agency|police|prosecutors?|ministry|inspectorate|court|commission|"
    r"government|department)\b)[^;:,]*?\s"
    r"(?:found|finds|confirmed|confirms|showed|shows|revealed)\.?$|"
    r"(?:,\s?)(?:[\w'’&-]+\s){1,6}(?:found|finds|said|says|show|shows|showed|reported|estimated|calculated|lists|listed|records|"
    r"recorded|notes|noted)\.?$",
    _I,
)
#: Who says it, at the head of the sentence ("Fuel data from the national freight registry show …",
#: "Plastic Trace's audit found …"): the record or study and its verb, before any number.
_LEADING_ATTRIBUTION = re.compile(
    r"^(?P<lead>(?:[^\s\d]+\s){0,3}?)(?:data|figures|records|returns|filings|statistics|tables|registers?|"
    r"registry|database|audit|analysis|review|survey|study|estimates?)\s"
    # where the record comes from, never what it is of ("data on its shipping emissions show")
    r"(?:(?:from|by|filed\swith|compiled\sby|published\sby|held\sby|kept\sby|released\sby)\s"
    r"(?:[^\s\d]+\s){0,7}?)?"
    r"(?:show|shows|showed|found|finds|suggest|suggests|indicate|indicates|reveal|reveals|revealed|"
    r"confirm|confirms|confirmed)(?:\sthat)?\s",
    _I,
)
#: Where a thing bought came from ("sourced 92% of its palm oil from certified suppliers"): its
#: sellers, not a supply chain the figure is of.
_BOUGHT_FROM_SUPPLIERS = re.compile(
    r"(\b(?:sourc\w*|bought|buys?|buying|purchas\w*|procur\w*)\b[^,;.]{0,40}?\bfrom)\s"
    r"(?:[\w-]+\s){0,3}?suppliers?\b",
    _I,
)
#: A name: capitalised words in a row after "the" ("the Transport Climate Benchmark"), possessive
#: ("Oakhurst Logistics'"), or three or more ("Climate Accounts Project"); a pair of capitalised words
#: alone may be a heading's words ("Employee Commuting") and is kept.
_CAPITALISED = r"(?!Scopes?\b)[A-Z][a-z]+"
_NAME = re.compile(
    rf"(?<=\b[Tt]he\s){_CAPITALISED}(?:\s(?:of\s|and\s|&\s)?{_CAPITALISED})+"
    rf"|\b{_CAPITALISED}(?:\s{_CAPITALISED})*(?:['’]s?)(?=\s)"
    rf"|\b{_CAPITALISED}(?:\s(?:of\s|and\s|&\s)?{_CAPITALISED}){{2,}}"
)
#: Words saying a text speaks of emissions (a scope, CO2, greenhouse gases) rather than of energy,
#: purchases or money.
_EMISSIONS = re.compile(r"\bemission\w*|\bco2|\bghg|\bgreenhouse|\bscopes?\s?[123]|\bcarbon\b", _I)


@functools.lru_cache(maxsize=1024)
def qualifiers(sentence: str) -> frozenset[str]:
    """The qualifiers (`QUALIFIERS`) a sentence names."""
    return frozenset(label for label, pattern in QUALIFIERS.items() if pattern.search(sentence))


def own_qualifiers(sentence: str) -> frozenset[str]:
    """The qualifiers a sentence names outside a clause breaking a figure down (`_BREAKDOWN`): a
    total "mostly from customers processing iron ore" is not the processing part."""
    return qualifiers(_BREAKDOWN.sub("", sentence))


def speaks_of_emissions(text: str) -> bool:
    """Whether a text names emissions (a scope, CO2, greenhouse gases) at all: a sentence on
    renewable power purchases that "rose" says nothing of the direction of an emissions claim."""
    return bool(_EMISSIONS.search(text))


def subject_words(words: set[str]) -> set[str]:
    """`words` without the ones that only say how much or when."""
    return {word for word in words if word not in SUBJECTLESS_WORDS}


def role(text: str, start: int, end: int) -> str | None:
    """ "change" when the figure at `start:end` is a change amount, "level" when it is the level
    reached or left, None when its wording does not say."""
    before = text[max(0, start - _LOOK_BEHIND) : start]
    if _NO_CHANGE_BEFORE.search(before):
        return None
    if _LEVEL_BEFORE.search(before):
        return "level"
    if _done_by_a_share(text, start, end):
        return None
    if _CHANGE_BEFORE.search(before) or _CHANGE_AFTER.search(text[end:]):
        return "change"
    return None


def same_role(first: str | None, second: str | None) -> bool:
    """A change amount and a level are never the same quantity; an unsaid role may be either."""
    return first is None or second is None or first == second


def qualifiers_agree(claim: str, sentence: str, company: str = "") -> bool:
    """Whether the two sentences name the same qualifiers, in the whole sentences and outside clauses
    breaking a figure down (a total is not its part), leaving out in both the clauses giving reasons
    and names ("Oakhurst Logistics", "the Transport Climate Benchmark" qualify no figure), and the
    sentence's figure includes nothing the claim does not name (`includes_more`)."""
    mine, theirs = _stated_qualifiers(claim, company), _stated_qualifiers(sentence, company)
    return mine.whole == theirs.whole and mine.own == theirs.own and same_boundaries(claim, sentence, company)


#: A kind named by its negation: "non-clinical waste", "non-hazardous".
_NON = re.compile(r"\bnon-?(?P<word>[a-z]{3,})\b", _I)


def non_of_the_other(claim: str, sentence: str) -> bool:
    """Whether one side names a kind by its negation that the other names plainly ("non-clinical
    waste" against "clinical waste"): the two are complements, never the same quantity."""
    for first, second in ((claim, sentence), (sentence, claim)):
        for match in _NON.finditer(first):
            word = match["word"]
            plain = re.search(rf"(?<!non)(?<!non-)\b{re.escape(word)}\b", second, _I)
            negated = re.search(rf"\bnon-?{re.escape(word)}\b", second, _I)
            if plain and not negated:
                return True
    return False


#: What a figure is said to include: "including its peaking units", "which includes footwear",
#: "across all sectors".
_INCLUDING = re.compile(
    r"\b(?:including|inclusive\sof|(?:which|that)\sinclude[sd]?|across\sall)\s(?:(?:its|the|their|all|our)\s)?"
    r"(?P<what>[a-z][\w-]*(?:\s(?!(?:in|of|at|for|and|or|the|was|were|is|are)\b)[a-z][\w-]*)?)",
    _I,
)


def includes_more(claim: str, sentence: str) -> bool:
    """Whether the sentence says its figure includes something the claim does not name ("Including
    its peaking units, it emitted 2,900 tonnes" against its combined-cycle fleet's 2,150 tonnes): a
    wider whole, so neither the same quantity nor another value for it."""
    claim_words = {word.lower().rstrip("s") for word in re.findall(r"[A-Za-z][\w-]*", claim)}
    for match in _INCLUDING.finditer(sentence):
        # the first word says which: "including tenant-procured energy" adds to a claim of energy
        if match["what"].split()[0].lower().rstrip("s") not in claim_words:
            return True
    return False


def adds_no_qualifier(claim: str, sentence: str, company: str = "") -> bool:
    """Whether every qualifier the sentence names is the claim's too (`qualifiers_agree` without
    asking the sentence to repeat the claim's): the same value then supports the claim unless the
    source states it of a quantity of its own ("emissions intensity fell 12%", "sent to
    incineration") — a source summing a claim up in fewer words is the usual case."""
    mine, theirs = _stated_qualifiers(claim, company), _stated_qualifiers(sentence, company)
    return theirs.whole <= mine.whole and theirs.own <= mine.own and same_boundaries(claim, sentence, company)


@dataclass(frozen=True)
class _Qualifiers:
    """The qualifiers a sentence names (`qualifiers_agree`): in the whole sentence, outside clauses
    breaking a figure down, and its Scope 2 methods."""

    whole: frozenset[str]
    own: frozenset[str]
    methods: frozenset[str]
    boundaries: tuple[frozenset[str], ...]  # the members of each family of `BOUNDARIES` named


@functools.lru_cache(maxsize=1024)
def _stated_qualifiers(sentence: str, company: str) -> _Qualifiers:
    """Read once per sentence (cached: a claim is held against every sentence of every source)."""
    plain = _plain(sentence, company)
    methods = frozenset(name for name, pattern in SCOPE2_METHODS.items() if pattern.search(plain))
    boundaries = tuple(
        frozenset(name for name, pattern in family.items() if pattern.search(plain))
        for family in BOUNDARIES.values()
    )
    words = _qualifying_words(plain)
    return _Qualifiers(qualifiers(words), own_qualifiers(words), methods, boundaries)


def _apart(mine: _Qualifiers, theirs: _Qualifiers) -> bool:
    """Whether both name a Scope 2 method and not the same one (`SCOPE2_METHODS`), or members of a
    family of boundaries and not the same ones (`BOUNDARIES`)."""
    return any(
        bool(first and second) and first != second
        for first, second in zip(
            (mine.methods, *mine.boundaries), (theirs.methods, *theirs.boundaries), strict=True
        )
    )


def shared_members(claim: str, sentence: str, company: str = "") -> set[str]:
    """The members of a boundary family both name, however written ("NOx" and "nitrogen oxides"
    are one pollutant): a subject the two share."""
    mine, theirs = _stated_qualifiers(claim, company), _stated_qualifiers(sentence, company)
    return {
        member
        for first, second in zip(mine.boundaries, theirs.boundaries, strict=True)
        for member in first & second
    }


def same_places(claim: str, sentence: str, company: str = "") -> bool:
    """Whether no region or country sets the two apart ("stores in the Republic of Ireland" for "UK
    stores"), names included: a place is a boundary however it is written."""
    for family in _PLACE_FAMILIES:
        mine, theirs = _places(claim, company, family), _places(sentence, company, family)
        if mine and theirs and mine != theirs:
            return False
    return True


_PLACE_FAMILIES = ("region", "country")


def places_within(claim: str, sentence: str, company: str = "") -> bool:
    """Whether the sentence names no region or country the claim does not: "in Australia, 10% of
    its waste" is a part of the whole the claim speaks of."""
    return all(
        _places(sentence, company, family) <= _places(claim, company, family) for family in _PLACE_FAMILIES
    )


def _places(text: str, company: str, family: str) -> frozenset[str]:
    if company.strip():
        text = re.sub(re.escape(company.strip()), "", text, flags=_I)
    return frozenset(name for name, pattern in BOUNDARIES[family].items() if pattern.search(text))


def same_boundaries(claim: str, sentence: str, company: str = "") -> bool:
    """Whether the two can speak of the same whole whatever qualifiers they name: no boundary or
    Scope 2 method sets them apart, and the sentence's figure includes nothing more or other."""
    mine, theirs = _stated_qualifiers(claim, company), _stated_qualifiers(sentence, company)
    return (
        not _apart(mine, theirs)
        and not includes_more(claim, sentence)
        and not non_of_the_other(claim, sentence)
    )


def _plain(sentence: str, company: str) -> str:
    """The sentence without the clauses giving reasons for its figures (`_EXPLANATION`), who says
    it at its end (`_ATTRIBUTION`), the company's name and other names (`_NAME`)."""
    plain = _ATTRIBUTION.sub("", without_explanations(sentence))
    if company.strip():
        plain = re.sub(re.escape(company.strip()), "", plain, flags=_I)
    return _NAME.sub("", plain)


def _qualifying_words(plain: str) -> str:
    """`_plain` also without who says it at its head (`_LEADING_ATTRIBUTION`) and whom a thing was
    bought from (`_BOUGHT_FROM_SUPPLIERS`): words that make no quantity of their own. Boundaries are
    read before these go ("data from its contractors show", "from its tier-2 suppliers" still say
    whose figure it is)."""
    voice = _LEADING_ATTRIBUTION.match(plain)
    if voice is not None and not qualifiers(voice["lead"]):  # "its avoided emissions data show" keeps it
        plain = plain[voice.end() :]
    if _EMISSIONS.search(plain):
        return plain  # emissions from what was bought from suppliers are the supply chain's
    return _BOUGHT_FROM_SUPPLIERS.sub(r"\1", plain)


def without_attribution(sentence: str) -> str:
    """The sentence without who says it (`_ATTRIBUTION`, `_LEADING_ATTRIBUTION`): "…, an investigation
    by the NGO confirmed" names where a fact comes from, not an investigation of the company."""
    return _LEADING_ATTRIBUTION.sub("", _ATTRIBUTION.sub("", sentence))


def without_explanations(sentence: str) -> str:
    """The sentence without the clauses giving reasons for its figures (`_EXPLANATION`): "helped by
    higher recycling" reports no increase of the figure it explains."""
    return _EXPLANATION.sub("", sentence)


def measure_alike(claim: str, sentence: str, shared_subjects: set[str], company: str = "") -> bool:
    """Whether a claim sentence and a source sentence can speak of the same quantity at all: a
    shared subject word and the same qualifiers (`qualifiers_agree`)."""
    return bool(shared_subjects) and qualifiers_agree(claim, sentence, company)


def share_base(text: str, end: int) -> frozenset[str]:
    """The words saying what the percentage ending at `end` is a share of ("64% of our total
    electricity use in 2023" -> {"electricity"}); empty when no "of" follows it or it names nothing
    but generic words."""
    match = _SHARE_OF.match(text, end) or _IS_A_SHARE_OF.match(text, end)
    if not match:
        # "5 of our 11 board seats (45%)": a percentage in brackets restates the figure before it
        restated = _RESTATED.search(text, 0, end + 1)
        return _earlier_base(text, restated.start()) if restated else frozenset()
    if _PRONOUN.match(match["phrase"]):
        return _earlier_base(text, end)
    phrase = _after_owner(match["phrase"], text[match.end() :])
    # what a share is of comes first; a verb after it ends it ("of the electricity used at"), one
    # first is a participle naming it ("of installed capacity")
    head = re.match(r"\s*(?:(?:the|our|its|their)\s)?[\w'’-]+", phrase)
    stop = _PHRASE_END.search(phrase, head.end() if head else 0)
    words = re.findall(r"[a-z]+", (phrase[: stop.start()] if stop else phrase).lower().replace("’", "'"))
    measured = _MEASURED_BY.match(text, end)
    named = set(words) - {"the", "our", "its", "their"}
    if measured and named and named <= _WHOLE_ESTATE:
        # "of its portfolio by floor area" is of its floor area; "of its London offices by floor area"
        # stays of its London offices
        words += measured["measure"].lower().split()
    # "its fleet emissions" are no fleet: the fleet's word is then its own
    fleet_of = re.search(
        r"\bfleet\s(?!(?:of|in|at|and|by|was|were|is|are|had|has|for|to|on)\b)[a-z]", phrase, _I
    )
    based = {
        ("fleet's" if fleet_of and word == FLEET else base_word(word))
        for word in words
        if len(word) > 1 and word not in _GENERIC_BASE
    }
    # "sales" may be of money or of things: it meets both the revenue and the things sold, unless it
    # says it is of money ("sales revenue", "sales by value")
    if "sales" in words and not _SALES_IN_MONEY.search(text[end:].split(";")[0].split(".")[0]):
        based.add(_SOLD)
    return frozenset(based)


def base_word(word: str) -> str:
    """A word of a share's base as bases are compared: "power" is electricity, "cars" a car."""
    return _SAME_BASE.get(word, word if word in _SAME_BASE.values() else singular(word))


#: A percentage in brackets, right after what it restates: "(45%)".
_RESTATED = re.compile(r"\(\s?(?:about\s|around\s|some\s)?[\d.]+\s?(?:%|per\scent|percent)\)$", _I)
#: A share of something named before: "1.9 TWh of electricity, 41% of it from renewables".
_PRONOUN = re.compile(r"(?:it|them|this|that)\b", _I)
_EARLIER_OF = re.compile(r"(?<=[\w%])\sof\s(?!(?:it|them|this|that)\b)", _I)


def _earlier_base(text: str, end: int) -> frozenset[str]:
    """What "of it" stands for: the base of the last "of ..." before the share that names one."""
    for match in reversed(list(_EARLIER_OF.finditer(text, 0, end))):
        base = share_base(text, match.start())
        if base:
            return base
    return frozenset()


#: An owner before what a share is of: "of Acme Pension Fund's assets", "of the bank's board".
_OWNER = re.compile(
    r"^(?:(?:the|its|their|our)\s)?(?:(?!(?:in|of|at|for|from|on|by|to|with|was|were|is|are|around|across|"
    r"about|into|through|within|between|[a-z]+ed)\b)[\w&.-]+\s)"
    r"{0,5}?[\w&.-]*\w['’]s?\s",
    _I,
)

_OWNER_OF_OWNER_WORDS = 3
#: Owners that are other parties than the company: their things are not the company's.
_ANOTHER_PARTY = re.compile(
    r"\b(?:customers?|clients?|suppliers?|tenants?|contractors?|partners?|parent|subsidiar\w*|franchisees?|"
    r"investors?|shareholders?|rivals?|competitors?|peers?|joint\sventures?|affiliates?|members?)\b",
    _I,
)

#: A thing named before a name's possessive: "the electricity" in "the electricity Acme's stores used".
_THING_BEFORE_A_NAME = re.compile(
    r"(?:(?:the|its|their|our)\s)?(?P<thing>(?:(?!(?:the|its|their|our)\s)[a-z][\w-]*\s)+)(?=[A-Z])"
)


def _after_owner(phrase: str, rest: str) -> str:
    """What a share is of, after an owner of up to six words named first ("Acme Pension Fund's
    assets" -> "assets", "the Acme Bank chief executive's bonus" -> "bonus"); `phrase` as read when
    none is (`rest`: the text after it)."""
    whole = " ".join((phrase + " " + rest).split()[:10]) + " "
    owner = _OWNER.match(whole)
    if owner is None:
        return phrase
    # "of the electricity Acme's stores used": a name after a thing begins a clause about the thing
    relative = _THING_BEFORE_A_NAME.match(whole, 0, owner.end())
    if relative is not None and set(relative["thing"].lower().split()) - _GENERIC_BASE:
        return relative["thing"]
    # an owner's own owner: "Acme Logistics' chief executive's bonus" is a bonus; "Acme's customers'
    # electricity" stays its customers'
    after = _OWNER.match(whole[owner.end() :])
    if (
        after is not None
        and len(after.group().split()) <= _OWNER_OF_OWNER_WORDS
        and not _ANOTHER_PARTY.search(after.group())
    ):
        return " ".join(whole[owner.end() + after.end() :].split()[:4])
    return " ".join(whole[owner.end() :].split()[:4])


def percent_measure(text: str, start: int, end: int) -> tuple[str | None, frozenset[str]]:
    """What a percentage at `start:end` measures: its kind, "change" for a relative change ("rose
    9%") or "share" for a share or level ("64% of …", "rose to 64%") or None when its wording does
    not say, and its base (`share_base`)."""
    said = role(text, start, end)
    share = said == "level" or _SHARE_OF.match(text, end) is not None
    kind = "change" if said == "change" else "share" if share else None
    return kind, share_base(text, end)


def same_percentage(
    first: tuple[str | None, frozenset[str]], second: tuple[str | None, frozenset[str]]
) -> bool:
    """Whether two percentages (`percent_measure`) can be the same quantity: not a relative change
    against a share, and not shares of bases without a word in common."""
    kinds = {first[0], second[0]} - {None}
    bases_meet = not first[1] or not second[1] or bool(first[1] & second[1])
    return len(kinds) < 2 and bases_meet
