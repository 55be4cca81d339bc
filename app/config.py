"""Every setting Sibyl reads, in one place.

Values come from the environment (or a `.env` file). With `DATABASE_URL` / `REDIS_URL` unset, the
`sibyl run` command starts embedded servers and fills them in for its child processes.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    worker_max_jobs: int = Field(default=4, gt=0, description="Jobs one ARQ worker runs at once.")
    parse_job_timeout_seconds: int = Field(default=600, gt=0, description="Time limit of one parse job.")
    graphiql: bool = Field(default=True, description="Serve GraphiQL at /graphql in a browser.")

    @field_validator("database_url", "redis_url", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if value == "" else value

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


def sqlalchemy_url(database_url: str) -> str:
    """The URL with the asyncpg driver named, whatever scheme the user wrote."""
    scheme, sep, rest = database_url.partition("://")
    if not sep:
        raise ValueError(f"not a database URL: {database_url!r}")
    if scheme in ("postgres", "postgresql", "postgresql+asyncpg", "postgresql+psycopg"):
        return f"postgresql+asyncpg://{rest}"
    raise ValueError(f"unsupported database scheme {scheme!r}: use postgresql://")


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
