"""The pure mixer: any span of a demo's sound, as int16 stereo at 48 kHz, from the time alone.

``Mixer(timeline, sounds).mix(t0, t1, listener)`` (or :func:`mix` for one call) renders the output samples
``round(t0·R) .. round(t1·R) - 1`` (R = :data:`~.sounds.OUTPUT_RATE`) of three kinds of sound:

* **dynamic sounds** (:class:`~.track.SoundTrack` commands, ``S_StartSound``): a sound plays from its start time
  until its end, or forever when it loops (a ``cue`` loop point), unless cut first: a later sound on the same
  entity and channel replaces it (never on channel 0: ``SND_PickChannel``), a ``stopsound`` on that entity and
  channel stops the newest one started (``S_StopSound``), a new level stops everything (``S_StopAllSounds``).  A
  sound nobody could hear when it started (both sides 0) never plays, but still cuts what its channel played.  Two
  starts of one sound in the same frame are offset by a pseudo-random 0..0.1 s, as the engine does (the offset is a
  hash of the command's index, so it is the same every time).  Quake III (``GameSchema`` ``sound_*``) differs:
  sounds on one channel overlap, and a sound its entity started less than 50 ms before is dropped instead.  A
  sound attached to an entity moves with it: its position is the start origin plus how far the entity moved since
  (``entity_origins``), while the entity exists.  A ``loop`` sound (Quake III's looping entity sounds,
  ``S_AddLoopingSound``) repeats from its first sample until its ``stopsound``, and is heard even if it was not
  when it started;
* **static sounds** (``S_StaticSound``): looped from the start of their level; non-looping ones are refused like the
  engine refuses them; copies of one sound are summed into one voice, as ``S_Update`` combines them;
* **ambient sounds** (:mod:`.ambient`) when the level's map is known, in the games whose maps have them
  (``GameSchema.leaf_ambients``: Quake and QuakeWorld; never loaded for the others).

Volumes come from :func:`~.listener.spatialize` on a grid of :data:`GAIN_BLOCK` output samples (the engine
respatialises once per frame) and are interpolated linearly between grid points; 8-bit sounds are clamped at 255 per
side (``SND_PaintChannelFrom8``).  The sum is scaled by ``volume`` (the engine's ``volume``, 0.7), clipped to
16 bits and halved (``S_PaintChannels``'s 6 dB of headroom).

Pure: sample ``n`` depends only on ``n`` and the listener (a fixed :class:`~.listener.Listener` or a function of
time), never on earlier calls — start positions derive from event times and every grid is absolute — so mixing
``[t0, t1)`` in one call equals mixing ``[t0, tm)`` and ``[tm, t1)``.

References: QuakeSpasm ``snd_dma.c`` (``S_StartSound``, ``SND_PickChannel``, ``SND_Spatialize``, ``S_StopSound``,
``S_StaticSound``, ``S_Update``), ``snd_mix.c`` (``S_PaintChannels``, ``SND_PaintChannelFrom8`` / ``16``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from assets_loader.game_map import GameMap
from assets_loader.demos import DemoTimeline

from .ambient import AMBIENT_SOUNDS, AMBIENT_STEP, ambient_volumes
from .listener import NOMINAL_CLIP_DISTANCE, ListenerPath, listener_at, spatialize
from .sounds import MixSound, SoundBank, player_sound_fallback
from .track import LOCAL_ENTITY, STOP, SoundTrack, entity_origins, sound_track

#: Output samples between two spatialisation updates (~10.7 ms at 48 kHz).
GAIN_BLOCK = 512
#: ``volume`` cvar default.
DEFAULT_VOLUME = 0.7
#: Largest start offset of a sound started twice in one frame, seconds (``S_StartSound``).
DUPLICATE_SKIP = 0.1
_NO_ENTITY = -(1 << 30)    # listener without an entity
_NEVER = 1 << 62           # output sample "after the end of time"


@dataclass(frozen=True, slots=True)
class _Voices:
    """The dynamic sounds that can play, one row each (sorted by start)."""

    time: np.ndarray        # f8 start time
    start: np.ndarray       # i8 output sample of the start
    end: np.ndarray         # i8 output sample after the last one (cut, natural end)
    skip: np.ndarray        # i8 samples skipped at the start
    sound: np.ndarray       # i4 index into Mixer.sounds
    entity: np.ndarray      # i4
    master: np.ndarray      # f8 0..255
    dist_mult: np.ndarray   # f8
    origin: np.ndarray      # f8 [V, 3]
    base: np.ndarray        # f8 [V, 3] the entity's origin when it started
    follow: np.ndarray      # bool: the entity was there when it started
    loop: np.ndarray        # bool: a looping entity sound (Quake III), heard wherever it started


class Mixer:
    """Mixes one timeline (rules: module docstring).  ``maps(segment)`` gives a segment's map for ambient sounds
    (``None``: none); ``static`` / ``ambient`` switch those sounds off."""

    def __init__(self, timeline: DemoTimeline, sounds: SoundBank,
                 maps: Callable[[int], GameMap | None] | None = None, *, volume: float = DEFAULT_VOLUME,
                 static: bool = True, ambient: bool = True) -> None:
        self.timeline = timeline
        self.rate = sounds.rate
        self.volume = volume
        self.track = track = sound_track(timeline)
        schema = timeline.schema
        self._placing = {"full_distance": schema.sound_full_distance, "separation": schema.sound_separation}
        self._replace = schema.sound_channel_replace
        self._repeat_gap = schema.sound_repeat_gap
        self.sounds: tuple[MixSound | None, ...] = tuple(
            sounds.get(name, player_sound_fallback(name, schema.default_player_sounds)) for name in track.names)
        self._voices = self._dynamic_voices(track)
        self._statics = track.statics if static else track.statics[:0]
        for i in np.unique(self._statics["sound"]):
            snd = self.sounds[i]
            if snd is not None and snd.loop_start is None:
                warnings.warn(f"static sound {snd.name} is not looped: not played", stacklevel=2)
        ambient = ambient and maps is not None and timeline.schema.leaf_ambients   # Quake's maps only
        self._maps = maps if ambient else None
        self._ambient = tuple(sounds.get(name) if name and ambient else None for name in AMBIENT_SOUNDS)

    # --- setup --------------------------------------------------------------------------------------------------

    def _dynamic_voices(self, track: SoundTrack) -> _Voices:
        cmd = track.commands
        n = len(cmd)
        cut = np.full(n, np.inf)
        playing: dict[tuple[int, int, int], int] = {}
        for i, (seg, ent, chan, snd, t) in enumerate(zip(cmd["segment"].tolist(), cmd["entity"].tolist(),
                                                         cmd["channel"].tolist(), cmd["sound"].tolist(),
                                                         cmd["time"].tolist())):
            key = (seg, ent, chan)
            if snd == STOP:
                j = playing.pop(key, None)
                if j is not None:
                    cut[j] = min(cut[j], t)
                continue
            if self._replace and chan != 0 and ent != LOCAL_ENTITY and key in playing:
                j = playing[key]
                cut[j] = min(cut[j], t)
            playing[key] = i
        starts = cmd["sound"] != STOP
        if len(track.segment_end):      # a new level stops everything
            cut = np.minimum(cut, track.segment_end[np.clip(cmd["segment"], 0, len(track.segment_end) - 1)])
        lengths = np.array([len(s) if s is not None else 0 for s in self.sounds], np.int64)
        looped = np.array([s is not None and s.loop_start is not None for s in self.sounds], bool)
        playable = starts & (lengths[np.maximum(cmd["sound"], 0)] > 0)
        if self._repeat_gap > 0:
            playable &= ~_repeats(cmd, playable, self._repeat_gap)
        keep = np.flatnonzero(playable)
        c = cmd[keep]
        rate = self.rate
        start = np.floor(c["time"] * rate + 0.5).astype(np.int64)
        length = lengths[c["sound"]]
        if self._repeat_gap > 0:
            skip = np.zeros(len(c), np.int64)
        else:
            skip = _duplicate_skips(c, length, int(DUPLICATE_SKIP * rate))
        cut_n = np.floor(np.minimum(cut[keep] * rate + 0.5, _NEVER)).astype(np.int64)
        end = np.minimum(cut_n, np.where(looped[c["sound"]] | c["loop"], _NEVER, start + length - skip))
        origin = c["origin"].astype(np.float64)
        base, follow = entity_origins(self.timeline, c["frame"], c["entity"])
        follow &= c["entity"] >= max(self.timeline.schema.client_entity_offset, 0)   # not Quake's world
        return _Voices(c["time"], start, end, skip, c["sound"], c["entity"], np.rint(c["volume"] * 255.0),
                       c["attenuation"] / NOMINAL_CLIP_DISTANCE, origin, base, follow, c["loop"])

    # --- mixing -------------------------------------------------------------------------------------------------

    def mix(self, t0: float, t1: float, listener: ListenerPath) -> np.ndarray:
        """int16 [n, 2] (left, right) output samples of ``[t0, t1)`` heard by ``listener``."""
        rate = self.rate
        n0 = int(np.floor(t0 * rate + 0.5))
        n1 = max(int(np.floor(t1 * rate + 0.5)), n0)
        acc = np.zeros((2, n1 - n0), np.float32)
        if n1 > n0:
            grid = _Grid(n0, n1, rate, listener)
            self._mix_dynamic(acc, grid, listener)
            self._mix_static(acc, grid)
            self._mix_ambient(acc, grid, listener)
        out = np.clip(acc * np.float32(self.volume / 256.0), -32768.0, 32767.0) * np.float32(0.5)
        return np.ascontiguousarray(out.T.astype(np.int16))

    def _mix_dynamic(self, acc: np.ndarray, grid: _Grid, listener: ListenerPath) -> None:
        v = self._voices
        active = np.flatnonzero((v.start < grid.n1) & (v.end > grid.n0))
        if len(active) == 0:
            return
        active = active[_audible_at_start(v, active, listener, self._placing) | v.loop[active]]
        if len(active) == 0:
            return
        origins = np.broadcast_to(v.origin[active], (len(grid.times), len(active), 3)).copy()
        follow = active[v.follow[active]]
        if len(follow):
            frames = np.minimum(np.searchsorted(self.timeline.times, grid.times, side="left"),
                                max(len(self.timeline.times) - 1, 0))
            now, there = entity_origins(self.timeline, frames[:, None], v.entity[follow][None, :])
            moved = v.origin[follow] + (now - v.base[follow])
            cols = np.flatnonzero(v.follow[active])
            origins[:, cols] = np.where(there[..., None], moved, origins[:, cols])
        own = (v.entity[active] == LOCAL_ENTITY)[None, :] | (v.entity[active][None, :] == grid.entity[:, None])
        left, right = spatialize(origins, grid.origin[:, None, :], grid.right[:, None, :], v.master[active][None, :],
                                 v.dist_mult[active][None, :], own, **self._placing)
        for col, i in enumerate(active.tolist()):
            snd = self.sounds[int(v.sound[i])]
            assert snd is not None
            a = max(int(v.start[i]), grid.n0)
            b = min(int(v.end[i]), grid.n1)
            _paint(acc, grid, snd, a, b, a - int(v.start[i]) + int(v.skip[i]), left[:, col], right[:, col])

    def _mix_static(self, acc: np.ndarray, grid: _Grid) -> None:
        track = self.track
        for seg in grid.segments(track):
            statics = self._statics[self._statics["segment"] == seg]
            if len(statics) == 0:
                continue
            a, b, seg_start = grid.segment_span(track, seg)
            own = np.zeros((1, len(statics)), bool)
            left, right = spatialize(statics["origin"].astype(np.float64)[None, :, :], grid.origin[:, None, :],
                                     grid.right[:, None, :], np.rint(statics["volume"] * 255.0)[None, :],
                                     statics["attenuation"][None, :] / NOMINAL_CLIP_DISTANCE, own, **self._placing)
            for sound in np.unique(statics["sound"]).tolist():
                snd = self.sounds[sound]
                if snd is None or snd.loop_start is None:
                    continue
                cols = statics["sound"] == sound
                _paint(acc, grid, snd, a, b, a - seg_start, left[:, cols].sum(axis=1), right[:, cols].sum(axis=1))

    def _mix_ambient(self, acc: np.ndarray, grid: _Grid, listener: ListenerPath) -> None:
        maps = self._maps
        if maps is None or not any(s is not None and s.loop_start is not None for s in self._ambient):
            return
        # The ambient grid is coarser than the gain grid: read the gain grid's volumes off it.
        points = grid.k0 * GAIN_BLOCK + np.arange(len(grid.times)) * GAIN_BLOCK
        j0 = int(points[0]) // AMBIENT_STEP
        j1 = -(-int(points[-1]) // AMBIENT_STEP) + 1
        volumes = ambient_volumes(self.track, maps, listener, j0, j1, self.rate)
        for seg in grid.segments(self.track):
            a, b, seg_start = grid.segment_span(self.track, seg)
            for channel, snd in enumerate(self._ambient):
                if snd is None or snd.loop_start is None:
                    continue
                vol = np.interp(points, np.arange(j0, j1) * AMBIENT_STEP, volumes[:, channel])
                if vol.any():
                    _paint(acc, grid, snd, a, b, a - seg_start, vol, vol)


def mix(timeline: DemoTimeline, t0: float, t1: float, listener: ListenerPath, sounds: SoundBank,
        maps: Callable[[int], GameMap | None] | None = None) -> np.ndarray:
    """int16 [n, 2] stereo samples of ``[t0, t1)``; build a :class:`Mixer` once instead for repeated calls."""
    return Mixer(timeline, sounds, maps).mix(t0, t1, listener)


class _Grid:
    """The output span ``[n0, n1)`` and the gain grid over it: points ``k0 .. k1`` (× GAIN_BLOCK samples) with the
    listener at each, and per output sample its grid interval and position inside it."""

    def __init__(self, n0: int, n1: int, rate: int, listener: ListenerPath) -> None:
        self.n0, self.n1, self.rate = n0, n1, rate
        self.k0 = n0 // GAIN_BLOCK
        k1 = -(-n1 // GAIN_BLOCK)
        self.times = np.arange(self.k0, k1 + 1) * (GAIN_BLOCK / rate)
        ears = [listener_at(listener, float(t)) for t in self.times]
        self.origin = np.array([e.origin for e in ears], np.float64)
        self.right = np.array([e.right for e in ears], np.float64)
        self.entity = np.array([_NO_ENTITY if e.entity is None else e.entity for e in ears], np.int64)
        n = np.arange(n0, n1)
        self.interval = n // GAIN_BLOCK - self.k0
        self.frac = ((n % GAIN_BLOCK) / GAIN_BLOCK).astype(np.float32)

    def segments(self, track: SoundTrack) -> list[int]:
        """Segments playing somewhere in the span."""
        if len(track.segment_start) == 0:
            return []
        first = track.segment_at(self.n0 / self.rate)
        last = track.segment_at((self.n1 - 1) / self.rate)
        return list(range(first, last + 1))

    def segment_span(self, track: SoundTrack, seg: int) -> tuple[int, int, int]:
        """``(a, b, start)``: the part ``[a, b)`` of the span inside segment ``seg`` and the segment's first sample."""
        start = int(np.floor(track.segment_start[seg] * self.rate + 0.5))
        end = track.segment_end[seg]
        stop = self.n1 if not np.isfinite(end) else min(self.n1, int(np.floor(end * self.rate + 0.5)))
        return max(self.n0, start), max(stop, self.n0), start


