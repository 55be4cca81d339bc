"""Keep the garbage collector off what lives as long as the process.

A server builds its long-lived objects (the schema, pools, caches, imported modules) at startup.
Left in the collector's generations, every full collection walks them again while requests are
served, which on a busy API is a large share of its CPU. Freezing them once startup is done moves
them to a permanent generation the collector never scans (the approach CPython documents for
`gc.freeze`), so collections cost what the requests allocate.
"""

from __future__ import annotations

import gc


def freeze_startup_heap() -> None:
    """Collect startup garbage, then exempt everything still alive from future collections."""
    gc.collect()
    gc.freeze()
