"""What a checkable sustainability sentence is about, for the check-worthiness scorer.

`SUBJECT`: the environmental, social and governance subjects Sibyl verifies; a figure about anything
else (network speeds, a contract's value) is a business fact, not a sustainability claim.
`GOVERNANCE_FACT`: a structural governance fact with no figure in it (a named body approving,
overseeing, appointing or reporting; an officer or council answering for sustainability or climate;
sustainability criteria in executive pay), which a verifier can check against the company's
governance documents.
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
    r"variable pay|bonus)\b|\btwo-tier board\b|"
    # an officer or council answering for sustainability: "The Chief Sustainability Officer oversees ..."
    r"\b(?:Chief\s[A-Z]\w+(?:\s[A-Z]\w+)?\sOfficer|C[SE]Os?|Head\sof\s[\w\s]{1,30}?|Council|Management\sBoard|"
    r"Board\sof\sManagement|Supervisory\sBoard|Executive\sCommittee)\b[^.;]{0,60}?"
    r"\b(?:oversees|oversaw|monitors|(?:regularly\s)?informs|reports?\s(?:to|them\sto)|assesses|"
    r"(?:is|are)\s(?:ultimately\s)?responsible\sfor)\b(?=[^.;]{0,80}?\b(?:sustainab\w+|climate|"
    r"environment\w*|ESG|emissions|decarboni[sz]\w*)\b)",
)
