"""Entity rows → timeline columns: the per-protocol row layout, alpha decoding and the alias pose history.

A decoder appends one packed row per entity state and frame (:class:`RowLayout` says how a protocol packs it); at
the end the rows become the :class:`~assets_loader.demos.timeline.DemoTimeline` entity columns (``number``, ``model``,
``frame``, ``colormap``, ``skin``, ``effects``, ``origin``, ``angles``, ``alpha``, ``scale``, ``frame_interval``),
sorted by entity number within each frame, plus ``prev_frame`` / ``frame_time`` from :func:`pose_history`.

Alpha is decoded here and nowhere else: NetQuake 666/999 ``ENTALPHA`` bytes (:func:`decode_entalpha`) and FTE
``U_TRANS`` bytes (:func:`decode_fte_trans`).

References: QuakeSpasm ``protocol.h`` ``ENTALPHA_DECODE``, ``cl_parse.c`` ``CL_ParseUpdate`` (pose history reset);
FTE ``protocol.h`` ``U_TRANS``; ezQuake ``cl_ents.c`` ``CL_ParseDelta``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Sequence

import numpy as np

from ..timeline import EntityStates

__all__ = ["RowLayout", "decode_entalpha", "decode_fte_trans", "pose_history", "states_from_rows",
           "POSE_RESET_GAP"]

#: An entity not updated for longer than this restarts its pose history (``CL_ParseUpdate``: 0.2 s).
POSE_RESET_GAP = 0.2

Columns = dict[str, np.ndarray]


def decode_entalpha(a: np.ndarray) -> np.ndarray:
    """NetQuake ``ENTALPHA`` byte column → opacity f4 (0 = default = opaque, else ``(a - 1) / 254``)."""
    return np.where(a == 0, 1.0, (a - 1.0) / 254.0).astype(np.float32)


def decode_fte_trans(t: np.ndarray) -> np.ndarray:
    """FTE ``U_TRANS`` byte column → opacity f4 (0 = not sent and 255 = opaque, else ``t / 254``)."""
    return np.where((t == 0) | (t == 255), 1.0, t / 254.0).astype(np.float32)


@dataclass(frozen=True, slots=True)
class RowLayout:
    """How a protocol packs an entity state: ``row`` packs a state tuple, ``dtype`` reads packed rows back,
    ``numbers`` gives the entity-number column of such an array, ``columns`` all timeline columns but the pose
    history."""

    row: struct.Struct
    dtype: np.dtype
    numbers: Callable[[np.ndarray], np.ndarray]
    columns: Callable[[np.ndarray], Columns]

    def read(self, blob: bytes | bytearray) -> np.ndarray:
        return np.frombuffer(blob, self.dtype)


def states_from_rows(layout: RowLayout, items: Sequence[tuple[int, Sequence[Any]]]) -> EntityStates:
    """:class:`EntityStates` of ``(number, state)`` pairs (baselines, statics: static entities use number -1)."""
    if not items:
        return EntityStates.empty()
    pack = layout.row.pack
    blob = b"".join(pack(*state) for _, state in items)
    c = layout.columns(layout.read(blob))
    frame = c["frame"]
    return EntityStates(np.asarray([k for k, _ in items], np.int32), c["model"], frame, frame.copy(),
                        np.ones(len(items), np.float32), c["skin"], c["colormap"], c["effects"], c["origin"],
                        c["angles"], c["alpha"], c["scale"])


def pose_history(number: np.ndarray, model: np.ndarray, frame: np.ndarray, frame_of_row: np.ndarray,
                 times: np.ndarray, frame_segment: np.ndarray, since: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Per entity state: the previous pose and when the current pose started (vectorised over all rows).

    Follows ``CL_ParseUpdate``: the pose history resets (prev = current) when the entity is new in its segment,
    its model changed, or it was not updated for more than :data:`POSE_RESET_GAP`; otherwise a changed ``frame``
    makes the old value ``prev_frame`` and starts the blend at the previous message time (when the engine would
    parse it).  ``since`` (f8, one per row) is when each row's entity was last seen before it, for rows that are a
    subset of an entity's rows (each left out repeats the row before it: same pose, segment and model); by default,
    the time of the row before it here.
    """
    n = len(number)
    if n == 0:
        return np.zeros(0, np.int32), np.zeros(0, np.float64)
    key = number.astype(np.uint16) if number.max(initial=0) < 65536 else number
    order = np.argsort(key, kind="stable")            # group by entity, in frame order
    g_num, g_frame, g_model = number[order], frame[order], model[order]
    g_f = frame_of_row[order]
    g_seg = frame_segment[g_f]
    t = times[g_f]
    seen = t[:-1] if since is None else since[order][1:]
    reset = np.ones(n, bool)
    reset[1:] = ((g_num[1:] != g_num[:-1]) | (g_seg[1:] != g_seg[:-1]) | (g_model[1:] != g_model[:-1])
                 | (t[1:] - seen > POSE_RESET_GAP))
    changed = np.zeros(n, bool)
    changed[1:] = g_frame[1:] != g_frame[:-1]
    start = reset | changed
    prev_at_start = g_frame.copy()
    prev_at_start[1:] = np.where(reset[1:], g_frame[1:], g_frame[:-1])
    before = np.maximum(g_f - 1, 0)
    same_seg = frame_segment[before] == g_seg
    time_at_start = np.where(same_seg, times[before], t)
    last = np.maximum.accumulate(np.where(start, np.arange(n), 0))
    prev_frame = np.empty(n, np.int32)
    frame_time = np.empty(n, np.float64)
    prev_frame[order] = prev_at_start[last]
    frame_time[order] = time_at_start[last]
    return prev_frame, frame_time
