"""Sibyl's Python client: typed async access to the GraphQL API over HTTP and WebSocket.

Talks to the server only over the network (no server code is imported), so partners can install it
on its own.
"""

from __future__ import annotations

from clients.sibyl.client import SibylClient
from clients.sibyl.errors import (
    AuthenticationError,
    ConfigurationError,
    GraphQLErrors,
    MutationFailed,
    NotFound,
    RateLimitedError,
    ServerUnreachable,
    ServiceUnavailable,
    SibylError,
    WaitTimeout,
)
from clients.sibyl.models import (
    Analysis,
    AnalysisWarning,
    Answer,
    Citation,
    Claim,
    ClaimPage,
    IssuedVerdict,
    Report,
    StartedAnalysis,
    StreamEvent,
    Upload,
    Verdict,
)
from clients.sibyl.subscriptions import ConnectionLost

__all__ = [
    "Analysis",
    "AnalysisWarning",
    "Answer",
    "AuthenticationError",
    "Citation",
    "Claim",
    "ConfigurationError",
    "ClaimPage",
    "ConnectionLost",
    "GraphQLErrors",
    "IssuedVerdict",
    "MutationFailed",
    "NotFound",
    "RateLimitedError",
    "Report",
    "ServerUnreachable",
    "ServiceUnavailable",
    "SibylClient",
    "SibylError",
    "StartedAnalysis",
    "StreamEvent",
    "Upload",
    "Verdict",
    "WaitTimeout",
]
