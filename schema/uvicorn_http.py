"""The API's HTTP protocol for uvicorn: `--http schema.uvicorn_http:SibylHttpProtocol` (as `sibyl run`,
the Dockerfile and docker-compose.yml pass it). It lives in `schema.transport.uvicorn_http`."""

from __future__ import annotations

from schema.transport.uvicorn_http import SibylHttpProtocol, http_protocol

__all__ = ["SibylHttpProtocol", "http_protocol"]
