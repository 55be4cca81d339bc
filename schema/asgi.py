"""The API's entry point for uvicorn: `uvicorn schema.asgi:app` (as `sibyl run`, the Dockerfile and
docker-compose.yml start it). The application is `schema.transport.asgi`; `app` is built on first
access, so importing this module reads no settings."""

from __future__ import annotations

from schema.transport.asgi import __getattr__, create_app

__all__ = ["__getattr__", "create_app"]
