"""What a checkable sustainability sentence is about, for the check-worthiness scorer.

`SUBJECT`: the environmental, social and governance subjects Sibyl verifies; a figure about anything
else (network speeds, a contract's value) is a business fact, not a sustainability claim.
`GOVERNANCE_FACT`: a structural governance fact with no figure in it (a named body approving,
overseeing, appointing or reporting; sustainability criteria in executive pay), which a verifier
can check against the company's governance documents.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

SUBJECT = re.compile(
    r"\b(?:energy|electricity|fuels?|water|power|climate|safety|injur\w*|fatalit\w*|health|employees?|"
    r"workforce|staff|people|women|gender|divers\w*|inclusion|training|human rights|communit\w*|"
    r"suppliers?|supply chain|donat\w*|volunteer\w*|social|wellbeing|well-being|labou?r|wages?|"
    r"land|hectares?|acres?|sites?|plants?|materials?|intensity|clinker|cements?|concrete|steel|"
    r"alumini?um|products?|gas|diesel|coal|oil|petrol|kilns?|fleet|vehicles?|buildings?|facilit(?:y|ies)|"
    r"propert(?:y|ies))\b",
    _I,
)
#: A structural governance fact: a named body doing what bodies do (approve, oversee, appoint, report).
GOVERNANCE_FACT = re.compile(
    r"(?<!Standards )\b(?:Board|Committee|Trustees|Directors)\b[^.;]{0,80}?"
    r"\b(?:adopted|approv(?:es|ed)|appoints?|appointed|"
    r"oversees|oversaw|monitors|advises|reviews|reviewed|is responsible|are responsible|consists? of|"
    r"comprises|decides?|decided|delegates?|delegated)\b|"
    r"\b(?:included in|part of|linked to|tied to) (?:the |our )?(?:\w+ ){0,3}(?:compensation|remuneration|"
    r"variable pay|bonus)\b|\btwo-tier board\b",
)
