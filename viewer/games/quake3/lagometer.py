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
_SNAPSHOT_COLORS = {RECEIVED: GREEN, RATE_DELAYED: YELLOW, DROPPED: RED}


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


def frame_samples(timeline: DemoTimeline, t: float, count: int = LAG_SAMPLES) -> np.ndarray:
    """The last ``count`` frames' offsets at ``t`` (ms, newest first; 0 before the segment's first snapshot)."""
    first, end = _segment_bounds(timeline, t)
    times = np.round(timeline.times[first:end] * 1000.0).astype(np.int64)
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
    first one after ``t``, each after as many dropped ones as message numbers were skipped before it."""
    first, end = _segment_bounds(timeline, t)
    latest = min(int(np.searchsorted(timeline.times, t, side="right")), end - 1)
    start = max(first, latest - count + 1)
    window = timeline.stats_window(start, latest + 1)
    kinds = np.where(window["snap_flags"] & SNAPFLAG_RATE_DELAYED, RATE_DELAYED, RECEIVED).astype(np.int8)
    drops = np.clip(window["snap_drops"], 0, count)
    order = np.repeat(np.stack([np.full(len(kinds), DROPPED, np.int8), kinds], axis=1).ravel(),
                      np.stack([drops, np.ones(len(kinds), np.int64)], axis=1).ravel())[::-1][:count]
    out = np.full(count, NONE, np.int8)
    out[:len(order)] = order
    return out


def _runs(columns: list[tuple[int, int, int, tuple[float, float, float]]]) -> list[HudQuad]:
    """Fills for ``(x, top, bottom, colour)`` pixel columns (right to left), neighbours alike joined into one."""
    quads: list[HudQuad] = []
    for x, top, bottom, color in columns:
        if bottom <= top:
            continue
        if quads:
            q = quads[-1]
            if q.x == x + 1 and q.y == top and q.y + q.h == bottom and q.tint == color:
                quads[-1] = HudQuad("pic", "<white>", x, top, q.w + 1, q.h, 1.0, color)
                continue
        quads.append(HudQuad("pic", "<white>", x, top, 1, bottom - top, 1.0, color))
    return quads


def lagometer_quads(samples: Lagometer, screen_size: tuple[int, int]) -> list[HudQuad]:
    """The graph's bars over the box at (592, 432, 48, 48) of a ``screen_size`` screen (the picture under them is
    the caller's); the bars are whole pixels, rounded like a rasteriser does."""
    sx, sy = screen_size[0] / 640.0, screen_size[1] / 480.0
    ax, ay, aw, ah = 592 * sx, 432 * sy, 48 * sx, 48 * sy
    columns = int(aw)
    frame_range = ah / 3
    mid = ay + frame_range
    scale = frame_range / MAX_LAGOMETER_RANGE
    bars: list[tuple[int, int, int, tuple[float, float, float]]] = []
    for a in range(columns):
        v = float(samples.frames[a % len(samples.frames)]) * scale
        x = round(ax + aw - a)
        if v > 0:
            v = min(v, frame_range)
            bars.append((x, round(mid - v), round(mid), YELLOW))
        elif v < 0:
            v = min(-v, frame_range)
            bars.append((x, round(mid), round(mid + v), BLUE))
    quads = _runs(bars)
    snapshot_range = ah / 2
    bars = []
    for a in range(columns):
        kind = int(samples.snapshots[a % len(samples.snapshots)])
        if kind != NONE:       # every ping of a demo is past MAX_LAGOMETER_PING: full height
            bars.append((round(ax + aw - a), round(ay + ah - snapshot_range), round(ay + ah), _SNAPSHOT_COLORS[kind]))
    return quads + _runs(bars)


def lagometer_at(timeline: DemoTimeline, t: float) -> Lagometer:
    """The samples the lagometer shows at ``t``."""
    return Lagometer(frame_samples(timeline, t), snapshot_samples(timeline, t))
