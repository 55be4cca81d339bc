"""What any finding says of the evidence it rests on, as the judge weighs and cites it.

Every investigator's finding is read here the same way, whatever wrote it: a source finding fills
nearly every field, a check or a place finding only its pages (and a check its `check`), an error
its `error`. Fields a finding does not carry read as "not said" (None, or the default that older
findings had before the key existed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.verification.contract.sources import cited_source, is_source_finding
from app.verification.contract.values import text
from app.verification.sources.rules import is_company_word


@dataclass(frozen=True)
class FindingEvidence:
    """The evidence fields of one finding's `details` (see the module docstring)."""

    #: The source: where it is, who publishes it, its tier and why, when it was published.
    source_url: str | None = None
    source_domain: str | None = None
    source_title: str | None = None
    published_date: str | None = None
    source_tier: int | None = None
    tier_basis: str | None = None
    #: The independent voice behind the publisher (`voices.voice_key`).
    voice: str | None = None
    #: The quote and its check: True found in the source, False not found, None not checkable.
    snippet: str | None = None
    quote_verified: bool | None = None
    quote_bears_on_claim: bool = True
    #: The reading: the source contradicts the claim, or "supports" as its stance.
    contradicts_claim: bool = False
    stance: str | None = None
    #: Whether the source relays the company's own statement ("Acme said …").
    relays_company: bool = False
    #: Whether this is one source read against one claim (`sources.is_source_finding`).
    about_one_source: bool = False
    #: A searching investigator's summary: the sources it names as deciding (None: not a summary).
    key_findings: list[FindingEvidence] | None = None
    #: The data/metrics check that made the finding, and whether it found the claim consistent.
    check: str | None = None
    #: The report pages the finding cites (its `sources`' `report_page`), sorted, once each.
    report_pages: list[int] = field(default_factory=list)
    #: The public registry record(s) read (`RegistryCitation.to_details`), only on a registry's.
    registry: dict[str, Any] | None = None
    #: Where the finding's queries searched: "library" and the web providers.
    search_providers: list[str] = field(default_factory=list)
    #: An error finding's cause.
    error: str | None = None
    #: False when the investigator had no source to look in for this claim.
    source_available: bool = True
    #: True when asking the investigator again cannot change the finding.
    settled: bool = False

    @property
    def self_reported(self) -> bool:
        """Whether the source is the company's own word, wherever it is printed
        (`sources.rules.is_company_word`)."""
        return is_company_word(self.tier_basis, self.relays_company, self.source_url)

    @classmethod
    def from_details(cls, details: dict[str, Any]) -> FindingEvidence:
        return cls(
            source_url=_address(details.get("source_url")),
            **cited_source(details),
            about_one_source=is_source_finding(details),
            key_findings=_key_findings(details),
            check=text(details.get("check")),
            report_pages=_report_pages(details.get("sources")),
            registry=details["registry"] if isinstance(details.get("registry"), dict) else None,
            search_providers=_providers(details.get("queries")),
            error=str(details.get("error") or "") or None,
            source_available=details.get("source_available") is not False,
            settled=details.get("settled") is True,
        )


def _address(value: object) -> str | None:
    return str(value) if value else None


def _key_findings(details: dict[str, Any]) -> list[FindingEvidence] | None:
    if "key_findings" not in details:
        return None
    listed = details["key_findings"] or []
    return [FindingEvidence.from_details(item) for item in listed if isinstance(item, dict)]


def _report_pages(sources: object) -> list[int]:
    pages = [source.get("report_page") for source in sources or [] if isinstance(source, dict)]  # type: ignore[attr-defined]
    return sorted({page for page in pages if isinstance(page, int)})


def _providers(queries: object) -> list[str]:
    return [
        str(provider)
        for query in queries or []  # type: ignore[attr-defined]
        if isinstance(query, dict)
        for provider in query.get("providers") or []
    ]
