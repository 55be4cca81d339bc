"""Relay global ids: events name claims by bare UUID while the graph names them by global id."""

from __future__ import annotations

import base64
import binascii


def node_uuid(global_id: str) -> str | None:
    """The node id inside a global id (`base64("Type:id")`), or None if `global_id` is not one."""
    try:
        decoded = base64.b64decode(global_id, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    _, separator, node_id = decoded.partition(":")
    return node_id if separator and node_id else None
