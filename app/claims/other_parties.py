"""Text in a company's report that is another party's, not the company's claim.

A sustainability report carries words it does not itself assert: the independent assurance
provider's statement (its opinion or conclusion on the company's figures, the engagement it
performed) and other parties' pledges and policies quoted as context (countries that have pledged
to be carbon neutral, a national emissions scheme and the cut it is meant to bring). An auditor
reads the first as evidence about the company's figures and the second as background; neither is
a claim by the company to verify.

The assurance provider's statement is recognised by the phrases of an assurance report, which a
company does not use of itself ("in our opinion", "nothing has come to our attention", "we have
performed a limited assurance engagement"). The company writing about its assurance ("Our assurance
provider reviewed our Scope 1 data") uses none of them and stays a claim. Another party's pledge or
policy is context only when the sentence says nothing of the company (`COMPANY` in
`app.claims.signals`): "78% of our Scope 3 comes from a country that has pledged ..." still states
the company's own share.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

#: Phrases of an independent assurance report: the provider's opinion, conclusion and engagement.
ASSURER_STATEMENT = re.compile(
    r"\bin our (?:opinion|conclusion)\b|"
    r"\bnothing (?:has )?(?:come|came) to our attention\b|"
    r"\bwe (?:are|were) not aware of any material misstatements?\b|"
    r"\bwe (?:have )?(?:performed|conducted|undertaken|carried out) (?:a |an |our )?(?:independent )?"
    r"(?:limited|reasonable)(?: (?:and|or) reasonable)? assurance (?:engagement|procedures|work)\b|"
    r"\b(?:to )?obtain (?:a )?(?:limited|reasonable) assurance (?:that|about|on|over)\b|"
    r"\bour (?:professional judgement|assurance procedures|(?:limited|reasonable) assurance "
    r"(?:engagement|conclusion|opinion))\b|"
    r"\bwe do not express (?:an? |any )?(?:opinion|conclusion|assurance)\b|"
    r"\bthe evidence we (?:have )?obtained\b",
    _I,
)

#: Another party's pledge or policy as the subject: countries or governments that have pledged or
#: legislated, or a law, scheme or agreement named as the actor ("The Safeguard Mechanism reform ...
#: plays a role in reducing the country's emissions").
OTHER_PARTY = re.compile(
    r"\b(?:countries|nations|economies|jurisdictions|governments?|states|China|India|Japan|Korea|"
    r"Australia|Canada|the (?:US|UK|EU|United States|United Kingdom|European Union))\b[^.;]{0,40}?"
    r"\b(?:that|which|who)\s(?:ha(?:s|ve)|had)\s(?:already\s)?(?:pledged|committed|legislated|"
    r"announced|enacted|adopted|set)\b|"
    r"^(?:The\s)?(?:[A-Z][\w-]*\s){1,4}(?:Mechanism|Act|Directive|Regulation|Agreement|Accord|"
    r"(?:Trading )?(?:Scheme|System)|Protocol)(?:\s(?:reform|amendments?|revision))?\b"
    r"(?:\s\([^)]{1,20}\))?\s(?:\w+\s){0,6}?(?:plays?|aims?|requires?|sets?|seeks?|commits?|"
    r"targets?|mandates?|will|is|was|came into force)\b",
)
