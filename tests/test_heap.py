"""viewer.heap: settling freezes what is alive out of the garbage collector; settling again or unsettling gives the
frozen objects back, so cycles that became garbage in between are still freed."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

from viewer import heap

from .conftest import LQ1

REPO = Path(__file__).resolve().parents[1]


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



_CHILD = """
import gc, sys, warnings
warnings.simplefilter("ignore")
from assets_loader.demos import load_demo
from viewer import heap
def rss():
    return int([l for l in open("/proc/self/status") if l.startswith("VmRSS:")][0].split()[1]) / 1024
before = rss()
timeline = load_demo(sys.argv[1])
gc.collect()
collected = rss()
heap.settle()
print(collected - before, rss() - before)
"""


def test_settle_gives_the_decoders_freed_memory_back() -> None:
    """After ``load_demo`` of the densest Quake demo the freed decoding temporaries stay resident (glibc keeps them)
    until ``settle`` trims the heap: what the loaded demo keeps falls by more than half (16 -> 5 MB when written)."""
    done = subprocess.run([sys.executable, "-c", _CHILD, str(LQ1 / "demo1.dem")], cwd=REPO, capture_output=True,
                          text=True, timeout=120, check=True)
    collected, settled = (float(v) for v in done.stdout.split())
    assert settled < collected / 2 and collected > 8
