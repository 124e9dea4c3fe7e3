"""The effects a scene needs beyond entities: particles, dynamic lights, lightning beams and (QuakeWorld)
explosion sprites at time ``t``.

:class:`SceneEffects` is prepared once per timeline (the particle emitters and the beam list), then sampled for
any ``t`` in any order, like the timeline itself.

References: QuakeSpasm ``cl_tent.c`` (``CL_ParseBeam`` — a newer beam of the same entity replaces the older,
beams live 0.2 s; ``CL_UpdateTEnts`` — a beam is drawn as its model repeated every 30 units with a random roll,
starting at the view origin when the beam belongs to the view entity); QuakeWorld ``cl_tent.c``
(``CL_UpdateExplosions`` — ``TE_EXPLOSION`` also shows ``progs/s_explod.spr``, one frame per 0.1 s);
``r_part.c`` and ``cl_main.c`` via :mod:`viewer.games.quake.fx`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from assets_loader.demos import DemoTimeline, SceneState
from assets_loader.demos.events import TempEntityEvent

from ...render.refdef import Camera, Lights, Particles, SegmentAssets
from ..base import EffectModel, ShadedDraws
from .fx import Emitters, Trail, TrailTracks, build_emitters, dynamic_lights, particles_at, trail_window

BEAM_LIFE = 0.2
BEAM_STEP = 30.0
#: The model each beam temp entity draws (``CL_ParseTEnt``).
BEAM_MODELS = {"lightning1": "progs/bolt.mdl", "lightning2": "progs/bolt2.mdl", "lightning3": "progs/bolt3.mdl",
               "beam": "progs/beam.mdl"}
EXPLOSION_SPRITE = "progs/s_explod.spr"
EXPLOSION_FPS = 10.0
#: Frames of id's (and LibreQuake's) ``s_explod.spr``: the explosion is removed after the last one.
EXPLOSION_FRAMES = 6


@dataclass(frozen=True, slots=True)
class Beam:
    """A beam event: ``time``, ``segment``, the owning ``entity``, ``start``/``end`` ``[3]`` and its model name."""

    time: float
    segment: int
    entity: int
    start: tuple[float, float, float]
    end: tuple[float, float, float]
    model: str


@dataclass(frozen=True, slots=True)
class SceneEffects:
    """Particle emitters, beams and explosion sprites of one timeline, prepared once."""

    emitters: Emitters
    beams: tuple[Beam, ...]
    beam_times: np.ndarray
    explosion_times: np.ndarray
    explosion_origins: np.ndarray
    explosion_segments: np.ndarray
    #: segment → (its model flags' bytes, its trail tracks), made on the first frame that needs them
    trail_tracks: dict[int, tuple[bytes, TrailTracks]] = field(default_factory=dict, repr=False, compare=False)
    #: The last particles made (the key they were made for, then them): a multiview's panes ask for the same time.
    last_particles: list = field(default_factory=lambda: [None, None], repr=False, compare=False)

    @classmethod
    def for_timeline(cls, timeline: DemoTimeline) -> SceneEffects:
        tents = [e for e in timeline.events_of_kind("temp_entity") if isinstance(e, TempEntityEvent)]
        beams = tuple(Beam(e.time, e.segment, int(e.entity or 0), e.origin, e.end, BEAM_MODELS[e.name])
                      for e in tents if e.name in BEAM_MODELS and e.end is not None)
        sprites = [e for e in tents if e.name == "explosion" and timeline.game == "quakeworld"]
        return cls(build_emitters(timeline.events, timeline=timeline), beams,
                   np.array([b.time for b in beams], np.float64),
                   np.array([e.time for e in sprites], np.float64),
                   np.array([e.origin for e in sprites], np.float32).reshape(-1, 3),
                   np.array([e.segment for e in sprites], np.int32))

    def particles(self, timeline: DemoTimeline, t: float, model_flags: list[np.ndarray] | None) -> Particles:
        """Effect particles plus the trails of rockets, grenades, gibs and tracers alive at ``t`` (made once for
        the panes of a multiview asking at the same time with the same model flags)."""
        key = (id(timeline), t, None if model_flags is None else tuple(id(flags) for flags in model_flags))
        if self.last_particles[0] != key:
            trails = self.trails(timeline, t, model_flags) if model_flags is not None else []
            self.last_particles[:] = key, particles_at(self.emitters, t, trails)
        return self.last_particles[1]

    def trails(self, timeline: DemoTimeline, t: float, model_flags: list[np.ndarray]) -> list[Trail]:
        """The trails around ``t`` (as :func:`trails_from_timeline` walks them), cut from each segment's
        :class:`TrailTracks`, made once per segment and model flags."""
        if len(timeline.times) == 0:
            return []
        f_lo, f_hi = trail_window(timeline, t)
        pieces: list[tuple[int, Trail]] = []
        for segment in sorted(set(np.asarray(timeline.frame_segment)[f_lo:f_hi + 1].tolist())):
            flags = np.asarray(model_flags[segment]) if segment < len(model_flags) else np.zeros(0, np.int64)
            key = flags.tobytes()
            cached = self.trail_tracks.get(segment)
            if cached is None or cached[0] != key:
                cached = key, TrailTracks.for_segment(timeline, segment, model_flags)
                self.trail_tracks[segment] = cached
            pieces.extend(cached[1].around(timeline, t))
        pieces.sort(key=lambda piece: (piece[1].key, piece[0]))
        return [trail for _, trail in pieces]

    def lights(self, state: SceneState, t: float, model_flags: np.ndarray | None) -> Lights:
        """Dynamic lights at ``t``: explosions, muzzle flashes, bright/dim light effects, rockets."""
        flags = None
        if model_flags is not None and len(model_flags):
            flags = model_flags[np.clip(state.entities.model, 0, len(model_flags) - 1)]
        return dynamic_lights(self.emitters, state.entities, t, model_flags=flags)

    def shaded(self, state: SceneState, t: float, camera: Camera, first_person: bool,
               assets: SegmentAssets | None = None) -> ShadedDraws:
        """Nothing is drawn through shader scripts."""
        return ShadedDraws()

    def models(self, state: SceneState, t: float) -> list[EffectModel]:
        """Every beam copy and explosion sprite to draw at ``t``."""
        return self.beam_pieces(state, t) + self.explosion_sprites(state, t)

    def explosion_sprites(self, state: SceneState, t: float) -> list[EffectModel]:
        """QuakeWorld explosion sprites alive at ``t``, each at its frame (``CL_UpdateExplosions``)."""
        life = EXPLOSION_FRAMES / EXPLOSION_FPS
        lo = int(np.searchsorted(self.explosion_times, t - life, side="right"))
        hi = int(np.searchsorted(self.explosion_times, t, side="right"))
        return [EffectModel(EXPLOSION_SPRITE, self.explosion_origins[i], np.zeros(3, np.float32),
                            int((t - self.explosion_times[i]) * EXPLOSION_FPS))
                for i in range(lo, hi) if self.explosion_segments[i] == state.segment]

    def beam_pieces(self, state: SceneState, t: float) -> list[EffectModel]:
        """Every beam model copy to draw at ``t`` (the newest beam of each entity, for 0.2 s)."""
        lo = int(np.searchsorted(self.beam_times, t - BEAM_LIFE, side="right"))
        hi = int(np.searchsorted(self.beam_times, t, side="right"))
        newest: dict[int, int] = {}
        for i in range(lo, hi):
            if self.beams[i].segment == state.segment:
                newest[self.beams[i].entity] = i
        pieces: list[EffectModel] = []
        for i in sorted(newest.values()):
            beam = self.beams[i]
            start = np.asarray(state.view_origin if beam.entity == state.view_entity else beam.start, np.float64)
            pieces.extend(_beam_pieces(beam, start, i))
        return pieces


def _beam_pieces(beam: Beam, start: np.ndarray, seed: int) -> list[EffectModel]:
    """Copies of the beam model every 30 units from ``start`` to the beam's end, each with a random roll."""
    dist = np.asarray(beam.end, np.float64) - start
    length = float(np.linalg.norm(dist))
    if length < 1e-3:
        return []
    yaw = math.degrees(math.atan2(dist[1], dist[0])) % 360
    pitch = math.degrees(math.atan2(dist[2], math.hypot(dist[0], dist[1])))
    step = dist / length * BEAM_STEP
    rolls = np.random.default_rng(seed).uniform(0, 360, int(length // BEAM_STEP) + 1)
    return [EffectModel(beam.model, (start + k * step).astype(np.float32), np.array([pitch, yaw, roll], np.float32))
            for k, roll in enumerate(rolls)]
