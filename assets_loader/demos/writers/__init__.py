"""Demo writers: cut a range of a decoded demo into a new demo of the same format and protocol (issue 35).

:func:`cut_demo` picks the writer of the demo's format; each writer module says how its format's cut is built.
"""

from __future__ import annotations

import numpy as np

from ...errors import UnsupportedFormatError
from ..timeline import DemoTimeline
from .quake import cut_dem
from .quake2 import cut_dm2
from .quake3 import cut_quake3
from .quakeworld import cut_mvd, cut_qwd

__all__ = ["cut_demo", "frame_range", "CUT_FORMATS"]

#: The formats (``DemoTimeline.format``) a cut is written for.
CUT_FORMATS = ("dem", "qwd", "mvd", "dm2", "dm_66", "dm_67", "dm_68", "dm_71", "dm_73", "dm_90", "dm_91")


def frame_range(timeline: DemoTimeline, start: float, end: float) -> tuple[int, int]:
    """The first and last frame of ``timeline`` whose playback times lie in ``start..end`` (seconds of
    ``timeline.times``); ``ValueError`` when none does."""
    times = timeline.times
    first = int(np.searchsorted(times, start - 1e-6, side="left"))
    last = int(np.searchsorted(times, end + 1e-6, side="right")) - 1
    if first > last:
        raise ValueError(f"no frame between {start:.3f} and {end:.3f} s")
    return first, last


def cut_demo(data: bytes, timeline: DemoTimeline, start: float, end: float) -> bytes:
    """The bytes of a demo holding ``start..end`` (seconds of ``timeline.times``) of the demo ``data``, which
    ``timeline`` was decoded from.  ``ValueError`` for an empty range, :class:`FormatError` for a format with no
    writer yet or a demo that does not walk."""
    first, last = frame_range(timeline, start, end)
    if timeline.format == "dem":
        return cut_dem(data, timeline.path, first, last)
    if timeline.format == "qwd":
        return cut_qwd(data, timeline.path, first, last)
    if timeline.format == "dm2":
        return cut_dm2(data, timeline.path, first, last)
    if timeline.format.startswith("dm_"):
        return cut_quake3(data, timeline.path, first, last)
    if timeline.format == "mvd":
        return cut_mvd(data, timeline.path, first, last)
    raise UnsupportedFormatError(timeline.path, timeline.format, None, f"a demo qdv can cut ({', '.join(CUT_FORMATS)})",
                                 timeline.format)
