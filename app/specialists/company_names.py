"""The reporting company's name as the outside world writes it: without its legal form."""

from __future__ import annotations

import re

LEGAL_FORMS = re.compile(
    r"[\s,]+(?:plc|ltd\.?|limited|inc\.?|corp\.?|corporation|company|ag|se|s\.a\.|sa|n\.v\.|nv|co\.?|group|"
    r"llc)$",
    re.IGNORECASE,
)


def search_name(company_name: str | None) -> str:
    """The company as people search for it ("Rio Tinto plc" -> "Rio Tinto")."""
    name = (company_name or "").strip()
    while True:
        shorter = LEGAL_FORMS.sub("", name).strip()
        if shorter == name:
            return name
        name = shorter
