"""Outbound network access: the one guarded fetcher every retrieval goes through."""

from app.net.fetch import Fetched, FetchFailed, FetchPolicy, FetchRefused, fetch

__all__ = ["FetchFailed", "FetchPolicy", "FetchRefused", "Fetched", "fetch"]
