"""A claim read against the SBTi Companies Taking Action list (what it proves: `proof`).

Two things are decided and joined into one reading: the claim's statement of status (validated,
committed, not adopted) against the record's status, and the target it states (scope, percentage,
base year, target year) against SBTi's wording of the validated targets. A contradiction of either
makes the reading a contradiction; a record that changed after the report makes it
"changed_after_report". The target's wording contradicts only a claim that presents its target as
the SBTi-validated one; a company's other targets are its own business.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.language.figures import close
from app.registries.matched import MatchedRecord, SnapshotRef
from app.registries.sbti import COMMITMENT_REMOVED, COMMITTED, TARGETS_SET
from app.verification.registries.citing import day_of, snapshot_label
from app.verification.registries.claim_statements import (
    SbtiStatement,
    attributes_to_sbti,
    end_targets,
    mentions_net_zero,
    sbti_statement,
)
from app.verification.registries.claim_targets import TargetParts, claimed_targets, read_targets
from app.verification.registries.proof import Timing, listed_after, timing
from app.verification.registries.records import RegistryReading, Stance
from app.verification.registries.sbti_record import frame_status, furthest, overall_status, record_text

KIND = "sbti"
#: Which stance wins when the status and the target disagree.
_PRIORITY: dict[Stance, int] = {"contradicts": 3, "changed_after_report": 2, "supports": 1}


@dataclass(frozen=True)
class _Finding:
    stance: Stance
    sentence: str


def read_sbti(
    claim_text: str,
    *,
    company_name: str | None,
    records: Sequence[MatchedRecord],
    snapshot: SnapshotRef,
    uncertain: bool,
    report_year: int | None,
) -> RegistryReading | None:
    """What the SBTi list says of the claim, None when it bears on nothing the claim says."""
    statement = sbti_statement(claim_text, company_name)
    if not records:
        return _absent(statement, company_name, snapshot, uncertain, report_year)
    record = furthest(records)
    when = timing(day_of(record.data, "date_updated"), record.snapshot.snapshot_date, report_year)
    status = _status_finding(claim_text, statement, record, when, uncertain)
    targets, settled = _target_findings(claim_text, record, when)
    settled = settled and not _other_end_target(claim_text, record)
    if status is not None and (status.stance != "supports" or settled):
        targets.insert(0, status)
    decided = targets
    if not decided:
        return None
    stance = max((finding.stance for finding in decided), key=lambda stance: _PRIORITY[stance])
    sentences = " ".join(finding.sentence for finding in decided)
    summary = (
        f"{snapshot_label(record.snapshot)} lists {record.entity_name} ({record.record_key}): {sentences}"
    )
    return RegistryReading(KIND, stance, summary, record_text(record), [record])


def _other_end_target(claim_text: str, record: MatchedRecord) -> bool:
    """Whether the claim also sets an end target (net zero by a year) that is not the record's
    validated net-zero target: the validation then bears out only part of the claim."""
    frame = record.data.get("net_zero")
    validated = (
        frame.get("year") if isinstance(frame, Mapping) and frame.get("status") == TARGETS_SET else None
    )
    return any(
        target.year is not None and target.year != validated
        for target in end_targets(claim_text, company_wide=False)
    )


def _absent(
    statement: SbtiStatement | None,
    company_name: str | None,
    snapshot: SnapshotRef,
    uncertain: bool,
    report_year: int | None,
) -> RegistryReading | None:
    """A company the list lacks has neither validated targets nor a commitment, if the match was
    sure and the list was taken after the report's year."""
    if uncertain or not company_name or not listed_after(snapshot.snapshot_date, report_year):
        return None  # unnamed, the company cannot be looked for, so its absence proves nothing
    company = company_name
    text = f"{snapshot_label(snapshot)}: no entry for {company}"
    if statement is SbtiStatement.VALIDATED:
        summary = f"{text}, so no target of {company} is validated by the SBTi, as the claim says it is."
        return RegistryReading(KIND, "contradicts", summary, text, [], snapshot=snapshot)
    if statement is SbtiStatement.NOT_ADOPTED:
        summary = f"{text}: it has no SBTi-validated targets, as the claim says."
        return RegistryReading(KIND, "supports", summary, text, [], snapshot=snapshot)
    return None


def _status_finding(
    claim_text: str, statement: SbtiStatement | None, record: MatchedRecord, when: Timing, uncertain: bool
) -> _Finding | None:
    """The claimed status against the record's. With uncertain candidates besides the match, a
    finding that needs the company to have no further record (not validated) is not made."""
    status = overall_status(record.data)
    if statement is None or status is None:
        return None
    recorded = f'"{status}"'
    if statement is SbtiStatement.VALIDATED:
        if status == TARGETS_SET:
            return _validated(claim_text, record)
        wrong = f"SBTi records {recorded}, not validated targets, where the claim says they are validated."
        return None if uncertain else _against(when, wrong, recorded, record)
    if statement is SbtiStatement.COMMITTED:
        if mentions_net_zero(claim_text):  # a net-zero commitment is the net-zero frame's alone
            status = frame_status(record.data, "net_zero")
            recorded = f'"{status}" for the net-zero target'
        if status in (TARGETS_SET, COMMITTED):
            return _Finding("supports", f"SBTi records {recorded}, which bears out the claimed commitment.")
        return _against(when, None, recorded, record) if status == COMMITMENT_REMOVED else None
    if status == TARGETS_SET:
        wrong = f"SBTi records {recorded} (validated targets), where the claim says none were set."
        return _against(when, wrong, recorded, record)
    if when is Timing.HELD and not uncertain:
        return _Finding("supports", f"SBTi records {recorded}, no validated targets, as the claim says.")
    return None


