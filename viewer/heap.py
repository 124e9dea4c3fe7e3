"""Keep Python's cyclic garbage collector off the frame budget once a demo is loaded.

A loaded demo leaves tens of thousands of long-lived container objects (events, segment records, asset tables).
CPython's oldest-generation collection walks all of them: 12–15 ms of CPU on ``demo1_lite.dem`` — one whole frame at
60 Hz, landing on whichever frame happens to allocate past the threshold.  :func:`settle` collects once and then
freezes what is alive (``gc.freeze``): later collections skip it, so a full collection during playback costs only
what was allocated since (``benchmarks/bench_scene.py`` prints both figures).  :func:`unsettle` hands the frozen
objects back to the collector before the demo is closed, so the cycles among them can be freed.

References: Python documentation, ``gc.freeze`` / ``gc.unfreeze`` (3.7+).
"""

from __future__ import annotations

import gc

__all__ = ["settle", "unsettle"]


def settle() -> None:
    """Collect everything (frozen objects included) now, then move what is alive to the permanent generation: after
    loading a demo, a map, or a demo's next level."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def unsettle() -> None:
    """Return the frozen objects to the collector (before closing the demo they belong to)."""
    gc.unfreeze()
