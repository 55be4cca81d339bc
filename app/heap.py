"""Keep the garbage collector off what lives as long as the process, and out of each request's way.

A server builds its long-lived objects (the schema, pools, caches, imported modules) at startup.
Left in the collector's generations, every full collection walks them again while requests are
served, which on a busy API is a large share of its CPU. Freezing them once startup is done moves
them to a permanent generation the collector never scans (the approach CPython documents for
`gc.freeze`), so collections cost what the requests allocate.

A request for a page of 200 claims allocates tens of thousands of container objects (ORM rows and
their states, GraphQL objects, result dictionaries), nearly all freed by reference counting when
the request ends. With CPython's default threshold of 700 allocations the young generation is
collected dozens of times per request, and each collection promotes the objects of the requests
still in flight to the older generations, where later collections walk them again. Collecting the
young generation every `YOUNG_GENERATION_THRESHOLD` allocations instead cut the API's CPU per
request by about a fifth in `bench.partner_api`; cyclic garbage waits a little longer (a few MB).
"""

from __future__ import annotations

import gc

#: Allocations (minus deallocations) of container objects between young-generation collections.
YOUNG_GENERATION_THRESHOLD = 20_000


def freeze_startup_heap() -> None:
    """Collect startup garbage, exempt everything still alive from future collections, and collect
    the young generation less often (the older generations' thresholds stay CPython's)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_GENERATION_THRESHOLD, middle, old)
