"""The metrics counted as work happens, in one list: what each measures and by which labels.

Every label's values are bounded where the metric is counted (see `app.metrics.labels`). The
metrics read at scrape time are defined by their collectors (`app.metrics.scrape`,
`app.llm.metrics`, `app.supervision.restart_metrics`).
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

# A `_created` timestamp per counter series doubles the exposition for nothing a dashboard reads.
disable_created_metrics()  # type: ignore[no-untyped-call]  # untyped in prometheus-client

#: Seconds, from a cached query (milliseconds) to a slow page of claims.
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
#: Seconds, from a job that starts at once to one waiting hours behind its organisation's others.
QUEUE_BUCKETS = (0.1, 0.5, 1.0, 5.0, 15.0, 30.0, 60.0, 300.0, 900.0, 1800.0, 3600.0, 7200.0)
#: Seconds, from a page count to an analysis pass over hundreds of claims.
WORK_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 15.0, 30.0, 60.0, 300.0, 900.0, 1800.0, 3600.0)
#: Seconds of one LLM HTTP call.
LLM_BUCKETS = (0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0)

# The API: GraphQL operations and subscriptions.
GRAPHQL_OPERATIONS = Counter(
    "sibyl_graphql_operations",
    "GraphQL operations ended, by operation name (`anonymous`, `other` beyond "
    "METRICS_MAX_OPERATION_NAMES), type and outcome (`ok`, `cancelled`, or the first error's code).",
    ["operation", "type", "outcome"],
)
GRAPHQL_DURATION = Histogram(
    "sibyl_graphql_operation_duration_seconds",
    "Time from receiving a query or mutation to its answer (subscriptions last as long as their clients).",
    ["operation", "type"],
    buckets=REQUEST_BUCKETS,
)
SUBSCRIPTIONS_OPEN = Gauge(
    "sibyl_graphql_subscriptions_open", "Subscriptions following events now, by field.", ["field"]
)
SUBSCRIPTION_EVENTS = Counter(
    "sibyl_graphql_subscription_events",
    "Events sent to subscribers (an event reaching three subscribers counts three), by field.",
    ["field"],
)

# The worker: jobs.
JOB_RUNS = Counter(
    "sibyl_job_runs",
    "Job runs ended, by kind and outcome: `complete`, `failed`, or `retried` (it runs again later: a "
    "retry after an outage, a lease held elsewhere, or its organisation's turn not yet come).",
    ["kind", "outcome"],
)
JOB_DURATION = Histogram(
    "sibyl_job_duration_seconds",
    "Time one job run took, by kind and outcome.",
    ["kind", "outcome"],
    buckets=WORK_BUCKETS,
)
JOB_WAIT = Histogram(
    "sibyl_job_wait_seconds",
    "Time from queueing a job to the start of the run that ended it (waiting for its organisation's "
    "turn and earlier runs included), by kind.",
    ["kind"],
    buckets=QUEUE_BUCKETS,
)

# The worker: parsing and analysis.
PARSES = Counter(
    "sibyl_parses",
    "Parse attempts by outcome: parsed, failed, gave_up, skipped_done, skipped_busy, not_found.",
    ["outcome"],
)
PARSE_STAGE_SECONDS = Histogram(
    "sibyl_parse_stage_seconds",
    "Time one parse spent in each stage: count_pages, read_pages, store_pages, finish.",
    ["stage"],
    buckets=WORK_BUCKETS,
)
ANALYSIS_STAGE_SECONDS = Histogram(
    "sibyl_analysis_stage_seconds",
    "Time one run of an analysis graph node took (claims, orchestration, each specialist, the judge, "
    "compiling), by node and outcome (ok, error).",
    ["stage", "outcome"],
    buckets=WORK_BUCKETS,
)
VERDICTS = Counter("sibyl_verdicts", "Verdicts the judge issued, by label.", ["verdict"])
FINDINGS = Counter(
    "sibyl_findings",
    "Findings the specialists recorded, by agent, evidence kind and stance (supports, contradicts, "
    "inconclusive).",
    ["agent", "kind", "stance"],
)

# Wherever they are called: LLM calls and searches.
LLM_CALLS = Counter(
    "sibyl_llm_calls",
    "LLM HTTP calls by role, model and outcome: ok, invalid_answer, http_429, http_4xx, http_5xx, "
    "timeout, connection, bad_response, cancelled (calls an open circuit breaker refuses are not made).",
    ["role", "model", "outcome"],
)
LLM_TOKENS = Counter(
    "sibyl_llm_tokens",
    "LLM tokens by role, model and direction (prompt, completion).",
    ["role", "model", "direction"],
)
LLM_COST = Counter(
    "sibyl_llm_cost_usd",
    "Estimated LLM spend in US dollars by role and model: the provider's reported cost, else LLM_PRICES.",
    ["role", "model"],
)
LLM_DURATION = Histogram(
    "sibyl_llm_call_duration_seconds",
    "Time of one LLM HTTP call, by role and model.",
    ["role", "model"],
    buckets=LLM_BUCKETS,
)
SEARCHES = Counter(
    "sibyl_searches",
    "Evidence searches by provider (tavily: the web; library: the organisation's evidence library) and "
    "outcome (ok, error).",
    ["provider", "outcome"],
)
