"""The HTTP and WebSocket edge: the ASGI app, uvicorn's HTTP protocol with its header limits, body
limits, authentication and rate limits, request checks, persisted queries, the per-request read
session, and the routes beside GraphQL (page images, readiness)."""
