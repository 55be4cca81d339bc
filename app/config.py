"""Every setting Sibyl reads, in one place.

Values come from the environment (or a `.env` file). With `DATABASE_URL` / `REDIS_URL` unset, the
`sibyl run` command starts embedded servers and fills them in for its child processes.
"""

from __future__ import annotations

import urllib.parse
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

#: Settings that must be http(s) URLs with a host (checked at startup).
HTTP_URL_SETTINGS = (
    "llm_base_url",
    "embedding_base_url",
    "tavily_api_base_url",
    "imagery_stac_url",
    "imagery_data_api_url",
)


class Settings(BaseSettings):
    """Sibyl's configuration; each field maps to the upper-case environment variable of its name."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str | None = Field(
        default=None,
        description="Postgres (with pgvector) URL, e.g. postgresql://user:pw@host:5432/sibyl. "
        "Unset: `sibyl run` starts an embedded server under data_dir.",
    )
    redis_url: str | None = Field(
        default=None,
        description="Redis URL, e.g. redis://host:6379/0. Unset: `sibyl run` starts an embedded server.",
    )
    data_dir: Path = Field(default=Path(".sibyl"), description="Where embedded servers keep their data.")
    embedded_redis_port: int = Field(
        default=0, ge=0, description="Port for the embedded Redis; 0 picks a free one at each start."
    )
    api_host: str = Field(default="127.0.0.1", description="Address the GraphQL API listens on.")
    api_port: int = Field(default=8000, description="Port the GraphQL API listens on.")
    max_upload_bytes: int = Field(default=50 * 1024 * 1024, gt=0, description="Largest accepted PDF.")
    max_pages: int = Field(default=500, gt=0, description="Most pages an accepted PDF may have.")
    max_request_body_bytes: int = Field(
        default=1024 * 1024,
        gt=0,
        description="Largest body of an HTTP request that is not a multipart upload (a JSON GraphQL "
        "request), counted as it arrives: beyond it the API answers 413 REQUEST_TOO_LARGE without "
        "reading the rest. Send a larger evidence text as a file. Multipart uploads may reach twice "
        "the larger of MAX_UPLOAD_BYTES and EVIDENCE_MAX_DOCUMENT_BYTES, plus 1 MiB.",
    )
    max_request_header_bytes: int = Field(
        default=64 * 1024,
        ge=1024,
        description="Most bytes a request line and its headers may take (an API key is 58 characters; "
        "browsers send a few KB); beyond it the API answers 431 REQUEST_TOO_LARGE and closes the "
        "connection, having kept no more than that. Applies to servers started with `sibyl run` or "
        "with `--http schema.uvicorn_http:SibylHttpProtocol`.",
    )
    request_header_timeout_seconds: float = Field(
        default=10.0,
        gt=0,
        description="Time a client has to send a request's headers, from opening the connection (or "
        "from the first byte of the next request on a kept-alive one); beyond it the API answers "
        "408 and closes the connection. Applies to servers started with `sibyl run` or with "
        "`--http schema.uvicorn_http:SibylHttpProtocol`.",
    )
    request_body_timeout_seconds: float = Field(
        default=60.0,
        gt=0,
        description="Time a client has to send a request's whole body, from the moment the API starts "
        "reading it; beyond it the API answers 408 REQUEST_TIMEOUT and closes the connection. A "
        "50 MB upload needs about 7 Mbit/s within the default; raise it for slower links.",
    )
    parse_progress_every: int = Field(
        default=10, gt=0, description="Emit a parse progress event every N pages."
    )
    min_text_chars: int = Field(
        default=40,
        ge=1,
        description="A PDF needs at least this many characters of text in total, or it is taken "
        "for a scan without a text layer.",
    )
    event_poll_seconds: float = Field(
        default=5.0,
        gt=0,
        description="A live subscription re-checks Postgres this often when Redis is silent, so an "
        "event whose PUBLISH was lost still arrives.",
    )
    event_hub_buffer: int = Field(
        default=2048,
        ge=16,
        description="Recent events per followed report an API process keeps in memory for its "
        "subscribers; one that falls further behind catches up from Postgres.",
    )
    event_hub_db_reads: int = Field(
        default=4,
        gt=0,
        description="Postgres reads an API process makes at once for its subscribers (replay, gaps, "
        "catching up), so followers never take the whole connection pool.",
    )
    persisted_query_max_entries: int = Field(
        default=1000,
        gt=0,
        description="Persisted (APQ) documents kept per organisation in Redis; the least recently "
        "used go first.",
    )
    persisted_query_ttl_seconds: int = Field(
        default=7 * 24 * 3600,
        gt=0,
        description="A persisted (APQ) document unused this long is forgotten (clients re-register it).",
    )
    redis_command_timeout_seconds: float = Field(
        default=2.0,
        gt=0,
        description="How long the API waits for Redis to answer one command. A Redis that is up but "
        "not answering then costs a request this long at most: rate limiting is skipped, caches miss, "
        "and queueing a job answers SERVICE_UNAVAILABLE.",
    )
    api_statement_timeout_seconds: float = Field(
        default=30.0,
        gt=0,
        description="Postgres `statement_timeout` of the API's connections; the API also gives up on a "
        "database that answers nothing a second later (SERVICE_UNAVAILABLE). Workers have no limit.",
    )
    api_db_pool_timeout_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How long an API request waits for a pooled database connection when all are busy "
        "before answering SERVICE_UNAVAILABLE.",
    )
    api_db_connect_timeout_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How long the API waits for a new database connection (handshake included).",
    )
    document_cache_size: int = Field(
        default=512,
        gt=0,
        description="Distinct GraphQL documents whose parse and validation results an API process keeps.",
    )
    fast_execution: bool = Field(
        default=True,
        description="Run GraphQL through the API's own shortcuts around graphql-core's executor, "
        "Strawberry's resolvers and uvicorn's WebSocket writes (`schema/fast_execution/`): the same "
        "answers with less CPU per request and per subscriber. Off: Strawberry's and graphql-core's "
        "stock execution and transports. The API also turns them off by itself, with one WARNING "
        "naming what changed, when an installed Strawberry, graphql-core or uvicorn no longer has "
        "the internals they rely on.",
    )
    worker_max_jobs: int = Field(default=4, gt=0, description="Jobs one ARQ worker runs at once.")
    parse_job_timeout_seconds: int = Field(default=600, gt=0, description="Time limit of one parse job.")
    max_job_attempts: int = Field(
        default=3,
        gt=0,
        description="Times a parse or analysis job is started for one report or run before it is left in "
        "ERROR with the reason (a file or run that keeps killing its worker is never re-queued forever).",
    )
    org_max_running_jobs: int = Field(
        default=2,
        ge=0,
        description="Parses and analyses one organisation may have running (or next in line to start) "
        "at once, across all workers. Its further jobs wait without holding up other organisations' "
        "work: organisations with waiting jobs take turns, and each waiting job starts as one of its "
        "organisation's running jobs ends. Waiting does not use up a job's attempts or time limit. "
        "0: no limit, one first-in-first-out queue. The workers' value counts: they publish it in "
        "Redis, and the API queues by it.",
    )
    org_job_lease_seconds: float = Field(
        default=30.0,
        gt=0,
        description="A worker running a job renews its hold on one of its organisation's "
        "ORG_MAX_RUNNING_JOBS places this often (x1/3). When a worker dies, its places are free again "
        "at once if another worker runs on the same machine, else once their holds lapse.",
    )
    document_workers: int = Field(
        default=3,
        gt=0,
        description="Processes that read PDFs (uploads, parsing, evidence, the IFRS corpus), each one "
        "document at a time: a PDF that crashes the reader fails alone. One organisation holds at "
        "most all but one of them at once, so another's upload or page image always finds one "
        "(the default lets one organisation read two documents at once).",
    )
    document_timeout_seconds: float = Field(
        default=120.0, gt=0, description="Time limit of one PDF operation in a document process."
    )
    document_memory_mb: int = Field(
        default=2048, ge=256, description="Address-space limit of a document process, in MiB."
    )
    document_text_max_bytes_per_page: int = Field(
        default=65536,
        gt=0,
        description="Most text (UTF-8 bytes) a PDF may yield per page, on average over its pages; a "
        "PDF past it is refused (TEXT_TOO_LARGE). Real reports have 2-8 KB per page.",
    )
    document_text_max_ratio: float = Field(
        default=20.0,
        gt=0,
        description="Most text a PDF may yield as a multiple of its file size (the first MiB of text is "
        "always allowed); a PDF past it is refused (TEXT_TOO_LARGE). Real reports yield under 1x.",
    )
    graphiql: bool = Field(default=True, description="Serve GraphiQL at /graphql in a browser.")
    web_assets_dir: Path | None = Field(
        default=None,
        description="Where `python -m app.web.assets install` puts GraphiQL's pinned npm files (served "
        "at /graphiql/assets/). Unset: `share/sibyl-web-assets` in the Python environment (the venv).",
    )
    page_image_cache_mb: int = Field(
        default=64,
        ge=0,
        description="Memory the API keeps rendered report page images in (PNG bytes, least recently "
        "used dropped first); 0 renders every request anew.",
    )
    allow_unauthenticated: bool = Field(
        default=False,
        description="Local development only: requests without an API key act for the built-in "
        "`local` organisation. Off by default; every request then needs a key (`sibyl keys create`).",
    )
    rate_limit_per_minute: int = Field(
        default=600,
        ge=0,
        description="GraphQL requests (and subscription starts) one API key may make per minute; "
        "0 turns the limit off.",
    )
    api_key_cache_seconds: float = Field(
        default=30.0,
        gt=0,
        description="How long the API trusts a checked API key without asking the database again: a "
        "revoked or deleted key is refused, and its open WebSockets closed (4403), within this time.",
    )
    auth_failures_per_minute: int = Field(
        default=60,
        ge=0,
        description="Failed authentications (unknown, malformed, revoked or over-long keys) one client "
        "address may make per minute, in bursts of a sixth; beyond it the address gets 429 "
        "RATE_LIMITED with Retry-After and its keys are not looked up. 0 turns the limit off.",
    )
    max_websockets_per_key: int = Field(
        default=100,
        ge=0,
        description="Open WebSocket connections one API key may hold on one API process (an "
        "organisation's dashboard tabs may share its key); the next `connection_init` is closed with "
        "1013 (try again later) and the reason `RATE_LIMITED: …`. 0: no cap.",
    )
    ws_legacy_close_codes: bool = Field(
        default=False,
        description="Deprecated, for clients written against Sibyl's earlier WebSocket close codes, until "
        "2027-06-30: a refused `connection_init` closes with 4401 (no key) and 4429 (rate limited) "
        "instead of the GraphQL over WebSocket protocol's 4403 and the WebSocket standard's 1013, "
        "which the reference clients retry. The close reason (`<CODE>: <message>`) is the same either way.",
    )
    max_query_depth: int = Field(
        default=12, gt=0, description="Deepest selection nesting a GraphQL operation may have."
    )
    max_query_tokens: int = Field(
        default=5_000,
        gt=0,
        description="Most tokens (names, punctuation, values) a GraphQL document may have; parsing stops "
        "beyond it. GraphiQL's introspection query has about 180, the dashboard's largest document 110.",
    )
    max_query_aliases: int = Field(
        default=30,
        ge=0,
        description="Most aliased fields a GraphQL operation may use (each alias runs its field again); "
        "the dashboard uses 4.",
    )
    max_query_cost: int = Field(
        default=100_000,
        gt=0,
        description="Most an operation may cost: each field 1, a list field's selection multiplied by "
        "its `first` (or its largest possible size). A 200-claim page with verdicts, IFRS mapping, "
        "findings and routing costs about 33,000 (see `schema/limits/cost.py`).",
    )
    ask_cache_ttl_seconds: int = Field(
        default=3600,
        ge=0,
        description="How long `askReport` answers are cached (0: not cached). A new analysis of the "
        "report drops its cached answers at once.",
    )
    ask_max_question_chars: int = Field(
        default=1000, gt=0, description="Longest question `askReport` accepts."
    )

    llm_api_key: SecretStr | None = Field(
        default=None,
        description="API key of the OpenAI-compatible LLM endpoint. Unset: no LLM is called and every "
        "step takes its rule-based path.",
    )
    llm_base_url: str = Field(
        default="https://openrouter.ai/api/v1",
        description="Base URL of an OpenAI-compatible chat-completions API (OpenRouter, Ollama's "
        "http://localhost:11434/v1, vLLM, ...).",
    )
    llm_model_routing: str = Field(
        default="anthropic/claude-sonnet-4.5", description="Model that routes claims."
    )
    llm_model_extraction: str = Field(
        default="google/gemini-2.5-flash", description="Model that extracts claims."
    )
    llm_model_dedup: str = Field(
        default="google/gemini-2.5-flash", description="Model that confirms duplicates."
    )
    llm_model_analysis: str = Field(
        default="anthropic/claude-sonnet-4.5", description="Model the specialists use."
    )
    llm_model_judgment: str = Field(default="anthropic/claude-opus-4.5", description="Model the judge uses.")
    llm_fallback_model_routing: str | None = Field(
        default="openai/gpt-4o-mini", description="Model tried when the routing model keeps failing."
    )
    llm_fallback_model_extraction: str | None = Field(
        default="openai/gpt-4o-mini", description="Model tried when the extraction model keeps failing."
    )
    llm_fallback_model_dedup: str | None = Field(
        default="openai/gpt-4o-mini", description="Model tried when the dedup model keeps failing."
    )
    llm_fallback_model_analysis: str | None = Field(
        default="openai/gpt-4o-mini", description="Model tried when the analysis model keeps failing."
    )
    llm_fallback_model_judgment: str | None = Field(
        default="anthropic/claude-sonnet-4.5",
        description="Model tried when the judgment model keeps failing.",
    )
    llm_timeout_seconds: float = Field(default=60.0, gt=0, description="Time limit of one LLM HTTP call.")
    llm_max_retries: int = Field(
        default=3, ge=0, description="Retries per model on 429, 5xx and timeouts, with exponential backoff."
    )
    llm_backoff_seconds: float = Field(
        default=1.0,
        ge=0,
        description="First backoff delay; doubles on each retry (a Retry-After header wins).",
    )
    llm_backoff_max_seconds: float = Field(default=30.0, ge=0, description="Longest single backoff delay.")
    llm_max_concurrency: int = Field(default=4, gt=0, description="LLM calls in flight at once, per process.")
    circuit_breaker_failures: int = Field(
        default=5,
        ge=0,
        description="Consecutive failures (5xx, timeouts, connection errors) after which a provider (an LLM "
        "model, or Tavily) is not called for a cool-down, per process: callers fall back at once, with "
        "their warnings. 429s do not count. 0 turns the breaker off.",
    )
    circuit_breaker_cooldown_seconds: float = Field(
        default=30.0,
        gt=0,
        description="How long an open circuit breaker refuses calls before one probe call is let through "
        "(its success closes the breaker, its failure opens it again).",
    )
    llm_prices: dict[str, tuple[float, float]] = Field(
        default_factory=dict,
        description='Cost estimate per model as JSON: {"model": [usd_per_million_input_tokens, '
        "usd_per_million_output_tokens]}. A cost the endpoint reports itself wins.",
    )

    max_iterations: int = Field(
        default=3,
        ge=1,
        description="Investigation passes per analysis: the first pass plus at most max_iterations - 1 "
        "re-investigation cycles requested by the judge.",
    )
    agent_timeout_seconds: float = Field(
        default=120.0,
        gt=0,
        description="Time limit of one specialist agent in one pass; then it is marked errored.",
    )
    pipeline_job_timeout_seconds: int = Field(
        default=3600, gt=0, description="Time limit of one pipeline job."
    )
    analysis_lease_seconds: float = Field(
        default=60.0,
        gt=0,
        description="A worker running an analysis renews its lease this often (x1/3); another worker may "
        "resume the analysis once the lease has lapsed.",
    )
    analysis_sweep_seconds: int = Field(
        default=30,
        ge=0,
        le=60,
        description="How often each worker looks for analyses whose worker died (lease lapsed) and resumes "
        "them, and for parses no worker runs any more (their job failed) and queues them again; 0 looks "
        "only when the worker starts.",
    )
    specialist_plugins: str | None = Field(
        default=None,
        description="Optional `module:attribute` naming a mapping of agent name to investigator that "
        "replaces the built-in investigators (for custom evidence sources).",
    )

    embedding_provider: Literal["auto", "api", "hashing", "local"] = Field(
        default="auto",
        description="Which embedder indexes and searches text: `api` (an OpenAI-compatible /embeddings "
        "endpoint), `hashing` (built in, deterministic, offline, no model download), `local` (a "
        "sentence-transformers model at embedding_local_path). `auto` uses the API when "
        "embedding_api_key is set, else a local model when embedding_local_path is set, else hashing.",
    )
    embedding_api_key: SecretStr | None = Field(
        default=None, description="API key of the OpenAI-compatible embeddings endpoint."
    )
    embedding_base_url: str = Field(
        default="https://api.openai.com/v1",
        description="Base URL of an OpenAI-compatible embeddings API (…/v1; `/embeddings` is appended).",
    )
    embedding_model: str = Field(
        default="text-embedding-3-small", description="Model name sent to the embeddings API."
    )
    embedding_dimensions: int = Field(
        default=384,
        gt=0,
        le=4096,
        description="Vector size: asked of the embeddings API (models that support it) and used by "
        "the hashing embedder. A local model has its own size.",
    )
    embedding_local_path: Path | None = Field(
        default=None,
        description="Folder of a sentence-transformers model (needs the sentence-transformers "
        "package, not installed by default).",
    )
    embedding_batch_size: int = Field(default=64, gt=0, description="Texts per embeddings API call.")
    embedding_timeout_seconds: float = Field(
        default=30.0, gt=0, description="Time limit of one embeddings API call."
    )

    claims_chunk_size_pages: int = Field(
        default=10, gt=0, description="Pages per chunk the claims agent's LLM reads at once."
    )
    claims_chunk_overlap_pages: int = Field(
        default=2, ge=0, description="Pages shared by neighbouring chunks, so claims at a border are seen."
    )
    claims_max_concurrent_chunks: int = Field(
        default=3, gt=0, description="Chunks the claims agent sends to the LLM at once."
    )
    claims_similarity_threshold: float = Field(
        default=0.85,
        gt=0,
        le=1,
        description="Cosine similarity above which two claims on nearby pages are duplicate candidates.",
    )
    claims_rag_query_budget: int = Field(
        default=100,
        gt=0,
        description="Most knowledge-base queries the claims agent's IFRS mapping makes per report.",
    )
    claims_dedup_llm_budget: int = Field(
        default=200,
        ge=0,
        description="Most duplicate-claim checks the dedup LLM makes per report (the most similar pairs); "
        "the lexical rule decides the others.",
    )

    fetch_allow_private_addresses: bool = Field(
        default=False,
        description="Let the outbound fetcher reach private, loopback and link-local addresses (never in "
        "production: it opens server-side request forgery; tests use it for local fake servers).",
    )
    fetch_max_bytes: int = Field(
        default=10 * 1024 * 1024, gt=0, description="Largest response body the outbound fetcher reads."
    )
    fetch_timeout_seconds: float = Field(
        default=20.0, gt=0, description="Time limit of one outbound fetch, redirects included."
    )

    search_providers: Annotated[list[Literal["tavily", "library"]], NoDecode] = Field(
        default=["tavily", "library"],
        description="Evidence search providers the specialists query together (results merged and "
        "de-duplicated by URL). `tavily` is active only when TAVILY_API_KEY is set; `library` searches the "
        "evidence documents users added.",
    )
    tavily_api_key: SecretStr | None = Field(
        default=None, description="Tavily Search API key. Unset: web search is off and says so in findings."
    )
    tavily_api_base_url: str = Field(
        default="https://api.tavily.com", description="Base URL of the Tavily API (a proxy or a test server)."
    )
    search_max_results: int = Field(
        default=10, gt=0, le=20, description="Results asked for per search query."
    )
    search_timeout_seconds: float = Field(
        default=30.0, gt=0, description="Time limit of one web search call."
    )
    search_max_retries: int = Field(
        default=3,
        ge=0,
        description="Retries of a web search after a 429, a 5xx, a timeout or a network error.",
    )
    search_backoff_seconds: float = Field(
        default=1.0, ge=0, description="First backoff delay of a web search retry (doubles each retry)."
    )
    search_queries_per_claim: int = Field(
        default=3,
        gt=0,
        le=6,
        description="Most search queries a news/media or academic agent runs per claim.",
    )
    corroboration_web_searches_per_report: int = Field(
        default=50,
        ge=0,
        description="Every claim is searched for independent evidence, also the claims no searching "
        "specialist was routed to: one query each, always against the evidence library, and against "
        "the web (when TAVILY_API_KEY is set) for at most this many of those claims per report.",
    )
    evidence_chunk_chars: int = Field(
        default=1500,
        ge=200,
        description="Size of the passages an evidence document is split into for search.",
    )
    evidence_max_document_bytes: int = Field(
        default=20 * 1024 * 1024, gt=0, description="Largest evidence document (file, text or URL) accepted."
    )
    imagery_provider: Literal["none", "planetary_computer"] = Field(
        default="none",
        description="Satellite imagery for the geography agent: `planetary_computer` searches a STAC API "
        "for Sentinel-2 scenes and asks its data API for NDVI statistics; `none` reports located sites only.",
    )
    imagery_stac_url: str = Field(
        default="https://planetarycomputer.microsoft.com/api/stac/v1",
        description="STAC API the geography agent searches when imagery is on.",
    )
    imagery_data_api_url: str = Field(
        default="https://planetarycomputer.microsoft.com/api/data/v1",
        description="Raster data API (TiTiler) that computes NDVI statistics over an area when imagery "
        "is on.",
    )
    imagery_max_cloud_cover: float = Field(
        default=20.0, ge=0, le=100, description="Most cloud cover (%) of a scene the geography agent uses."
    )
    log_format: Literal["text", "json"] = Field(
        default="text",
        description="Log line format of `sibyl` and its worker: `text`, or `json` (one object per line "
        "with time, level, logger, message, and run_id and report_id while an analysis runs) for log "
        "shippers.",
    )
    log_level_http: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        default="WARNING",
        description="Level of the httpx/httpcore loggers. INFO logs one line per HTTP request (LLM, search).",
    )
    metrics_enabled: bool = Field(
        default=True,
        description="Serve Prometheus metrics (`GET /metrics` of the API, WORKER_METRICS_PORT of the worker) "
        "and time GraphQL operations and jobs for them. Metrics carry no organisation's content.",
    )
    metrics_port: int = Field(
        default=0,
        ge=0,
        le=65535,
        description="0: the API serves `GET /metrics` on its own port, without an API key. N: on a listener "
        "of its own on port N (at METRICS_HOST), and not on the API's port.",
    )
    worker_metrics_port: int = Field(
        default=0,
        ge=0,
        le=65535,
        description="Port on which the worker serves its metrics (jobs, parse and analysis stages, LLM calls "
        "and searches happen there), at METRICS_HOST; 0: not served.",
    )
    metrics_host: str = Field(
        default="127.0.0.1",
        description="Address the metrics listeners of METRICS_PORT and WORKER_METRICS_PORT bind to "
        "(0.0.0.0 for a Prometheus on another host or container).",
    )
    metrics_max_operation_names: int = Field(
        default=100,
        ge=0,
        description="Distinct GraphQL operation names an API process labels its operation metrics with "
        "(first come, at most 64 characters each); further names count as `other`, unnamed "
        "operations as `anonymous`.",
    )
    restart_backoff_seconds: float = Field(
        default=0.5,
        gt=0,
        description="`sibyl run` restarts a process that died (API, worker, embedded Redis or Postgres) "
        "after this delay, doubled for each further consecutive failure of that process.",
    )
    restart_backoff_max_seconds: float = Field(
        default=30.0,
        gt=0,
        description="Longest delay before a restart. A process that has stayed up this long counts as "
        "recovered: its next death starts again from RESTART_BACKOFF_SECONDS.",
    )
    restart_max_failures: int = Field(
        default=5,
        ge=0,
        description="Consecutive failed restarts of one process (it fails to start, or dies again within "
        "RESTART_BACKOFF_MAX_SECONDS) after which `sibyl run` gives up on it: on the worker, Redis or "
        "Postgres alone (logged at ERROR, reported by /readyz, the API keeps serving); on the API by "
        "stopping everything (exit 1). 0 never restarts.",
    )

    @model_validator(mode="after")
    def _chunks_advance(self) -> Settings:
        if self.claims_chunk_overlap_pages >= self.claims_chunk_size_pages:
            raise ValueError(
                f"CLAIMS_CHUNK_OVERLAP_PAGES ({self.claims_chunk_overlap_pages}) must be smaller than "
                f"CLAIMS_CHUNK_SIZE_PAGES ({self.claims_chunk_size_pages})"
            )
        return self

    @field_validator("search_providers", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return [item.strip() for item in value.split(",") if item.strip()]
        return value

    @field_validator("database_url", "redis_url", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator(*HTTP_URL_SETTINGS)
    @classmethod
    def _http_url(cls, value: str) -> str:
        # A bad base URL would otherwise pass startup and make every call fail at run time.
        parts = urllib.parse.urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http(s) URL with a host, e.g. https://example.com/v1")
        return value.strip()

    def require_database_url(self) -> str:
        """The Postgres URL, or a clear error when nothing provided one."""
        if not self.database_url:
            raise RuntimeError("DATABASE_URL is not set (run through `sibyl run`, or set it).")
        return self.database_url

    def require_redis_url(self) -> str:
        """The Redis URL, or a clear error when nothing provided one."""
        if not self.redis_url:
            raise RuntimeError("REDIS_URL is not set (run through `sibyl run`, or set it).")
        return self.redis_url


def libpq_url(database_url: str) -> str:
    """The URL as libpq (psycopg) reads it, without a SQLAlchemy driver name."""
    scheme, sep, rest = database_url.partition("://")
    if not sep:
        raise ValueError(f"not a database URL: {database_url!r}")
    if scheme in ("postgres", "postgresql", "postgresql+asyncpg", "postgresql+psycopg"):
        return f"postgresql://{rest}"
    raise ValueError(f"unsupported database scheme {scheme!r}: use postgresql://")


def sqlalchemy_url(database_url: str) -> str:
    """The URL with the asyncpg driver named, whatever scheme the user wrote."""
    return "postgresql+asyncpg://" + libpq_url(database_url).partition("://")[2]


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