def _audible_at_start(v: _Voices, rows: np.ndarray, listener: ListenerPath, placing: dict[str, float]
                      ) -> np.ndarray:
    """Which of ``rows`` had a non-zero volume on some side when they started (``S_StartSound``)."""
    ears = [listener_at(listener, t) for t in v.time[rows].tolist()]
    origin = np.array([e.origin for e in ears], np.float64)
    right = np.array([e.right for e in ears], np.float64)
    own = (v.entity[rows] == LOCAL_ENTITY) | np.array([e.entity == ent for e, ent in zip(ears, v.entity[rows])])
    left, right_vol = spatialize(v.origin[rows], origin, right, v.master[rows], v.dist_mult[rows], own, **placing)
    return (left > 0) | (right_vol > 0)


def _repeats(commands: np.ndarray, playable: np.ndarray, gap: float) -> np.ndarray:
    """Which playable starts come less than ``gap`` seconds after the last kept start of the same sound on the same
    entity (Quake III ``S_StartSound`` drops them)."""
    out = np.zeros(len(commands), bool)
    last: dict[tuple[int, int, int], float] = {}
    for i in np.flatnonzero(playable).tolist():
        key = (int(commands["segment"][i]), int(commands["entity"][i]), int(commands["sound"][i]))
        t = float(commands["time"][i])
        if t - last.get(key, -np.inf) < gap:
            out[i] = True
        else:
            last[key] = t
    return out


