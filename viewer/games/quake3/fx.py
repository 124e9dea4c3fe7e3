"""Quake III effects of a timeline, prepared once and drawn at any time through their shaders: explosions (sprites
or models), blood puffs, impact marks, rail trails, rocket and grenade smoke, lightning beams, muzzle flashes and
the first-person weapon (:mod:`.view_weapon`) and the blood on the screen when the view is hurt
(:mod:`.view_blood`).

What each impact makes (``CG_MissileHitWall`` by weapon; an impact event's ``extra`` is its weapon, ``direction``
the surface normal):

- rocket: the ``rocketExplosion`` sprite 16 units off the wall for 1 s, growing from radius 30 to 72; a
  ``burn_med_mrk`` mark of radius 64;
- grenade: the ``grenadeExplosion`` sprite for 0.6 s; a ``burn_med_mrk`` mark of radius 64;
- plasma: ``models/weaphits/ring02.md3`` turned to the normal with the ``plasmaExplosion`` shader for 0.6 s; a
  ``plasma_mrk`` of radius 16 whose alpha fades;
- bullets (``gunshot``): ``models/weaphits/bullet.md3`` with ``bulletExplosion``; a ``bullet_mrk`` of radius 8;
- shotgun pellets: the same with a mark of radius 4, where each of the blast's 11 pellets (``CG_ShotgunPattern``:
  the engine's ``Q_crandom`` from the event's seed) first meets the map's solid space;
- lightning and anything else: a ``hole_lg_mrk`` of radius 12, no explosion.

A hit on a player (``missile_hit``) and bullets in flesh (``blood``) also make a ``bloodExplosion`` sprite of
radius 24 for 0.5 s (``CG_Bleed``; not on the followed player seen from its eyes); rocket and grenade hits on
players also explode.  Marks last 10 s, fading over the last second (colour, or alpha for plasma), the newest 256
kept (``MAX_MARK_POLYS``); each is cut to the map's surfaces under it (:mod:`.marks`), a flat square when there
is no map.  Rail trails: the ``railCore`` strip for 0.4 s fading in the shooter's ``color1``, and
``railDisc`` rings every 5 units spiralling out (``CG_RailTrail``).  Rockets and grenades leave a ``smokePuff`` every
50 ms of server time along their trajectory, each growing from 8 units and fading from a third over 2 s (rocket,
radius 64) or 0.7 s (grenade, radius 32) (``CG_RocketTrail``, ``CG_AddScaleFade``).  A player firing the lightning
gun (``EF_FIRING``) draws ``lightningBoltNew`` from its muzzle (through its own eyes: the view weapon's muzzle) to
the first wall within 768 units (``CG_LightningBolt``); gibs fly, bounce and bleed (:mod:`.gibs`); a weapon's
flash model shows for 20 ms after it fires (``MUZZLE_FLASH_TIME``), all the time while the lightning gun or
gauntlet fires.  Random rotations come from the event's index, so any time gives the same picture.  The dynamic
lights of explosions, missiles, flashes and powerups are :mod:`.lights`'.

References: ioquake3 ``code/cgame/cg_weapons.c`` (``CG_MissileHitWall``, ``CG_MissileHitPlayer``,
``CG_RailTrail``, ``CG_RocketTrail``, ``CG_LightningBolt``, ``CG_AddPlayerWeapon``), ``cg_effects.c``
(``CG_MakeExplosion``, ``CG_Bleed``), ``cg_localents.c`` (``CG_AddSpriteExplosion``, ``CG_AddScaleFade``,
``CG_AddFadeRGB``, ``CG_AddMoveScaleFade``), ``cg_marks.c`` (``CG_AddMarks``), ``cg_players.c``
(``CG_ColorFromString``).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

import numpy as np

from assets_loader.bsp46 import Bsp46World
from assets_loader.demos import DemoTimeline, SceneState
from assets_loader.demos.events import MuzzleFlashEvent, TempEntityEvent
from assets_loader.demos.quake3.game import (EF_FIRING, ET_MISSILE, ET_PLAYER, WP_GAUNTLET, WP_GRENADE_LAUNCHER,
                                             WP_LIGHTNING, WP_MACHINEGUN, WP_PLASMAGUN, WP_ROCKET_LAUNCHER,
                                             WP_SHOTGUN)
from assets_loader.demos.trajectory import TR_STATIONARY, evaluate_trajectory

from ...render.shaded.records import Md3Draw, Q3Poly
from ...render.q3.records import Quake3Segment
from ...render.refdef import Camera, Lights, Particles, SegmentAssets
from ...render.view_math import angle_vectors
from ..base import EffectModel, ShadedDraws
from . import link, shapes
from .gibs import GIB_MODELS, Gib, launch_gibs
from .items import WEAPON_MODELS
from .lights import EXPLOSION_LIGHTS, LightSource, explosion_light, muzzle_point, scene_lights
from .marks import MarkFragment, MarkSurfaces, mark_fragments
from .players import PlayerDraw, barrel_model, posed_md3
from .view_blood import BLOOD_SHADER, blood_blob, last_hurt
from .view_weapon import view_weapon

__all__ = ["EFFECT_MODELS", "EFFECT_SHADERS", "Quake3Effects", "flash_model", "prepare_effects"]

MUZZLE_FLASH_TIME = 0.020
#: Explosions start up to 63 ms before their event (``CG_MakeExplosion``'s ``rand() & 63``).
EXPLOSION_SKEW = 0.063
LIGHTNING_RANGE = 768.0
MARK_TOTAL_TIME, MARK_FADE_TIME, MAX_MARKS = 10.0, 1.0, 256
#: Marks' polygons kept as last drawn and pieces cut to the map (:meth:`Quake3Effects._mark_polys`), at most
#: this many of each.
_MAX_KEPT_MARKS = 4 * MAX_MARKS
#: The per-event caches (gib flights, pellet hits, trail puffs, explosion models) start afresh past this many entries:
#: the effects showing are worked out again, the same, and a long demo's events do not pile up.
_MAX_KEPT_EVENTS = 4096
#: How long after its time a rail (its core and rings), a gib event and a shotgun blast (their marks) show.
_LIFETIMES = {"rails": 0.6 + 2.0, "gib_events": MARK_TOTAL_TIME, "blasts": MARK_TOTAL_TIME}
#: Where the first-person weapon's flash sits from the eye (forward, right, up): the hand's ``tag_weapon`` plus
#: the gun's length, the lightning beam's start when seen through the shooter's eyes.
VIEW_MUZZLE = (30.0, 6.0, -8.0)
RAIL_TRAIL_TIME = 0.4
BLEED_TIME, BLEED_RADIUS = 0.5, 24.0
PUFF_STEP_MS = 50
#: ``DEFAULT_SHOTGUN_COUNT`` / ``DEFAULT_SHOTGUN_SPREAD``; pellets are traced this far.
SHOTGUN_COUNT, SHOTGUN_SPREAD, PELLET_RANGE = 11, 700.0, 4096.0
BLOOD_TRAIL_STEP, BLOOD_TRAIL_TIME = 0.15, 2.0
#: weapon → (trail seconds, trail radius) of its missile's smoke (``wiTrailTime``, ``trailRadius``).
SMOKE_TRAILS: Mapping[int, tuple[float, float]] = {WP_ROCKET_LAUNCHER: (2.0, 64.0), WP_GRENADE_LAUNCHER: (0.7, 32.0)}
#: Frames whose entity rows the smoke-track scan reads in one piece (bounds the copy of the extra columns).
SCAN_FRAMES = 1024
RING_MODEL, BULLET_MODEL = "models/weaphits/ring02.md3", "models/weaphits/bullet.md3"
EFFECT_MODELS = (RING_MODEL, BULLET_MODEL, *GIB_MODELS)
EFFECT_SHADERS = ("rocketExplosion", "grenadeExplosion", "plasmaExplosion", "bulletExplosion", "bloodExplosion",
                  "railCore", "railDisc", "lightningBoltNew", "smokePuff", "gfx/damage/bullet_mrk",
                  "gfx/damage/burn_med_mrk", "gfx/damage/plasma_mrk", "gfx/damage/hole_lg_mrk", "bloodMark",
                  "bloodTrail", BLOOD_SHADER)


@dataclass(frozen=True, slots=True)
class Explosion:
    """What an impact of one weapon makes: a sprite (``shader``) or a ``model`` with ``shader``, lasting
    ``duration`` s, and its mark."""

    shader: str | None
    model: str | None
    duration: float
    mark: str
    mark_radius: float
    alpha_fade: bool = False


#: ``CG_MissileHitWall`` by weapon; :data:`DEFAULT_IMPACT` for the rest.
IMPACTS: Mapping[int, Explosion] = {
    WP_ROCKET_LAUNCHER: Explosion("rocketExplosion", None, 1.0, "gfx/damage/burn_med_mrk", 64.0),
    WP_GRENADE_LAUNCHER: Explosion("grenadeExplosion", None, 0.6, "gfx/damage/burn_med_mrk", 64.0),
    WP_PLASMAGUN: Explosion("plasmaExplosion", RING_MODEL, 0.6, "gfx/damage/plasma_mrk", 16.0, True),
    WP_MACHINEGUN: Explosion("bulletExplosion", BULLET_MODEL, 0.6, "gfx/damage/bullet_mrk", 8.0),
    WP_SHOTGUN: Explosion("bulletExplosion", BULLET_MODEL, 0.6, "gfx/damage/bullet_mrk", 4.0),
}
DEFAULT_IMPACT = Explosion(None, None, 0.6, "gfx/damage/hole_lg_mrk", 12.0)


def _random(index: int, salt: int = 0) -> float:
    """A fixed pseudo-random number in [0, 1) for event ``index`` (the same at every time)."""
    x = (index * 2654435761 + salt * 40503 + 12345) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 2246822519) & 0xFFFFFFFF
    x ^= x >> 13
    return x / 2.0 ** 32


K = TypeVar("K")
V = TypeVar("V")


def _kept(cache: dict[K, V], key: K, work_out: Callable[..., V], *args) -> V:
    """``cache[key]``, ``work_out(*args)`` when missing; past :data:`_MAX_KEPT_EVENTS` entries the cache starts
    afresh."""
    found = cache.get(key)
    if found is None:
        if len(cache) >= _MAX_KEPT_EVENTS:
            cache.clear()
        found = cache[key] = work_out(*args)
    return found


def _pellet_hits(level: Bsp46World | None, blast: ShotgunBlast) -> tuple[Impact, ...]:
    """Where ``blast``'s pellets hit ``level``."""
    return tuple(Impact(blast.time, blast.segment, point, normal, WP_SHOTGUN, "missile_miss", -1)
                 for point, normal in shotgun_pattern(level, blast.origin, blast.aim, blast.seed))


