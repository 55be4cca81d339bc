"""The contract between the investigators and the judge: typed records of what a finding says.

A finding is stored (and checkpointed) with a JSON `details` object; these records are that object
with names and types, so a writer cannot drop a key a reader needs and a reader does not guess at
keys. Records write exactly today's stored `details` (`to_details`) and read stored ones back
(`from_details`), older findings included, so storage and checkpoints do not change. Only
`app.verification` reads `details` keys by name, and only through these records.

- `sources`: `SourceFinding` (one source read against one claim), `SourceSummary` with its
  `KeyFinding`s (one searching investigator's sources, counted), `RegistryCitation`.
- `checks`: `CheckFinding`, one data/metrics check of the claim against the report.
- `disclosure`: `DisclosureFinding`, the legal investigator's IFRS coverage.
- `places`: `PlaceFinding`, where the claim is and what imagery shows there.
- `evidence`: `FindingEvidence`, what any finding says of its evidence, as the judge weighs it.
"""

from app.verification.contract.checks import CROSS_PAGE_CHECK, CheckFinding, StatedValue
from app.verification.contract.disclosure import DisclosureFinding, ParagraphStatus
from app.verification.contract.evidence import FindingEvidence
from app.verification.contract.places import PlaceFinding
from app.verification.contract.sources import (
    Citation,
    KeyFinding,
    RegistryCitation,
    SourceFinding,
    SourceSummary,
    is_search_summary,
    is_source_finding,
    relevant_sources,
    source_address,
)

__all__ = [
    "CROSS_PAGE_CHECK",
    "CheckFinding",
    "Citation",
    "DisclosureFinding",
    "FindingEvidence",
    "KeyFinding",
    "ParagraphStatus",
    "PlaceFinding",
    "RegistryCitation",
    "SourceFinding",
    "SourceSummary",
    "StatedValue",
    "is_search_summary",
    "is_source_finding",
    "relevant_sources",
    "source_address",
]
