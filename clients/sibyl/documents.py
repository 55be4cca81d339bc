"""The GraphQL documents the client sends, kept together so the contract they rely on is in one place."""

from __future__ import annotations

ANALYSIS_FIELDS = """
fragment AnalysisFields on Analysis {
  id status pipelineStage progressPercent activeAgents iterationCount
  claimsCount findingsCount verdictsCount errorMessage
  warnings { code stage message count total iteration }
}
"""

REPORT_FIELDS = (
    """
fragment ReportFields on Report {
  id status filename companyName pageCount errorMessage queuePosition
  analysis { ...AnalysisFields }
}
"""
    + ANALYSIS_FIELDS
)

UPLOAD_REPORT = (
    """
mutation UploadReport($file: Upload!, $companyName: String) {
  uploadReport(file: $file, companyName: $companyName) {
    __typename
    ... on UploadReportSuccess { created report { ...ReportFields } }
    ... on UploadReportError { code message field }
  }
}
"""
    + REPORT_FIELDS
)

START_ANALYSIS = (
    """
mutation StartAnalysis($reportId: ID!, $skip: Boolean!) {
  startAnalysis(reportId: $reportId, skipClaimsExtraction: $skip) {
    __typename
    ... on StartAnalysisSuccess { report { ...ReportFields } analysis { ...AnalysisFields } }
    ... on StartAnalysisError { code message field }
  }
}
"""
    + REPORT_FIELDS
)

REPORT = (
    """
query Report($id: ID!) { report(id: $id) { ...ReportFields } }
"""
    + REPORT_FIELDS
)

REPORT_EVENT_SEQUENCES = """
query ReportEventSequences($id: ID!, $afterSequence: Int!, $first: Int!) {
  report(id: $id) { events(afterSequence: $afterSequence, first: $first) { sequence } }
}
"""

CLAIMS = """
query Claims(
  $id: ID!, $first: Int, $after: String, $type: ClaimType, $priority: Priority,
  $verdict: VerdictLabel, $orderBy: ClaimOrder
) {
  report(id: $id) {
    claims(
      first: $first, after: $after, type: $type, priority: $priority, verdict: $verdict, orderBy: $orderBy
    ) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges {
        node {
          id text claimType priority sourcePage
          riskFlags { kind phrase explanation }
          verdict {
            verdict confidence reasoning
            decidingSources {
              findingId agent side publisher evidenceKind title url publishedDate tier tierBasis method
              quote quoteVerified pages summary
              registry { registry entityNames matchBasis coverage }
            }
            ifrsMapping { paragraphId source status relationship }
          }
        }
      }
    }
  }
}
"""

CANCEL_ANALYSIS = (
    """
mutation CancelAnalysis($reportId: ID!) {
  cancelAnalysis(reportId: $reportId) {
    __typename
    ... on CancelAnalysisSuccess { report { ...ReportFields } analysis { ...AnalysisFields } }
    ... on CancelAnalysisError { code message field }
  }
}
"""
    + REPORT_FIELDS
)

DELETE_REPORT = """
mutation DeleteReport($reportId: ID!) {
  deleteReport(reportId: $reportId) {
    __typename
    ... on DeleteReportSuccess { deletedId deletedAnalyses report { id filename companyName status } }
    ... on DeleteReportError { code message field }
  }
}
"""

#: The report's last COMPLETED analysis with one page of its verdicts (the exports' fallback when the
#: latest run failed or was cancelled); the verdict fields are those `CLAIMS` selects.
COMPLETED_ANALYSIS = (
    """
query CompletedAnalysis($id: ID!, $first: Int, $offset: Int) {
  report(id: $id) {
    analyses(status: [COMPLETED], first: 1) {
      ...AnalysisFields
      completedAt
      verdicts(first: $first, offset: $offset) {
        claim { id }
        verdict confidence reasoning
        decidingSources {
          findingId agent side publisher evidenceKind title url publishedDate tier tierBasis method
          quote quoteVerified pages summary
          registry { registry entityNames matchBasis coverage }
        }
        ifrsMapping { paragraphId source status relationship }
      }
    }
  }
}
"""
    + ANALYSIS_FIELDS
)

ASK_REPORT = """
query AskReport($reportId: ID!, $question: String!) {
  askReport(reportId: $reportId, question: $question) {
    __typename
    ... on ReportAnswer {
      question answer queryType method cached caveats
      citations { kind claimId pageNumber excerpt score }
    }
    ... on AskReportError { code message field }
  }
}
"""

ANALYSIS_EVENTS = """
subscription AnalysisEvents($reportId: ID!, $afterSequence: Int!) {
  analysisEvents(reportId: $reportId, afterSequence: $afterSequence) {
    id sequence eventType agentName data timestamp
  }
}
"""

VERDICT_ISSUED = """
subscription VerdictIssued($reportId: ID) {
  verdictIssued(reportId: $reportId) {
    id reportId verdict confidence reasoning iteration isFinal claim { id text }
  }
}
"""
