"""`app.heap`: the API's startup heap is frozen and its young generation collected less often."""

from __future__ import annotations

import gc

from app.heap import YOUNG_GENERATION_THRESHOLD, freeze_startup_heap


def test_freezing_the_startup_heap_moves_it_out_of_collections_and_raises_the_young_threshold() -> None:
    before = gc.get_threshold()
    try:
        freeze_startup_heap()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (YOUNG_GENERATION_THRESHOLD, before[1], before[2])
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