def _trail_puffs(gib: Gib) -> tuple[list[int], list[tuple[float, float, float]]]:
    """The puff numbers ``k`` (at ``k`` steps) of ``gib``'s flight where its trail leaves a puff, and the gib's
    position then."""
    first = gib.flights[0].start
    numbers = [k for k in range(math.ceil(first / BLOOD_TRAIL_STEP), math.ceil(gib.end / BLOOD_TRAIL_STEP) + 1)
               if k * BLOOD_TRAIL_STEP >= first and gib.flying(k * BLOOD_TRAIL_STEP)]
    return numbers, [gib.point(k * BLOOD_TRAIL_STEP) for k in numbers]


def _explosion_model(i: int, imp: Impact, model: str, shader: str, start: float) -> Md3Draw:
    """Impact ``i``'s explosion ``model`` (with ``shader``), turned a fixed random angle about the impact's normal."""
    axis0 = imp.normal / max(float(np.linalg.norm(imp.normal)), 1e-9)
    a1 = shapes.rotate_around(axis0, shapes.perpendicular(axis0), _random(i, 4) * 360)
    axis = np.array([axis0, a1, np.cross(axis0, a1)], np.float32)
    return Md3Draw(model, imp.origin.astype(np.float32), axis, custom_shader=shader, shader_time=start)


