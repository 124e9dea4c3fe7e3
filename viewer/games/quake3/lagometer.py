"""The lagometer (``cg_lagometer 1``, the default) in the lower right corner, as ``CG_DrawLagometer`` draws it
while a demo plays.

The ``lagometer`` picture (``gfx/2d/lag``) fills the 48 × 48 box at (592, 432); over it, one screen pixel column
per sample, the newest at the right edge (``ax + aw - a`` for the ``a``-th newest: the newest falls just outside
the box), as many columns as the box is pixels wide (the samples are a ring of 128):

- Top third: a bar per drawn frame from the middle line, ``cg.time`` minus the newest snapshot's server time over
  300 ms per third: below the line in blue while the frame interpolates (the snapshot after it has arrived),
  above it in yellow while it extrapolates.  In a demo the client reads snapshots until one lies after
  ``cg.time``, so the bars are blue and as long as the time left to that snapshot.  The viewer does not know when
  the recording engine would draw, so the frames are those of a steady ``com_maxfps 85`` client (a frame every
  11 ms on a fixed grid of the demo's clock: the graph scrolls, it does not jitter).
- Bottom half: a bar per snapshot read (``CG_AddLagometerSnapshotInfo``), its ping over 900 ms per half: green,
  yellow when the server held it back (``SNAPFLAG_RATE_DELAYED``), and a full red bar for each snapshot that never
  came (message numbers skipped before it).  A demo's client sends no packets, so the ping it computes is its whole
  running time, always past 900 ms: every green bar is full height (as the engine shows it).

The graph starts empty at each gamestate (the cgame restarts with its map).

References: ioquake3 ``code/cgame/cg_draw.c`` (``CG_DrawLagometer``, ``CG_AddLagometerFrameInfo``,
``CG_AddLagometerSnapshotInfo``), ``cg_snapshot.c`` (``CG_ReadNextSnapshot``, ``CG_ProcessSnapshots``),
``code/client/cl_parse.c`` (``CL_ParseSnapshot``: the ping), ``cl_cgame.c`` (``CL_SetCGameTime``: demo reading).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline

from ...render.refdef import HudQuad

__all__ = ["LAGOMETER_PIC", "Lagometer", "frame_samples", "lagometer_at", "lagometer_quads", "snapshot_samples"]

LAGOMETER_PIC = "gfx/2d/lag"
LAG_SAMPLES = 128
MAX_LAGOMETER_PING = 900
MAX_LAGOMETER_RANGE = 300
#: Milliseconds between the frames of the imagined client (``com_maxfps`` 85).
FRAME_MSEC = 1000 // 85
SNAPFLAG_RATE_DELAYED = 1
#: Snapshot sample kinds: none yet, read, read but rate delayed, dropped.
NONE, RECEIVED, RATE_DELAYED, DROPPED = 0, 1, 2, 3
YELLOW, BLUE, GREEN, RED = (1.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.0, 1.0, 0.0), (1.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Lagometer:
    """The samples at one time, newest first: ``frames`` i8 [N] (ms of ``cg.time`` past the newest snapshot,
    0 = no frame), ``snapshots`` i1 [N] (:data:`RECEIVED`, :data:`RATE_DELAYED`, :data:`DROPPED` or :data:`NONE`)."""

    frames: np.ndarray
    snapshots: np.ndarray


def _segment_bounds(timeline: DemoTimeline, t: float) -> tuple[int, int]:
    """(first frame of the segment holding ``t``, the frame after its last)."""
    frame = min(int(np.searchsorted(timeline.times, t, side="right")), len(timeline.times) - 1)
    segment = next((s for s in timeline.segments if s.start_frame <= frame < s.end_frame), None)
    if segment is None:
        return 0, len(timeline.times)
    return segment.start_frame, segment.end_frame


#: Per timeline, per segment (first frame, end): its snapshot times in whole ms, and the snapshot samples of the
#: whole segment oldest first with the end of each frame's in that sequence (worked out once: a played demo asks
#: every frame).
_SEGMENTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _segment_samples(timeline: DemoTimeline, first: int, end: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(times ms i8 [N], samples i1 [M], ends i8 [N])`` of the segment's frames ``first`` … ``end - 1``: each
    frame's snapshot read after as many dropped ones as message numbers were skipped before it (at most
    :data:`LAG_SAMPLES`, all a graph shows)."""
    segments = _SEGMENTS.setdefault(timeline, {})
    found = segments.get((first, end))
    if found is None:
        times = np.round(timeline.times[first:end] * 1000.0).astype(np.int64)
        window = timeline.stats_window(first, end)
        kinds = np.where(window["snap_flags"] & SNAPFLAG_RATE_DELAYED, RATE_DELAYED, RECEIVED).astype(np.int8)
        drops = np.clip(window["snap_drops"], 0, LAG_SAMPLES).astype(np.int64)
        samples = np.repeat(np.stack([np.full(len(kinds), DROPPED, np.int8), kinds], axis=1).ravel(),
                            np.stack([drops, np.ones(len(kinds), np.int64)], axis=1).ravel())
        found = segments[(first, end)] = (times, samples, np.cumsum(drops + 1))
    return found


