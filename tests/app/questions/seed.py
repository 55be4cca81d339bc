"""A report with known pages, claims, findings, verdicts and compliance map, written straight to the
database, so question tests can assert exactly what an answer cites."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from app.db.models import AnalysisRun, Claim, Finding, Report, ReportPage, ReportStatus, Verdict
from app.db.session import SessionFactory
from app.organisations import LOCAL_ORGANISATION_ID
from app.questions.windows import page_sentences, sentence_windows

COMPANY = "Acme Metals plc"
NET_ZERO = "We have committed to reach net zero emissions across Scope 1 and 2 by 2040."
SCOPE_1 = "Scope 1 emissions fell 12% to 4.1 Mt CO2e in 2024."
SCOPE_3 = "Scope 3 emissions from purchased goods and shipping were 31 Mt CO2e in 2024."
WATER = "Total water withdrawal was 412 megalitres in 2024."
BOARD = "The Sustainability Committee of the Board meets four times a year to oversee climate risk."
TAILINGS = "The Pilbara tailings dam was inspected by an independent engineer in March 2024."
REUTERS = (
    "Reuters reported in June 2024 that Acme Metals quietly pushed its net zero date back to 2050 "
    "and expanded coal-fired smelting capacity."
)
FILLER = (
    "Our people remain at the heart of everything we do, and we continue to invest in training, "
    "safety culture and community partnerships across every region in which we operate. "
)

PAGES = [
    f"{COMPANY} Sustainability Report 2024\nThis report covers our mining and smelting operations.",
    f"Climate strategy\n{NET_ZERO}\nOur transition plan invests AUD 2 billion in renewable power.",
    f"Emissions\n{SCOPE_1}\n{SCOPE_3} We engage suppliers to reduce them.",
    f"Water and nature\n{WATER}\nBiodiversity offsets restored 340 hectares of native vegetation.",
    f"Governance\n{BOARD}",
    "Operations review\n" + FILLER * 12 + TAILINGS,  # ~2,300 characters: chunked, tailings at the end
]


@dataclass
class SeededReport:
    report_id: uuid.UUID
    run_id: uuid.UUID | None
    claims: dict[str, uuid.UUID] = field(default_factory=dict)  # "net_zero", "scope_1", ...


#: name -> (text, page, type, IFRS paragraphs)
CLAIMS: dict[str, tuple[str, int, str, list[str]]] = {
    "net_zero": (NET_ZERO, 2, "strategic", ["S2.33"]),
    "scope_1": (SCOPE_1, 3, "quantitative", ["S2.29(a)(i)"]),
    "scope_3": (SCOPE_3, 3, "quantitative", ["S2.29(a)(iii)"]),
    "water": (WATER, 4, "environmental", ["S1.46"]),
    "board": (BOARD, 5, "legal_governance", ["S2.6(a)"]),
}
#: name -> (label, confidence, confidence level)
VERDICTS: dict[str, tuple[str, float, str]] = {
    "net_zero": ("contradicted", 0.82, "high"),
    "scope_1": ("verified", 0.9, "high"),
    "scope_3": ("insufficient_evidence", 0.45, "low"),
    "water": ("unverified", 0.7, "medium"),
    "board": ("verified", 0.85, "high"),
}
COMPLIANCE: dict[str, tuple[str, str]] = {
    "S2.33": ("contradicted", "net_zero"),
    "S2.29(a)(i)": ("supported", "scope_1"),
    "S2.29(a)(iii)": ("unsupported", "scope_3"),
    "S1.46": ("unsupported", "water"),
    "S2.6(a)": ("supported", "board"),
}


async def seed_report(
    session_factory: SessionFactory,
    *,
    organisation_id: uuid.UUID = LOCAL_ORGANISATION_ID,
    status: ReportStatus = ReportStatus.COMPLETED,
    pages: list[str] | None = None,
    run_status: str | None = "COMPLETED",
) -> SeededReport:
    """The report (and, unless `run_status` is None, a run of it with claims, findings, verdicts)."""
    pages = PAGES if pages is None else pages
    seeded = SeededReport(report_id=uuid.uuid4(), run_id=None)
    async with session_factory() as session, session.begin():
        session.add(_report(seeded.report_id, organisation_id, status, len(pages) if pages else None))
        await session.flush()
        session.add_all(
            ReportPage(report_id=seeded.report_id, number=n, text=text) for n, text in enumerate(pages, 1)
        )
        if run_status is not None:
            seeded.run_id = uuid.uuid4()
            session.add(
                _run(seeded.run_id, seeded.report_id, run_status, completed=run_status == "COMPLETED")
            )
            await session.flush()
            for name, (text, page, claim_type, ifrs) in CLAIMS.items():
                seeded.claims[name] = uuid.uuid4()
                session.add(
                    _claim(seeded.claims[name], seeded.report_id, seeded.run_id, text, page, claim_type, ifrs)
                )
            await session.flush()
            session.add_all(_verdicts(seeded))
            session.add_all(_findings(seeded))
            run = await session.get(AnalysisRun, seeded.run_id)
            assert run is not None
            run.compliance = _compliance(seeded) if run_status == "COMPLETED" else {}
    return seeded


async def add_run(
    session_factory: SessionFactory, seeded: SeededReport, verdicts: dict[str, str], status: str = "COMPLETED"
) -> uuid.UUID:
    """A newer run of the same report whose verdicts are `verdicts` (claim name -> label)."""
    run_id = uuid.uuid4()
    async with session_factory() as session, session.begin():
        session.add(_run(run_id, seeded.report_id, status, completed=status == "COMPLETED", later=True))
        await session.flush()
        for name, label in verdicts.items():
            session.add(_verdict(run_id, seeded.claims[name], label, 0.88, "high", iteration=0, final=True))
    return run_id


def _report(
    report_id: uuid.UUID, organisation_id: uuid.UUID, status: ReportStatus, pages: int | None
) -> Report:
    return Report(
        id=report_id,
        organisation_id=organisation_id,
        filename="acme-2024.pdf",
        company_name=COMPANY,
        sha256=uuid.uuid4().hex * 2,
        size_bytes=1000,
        status=status,
        page_count=pages,
    )


def _run(
    run_id: uuid.UUID, report_id: uuid.UUID, status: str, *, completed: bool, later: bool = False
) -> AnalysisRun:
    now = datetime.now(UTC) + (timedelta(seconds=5) if later else timedelta())
    return AnalysisRun(
        id=run_id,
        report_id=report_id,
        status=status,
        pipeline_stage="completed" if completed else "investigating",
        usage={},
        agent_status={},
        compliance={},
        created_at=now,
        completed_at=now if completed else None,
    )


def _claim(
    claim_id: uuid.UUID,
    report_id: uuid.UUID,
    run_id: uuid.UUID,
    text: str,
    page: int,
    claim_type: str,
    ifrs: list[str],
) -> Claim:
    return Claim(
        id=claim_id,
        report_id=report_id,
        analysis_run_id=run_id,
        text=text,
        claim_type=claim_type,
        priority="high",
        source_page=page,
        source_context=text,
        ifrs_paragraphs=[{"paragraph_id": p, "pillar": "metrics_targets", "relevance": "test"} for p in ifrs],
        method="rules",
    )


def _verdict(
    run_id: uuid.UUID,
    claim_id: uuid.UUID,
    label: str,
    confidence: float,
    level: str,
    *,
    iteration: int,
    final: bool,
) -> Verdict:
    headline = f"Claim is {label.upper()}."
    return Verdict(
        analysis_run_id=run_id,
        claim_id=claim_id,
        verdict=label,
        reasoning=f"{headline} Weighed the specialists' findings on this claim.",
        ifrs_mapping=[],
        confidence=confidence,
        iteration=iteration,
        is_final=final,
        method="rules",
        details={"confidence_level": level},
    )


def _verdicts(seeded: SeededReport) -> list[Verdict]:
    assert seeded.run_id is not None
    verdicts = [
        _verdict(seeded.run_id, seeded.claims[name], label, confidence, level, iteration=1, final=True)
        for name, (label, confidence, level) in VERDICTS.items()
    ]
    # An earlier pass on the net-zero claim: the answer must use the final one.
    verdicts.append(
        _verdict(
            seeded.run_id,
            seeded.claims["net_zero"],
            "insufficient_evidence",
            0.5,
            "low",
            iteration=0,
            final=False,
        )
    )
    return verdicts


def _findings(seeded: SeededReport) -> list[Finding]:
    assert seeded.run_id is not None

    def finding(
        name: str, agent: str, kind: str, summary: str, supports: bool | None, **details: Any
    ) -> Finding:
        return Finding(
            analysis_run_id=seeded.run_id,
            claim_id=seeded.claims[name],
            agent=agent,
            evidence_type=kind,
            summary=summary,
            details=details,
            supports_claim=supports,
            confidence=0.8,
            iteration=0,
            method="rules",
        )

    return [
        finding(
            "net_zero", "news_media", "news_article", REUTERS, False, source_url="https://reuters.com/acme"
        ),
        finding(
            "net_zero", "academic", "sbti_registry", "SBTi lists no validated target for Acme Metals.", None
        ),
        finding(
            "scope_1", "data_metrics", "consistency_check", "Scope 1 figures add up across tables.", True
        ),
        finding("water", "legal", "error", "The search provider failed.", None),
    ]


def _compliance(seeded: SeededReport) -> dict[str, Any]:
    return {
        paragraph: {"status": status, "claims": 1, "claim_ids": [str(seeded.claims[name])]}
        for paragraph, (status, name) in COMPLIANCE.items()
    }


def page_windows() -> list[str]:
    """The texts of the page passages the index makes of `PAGES` (sentence windows)."""
    return [
        window.text
        for number, text in enumerate(PAGES, 1)
        for window in sentence_windows(page_sentences(number, text))
    ]