def client_color(digit: str) -> tuple[float, float, float]:
    """``CG_ColorFromString``: a colour digit 1‥7 as bits red 1, green 2, blue 4; anything else white."""
    try:
        v = int(digit)
    except ValueError:
        return (1.0, 1.0, 1.0)
    if not 1 <= v <= 7:
        return (1.0, 1.0, 1.0)
    return (float(v & 1), float(bool(v & 2)), float(bool(v & 4)))


def flash_model(weapon_model: str) -> str:
    """The flash model beside a weapon model (``…/rocketl.md3`` → ``…/rocketl_flash.md3``)."""
    return weapon_model[:-4] + "_flash.md3" if weapon_model.endswith(".md3") else ""


@dataclass(frozen=True, slots=True, eq=False)
class Impact:
    time: float
    segment: int
    origin: np.ndarray
    normal: np.ndarray
    weapon: int
    kind: str          # "missile_miss", "missile_hit", "gunshot", "blood"
    entity: int


@dataclass(frozen=True, slots=True, eq=False)
class Rail:
    time: float
    segment: int
    start: np.ndarray
    end: np.ndarray
    client: int


@dataclass(frozen=True, slots=True, eq=False)
class ShotgunBlast:
    """``EV_SHOTGUN``: pellets from ``origin`` along ``aim``, spread by ``seed``."""

    time: float
    segment: int
    origin: np.ndarray
    aim: np.ndarray
    seed: int
    index: int


@dataclass(frozen=True, slots=True, eq=False)
class GibEvent:
    time: float
    segment: int
    origin: np.ndarray
    index: int


@dataclass(frozen=True, slots=True, eq=False)
class SmokeTrack:
    """One missile's flight: its trajectory (server ms) and the timeline times it was seen first and last."""

    segment: int
    weapon: int
    tr_type: int
    tr_time: int
    tr_duration: int
    base: np.ndarray
    delta: np.ndarray
    first: float
    last: float


def _impacts(timeline: DemoTimeline) -> tuple[tuple[Impact, ...], tuple[Rail, ...], tuple[GibEvent, ...],
                                             tuple[ShotgunBlast, ...]]:
    impacts: list[Impact] = []
    rails: list[Rail] = []
    gibs: list[GibEvent] = []
    blasts: list[ShotgunBlast] = []
    for e in timeline.events_of_kind("temp_entity"):
        if not isinstance(e, TempEntityEvent):
            continue
        name = e.name
        if name in ("missile_miss", "missile_hit", "gunshot", "blood"):
            weapon = int(e.extra[0]) if e.extra else (WP_MACHINEGUN if name == "gunshot" else 0)
            normal = np.asarray(e.direction if e.direction is not None else (0.0, 0.0, 1.0), np.float64)
            impacts.append(Impact(e.time, e.segment, np.asarray(e.origin, np.float64), normal, weapon, name,
                                  -1 if e.entity is None else int(e.entity)))
        elif name == "shotgun" and e.direction is not None and e.extra:
            blasts.append(ShotgunBlast(e.time, e.segment, np.asarray(e.origin, np.float64),
                                       np.asarray(e.direction, np.float64), int(e.extra[0]), len(blasts)))
        elif name == "gib":
            gibs.append(GibEvent(e.time, e.segment, np.asarray(e.origin, np.float64), len(gibs)))
        elif name == "rail" and e.end is not None:
            client = int(e.extra[0]) if e.extra else -1
            rails.append(Rail(e.time, e.segment, np.asarray(e.origin, np.float64), np.asarray(e.end, np.float64),
                              client))
    return tuple(impacts), tuple(rails), tuple(gibs), tuple(blasts)


def _smoke_tracks(timeline: DemoTimeline) -> tuple[SmokeTrack, ...]:
    """Every rocket's and grenade's trajectory, from the frames' entity columns (read :data:`SCAN_FRAMES` frames at
    a time)."""
    tracks: dict[tuple, list] = {}
    for first in range(0, timeline.num_frames, SCAN_FRAMES):
        frame_of_row, ents = timeline.frames_entities(first, min(first + SCAN_FRAMES, timeline.num_frames) - 1)
        extra = ents.extra
        if "eType" not in extra:
            continue
        rows = np.flatnonzero((extra["eType"] == ET_MISSILE) & np.isin(extra["weapon"], list(SMOKE_TRAILS)))
        for r in rows.tolist():
            frame = int(frame_of_row[r])
            t = float(timeline.times[frame])
            key = (int(ents.number[r]), int(extra["pos_trType"][r]), int(extra["pos_trTime"][r]),
                   tuple(np.round(extra["pos_trBase"][r], 2).tolist()))
            found = tracks.get(key)
            if found is None:
                tracks[key] = [int(timeline.frame_segment[frame]), int(extra["weapon"][r]), key[1], key[2],
                               int(extra["pos_trDuration"][r]), np.asarray(extra["pos_trBase"][r], np.float64),
                               np.asarray(extra["pos_trDelta"][r], np.float64), t, t]
            else:
                found[8] = t
    return tuple(SmokeTrack(*v) for v in tracks.values())


