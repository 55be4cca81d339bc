"""The specialists and which of them each claim type needs: the default routing matrix, which is
also what the judge expects to have heard from (a claim type's expected agents), so routing and
judging cannot disagree about who should have looked."""

from __future__ import annotations

AGENT_LABELS: dict[str, str] = {
    "geography": "Geography",
    "legal": "Legal",
    "news_media": "News/Media",
    "academic": "Academic/Research",
    "data_metrics": "Data/Metrics",
}

DEFAULT_MATRIX: dict[str, tuple[str, ...]] = {
    "geographic": ("geography", "legal"),
    "quantitative": ("data_metrics", "legal"),
    "legal_governance": ("legal",),
    "strategic": ("legal", "academic", "news_media"),
    "environmental": ("academic", "geography", "data_metrics"),
}
FALLBACK_AGENTS: tuple[str, ...] = ("legal",)
