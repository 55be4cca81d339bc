"""The Grafana dashboard (deploy/grafana/sibyl.json) queries only metrics the API exposes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.support.metrics import scrape

DASHBOARD = Path(__file__).resolve().parents[1] / "deploy" / "grafana" / "sibyl.json"
#: Metric names in a PromQL expression (ours, and the process metrics prometheus-client adds).
METRIC = re.compile(r"\b(?:sibyl|process)_[a-z0-9_]+\b")
#: The series a histogram or a counter family is exposed as, beside its own name.
SUFFIXES = ("_bucket", "_count", "_sum")


def queried_metrics() -> set[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    expressions = [
        target["expr"]
        for panel in dashboard["panels"]
        for target in panel.get("targets", ())
        if target.get("expr")
    ]
    assert expressions, "the dashboard has no queries"
    return {name for expression in expressions for name in METRIC.findall(expression)}


def exposed_names(text: str) -> set[str]:
    """Every family name the exposition declares (`# TYPE <name> <type>`)."""
    return {line.split()[2] for line in text.splitlines() if line.startswith("# TYPE ")}


async def test_every_metric_the_dashboard_queries_is_exposed(api_url: str) -> None:
    exposed = exposed_names(await scrape(f"{api_url}/metrics"))

    def found(name: str) -> bool:
        return name in exposed or any(name.endswith(s) and name.removesuffix(s) in exposed for s in SUFFIXES)

    queried = queried_metrics()
    assert len(queried) >= 20
    assert {name for name in queried if not found(name)} == set()


def test_the_dashboard_panels_have_unique_ids_and_a_prometheus_datasource() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for panel in dashboard["panels"]:
        if panel["type"] != "row":
            assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}, panel["title"]
