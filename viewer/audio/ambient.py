"""The map's ambient sounds: water and wind levels from the listener's BSP leaf, fading in and out.

Every leaf of a Quake map (:meth:`~assets_loader.game_map.GameMap.ambient_levels`; other games' maps have none) stores
four ambient levels (water, sky, slime, lava; 0..255, computed by ``vis``).  The engine plays
``ambience/water1.wav`` and ``ambience/wind2.wav`` on two unspatialised looping channels (slime and lava have no
sound) at ``ambient_level`` (0.3) × the level of the leaf the listener is in, nothing below 8, and moves each
channel's volume towards that target by at most ``ambient_fade`` (100) per second.  All channels start at 0 when a
level starts (``S_StopAllSounds``).

To stay a pure function of time the fade is evaluated on a fixed grid of :data:`AMBIENT_STEP` output samples: the
volume at grid point ``j`` is the fade replayed over at least :func:`fade_history` points before it, starting from the
target there (long enough for any volume to reach any target); replays start on multiples of that length, so a
point's volume never depends on which call mixed it.

References: QuakeSpasm ``snd_dma.c`` (``S_UpdateAmbientSounds``, ``ambient_level``, ``ambient_fade``, ``S_Init``:
``ambient_sfx``), ``bspfile.h`` (``NUM_AMBIENTS``, ``AMBIENT_WATER`` … ``AMBIENT_LAVA``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from assets_loader.game_map import GameMap

from .listener import Listener, ListenerPath
from .track import SoundTrack

#: The sound of each ambient channel (``AMBIENT_WATER``, ``AMBIENT_SKY``, ``AMBIENT_SLIME``, ``AMBIENT_LAVA``).
AMBIENT_SOUNDS = ("ambience/water1.wav", "ambience/wind2.wav", "", "")
#: ``ambient_level``: leaf level → channel volume.
AMBIENT_LEVEL = 0.3
#: ``ambient_fade``: volume units per second.
AMBIENT_FADE = 100.0
#: Volumes below this are silent.
AMBIENT_MIN = 8
#: Output samples between two fade steps (0.1 s at 48 kHz).
AMBIENT_STEP = 4800


def fade_history(rate: int) -> int:
    """Grid points needed for a fade from 0 to 255 (or back)."""
    return math.ceil(255.0 / (AMBIENT_FADE * AMBIENT_STEP / rate))


def leaf_targets(map_: GameMap, origin) -> np.ndarray:
    """The four channel volumes the engine aims for at ``origin`` (f8 [4]; silence where the map keeps no
    levels)."""
    levels = map_.ambient_levels(origin)
    if levels is None:
        return np.zeros(4)
    vol = np.trunc(AMBIENT_LEVEL * levels.astype(np.float64))
    return np.where(vol < AMBIENT_MIN, 0.0, vol)


def ambient_volumes(track: SoundTrack, maps: Callable[[int], GameMap | None], listener: ListenerPath,
                    j0: int, j1: int, rate: int) -> np.ndarray:
    """Volumes f8 [j1 - j0, 4] of the ambient channels at grid points ``j0 .. j1 - 1`` (times ``j·AMBIENT_STEP``)."""
    history = fade_history(rate)
    starts = (np.arange(j0, j1) - history) // history * history     # where each point's replay begins
    first = int(starts[0]) if len(starts) else j0
    targets, segments = _targets(track, maps, listener, first, j1, rate)
    step = AMBIENT_FADE * AMBIENT_STEP / rate
    out = np.empty((j1 - j0, 4))
    for begin in np.unique(starts):
        b = int(begin) - first
        vol = targets[b].copy()
        for i in range(b, j1 - first):
            if i > b:   # the fade during (t[i-1], t[i]], towards the leaf of t[i-1]; a new level starts at 0
                vol = np.zeros(4) if segments[i] != segments[i - 1] else vol + np.clip(
                    targets[i - 1] - vol, -step, step)
            j = i + first - j0
            if j >= 0 and starts[j] == begin:
                out[j] = vol
    return out


def _targets(track: SoundTrack, maps: Callable[[int], GameMap | None], listener: ListenerPath, first: int,
             end: int, rate: int) -> tuple[np.ndarray, np.ndarray]:
    """Target volumes f8 [n, 4] and segments i8 [n] at grid points ``first .. end - 1``."""
    times = np.arange(first, end) * (AMBIENT_STEP / rate)
    segments = np.array([track.segment_at(float(t)) for t in times], np.int64)
    targets = np.zeros((len(times), 4))
    for seg in np.unique(segments):
        map_ = maps(int(seg))
        if map_ is None:
            continue
        rows = np.flatnonzero((segments == seg) & (times >= track.segment_start[seg]))
        if isinstance(listener, Listener):
            targets[rows] = leaf_targets(map_, listener.origin)
        else:
            for r in rows:
                targets[r] = leaf_targets(map_, listener(float(times[r])).origin)
    return targets, segments
