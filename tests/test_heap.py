"""viewer.heap: settling freezes what is alive out of the garbage collector; settling again or unsettling gives the
frozen objects back, so cycles that became garbage in between are still freed."""

from __future__ import annotations

import gc
import weakref

from viewer import heap


class _Node:
    def __init__(self) -> None:
        self.me = self      # a reference cycle: only the cyclic collector frees it


def test_settle_freezes_and_unsettle_thaws() -> None:
    try:
        heap.settle()
        assert gc.get_freeze_count() > 0
    finally:
        heap.unsettle()
    assert gc.get_freeze_count() == 0


def test_a_cycle_dropped_while_frozen_is_freed_by_the_next_settle() -> None:
    node = _Node()
    alive = weakref.ref(node)
    try:
        heap.settle()
        del node
        gc.collect()
        assert alive() is not None          # frozen: the collector does not look at it
        heap.settle()
        assert alive() is None              # settling again collects the frozen objects first
    finally:
        heap.unsettle()
