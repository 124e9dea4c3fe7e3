"""Keep Python's cyclic garbage collector off the frame budget once a demo is loaded.

A loaded demo leaves tens of thousands of long-lived container objects (events, segment records, asset tables).
CPython's oldest-generation collection walks all of them: 12–15 ms of CPU on ``demo1_lite.dem`` — one whole frame at
60 Hz, landing on whichever frame happens to allocate past the threshold.  :func:`settle` collects once and then
freezes what is alive (``gc.freeze``): later collections skip it, so a full collection during playback costs only
what was allocated since (``benchmarks/bench_scene.py`` prints both figures).  :func:`unsettle` hands the frozen
objects back to the collector before the demo is closed, so the cycles among them can be freed.

Decoding also leaves freed memory behind: the decoders' temporary arrays are freed, but glibc keeps freed heap pages
(and, once large blocks were freed, serves later ones from the heap instead of fresh mappings) until asked to give
them back. :func:`settle` asks (``malloc_trim(0)``, where the C library has it): on ``demo1.dem`` the memory a
loaded demo keeps falls from 16 to 5 MB (``benchmarks/bench_timeline_memory.py``).

References: Python documentation, ``gc.freeze`` / ``gc.unfreeze`` (3.7+); glibc ``malloc_trim(3)``.
"""

from __future__ import annotations

import ctypes
import gc

__all__ = ["settle", "trim", "unsettle"]


def settle() -> None:
    """Collect everything (frozen objects included) now, then move what is alive to the permanent generation: after
    loading a demo, a map, or a demo's next level."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _trim_malloc()


def trim() -> None:
    """Give the heap pages freed so far back to the system (after a map segment is loaded and uploaded: its decoded
    images are freed then)."""
    _trim_malloc()


def unsettle() -> None:
    """Return the frozen objects to the collector (before closing the demo they belong to)."""
    gc.unfreeze()


def _trim_malloc() -> None:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim``; nothing elsewhere)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return
    trim(0)
