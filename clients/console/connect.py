"""The API client a command talks through, from its command-line options."""

from __future__ import annotations

import argparse

from clients.sibyl.client import SibylClient


def client_for(args: argparse.Namespace) -> SibylClient:
    """A client for `--server` and `--api-key`, with persisted queries unless turned off."""
    return SibylClient(args.server, args.api_key, persisted_queries=getattr(args, "persisted_queries", True))