def _validated(claim_text: str, record: MatchedRecord) -> _Finding | None:
    """A claim of validation and a record with targets set: a claim about the net-zero target
    alone needs the net-zero frame set."""
    net_zero_only = mentions_net_zero(claim_text) and not any(
        target.percent is not None for target in read_targets(claim_text)
    )
    if net_zero_only and frame_status(record.data, "net_zero") != TARGETS_SET:
        return None
    return _Finding("supports", 'SBTi records "Targets set": validated targets, as the claim says.')


def _against(
    when: Timing, contradiction: str | None, recorded: str, record: MatchedRecord
) -> _Finding | None:
    """A record that differs from the claim: `contradiction` if it held at the report, "changed
    after the report" (saying what SBTi now records) if updated later, else nothing."""
    updated = day_of(record.data, "date_updated")
    if when is Timing.CHANGED_AFTER and updated is not None:
        sentence = f"SBTi now records {recorded} (updated {updated.isoformat()}, after the report)."
        return _Finding("changed_after_report", sentence)
    if when is Timing.HELD and contradiction is not None:
        return _Finding("contradicts", contradiction)
    return None


def _target_findings(claim_text: str, record: MatchedRecord, when: Timing) -> tuple[list[_Finding], bool]:
    """The claim's stated targets against the wording of the validated ones, and whether every
    stated target was found there (if not, the validation of some other target supports nothing)."""
    wording = record.data.get("target_wording")
    claimed = claimed_targets(claim_text)
    if overall_status(record.data) != TARGETS_SET or not isinstance(wording, str) or not claimed:
        return [], True
    recorded = read_targets(wording)
    attributed = attributes_to_sbti(claim_text)
    findings: list[_Finding] = []
    settled = True
    for target in claimed:
        finding, found = _target_finding(target, recorded, attributed, record, when)
        findings += [finding] if finding else []
        settled = settled and found
    return findings, settled


def _target_finding(
    claimed: TargetParts, recorded: list[TargetParts], attributed: bool, record: MatchedRecord, when: Timing
) -> tuple[_Finding | None, bool]:
    """One stated target against the recorded ones, and whether it agrees with one of them.

    A target agrees when every part it states is a recorded one's; it is contradicted only when it
    states its base year and presents itself as the SBTi-validated target.
    """
    candidates = [
        target
        for target in recorded
        if target.scopes == claimed.scopes
        and target.intensity == claimed.intensity
        and claimed.base_year in (None, target.base_year)
    ]
    match = next((target for target in candidates if _agrees(claimed, target)), None)
    if match is not None:
        return _Finding("supports", f"The validated target is {_describe(match)}, as claimed."), True
    if not attributed or claimed.base_year is None:
        return None, False
    other = _differing(claimed, candidates, _other_frame_years(record))
    if other is None:
        return None, False
    sentence = f"The validated target is {_describe(other)}, where the claim says {_describe(claimed)}."
    return _against(when, sentence, f"the target {_describe(other)}", record), False


def _agrees(claimed: TargetParts, recorded: TargetParts) -> bool:
    """Every part the claim states is the recorded one (a percentage within its written precision)."""
    if claimed.percent is not None and (
        recorded.percent is None or not close(claimed.percent, recorded.percent, claimed.percent_half)
    ):
        return False
    return claimed.target_year is None or claimed.target_year == recorded.target_year


def _differing(
    claimed: TargetParts, candidates: list[TargetParts], other_frame_years: set[int]
) -> TargetParts | None:
    """The one validated target of the claim's scope and base year whose percentage or year differs
    from the claim's (one of the same year if there is one); None when which one is unclear, or when
    the claimed year is another time frame's (a long-term target the wording does not spell out)."""
    same_year = [
        target for target in candidates if claimed.target_year and target.target_year == claimed.target_year
    ]
    pool = same_year or candidates
    if len(pool) != 1 or (not same_year and claimed.target_year in other_frame_years):
        return None
    target = pool[0]
    percent_differs = (
        claimed.percent is not None
        and target.percent is not None
        and not close(claimed.percent, target.percent, claimed.percent_half)
    )
    year_differs = claimed.target_year is not None and target.target_year not in (None, claimed.target_year)
    return target if percent_differs or year_differs else None


def _other_frame_years(record: MatchedRecord) -> set[int]:
    """The long-term and net-zero frames' target years."""
    years = set()
    for frame in ("long_term", "net_zero"):
        target = record.data.get(frame)
        year = target.get("year") if isinstance(target, Mapping) else None
        if isinstance(year, int):
            years.add(year)
    return years


def _describe(target: TargetParts) -> str:
    """ "Scope 1+2 90% by 2030 from 2019"."""
    scope = "Scope " + "+".join(sorted(target.scopes))
    percent = f" {target.percent:g}%" if target.percent is not None else ""
    year = f" by {target.target_year}" if target.target_year else ""
    base = f" from {target.base_year}" if target.base_year else ""
    kind = " (intensity)" if target.intensity else ""
    return f"{scope}{percent}{year}{base}{kind}"