def _flash_times(timeline: DemoTimeline) -> dict[int, np.ndarray]:
    times: dict[int, list[float]] = {}
    for e in timeline.events_of_kind("muzzleflash"):
        if not isinstance(e, MuzzleFlashEvent):
            continue
        times.setdefault(int(e.entity), []).append(e.time)
    return {k: np.asarray(v, np.float64) for k, v in times.items()}


def prepare_effects(timeline: DemoTimeline) -> Quake3Effects:
    """The effects of ``timeline`` (rules: module docstring)."""
    impacts, rails, gibs, blasts = _impacts(timeline)
    offsets = np.asarray(timeline.times, np.float64) - np.asarray(timeline.server_times, np.float64) / 1000.0
    return Quake3Effects(impacts, rails, _smoke_tracks(timeline), _flash_times(timeline),
                         np.asarray([i.time for i in impacts], np.float64),
                         np.asarray(timeline.times, np.float64), offsets, gibs, blasts, {}, {}, timeline=timeline)


def _q_crandom(seed: int) -> tuple[float, int]:
    """``Q_crandom``: a number in [-1, 1) from the engine's 32-bit linear congruential ``Q_rand``, and the new
    seed."""
    seed = (69069 * seed + 1) & 0xFFFFFFFF
    return 2.0 * ((seed & 0xFFFF) / 65536.0 - 0.5), seed