def frame_samples(timeline: DemoTimeline, t: float, count: int = LAG_SAMPLES) -> np.ndarray:
    """The last ``count`` frames' offsets at ``t`` (ms, newest first; 0 before the segment's first snapshot)."""
    first, end = _segment_bounds(timeline, t)
    times = _segment_samples(timeline, first, end)[0]
    if not len(times):
        return np.zeros(count, np.int64)
    now = int(round(t * 1000.0)) // FRAME_MSEC
    frames = (now - np.arange(count, dtype=np.int64)) * FRAME_MSEC
    latest = np.minimum(np.searchsorted(times, frames, side="right"), len(times) - 1)
    offsets = frames - times[latest]
    offsets[frames < times[0]] = 0
    return offsets


def snapshot_samples(timeline: DemoTimeline, t: float, count: int = LAG_SAMPLES) -> np.ndarray:
    """The last ``count`` snapshot samples at ``t`` (newest first): the client has read every snapshot up to the
    first one after ``t``, each after as many dropped ones as message numbers were skipped before it (``count``
    up to :data:`LAG_SAMPLES`)."""
    first, end = _segment_bounds(timeline, t)
    out = np.full(count, NONE, np.int8)
    if end <= first:
        return out
    latest = min(int(np.searchsorted(timeline.times, t, side="right")), end - 1)
    _, samples, ends = _segment_samples(timeline, first, end)
    stop = int(ends[latest - first])
    newest = samples[max(stop - count, 0):stop][::-1]
    out[:len(newest)] = newest
    return out


def _column_quads(xs: list[int], tops: list[int], bottoms: list[int], colors: list[int],
                  palette: tuple[tuple[float, float, float], ...]) -> list[HudQuad]:
    """Fills for pixel columns ``xs`` (right to left) from ``tops`` to ``bottoms`` in ``palette[colors]``; empty
    columns are skipped and neighbours alike joined into one fill (a few dozen columns: plain lists)."""
    quads: list[HudQuad] = []
    start = last = -1
    for i in range(len(xs) + 1):
        if i < len(xs) and bottoms[i] <= tops[i]:
            continue
        if i < len(xs) and start >= 0 and xs[i] == xs[last] - 1 and tops[i] == tops[last] \
                and bottoms[i] == bottoms[last] and colors[i] == colors[last]:
            last = i
            continue
        if start >= 0:
            quads.append(HudQuad("pic", "<white>", xs[last], tops[start], xs[start] - xs[last] + 1,
                                 bottoms[start] - tops[start], 1.0, palette[colors[start]]))
        start = last = i
    return quads


def lagometer_quads(samples: Lagometer, screen_size: tuple[int, int]) -> list[HudQuad]:
    """The graph's bars over the box at (592, 432, 48, 48) of a ``screen_size`` screen (the picture under them is
    the caller's); the bars are whole pixels, rounded like a rasteriser does."""
    sx, sy = screen_size[0] / 640.0, screen_size[1] / 480.0
    ax, ay, aw, ah = 592 * sx, 432 * sy, 48 * sx, 48 * sy
    a = np.arange(int(aw))
    xs = np.round(ax + aw - a).astype(np.int64).tolist()
    frame_range = ah / 3
    mid = ay + frame_range
    v = np.clip(samples.frames[a % len(samples.frames)] * (frame_range / MAX_LAGOMETER_RANGE), -frame_range,
                frame_range)
    tops = np.round(np.where(v > 0, mid - v, mid)).astype(np.int64).tolist()
    bottoms = np.round(np.where(v > 0, mid, mid - v)).astype(np.int64).tolist()
    quads = _column_quads(xs, tops, bottoms, (v < 0).astype(np.int64).tolist(), (YELLOW, BLUE))
    kinds = samples.snapshots[a % len(samples.snapshots)].astype(np.int64).tolist()
    # every ping of a demo is past MAX_LAGOMETER_PING: each bar is full height
    top, bottom = round(ay + ah - ah / 2), round(ay + ah)
    quads += _column_quads(xs, [top if kind != NONE else bottom for kind in kinds], [bottom] * len(kinds), kinds,
                           ((0.0, 0.0, 0.0), GREEN, YELLOW, RED))
    return quads


def lagometer_at(timeline: DemoTimeline, t: float) -> Lagometer:
    """The samples the lagometer shows at ``t``."""
    return Lagometer(frame_samples(timeline, t), snapshot_samples(timeline, t))
