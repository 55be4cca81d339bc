"""Outbound network access: the one guarded fetcher every retrieval goes through."""