def shotgun_pattern(level: Bsp46World | None, origin: np.ndarray, aim: np.ndarray,
                    seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``CG_ShotgunPattern``: the 11 pellets spread ±700 · 16 over 8192 · 16 units around ``aim``, each traced to
    the first wall (within :data:`PELLET_RANGE`) as ``(point, surface normal)``; pellets that reach no wall make
    nothing."""
    forward = aim / max(float(np.linalg.norm(aim)), 1e-9)
    right = shapes.perpendicular(forward)
    up = np.cross(forward, right)
    seed &= 0xFFFFFFFF
    hits = []
    for _ in range(SHOTGUN_COUNT):
        r, seed = _q_crandom(seed)
        u, seed = _q_crandom(seed)
        end = origin + forward * 8192 * 16 + right * r * SHOTGUN_SPREAD * 16 + up * u * SHOTGUN_SPREAD * 16
        direction = (end - origin) / float(np.linalg.norm(end - origin))
        point = _first_solid(level, origin, direction, PELLET_RANGE)
        if point is not None:
            hits.append((point, _surface_normal(level, point, direction)))
    return hits


def _surface_normal(level: Bsp46World | None, point: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """The normal of the wall just past ``point``: against the axes whose neighbours are solid, else back along
    the flight."""
    n = np.zeros(3)
    if level is not None:
        for axis in range(3):
            for sign in (-1.0, 1.0):
                q = point.copy()
                q[axis] += sign * 2.0
                if level.point_cluster(q) < 0:
                    n[axis] -= sign
    norm = float(np.linalg.norm(n))
    return n / norm if norm > 0 else -direction


def _first_solid(level: Bsp46World | None, start: np.ndarray, forward: np.ndarray,
                 reach: float) -> np.ndarray | None:
    """The last free point before solid space (a leaf without a cluster) along ``forward`` within ``reach``, found
    in 16-unit steps and narrowed to 1 unit; ``None`` when nothing is hit (or there is no map)."""
    if level is None:
        return None

    def solid(p: np.ndarray) -> bool:
        return level.point_cluster(p) < 0

    if solid(start):
        return start
    step = 16.0
    d = step
    while d <= reach:
        if solid(start + forward * d):
            lo, hi = d - step, d
            while hi - lo > 1.0:
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if solid(start + forward * mid) else (mid, hi)
            return start + forward * lo
        d += step
    return None


def _beam_end(level: Bsp46World | None, start: np.ndarray, forward: np.ndarray) -> np.ndarray:
    """Where the lightning beam stops: the first wall within the lightning range, else the full range."""
    hit = _first_solid(level, start, forward, LIGHTNING_RANGE)
    return hit if hit is not None else start + forward * LIGHTNING_RANGE


@dataclass(frozen=True, slots=True, eq=False)
class Quake3Effects:
    """A timeline's Quake III effects (see the module docstring); ``offsets[f]`` turns server seconds of frame
    ``f`` into timeline seconds."""

    impacts: tuple[Impact, ...]
    rails: tuple[Rail, ...]
    smoke: tuple[SmokeTrack, ...]
    flashes: Mapping[int, np.ndarray]
    impact_times: np.ndarray
    frame_times: np.ndarray
    offsets: np.ndarray
    gib_events: tuple[GibEvent, ...] = ()
    blasts: tuple[ShotgunBlast, ...] = ()
    #: Gib flights worked out so far, by (event index, map identity): each is simulated once, when first seen.
    flown: dict[tuple[int, int], tuple[Gib, ...]] = field(default_factory=dict)
    #: Shotgun pellet impacts traced so far, by (blast index, map identity).
    pellets: dict[tuple[int, int], tuple[Impact, ...]] = field(default_factory=dict)
    #: The triangles marks land on, by map identity.
    mark_surfaces: dict[int, MarkSurfaces] = field(default_factory=dict)
    #: Marks cut to the map so far, by (mark, map identity): a mark is an impact's number or a gib's (event, part).
    mark_pieces: dict[tuple[int | tuple[int, int], int], tuple[MarkFragment, ...]] = field(default_factory=dict)
    #: Each mark's polygons as last drawn, with their colour: a mark that does not fade is not rebuilt each frame.
    mark_polys: dict[tuple[int | tuple[int, int], int], tuple[tuple, tuple[Q3Poly, ...]]] = field(default_factory=dict)
    #: The puffs of the smoke tracks showing (:meth:`Quake3Effects._puff_points`), by track number.
    puff_points: dict[int, dict[int, tuple[float, float, float]]] = field(default_factory=dict)
    #: Each gib's trail puffs (:func:`_trail_puffs`), by (event index, map identity, part).
    trails: dict[tuple[int, int, int], tuple[list[int], list[tuple[float, float, float]]]] = field(
        default_factory=dict)
    #: The explosion model of each impact drawn so far (it does not change while it lives), by impact number.
    explosion_models: dict[int, Md3Draw] = field(default_factory=dict)
    #: The timeline itself, for the view's hurts (:mod:`.view_blood`).
    timeline: DemoTimeline | None = None
    #: The ring discs of the rails showing (:func:`_ring_discs`), by rail number.
    rings: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=dict)
    #: The times of the rails, gib events and shotgun blasts, and when each smoke track shows, by kind, made on first
    #: use (:meth:`Quake3Effects._alive`, :meth:`Quake3Effects._smoke_showing`): a frame looks at the few showing.
    spans: dict[str, np.ndarray] = field(default_factory=dict)

    def particles(self, timeline: DemoTimeline, t: float, model_flags: list[np.ndarray] | None) -> Particles:
        return Particles.empty()

    def lights(self, state: SceneState, t: float, model_flags: np.ndarray | None) -> Lights:
        """The dynamic lights at ``t`` (rules: :mod:`.lights`)."""
        return scene_lights(state, self._explosion_lights(state, t), lambda n: self.flashing(n, t),
                            lambda n, salt: float(int(_random(n, 100 + salt) * 32)))

    def _explosion_lights(self, state: SceneState, t: float) -> list[LightSource]:
        """The lights of the rocket and grenade explosions alive at ``t``, faded, at their sprites."""
        longest = max(IMPACTS[w].duration for w in EXPLOSION_LIGHTS) + EXPLOSION_SKEW
        lo = int(np.searchsorted(self.impact_times, t - longest, side="right"))
        hi = int(np.searchsorted(self.impact_times, t, side="right"))
        out: list[LightSource] = []
        for i in range(lo, hi):
            imp = self.impacts[i]
            light = EXPLOSION_LIGHTS.get(imp.weapon)
            if light is None or imp.segment != state.segment or imp.kind not in ("missile_miss", "missile_hit"):
                continue
            radius = explosion_light(light, t - self._explosion_start(i, imp), IMPACTS[imp.weapon].duration)
            if radius > 0:
                at = imp.origin + imp.normal * 16.0
                out.append(LightSource((float(at[0]), float(at[1]), float(at[2])), radius, light.color))
        return out

    @staticmethod
    def _explosion_start(i: int, imp: Impact) -> float:
        """When impact ``i``'s explosion starts: the engine skews starts back by up to 63 ms."""
        return imp.time - _random(i, 2) * EXPLOSION_SKEW

    def models(self, state: SceneState, t: float) -> list[EffectModel]:
        return []

    def flashing(self, entity: int, t: float) -> bool:
        """Whether ``entity`` fired within the last ``MUZZLE_FLASH_TIME``."""
        times = self.flashes.get(entity)
        if times is None:
            return False
        i = int(np.searchsorted(times, t, side="right")) - 1
        return i >= 0 and t - times[i] < MUZZLE_FLASH_TIME

    def _alive(self, kind: str, t: float) -> list[int]:
        """The numbers of the ``kind`` effects (``rails``, ``gib_events`` or ``blasts``) alive at ``t``: at most
        their :data:`_LIFETIMES` past their time, in order."""
        times = self.spans.get(kind)
        if times is None:
            times = self.spans[kind] = np.array([item.time for item in getattr(self, kind)], np.float64)
        age = t - times
        return np.flatnonzero((age >= 0) & (age < _LIFETIMES[kind])).tolist()

    def _smoke_showing(self, t: float) -> list[int]:
        """The numbers of the smoke tracks showing puffs at ``t``: from just before a track's missile was first seen
        to its last puff's end (never a missile that does not move), in order."""
        spans = self.spans.get("smoke")
        if spans is None:
            spans = self.spans["smoke"] = np.array(
                [(track.first - 0.05 if track.tr_type != TR_STATIONARY else math.inf,
                  track.last + SMOKE_TRAILS[track.weapon][0]) for track in self.smoke], np.float64).reshape(-1, 2)
        return np.flatnonzero((spans[:, 0] <= t) & (t <= spans[:, 1])).tolist()

    def shaded(self, state: SceneState, t: float, camera: Camera, first_person: bool,
               assets: SegmentAssets | None = None) -> ShadedDraws:
        """Everything drawn through shaders at ``t`` seen from ``camera``: the items, missiles and players of
        ``state`` (:mod:`.link`, posed by :mod:`.players` with the models of ``assets``), the effects (rules: module
        docstring) and the first-person weapon."""
        level = assets.game_map if isinstance(assets, Quake3Segment) else None
        models = assets.md3 if assets is not None else None
        items, players = link.md3_draws(state, first_person)
        forward, right, up_axis = angle_vectors(camera.angles)
        left, up = tuple(-float(v) for v in right), tuple(float(v) for v in up_axis)   # plain floats for sprites
        md3: list[Md3Draw] = []
        polys: list[Q3Poly] = []
        self._impact_effects(state, t, left, up, first_person, md3, polys, self._pellet_impacts(state, t, level),
                             level)
        self._rails(state, t, camera, left, up, polys)
        self._smoke(state, t, camera, left, up, polys)
        self._lightning(state, t, camera, level, polys, first_person)
        self._gibs(state, t, camera, level, left, up, md3, polys)
        blob = blood_blob(last_hurt(self.timeline, t), t, camera) if first_person and self.timeline else None
        if blob is not None:
            polys.append(blob)
        players = tuple(self._with_flash(p, state, t) for p in players)
        weapon = view_weapon(state, self.flashing(state.view_entity, t)) if first_person else None
        posed = posed_md3(models, players, () if weapon is None else (weapon,))
        return ShadedDraws((*items, *md3, *posed), tuple(polys))

    def _with_flash(self, player: PlayerDraw, state: SceneState, t: float) -> PlayerDraw:
        if not player.weapon:
            return player
        fields = state.entity_fields
        number = player.entity
        row = state.entities.index_of(number) if number >= 0 else None
        firing = row is not None and bool(fields["eFlags"][row] & EF_FIRING) and \
            int(fields["weapon"][row]) in (WP_LIGHTNING, WP_GAUNTLET)
        if firing or self.flashing(number, t):
            return replace(player, flash=flash_model(player.weapon))
        return player

    def _pellet_impacts(self, state: SceneState, t: float, level: Bsp46World | None) -> list[tuple[int, Impact]]:
        """Where the pellets of the shotgun blasts of the last 10 s hit (traced once per blast and map)."""
        out: list[tuple[int, Impact]] = []
        for number in self._alive("blasts", t):
            blast = self.blasts[number]
            if blast.segment != state.segment:
                continue
            key = (blast.index, id(level))
            hits = _kept(self.pellets, key, _pellet_hits, level, blast)
            out.extend((1_000_000 + 16 * blast.index + k, hit) for k, hit in enumerate(hits))
        return out

    def _impact_effects(self, state: SceneState, t: float, left, up, first_person: bool, md3: list[Md3Draw],
                        polys: list[Q3Poly], extra: list[tuple[int, Impact]], level: Bsp46World | None) -> None:
        if len(self.mark_polys) > _MAX_KEPT_MARKS:       # (those still showing are made again)
            self.mark_polys.clear()
        lo = int(np.searchsorted(self.impact_times, t - MARK_TOTAL_TIME, side="right"))
        hi = int(np.searchsorted(self.impact_times, t, side="right"))
        marks: list[Q3Poly] = []
        alive = [(i, self.impacts[i]) for i in range(lo, hi)] + extra
        alive.sort(key=lambda pair: pair[1].time)
        if len(self.mark_pieces) > _MAX_KEPT_MARKS:      # the cut pieces of marks gone by are let go
            showing = {i for i, _ in alive}
            for key in [key for key in self.mark_pieces if key[0] not in showing]:
                del self.mark_pieces[key]
        for i, imp in alive:
            if imp.segment != state.segment:
                continue
            age = t - imp.time
            kind = IMPACTS.get(imp.weapon, DEFAULT_IMPACT) if imp.kind != "gunshot" else IMPACTS[WP_MACHINEGUN]
            bleeds = imp.kind in ("missile_hit", "blood")
            explodes = (imp.kind in ("missile_miss", "gunshot")
                        or imp.weapon in (WP_ROCKET_LAUNCHER, WP_GRENADE_LAUNCHER))
            if bleeds and age < BLEED_TIME and not (first_person and imp.entity == state.view_entity):
                polys.append(shapes.sprite("bloodExplosion", imp.origin, BLEED_RADIUS, left, up,
                                           rotation=_random(i, 1) * 360, shader_time=imp.time))
            if explodes and kind.shader is not None and age < kind.duration:
                self._explosion(i, imp, kind, age, left, up, md3, polys)
            if imp.kind != "blood" and explodes:
                marks.extend(self._mark(i, imp, kind, age, level))
        polys[:0] = marks[-MAX_MARKS:]

    def _explosion(self, i: int, imp: Impact, kind: Explosion, age: float, left, up, md3: list[Md3Draw],
                   polys: list[Q3Poly]) -> None:
        start = self._explosion_start(i, imp)
        if kind.model is None:
            c = max(0.0, min(1.0, 1.0 - (age + imp.time - start) / kind.duration))
            origin = imp.origin + imp.normal * 16.0
            polys.append(shapes.sprite(kind.shader or "", origin, 42.0 * (1.0 - c) + 30.0, left, up,
                                       (255, 255, 255, 255 * c * 0.33), _random(i, 3) * 360, start))
        else:
            md3.append(_kept(self.explosion_models, i, _explosion_model, i, imp, kind.model, kind.shader or "", start))

    def _mark(self, i: int, imp: Impact, kind: Explosion, age: float, level: Bsp46World | None) -> tuple[Q3Poly, ...]:
        fade = 1.0
        if kind.alpha_fade:                              # energy marks burn out over 3 s
            fade = min(max((450.0 - 450.0 * age / 3.0) / 255.0, 0.0), 1.0)
        left = MARK_TOTAL_TIME - age
        if left < MARK_FADE_TIME:
            fade *= left / MARK_FADE_TIME
        rgba = (255, 255, 255, 255 * fade) if kind.alpha_fade else (255 * fade, 255 * fade, 255 * fade, 255)
        return self._mark_polys(i, level, kind.mark, imp.origin, imp.normal, kind.mark_radius, _random(i, 5) * 360,
                                rgba)

    def _mark_polys(self, key: int | tuple[int, int], level: Bsp46World | None, shader: str, origin: np.ndarray,
                    normal: np.ndarray, radius: float, rotation: float, rgba) -> tuple[Q3Poly, ...]:
        """A mark's polygons: its pieces on the map (cut once per mark and map), or the flat square without one;
        made again only when its colour changes."""
        drawn = self.mark_polys.get((key, id(level)))
        if drawn is not None and drawn[0] == rgba:
            return drawn[1]
        if level is None:
            flat = (shapes.mark(shader, origin, normal, radius, rotation, rgba),)
            self.mark_polys[(key, id(level))] = (rgba, flat)
            return flat
        pieces = self.mark_pieces.get((key, id(level)))
        if pieces is None:
            surfaces = self.mark_surfaces.get(id(level))
            if surfaces is None:
                surfaces = self.mark_surfaces[id(level)] = MarkSurfaces.of(level)
            pieces = self.mark_pieces[(key, id(level))] = mark_fragments(surfaces, origin, normal, radius, rotation)
        polys = tuple(Q3Poly(shader, p.positions, p.st, shapes.vertex_colors(rgba, len(p.positions))) for p in pieces)
        self.mark_polys[(key, id(level))] = (rgba, polys)
        return polys

    def _rails(self, state: SceneState, t: float, camera: Camera, left, up, polys: list[Q3Poly]) -> None:
        showing = self._alive("rails", t)
        for k in set(self.rings).difference(showing):       # the rings of rails gone by are let go
            del self.rings[k]
        for k in showing:
            rail = self.rails[k]
            age = t - rail.time
            if rail.segment != state.segment:
                continue
            info = dict(state.scoreboard[rail.client].userinfo) if 0 <= rail.client < len(state.scoreboard) else {}
            color1 = np.asarray(client_color(info.get("c1", "")))
            color2 = np.asarray(client_color(info.get("c2", "")))
            start = rail.start - np.array([0.0, 0.0, 4.0])
            if age < RAIL_TRAIL_TIME:
                c = 1.0 - age / RAIL_TRAIL_TIME
                rgb = color1 * 0.75 * c * 255
                polys.append(shapes.rail_core("railCore", start, rail.end, camera.origin, (*rgb, 255 * c),
                                              shader_time=rail.time))
            self._rail_rings(k, rail, start, color2, age, left, up, polys)

    def _rail_rings(self, k: int, rail: Rail, start: np.ndarray, color2: np.ndarray, age: float, left, up,
                    polys: list[Q3Poly]) -> None:
        """``CG_RailTrail``'s rings: a disc every 5 units from 20 units past the start, each turned 10° further
        round the beam, drifting out from it and living 0.6 s plus a millisecond per 2 units along."""
        rings = self.rings.get(k)
        if rings is None:
            rings = self.rings[k] = _ring_discs(start, rail.end)
        bases, drifts, lives = rings
        alive = np.flatnonzero(age < lives)
        if not len(alive):
            return
        fades = (1.0 - age / lives[alive]).tolist()
        rgb = tuple((color2 * 255).tolist())
        polys.extend(shapes.sprites("railDisc", bases[alive] + drifts[alive] * age, 1.1, left, up,
                                    [(*rgb, 255 * c) for c in fades], shader_time=rail.time))

    def _smoke(self, state: SceneState, t: float, camera: Camera, left, up, polys: list[Q3Poly]) -> None:
        frame = min(max(state.frame, 0), len(self.offsets) - 1)
        offset = float(self.offsets[frame])
        now_ms = (t - offset) * 1000.0
        cx, cy, cz = (float(v) for v in camera.origin)
        showing = self._smoke_showing(t)
        for n in set(self.puff_points).difference(showing):     # the puffs of tracks gone by are let go
            del self.puff_points[n]
        for n in showing:
            track = self.smoke[n]
            life, radius = SMOKE_TRAILS[track.weapon]
            if track.segment != state.segment:
                self.puff_points.pop(n, None)
                continue
            first_ms = max(float(track.tr_time), (track.first - offset) * 1000.0 - 50.0)
            last_ms = min(now_ms, (track.last - offset) * 1000.0)
            lo = math.ceil(max(first_ms, now_ms - life * 1000.0) / PUFF_STEP_MS)
            hi = math.floor(last_ms / PUFF_STEP_MS)
            if hi < lo:
                continue
            points = self._puff_points(n, track, lo, hi)
            for k in range(lo, hi + 1):
                when, p = k * PUFF_STEP_MS, points[k]
                c = 1.0 - (now_ms - when) / (life * 1000.0)
                size = radius * (1.0 - c) + 8.0
                if _distance(p, cx, cy, cz) < size:
                    continue
                polys.append(shapes.sprite("smokePuff", p, size, left, up, (255, 255, 255, 255 * c * 0.33),
                                           shader_time=when / 1000.0 + offset))

    def _puff_points(self, n: int, track: SmokeTrack, lo: int, hi: int) -> dict[int, tuple[float, float, float]]:
        """Where smoke track ``n`` leaves puffs ``lo``‥``hi`` (puff ``k`` at ``k`` steps of server time), each worked
        out once while the track shows."""
        known = self.puff_points.setdefault(n, {})
        missing = [k for k in range(lo, hi + 1) if k not in known]
        if missing:
            at = np.array(missing, np.float64) * PUFF_STEP_MS
            count = len(at)
            pos = evaluate_trajectory(np.full(count, track.tr_type), np.full(count, track.tr_time),
                                      np.full(count, track.tr_duration), np.tile(track.base, (count, 1)),
                                      np.tile(track.delta, (count, 1)), at)
            known.update(zip(missing, pos.tolist()))
        return known

    def _gibs(self, state: SceneState, t: float, camera: Camera, level: Bsp46World | None, left, up,
              md3: list[Md3Draw], polys: list[Q3Poly]) -> None:
        cx, cy, cz = (float(v) for v in camera.origin)
        cam = (cx, cy, cz)
        for number in self._alive("gib_events", t):
            event = self.gib_events[number]
            if event.segment != state.segment:
                continue
            key = (event.index, id(level))
            gibs = _kept(self.flown, key, launch_gibs, level, event.origin, event.time, event.index)
            for k, gib in enumerate(gibs):
                if gib.mark is not None and gib.mark[0] <= t:
                    when, point, normal, radius, rotation = gib.mark
                    left_time = MARK_TOTAL_TIME - (t - when)
                    fade = min(1.0, max(left_time, 0.0) / MARK_FADE_TIME)
                    polys[:0] = self._mark_polys((event.index, k), level, "bloodMark", point, normal, radius,
                                                 rotation, (255, 255, 255, 255 * fade))
                if t < gib.end:
                    md3.append(Md3Draw(gib.model, np.array(gib.point(t), np.float32), np.eye(3, dtype=np.float32)))
                    self._blood_trail(_kept(self.trails, (*key, k), _trail_puffs, gib), gib, t, cam, left, up, polys)

    @staticmethod
    def _blood_trail(puffs: tuple[list[int], list[tuple[float, float, float]]], gib: Gib, t: float,
                     cam: tuple[float, float, float], left, up, polys: list[Q3Poly]) -> None:
        """``CG_BloodTrail``: a puff every 150 ms of flight (:func:`_trail_puffs`), growing from 16 units and
        dropping 40 over 2 s."""
        numbers, points = puffs
        k = math.ceil(max(gib.flights[0].start, t - BLOOD_TRAIL_TIME) / BLOOD_TRAIL_STEP)
        for i in range(bisect.bisect_left(numbers, k), len(numbers)):
            when = numbers[i] * BLOOD_TRAIL_STEP
            if when > t:
                break
            c = 1.0 - (t - when) / BLOOD_TRAIL_TIME
            x, y, z = points[i]
            p = (x, y, z - (1.0 - c) * 40.0)
            radius = 20.0 * (1.0 - c) + 16.0
            if _distance(p, *cam) > radius:
                polys.append(shapes.sprite("bloodTrail", p, radius, left, up, (255, 255, 255, 255 * c)))

    def _lightning(self, state: SceneState, t: float, camera: Camera, level: Bsp46World | None,
                   polys: list[Q3Poly], first_person: bool = False) -> None:
        fields = state.entity_fields
        if not fields or not len(state.entities):
            return
        firing = np.flatnonzero((fields["eType"] == ET_PLAYER) & (fields["weapon"] == WP_LIGHTNING)
                                & ((fields["eFlags"] & EF_FIRING) != 0))
        for row in firing.tolist():
            angles = state.entities.angles[row]
            forward = np.asarray(angle_vectors(angles)[0], np.float64)
            muzzle = muzzle_point(state.entities.origin[row], angles)
            end = _beam_end(level, muzzle, forward)
            start = muzzle
            if first_person and int(state.entities.number[row]) == state.view_entity:
                eye_forward, right, up = (np.asarray(v, np.float64) for v in angle_vectors(camera.angles))
                start = np.asarray(camera.origin, np.float64) + eye_forward * VIEW_MUZZLE[0] \
                    + right * VIEW_MUZZLE[1] + up * VIEW_MUZZLE[2]
            polys.extend(shapes.lightning_bolt("lightningBoltNew", start, end, camera.origin))


def _ring_discs(start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A rail's ring discs (:meth:`Quake3Effects._rail_rings`): where each is at its start ``f8 [N, 3]``, how far it
    drifts a second ``f8 [N, 3]`` and how long it lives ``f8 [N]`` (none for a rail without length)."""
    vec = end - start
    length = float(np.linalg.norm(vec))
    if length < 1e-6:
        return np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0)
    vec = vec / length
    steps = range(0, math.ceil(length), 5)
    axes = shapes.rotations_around(vec, shapes.perpendicular(vec), [(18 + n) % 36 * 10.0 for n in range(len(steps))])
    moves = np.add.accumulate(np.vstack([start + vec * 20.0, np.tile(vec * 5.0, (len(steps) - 1, 1))]), axis=0)
    return moves + axes * 4.0, axes * 6.0, np.array([(i >> 1) / 1000.0 + 0.6 for i in steps])


def _distance(p, x: float, y: float, z: float) -> float:
    """``|p - (x, y, z)|`` in plain floats, summed as numpy's ``norm`` sums a 3-vector."""
    dx, dy, dz = p[0] - x, p[1] - y, p[2] - z
    return math.sqrt(dx * dx + dy * dy + dz * dz)


def segment_effect_models() -> tuple[str, ...]:
    """The models the effects draw besides the configstrings' (explosion models, flashes, hands, barrels)."""
    flashes = [flash_model(m) for m in WEAPON_MODELS.values()]
    hands = [m[:-4] + "_hand.md3" for m in WEAPON_MODELS.values()]
    barrels = [barrel_model(m) for m in WEAPON_MODELS.values()]
    return (*EFFECT_MODELS, *flashes, *hands, *barrels)

