"""All ORM models; importing this package registers every table on `Base.metadata`."""

from app.db.models.analysis import AnalysisRun, Claim, Finding, RoutingAssignment, RunStatus, Verdict
from app.db.models.events import Event
from app.db.models.evidence import EvidenceDocument
from app.db.models.knowledge import KnowledgePassage
from app.db.models.organisations import ApiKey, Organisation
from app.db.models.registries import RegistryMatchDecision, RegistryRecord, RegistrySnapshot
from app.db.models.report_passages import ReportPassage, ReportPassageIndex
from app.db.models.reports import Report, ReportFile, ReportPage, ReportStatus

__all__ = [
    "AnalysisRun",
    "RunStatus",
    "ApiKey",
    "Claim",
    "Event",
    "EvidenceDocument",
    "Finding",
    "KnowledgePassage",
    "Organisation",
    "RegistryMatchDecision",
    "RegistryRecord",
    "RegistrySnapshot",
    "Report",
    "ReportFile",
    "ReportPage",
    "ReportPassage",
    "ReportPassageIndex",
    "ReportStatus",
    "RoutingAssignment",
    "Verdict",
]