def _duplicate_skips(commands: np.ndarray, length: np.ndarray, most: int) -> np.ndarray:
    """Start offsets: every start of a sound after the first in the same frame skips ``hash % min(most, length)``."""
    skip = np.zeros(len(commands), np.int64)
    seen: set[tuple[int, int]] = set()
    for i, key in enumerate(zip(commands["frame"].tolist(), commands["sound"].tolist())):
        if key in seen:
            span = int(min(most, length[i]))
            skip[i] = (i * 2654435761 >> 7) % span if span > 0 else 0
        seen.add(key)
    return skip


def _paint(acc: np.ndarray, grid: _Grid, snd: MixSound, a: int, b: int, pos: int, left: np.ndarray,
           right: np.ndarray) -> None:
    """Add ``snd`` to output samples ``[a, b)`` (absolute), reading from sound position ``pos`` on, looping, with
    per-grid-point side volumes ``left`` / ``right`` (0..255+, clamped at 255 for 8-bit sounds)."""
    if b <= a:
        return
    if snd.width == 1:
        left, right = np.minimum(left, 255.0), np.minimum(right, 255.0)
    lo, hi = a - grid.n0, b - grid.n0
    k = grid.interval[lo:hi]
    kmin, kmax = int(k[0]), int(k[-1]) + 1
    if not (left[kmin:kmax + 1].any() or right[kmin:kmax + 1].any()):
        return
    p = np.arange(pos, pos + (b - a))
    length = len(snd)
    if p[-1] >= length:
        ls = snd.loop_start if snd.loop_start is not None else 0
        over = p >= length
        p[over] = ls + (p[over] - length) % (length - ls)
    samples = snd.samples[p]
    frac = grid.frac[lo:hi]
    for side, vol in ((0, left), (1, right)):
        v = vol.astype(np.float32)
        if v[kmin] == v[kmax] and (v[kmin:kmax + 1] == v[kmin]).all():
            acc[side, lo:hi] += samples * v[kmin]
        else:
            dv = np.diff(v, append=v[-1])
            acc[side, lo:hi] += samples * (v[k] + dv[k] * frac)
