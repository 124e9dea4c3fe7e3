"""Particle effects, entity trails and dynamic lights as pure functions of time (docs/DESIGN.md: parse once,
sample many).

NetQuake's client spawns particles when a message arrives (temp entities, ``svc_particle``) or while an entity
with a trail-leaving model moves, then integrates them frame by frame (``CL_RunParticles``).  Here every effect is
a record with a spawn time; the state at any ``t`` is computed in closed form from the spawn time, so a seek costs
the same as playing forward and the answer never depends on the order of the calls.

Three entry points, one per kind of source:

* :func:`build_emitters` — once per demo: the timeline's events (and, optionally, the timeline itself for muzzle
  flashes) become :class:`Emitters`, parallel arrays sorted by time (one row per effect) plus timed lights.
* :func:`particles_at` — ``Particles`` alive at ``t`` from the emitters alive at ``t`` (found by ``searchsorted``),
  plus the :class:`Trail` particles the caller passes (see :func:`trails_from_timeline`).
* :func:`dynamic_lights` — the lights at ``t``: timed lights from the emitters (explosions, muzzle flashes) and
  lights of the entities sampled at ``t`` (``EF_BRIGHTLIGHT``, ``EF_DIMLIGHT``, rocket models).

Motion.  Each particle type of ``CL_RunParticles`` obeys, per axis, ``dv/dt = k·v + a`` (``a`` = ±gravity on Z,
gravity = ``sv_gravity · 0.05`` = 40 units/s² for the default 800), solved exactly:

    p(dt) = p0 + v0·(e^{k·dt} − 1)/k + a·((e^{k·dt} − 1)/k − dt)/k        (→ p0 + v0·dt + ½·a·dt² when k = 0)

==========  ======  ======  ======  ===========================================
type        k xy    k z     a z     colour
==========  ======  ======  ======  ===========================================
static      0       0       0       fixed
grav        0       0       −g      fixed
slowgrav    0       0       −g      fixed (the engine treats it like grav)
fire        0       0       +g      ramp3, ramp += 5/s, dies at ramp ≥ 6
explode     +4      +4      −g      ramp1, ramp += 10/s, dies at ramp ≥ 8
explode2    −1      −1      −g      ramp2, ramp += 15/s, dies at ramp ≥ 8
blob        +4      +4      −g      fixed
blob2       −4      0       −g      fixed
==========  ======  ======  ======  ===========================================

The engine's explicit Euler steps (``vel += vel·4·frametime`` per frame) converge to these curves as the frame rate
grows; at 72 fps the difference is a few percent.  A particle is alive for ``spawn ≤ t ≤ spawn + life`` (the
engine kills it once ``die < cl.time``) and, for ramped types, while its ramp is below the limit.

Randomness.  Each emitter seeds its own ``numpy.random.Generator`` from ``Emitters.seeds[i]`` (derived from the
emitter's index and ``base_seed``); trail particles, of which there are many tiny segments, use a vectorised
counter-based hash (splitmix64) of (entity key, trail type, segment end time, particle index).  No global RNG
state is read or written, so every call is reproducible.

Capacity.  The engine has a fixed particle pool (``MAX_PARTICLES`` 2048 in GLQuake, 16384 by default in
QuakeSpasm): spawns fail while the pool is full.  :func:`particles_at` keeps the ``max_particles`` oldest-spawned
particles alive at ``t``, which is what the pool holds when it overflowed without particles dying in between
(an approximation: the engine's refusals also depend on particles that have died since).

Deviations, on purpose: trail particles are spread evenly along the path, one per ``dec`` units (3; 6 for
``zombie gib``), each spawned when the entity passes it; the engine places one call's particles 1 unit apart from
the frame's start point (``VectorAdd(start, vec, start)``), bunching them at render frame boundaries — the density
per unit travelled is the same.  Flicker (``200 + (rand()&31)``) of continuous entity lights changes
:data:`FLICKER_HZ` times a second, from a hash of the entity and the time slot.  ``EF_BRIGHTFIELD``
(``R_EntityParticles``, 162 particles living 0.01 s) is produced from the entity states too.

References: QuakeSpasm ``r_part.c`` (``R_ParticleExplosion``, ``R_ParticleExplosion2``, ``R_BlobExplosion``,
``R_RunParticleEffect``, ``R_LavaSplash``, ``R_TeleportSplash``, ``R_RocketTrail``, ``R_EntityParticles``,
``CL_RunParticles``, ``R_DrawParticles``); ``cl_tent.c`` ``CL_ParseTEnt``; ``cl_main.c`` ``CL_RelinkEntities``,
``CL_AllocDlight``, ``CL_DecayLights``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np

# Entity ``effects`` bits: Quake's ``server.h`` numbers, which QuakeWorld's protocol keeps.
from assets_loader.demos.quakeworld.protocol import EF_BRIGHTFIELD, EF_BRIGHTLIGHT, EF_DIMLIGHT, EF_MUZZLEFLASH

from ...render.refdef import Lights, Particles

__all__ = [
    "EffectKind", "ParticleType", "Emitters", "TimedLights", "Trail",
    "build_emitters", "particles_at", "trail_particles", "trail_type_for_flags", "trails_from_timeline",
    "TrailTracks", "trail_window",
    "muzzle_flashes_from_timeline", "dynamic_lights", "brightfield_particles", "emitter_particle_count",
    "RAMP1", "RAMP2", "RAMP3", "DEFAULT_GRAVITY", "DEFAULT_MAX_PARTICLES", "GLQUAKE_MAX_PARTICLES", "FLICKER_HZ",
    "EF_BRIGHTFIELD", "EF_MUZZLEFLASH", "EF_BRIGHTLIGHT", "EF_DIMLIGHT",
]

# --- engine constants -------------------------------------------------------------------------------------------


#: MDL model flags that leave trails (``assets_loader.models.mdl``), in ``CL_RelinkEntities``' order of priority.
_MF_ROCKET, _MF_GRENADE, _MF_GIB, _MF_TRACER, _MF_ZOMGIB, _MF_TRACER2, _MF_TRACER3 = 1, 2, 4, 16, 32, 64, 128
_TRAIL_PRIORITY = ((_MF_GIB, 2), (_MF_ZOMGIB, 4), (_MF_TRACER, 3), (_MF_TRACER2, 5), (_MF_ROCKET, 0),
                   (_MF_GRENADE, 1), (_MF_TRACER3, 6))
_TRAIL_BITS = _MF_ROCKET | _MF_GRENADE | _MF_GIB | _MF_TRACER | _MF_ZOMGIB | _MF_TRACER2 | _MF_TRACER3

#: Colour ramps (palette indices) of ``r_part.c``; ramp3 has six meaningful entries.
RAMP1 = np.array([0x6F, 0x6D, 0x6B, 0x69, 0x67, 0x65, 0x63, 0x61], np.uint8)
RAMP2 = np.array([0x6F, 0x6E, 0x6D, 0x6C, 0x6B, 0x6A, 0x68, 0x66], np.uint8)
RAMP3 = np.array([0x6D, 0x6B, 6, 5, 4, 3, 0, 0], np.uint8)
_RAMPS = np.stack([RAMP3, RAMP1, RAMP2])   # indexed by _PT_RAMP_TABLE

#: ``sv_gravity`` default; particles fall at ``sv_gravity * 0.05`` units/s².
DEFAULT_GRAVITY = 800.0
#: QuakeSpasm's default particle pool; GLQuake's fixed ``MAX_PARTICLES``.
DEFAULT_MAX_PARTICLES = 16384
GLQUAKE_MAX_PARTICLES = 2048
#: How often the random part of a continuous entity light's radius changes (per second).
FLICKER_HZ = 20.0


class ParticleType(IntEnum):
    """``ptype_t`` (``glquake.h``), same order."""

    STATIC = 0
    GRAV = 1
    SLOWGRAV = 2
    FIRE = 3
    EXPLODE = 4
    EXPLODE2 = 5
    BLOB = 6
    BLOB2 = 7


#                          static grav slowgrav fire explode explode2 blob blob2
_PT_KXY = np.array([0.0, 0.0, 0.0, 0.0, 4.0, -1.0, 4.0, -4.0], np.float32)
_PT_KZ = np.array([0.0, 0.0, 0.0, 0.0, 4.0, -1.0, 4.0, 0.0], np.float32)
_PT_GZ = np.array([0.0, -1.0, -1.0, 1.0, -1.0, -1.0, -1.0, -1.0], np.float32)      # times g
_PT_RAMP_RATE = np.array([0, 0, 0, 5, 10, 15, 0, 0], np.float32)
_PT_RAMP_LIMIT = np.array([np.inf, np.inf, np.inf, 6, 8, 8, np.inf, np.inf], np.float32)
_PT_RAMP_TABLE = np.array([-1, -1, -1, 0, 1, 2, -1, -1], np.int8)


class EffectKind(IntEnum):
    """Which ``r_part.c`` spawner an emitter runs."""

    RUN = 0          # R_RunParticleEffect (count < 1024): spikes, gunshots, blood, svc_particle
    EXPLOSION = 1    # R_ParticleExplosion (also svc_particle with count 255 → 1024)
    EXPLOSION2 = 2   # R_ParticleExplosion2 (colour-mapped)
    BLOB = 3         # R_BlobExplosion (tarbaby)
    LAVASPLASH = 4   # R_LavaSplash
    TELEPORT = 5     # R_TeleportSplash


#: Longest possible particle life per kind (seconds): emitters older than this are skipped at once.
_KIND_LIFE = np.array([0.4, 0.8, 0.3, 1.4, 2.0 + 31 * 0.02, 0.2 + 7 * 0.02])
_MAX_KIND_LIFE = float(_KIND_LIFE.max())
_FIXED_COUNT = {EffectKind.EXPLOSION: 1024, EffectKind.EXPLOSION2: 512, EffectKind.BLOB: 1024,
                EffectKind.LAVASPLASH: 1024, EffectKind.TELEPORT: 8 * 8 * 14}

# Temp entity name → (kind, colour, count) for the point effects; beams make no particles.  ``blood`` spawns
# 20 particles per count its event carries (QuakeWorld ``CL_ParseTEnt``).
_TE_EFFECTS: dict[str, tuple[EffectKind, int, int]] = {
    "spike": (EffectKind.RUN, 0, 10),
    "superspike": (EffectKind.RUN, 0, 20),
    "gunshot": (EffectKind.RUN, 0, 20),
    "explosion": (EffectKind.EXPLOSION, 0, 1024),      # + light
    "tarexplosion": (EffectKind.BLOB, 0, 1024),
    "wizspike": (EffectKind.RUN, 20, 30),
    "knightspike": (EffectKind.RUN, 226, 20),
    "lavasplash": (EffectKind.LAVASPLASH, 0, 1024),
    "teleport": (EffectKind.TELEPORT, 0, 896),
    "explosion2": (EffectKind.EXPLOSION2, 0, 512),     # + light
    "blood": (EffectKind.RUN, 73, 20),
    "lightningblood": (EffectKind.RUN, 225, 50),
}
_LIT_TEMP_ENTITIES = frozenset({"explosion", "explosion2"})
#: Explosion dlight (``CL_ParseTEnt``): radius 350, shrinking 300 units/s, gone after 0.5 s.
EXPLOSION_LIGHT = (350.0, 300.0, 0.5)
#: Muzzle flash dlight (``CL_RelinkEntities``): 200 + (rand()&31), 0.1 s after the last message with the bit,
#: 16 units up and 18 forward of the entity origin.
MUZZLE_LIGHT_LIFE = 0.1

_WHITE = (1.0, 1.0, 1.0)


# --- records ----------------------------------------------------------------------------------------------------


def _ro(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


@dataclass(frozen=True, slots=True, eq=False)
class TimedLights:
    """Dynamic lights with a lifetime, L rows sorted by ``times``.

    ``times`` f8 [L] (start; the light exists for ``times ≤ t ≤ die``), ``die`` f8 [L], ``origins`` f4 [L, 3],
    ``radius`` f4 [L] (at ``times``), ``decay`` f4 [L] (units/s; radius = radius − decay·(t − times), gone at 0),
    ``colors`` f4 [L, 3] (1 = white), ``entity`` i4 [L] (the entity that made it, −1 for temp entities: a later
    light of the same entity replaces it, as ``CL_AllocDlight(key)`` does).
    """

    times: np.ndarray
    die: np.ndarray
    origins: np.ndarray
    radius: np.ndarray
    decay: np.ndarray
    colors: np.ndarray
    entity: np.ndarray

    def __len__(self) -> int:
        return len(self.times)


@dataclass(frozen=True, slots=True, eq=False)
class Emitters:
    """Every particle effect of a demo, E rows sorted by ``times`` (built by :func:`build_emitters`).

    ``times`` f8 [E] spawn time (timeline seconds), ``ends`` f8 [E] time of the last possible particle death,
    ``kinds`` i1 [E] (:class:`EffectKind`), ``origins`` f4 [E, 3], ``directions`` f4 [E, 3] (``svc_particle``
    velocity / 15, else 0), ``counts`` i4 [E] particles spawned, ``colors`` i4 [E] palette index (RUN: base colour;
    EXPLOSION2: colour start), ``color_lengths`` i4 [E] (EXPLOSION2), ``seeds`` u8 [E] per-emitter RNG seeds.
    ``lights`` the timed dynamic lights; ``has_muzzle_flashes`` tells whether muzzle flashes came from a timeline
    (then :func:`dynamic_lights` does not make them from the sampled entity bits).
    """

    times: np.ndarray
    ends: np.ndarray
    kinds: np.ndarray
    origins: np.ndarray
    directions: np.ndarray
    counts: np.ndarray
    colors: np.ndarray
    color_lengths: np.ndarray
    seeds: np.ndarray
    lights: TimedLights
    has_muzzle_flashes: bool = False

    def __len__(self) -> int:
        return len(self.times)

    def alive_indices(self, t: float) -> np.ndarray:
        """i8 [K]: rows whose particles may be alive at ``t`` (spawned at or before ``t``, not all dead)."""
        lo = int(np.searchsorted(self.times, t - _MAX_KIND_LIFE, side="left"))
        hi = int(np.searchsorted(self.times, t, side="right"))
        idx = np.arange(lo, hi)
        return idx[self.ends[lo:hi] >= t]


@dataclass(frozen=True, slots=True, eq=False)
class Trail:
    """The recent path of one trail-leaving entity, as the caller knows it.

    ``key``: a stable integer for the random jitter (the entity number); ``type``: ``R_RocketTrail`` type 0..6
    (:func:`trail_type_for_flags`); ``times`` f8 [K] increasing message times and ``origins`` f4 [K, 3] the
    entity's origin at each (one continuous life of the entity: split the track where it disappears, changes
    model or teleports).  Give at least the samples from ``t − 2 s`` (the longest trail particle life) to the first
    sample at or after ``t``; extra samples cost a little and change nothing.  Each segment
    ``times[j-1] → times[j]`` spawns its own particles, seeded by (key, type, times[j]), so a window that starts
    earlier or later gives the same particles.
    """

    key: int
    type: int
    times: np.ndarray
    origins: np.ndarray


# --- building emitters ------------------------------------------------------------------------------------------


def emitter_particle_count(kind: int, count: int = 0) -> int:
    """How many particles an effect spawns (before the pool cap)."""
    return _FIXED_COUNT.get(EffectKind(kind), count)


def build_emitters(events: Iterable[Any], *, timeline: Any = None, base_seed: int = 0) -> Emitters:
    """One emitter per particle effect of ``events`` (``TempEntityEvent`` / ``ParticleEvent`` records; other kinds
    are ignored) and one timed light per explosion.

    Events are matched by their ``kind`` string (``"temp_entity"``: ``name``, ``origin``, ``count``, ``color_start``,
    ``color_length``; ``"particle"``: ``origin``, ``direction``, ``count``, ``color``).  With ``timeline`` (a
    ``DemoTimeline``), muzzle flashes are found in the entity states (:func:`muzzle_flashes_from_timeline`).
    ``seeds[i]`` derive from ``(base_seed, i)`` in time order.
    """
    rows: list[tuple[float, int, tuple, tuple, int, int, int]] = []
    lights: list[tuple[float, float, tuple, float, float, tuple, int]] = []
    for e in events:
        kind = getattr(e, "kind", None)
        if kind == "temp_entity":
            spec = _TE_EFFECTS.get(e.name)
            if spec is None:
                continue
            k, color, count = spec
            if e.name == "blood" and e.count is not None:
                count *= int(e.count)
            length = 0
            if k == EffectKind.EXPLOSION2:
                color = int(e.color_start or 0)
                length = max(1, int(e.color_length or 0))
            rows.append((float(e.time), int(k), tuple(e.origin), (0.0, 0.0, 0.0), count, color, length))
            if e.name in _LIT_TEMP_ENTITIES:
                r, decay, life = EXPLOSION_LIGHT
                lights.append((float(e.time), float(e.time) + life, tuple(e.origin), r, decay, _WHITE, -1))
        elif kind == "particle":
            count = int(e.count)
            if count <= 0:
                continue
            k = EffectKind.EXPLOSION if count == 1024 else EffectKind.RUN
            rows.append((float(e.time), int(k), tuple(e.origin), tuple(e.direction), count, int(e.color), 0))
    muzzle = False
    if timeline is not None:
        muzzle = True
        for start, die, number, origin in muzzle_flashes_from_timeline(timeline):
            lights.append((start, die, origin, 200.0, 0.0, _WHITE, number))

    rows.sort(key=lambda r: r[0])
    n = len(rows)
    times = np.array([r[0] for r in rows], np.float64)
    kinds = np.array([r[1] for r in rows], np.int8)
    ends = times + _KIND_LIFE[kinds] if n else np.zeros(0)
    emitters = Emitters(
        times=_ro(times), ends=_ro(np.asarray(ends, np.float64)), kinds=_ro(kinds),
        origins=_ro(np.array([r[2] for r in rows], np.float32).reshape(n, 3)),
        directions=_ro(np.array([r[3] for r in rows], np.float32).reshape(n, 3)),
        counts=_ro(np.array([emitter_particle_count(r[1], r[4]) for r in rows], np.int32)),
        colors=_ro(np.array([r[5] for r in rows], np.int32)),
        color_lengths=_ro(np.array([r[6] for r in rows], np.int32)),
        seeds=_ro(_seeds(base_seed, n)),
        lights=_timed_lights(lights), has_muzzle_flashes=muzzle)
    return emitters


def _timed_lights(lights: list) -> TimedLights:
    lights.sort(key=lambda r: r[0])
    m = len(lights)
    return TimedLights(
        times=_ro(np.array([x[0] for x in lights], np.float64)), die=_ro(np.array([x[1] for x in lights], np.float64)),
        origins=_ro(np.array([x[2] for x in lights], np.float32).reshape(m, 3)),
        radius=_ro(np.array([x[3] for x in lights], np.float32)),
        decay=_ro(np.array([x[4] for x in lights], np.float32)),
        colors=_ro(np.array([x[5] for x in lights], np.float32).reshape(m, 3)),
        entity=_ro(np.array([x[6] for x in lights], np.int32)))


def _seeds(base: int, n: int) -> np.ndarray:
    """u8 [n]: one well-mixed seed per emitter index (splitmix64 of base and index)."""
    start = np.uint64((int(base) * 0x9E3779B97F4A7C15) & _MASK64)
    return _mix(np.arange(n, dtype=np.uint64) + start)


def _angle_forward(angles: np.ndarray) -> np.ndarray:
    """f8 [N, 3] forward vectors of (pitch, yaw, roll) degrees (``AngleVectors``)."""
    a = np.radians(np.asarray(angles, np.float64).reshape(-1, 3))
    cp, sp = np.cos(a[:, 0]), np.sin(a[:, 0])
    return np.stack([cp * np.cos(a[:, 1]), cp * np.sin(a[:, 1]), -sp], axis=1)


def _muzzle_origin(origin: np.ndarray, angles: np.ndarray) -> np.ndarray:
    o = np.asarray(origin, np.float64).reshape(-1, 3).copy()
    o[:, 2] += 16.0
    return o + 18.0 * _angle_forward(angles)


def muzzle_flashes_from_timeline(timeline: Any) -> list[tuple[float, float, int, tuple[float, float, float]]]:
    """``(start, die, entity, origin)`` for every frame whose entity states carry ``EF_MUZZLEFLASH``.

    The state of frame ``f`` is shown for ``times[f-1] < t ≤ times[f]`` (see ``DemoTimeline``), and the engine
    re-lights the flash on every rendered frame while it sees the bit, so the light lives from ``times[f-1]`` to
    ``times[f] + 0.1``; it sits 16 units above and 18 in front of the entity (``CL_RelinkEntities``).
    """
    out = []
    times = timeline.times
    seg = timeline.frame_segment
    for f in range(len(times)):
        ents = timeline.frame_entities(f)
        hit = np.flatnonzero(ents.effects & EF_MUZZLEFLASH)
        if not len(hit):
            continue
        start = float(times[f - 1]) if f > 0 and seg[f - 1] == seg[f] else float(times[f])
        origins = _muzzle_origin(ents.origin[hit], ents.angles[hit])
        for row, o in zip(hit, origins):
            x, y, z = (float(v) for v in o)
            out.append((start, float(times[f]) + MUZZLE_LIGHT_LIFE, int(ents.number[row]), (x, y, z)))
    return out


# --- spawning (r_part.c rules) ----------------------------------------------------------------------------------

_Spawn = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _spawn(kind: int, origin: np.ndarray, direction: np.ndarray, count: int, color: int, length: int,
           rng: np.random.Generator) -> _Spawn:
    """(org f4[n,3], vel f4[n,3], type i1[n], ramp0 f4[n], life f4[n], colour u1[n]) of one effect."""
    ri = rng.integers
    org: np.ndarray
    vel: np.ndarray
    life: np.ndarray
    col: np.ndarray
    i: np.ndarray
    j: np.ndarray
    if kind == EffectKind.RUN:
        n = count
        org = origin + (ri(0, 16, (n, 3)) - 8)
        vel = np.broadcast_to(direction * 15.0, (n, 3))
        ptype = np.full(n, ParticleType.SLOWGRAV, np.int8)
        ramp = np.zeros(n, np.float32)
        life = ri(0, 5, n) * 0.1
        col = (color & ~7) + ri(0, 8, n)
    elif kind == EffectKind.EXPLOSION:
        n = 1024
        org = origin + (ri(0, 32, (n, 3)) - 16)
        vel = ri(-256, 256, (n, 3))
        ptype = np.where(np.arange(n) & 1, ParticleType.EXPLODE, ParticleType.EXPLODE2).astype(np.int8)
        ramp = ri(0, 4, n).astype(np.float32)
        life = np.full(n, 5.0)
        col = np.full(n, RAMP1[0])
    elif kind == EffectKind.EXPLOSION2:
        n = 512
        org = origin + (ri(0, 32, (n, 3)) - 16)
        vel = ri(-256, 256, (n, 3))
        ptype = np.full(n, ParticleType.BLOB, np.int8)
        ramp = np.zeros(n, np.float32)
        life = np.full(n, 0.3)
        col = color + np.arange(n) % max(1, length)
    elif kind == EffectKind.BLOB:
        n = 1024
        odd = (np.arange(n) & 1).astype(bool)
        org = origin + (ri(0, 32, (n, 3)) - 16)
        vel = ri(-256, 256, (n, 3))
        ptype = np.where(odd, ParticleType.BLOB, ParticleType.BLOB2).astype(np.int8)
        ramp = np.zeros(n, np.float32)
        life = 1.0 + (ri(0, 2, n) * 8) * 0.05
        col = np.where(odd, 66, 150) + ri(0, 6, n)
    elif kind == EffectKind.LAVASPLASH:
        i, j = (g.ravel() for g in np.meshgrid(np.arange(-16, 16), np.arange(-16, 16), indexing="ij"))
        n = len(i)
        d = np.stack([j * 8 + ri(0, 8, n), i * 8 + ri(0, 8, n), np.full(n, 256)], axis=1).astype(np.float64)
        org = origin + np.stack([d[:, 0], d[:, 1], ri(0, 64, n)], axis=1)
        vel = _normalize(d) * (50 + ri(0, 64, n))[:, None]
        ptype = np.full(n, ParticleType.SLOWGRAV, np.int8)
        ramp = np.zeros(n, np.float32)
        life = 2.0 + ri(0, 32, n) * 0.02
        col = 224 + ri(0, 8, n)
    elif kind == EffectKind.TELEPORT:
        grid = np.meshgrid(np.arange(-16, 16, 4), np.arange(-16, 16, 4), np.arange(-24, 32, 4), indexing="ij")
        i, j, k = (g.ravel() for g in grid)
        n = len(i)
        d = np.stack([j * 8, i * 8, k * 8], axis=1).astype(np.float64)
        org = origin + np.stack([i, j, k], axis=1) + ri(0, 4, (n, 3))
        vel = _normalize(d) * (50 + ri(0, 64, n))[:, None]
        ptype = np.full(n, ParticleType.SLOWGRAV, np.int8)
        ramp = np.zeros(n, np.float32)
        life = 0.2 + ri(0, 8, n) * 0.02
        col = 7 + ri(0, 8, n)
    else:  # pragma: no cover - kinds are validated when built
        raise ValueError(f"unknown effect kind {kind}")
    return (np.asarray(org, np.float32), np.asarray(vel, np.float32), ptype, ramp,
            np.asarray(life, np.float32), (np.asarray(col) & 255).astype(np.uint8))


def _normalize(d: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length; zero rows stay zero (``VectorNormalize``)."""
    length = np.linalg.norm(d, axis=1, keepdims=True)
    return np.divide(d, length, out=np.zeros_like(d), where=length > 0)


# --- closed-form motion -----------------------------------------------------------------------------------------


def _evaluate(org: np.ndarray, vel: np.ndarray, ptype: np.ndarray, ramp0: np.ndarray, life: np.ndarray,
              color: np.ndarray, spawn: np.ndarray, t: float, gravity: float) -> Particles:
    """Particles alive at ``t`` from their spawn states (all arrays N rows; ``spawn`` f8 [N])."""
    dt = (t - spawn).astype(np.float32)
    rate = _PT_RAMP_RATE[ptype]
    ramp = ramp0 + rate * dt
    alive = (dt >= 0) & (dt <= life) & (ramp < _PT_RAMP_LIMIT[ptype])
    if not alive.all():
        org, vel, ptype, ramp, color, spawn, dt = (a[alive] for a in (org, vel, ptype, ramp, color, spawn, dt))
    n = len(dt)
    if n == 0:
        return Particles.empty()
    g = np.float32(gravity * 0.05)
    k = np.empty((n, 3), np.float32)
    k[:, :2] = _PT_KXY[ptype][:, None]
    k[:, 2] = _PT_KZ[ptype]
    dtc = dt[:, None]
    nz = k != 0
    ksafe = np.where(nz, k, np.float32(1.0))
    f1 = np.where(nz, np.expm1(k * dtc) / ksafe, dtc)
    pos = org + vel * f1
    az = _PT_GZ[ptype] * g
    if az.any():
        f2 = np.where(nz[:, 2], (f1[:, 2] - dt) / ksafe[:, 2], np.float32(0.5) * dt * dt)
        pos[:, 2] += az * f2
    table = _PT_RAMP_TABLE[ptype]
    ramped = table >= 0
    if ramped.any():
        color = color.copy()
        color[ramped] = _RAMPS[table[ramped], np.minimum(ramp[ramped].astype(np.int32), 7)]
    return Particles(pos.astype(np.float32, copy=False), color, np.ones(n, np.float32), spawn)


def particles_at(emitters: Emitters, t: float, trails: Sequence[Trail] = (), *,
                 max_particles: int = DEFAULT_MAX_PARTICLES, gravity: float = DEFAULT_GRAVITY,
                 extra: Sequence[Particles] = ()) -> Particles:
    """Every particle alive at ``t``: the emitters' effects, the ``trails`` (:func:`trail_particles`) and any
    ``extra`` particles (e.g. :func:`brightfield_particles`), capped at ``max_particles`` (oldest kept).

    Pure: the same ``t`` gives identical arrays whatever was asked before.
    """
    t = float(t)
    idx = emitters.alive_indices(t)
    parts: list[_Spawn] = []
    spawns: list[np.ndarray] = []
    for i in idx:
        rng = np.random.Generator(np.random.PCG64(int(emitters.seeds[i])))
        s = _spawn(int(emitters.kinds[i]), emitters.origins[i].astype(np.float64),
                   emitters.directions[i].astype(np.float64), int(emitters.counts[i]), int(emitters.colors[i]),
                   int(emitters.color_lengths[i]), rng)
        parts.append(s)
        spawns.append(np.full(len(s[2]), emitters.times[i]))
    out: list[Particles] = []
    if parts:
        org, vel, ptype, ramp0, life, color = (np.concatenate([p[c] for p in parts]) for c in range(6))
        out.append(_evaluate(org, vel, ptype, ramp0, life, color, np.concatenate(spawns), t, gravity))
    if trails:
        out.append(trail_particles(trails, t, gravity=gravity))
    out.extend(extra)
    return Particles.concat(out).limited(max_particles)


# --- trails -----------------------------------------------------------------------------------------------------

#: Longest particle life per trail type (ramp death for 0/1).
_TRAIL_LIFE = np.array([1.2, 0.8, 2.0, 0.5, 2.0, 0.5, 0.3])
#: Distance travelled per particle (``dec`` = 3; type 4 takes 3 more per particle).
_TRAIL_DEC = np.array([3.0, 3.0, 3.0, 3.0, 6.0, 3.0, 3.0])
MAX_TRAIL_LIFE = float(_TRAIL_LIFE.max())


def trail_type_for_flags(flags: int) -> int | None:
    """``R_RocketTrail`` type for a model's MDL flags (``CL_RelinkEntities``' priority), or ``None``."""
    for bit, kind in _TRAIL_PRIORITY:
        if flags & bit:
            return kind
    return None


_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLD = np.uint64(0x9E3779B97F4A7C15)
_MASK64 = (1 << 64) - 1


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser, vectorised (uint64 arithmetic wraps)."""
    x = x ^ (x >> np.uint64(30))
    x = x * _M1
    x = x ^ (x >> np.uint64(27))
    x = x * _M2
    return x ^ (x >> np.uint64(31))


def trail_particles(trails: Sequence[Trail], t: float, *, gravity: float = DEFAULT_GRAVITY) -> Particles:
    """Trail particles alive at ``t`` (``R_RocketTrail`` rules per type), vectorised over all segments.

    Segment ``j`` of a trail (``times[j-1] → times[j]``, length L) spawns ``ceil(L / dec)`` particles at
    ``s = 0, dec, 2·dec…`` units from its start, each at the time the (linearly interpolated) entity passes it;
    particles the entity has not reached by ``t`` do not exist yet.
    """
    t = float(t)
    p0s, p1s, t0s, t1s, types, keys = [], [], [], [], [], []
    for tr in trails:
        ty = int(tr.type)
        if not 0 <= ty <= 6:
            raise ValueError(f"trail type must be 0..6, got {ty}")
        tm = np.asarray(tr.times, np.float64)
        if len(tm) < 2:
            continue
        org = np.asarray(tr.origins, np.float64).reshape(-1, 3)
        # segments j = 1..K-1 with times[j] >= t - life and times[j-1] <= t
        j_lo = max(1, int(np.searchsorted(tm, t - _TRAIL_LIFE[ty], side="left")))
        j_hi = min(len(tm) - 1, int(np.searchsorted(tm, t, side="right")))
        if j_hi < j_lo:
            continue
        sl = slice(j_lo, j_hi + 1)
        p0s.append(org[j_lo - 1:j_hi])
        p1s.append(org[sl])
        t0s.append(tm[j_lo - 1:j_hi])
        t1s.append(tm[sl])
        m = j_hi + 1 - j_lo
        types.append(np.full(m, ty, np.int64))
        keys.append(np.full(m, int(tr.key) & 0xFFFFFFFF, np.uint64))
    if not p0s:
        return Particles.empty()
    p0, p1 = np.concatenate(p0s), np.concatenate(p1s)
    t0, t1 = np.concatenate(t0s), np.concatenate(t1s)
    kinds, key = np.concatenate(types), np.concatenate(keys)
    delta = p1 - p0
    length = np.linalg.norm(delta, axis=1)
    dec = _TRAIL_DEC[kinds]
    counts = np.where(length > 0, np.ceil(length / dec), 0).astype(np.int64)
    total = int(counts.sum())
    if total == 0:
        return Particles.empty()
    seg = np.repeat(np.arange(len(counts)), counts)
    first = np.cumsum(counts) - counts
    step = np.arange(total) - first[seg]
    s = step * dec[seg]
    frac = s / np.where(length > 0, length, 1.0)[seg]
    spawn = t0[seg] + frac * (t1 - t0)[seg]
    ok = spawn <= t
    seg, step, spawn, frac = seg[ok], step[ok], spawn[ok], frac[ok]
    n = len(seg)
    if n == 0:
        return Particles.empty()
    pty = kinds[seg]
    base = p0[seg] + delta[seg] * frac[:, None]
    vec = delta[seg] / np.where(length > 0, length, 1.0)[seg, None]

    # Counter-based randomness: (key, type, segment end time in µs, particle index, channel).
    tbits = np.round(t1[seg] * 1e6).astype(np.int64).view(np.uint64)
    h = _mix(key[seg] * _GOLD ^ _mix(tbits + pty.astype(np.uint64)) ^ (step.astype(np.uint64) << np.uint64(20)))
    r = [(_mix(h + np.uint64((c * 0x9E3779B97F4A7C15) & _MASK64)) >> np.uint64(33)).astype(np.int64)
         for c in range(5)]  # like rand(): 0..2^31-1

    org = base.copy()
    vel = np.zeros((n, 3))
    ptype = np.empty(n, np.int8)
    ramp = np.zeros(n, np.float32)
    life = np.full(n, 2.0, np.float32)
    col = np.zeros(n, np.int64)
    jitter6 = np.stack([r[0] % 6, r[1] % 6, r[2] % 6], axis=1) - 3

    sel = (pty == 0) | (pty == 1)                       # rocket fire / grenade smoke
    if sel.any():
        ramp[sel] = (r[3][sel] & 3) + np.where(pty[sel] == 1, 2, 0)
        col[sel] = RAMP3[ramp[sel].astype(np.int64)]
        ptype[sel] = ParticleType.FIRE
        org[sel] += jitter6[sel]
    sel = (pty == 2) | (pty == 4)                       # blood, slight blood
    if sel.any():
        ptype[sel] = ParticleType.GRAV
        col[sel] = 67 + (r[3][sel] & 3)
        org[sel] += jitter6[sel]
    sel = (pty == 3) | (pty == 5)                       # tracers (wizard / hellknight)
    if sel.any():
        ii = step[sel]
        ptype[sel] = ParticleType.STATIC
        life[sel] = 0.5
        col[sel] = np.where(pty[sel] == 3, 52, 230) + ((ii & 4) << 1)
        sign = np.where((ii + 1) & 1, 1.0, -1.0)
        vel[sel, 0] = 30.0 * vec[sel, 1] * sign
        vel[sel, 1] = -30.0 * vec[sel, 0] * sign
    sel = pty == 6                                      # vore
    if sel.any():
        ptype[sel] = ParticleType.STATIC
        life[sel] = 0.3
        col[sel] = 9 * 16 + 8 + (r[3][sel] & 3)
        org[sel] += np.stack([r[0][sel] & 15, r[1][sel] & 15, r[2][sel] & 15], axis=1) - 8
    return _evaluate(org.astype(np.float32), vel.astype(np.float32), ptype, ramp, life,
                     (col & 255).astype(np.uint8), spawn, t, gravity)


def _entity_tracks(timeline: Any, f_lo: int, f_hi: int,
                   model_flags: Sequence[Any]) -> list[tuple[int, int, int, np.ndarray, np.ndarray]]:
    """Every continuous track of a trail-leaving entity in frames ``f_lo..f_hi``, as (entity number, trail type,
    first frame, times f8 [K], origins f4 [K, 3]) in the order the tracks end, single-frame tracks included."""
    seg_of = timeline.frame_segment
    tracks: dict[int, tuple[int, int, int, int, list, list]] = {}   # number → (model, type, first, last, times,
    #                                                                   origins)
    done: list[tuple[int, int, int, np.ndarray, np.ndarray]] = []

    def close(number: int) -> None:
        _, ty, first, _, tm, og = tracks.pop(number)
        done.append((number, ty, first, np.array(tm), np.array(og, np.float32).reshape(-1, 3)))

    for f in range(f_lo, f_hi + 1):
        seg = int(seg_of[f])
        flags = np.asarray(model_flags[seg]) if seg < len(model_flags) else np.zeros(0, np.int64)
        ents = timeline.frame_entities(f)
        if len(flags) == 0 or len(ents) == 0:
            mask = np.zeros(len(ents), bool)
            ent_flags = np.zeros(len(ents), np.int64)
        else:
            mdl = np.clip(ents.model, 0, len(flags) - 1)
            ent_flags = np.where(ents.model < len(flags), flags[mdl], 0)
            mask = (ent_flags & _TRAIL_BITS) != 0
        tf = float(timeline.times[f])
        seen = set()
        for row in np.flatnonzero(mask):
            number = int(ents.number[row])
            model = int(ents.model[row])
            origin = ents.origin[row]
            cur = tracks.get(number)
            if cur is not None and (cur[0] != model or cur[3] != f - 1 or int(seg_of[cur[3]]) != seg
                                    or np.any(np.abs(origin - cur[5][-1]) > 100.0)):
                close(number)
                cur = None
            if cur is None:
                cur = (model, trail_type_for_flags(int(ent_flags[row])) or 0, f, f, [], [])
            cur[4].append(tf)
            cur[5].append(np.asarray(origin, np.float32))
            tracks[number] = (cur[0], cur[1], cur[2], f, cur[4], cur[5])
            seen.add(number)
        for number in [k for k in tracks if k not in seen]:
            close(number)
    for number in list(tracks):
        close(number)
    return done


def trail_window(timeline: Any, t: float, window: float = MAX_TRAIL_LIFE) -> tuple[int, int]:
    """The frames a trail at ``t`` reads: from the last one before ``t − window`` to the first at or after ``t``."""
    return (max(0, int(np.searchsorted(timeline.times, t - window, side="left")) - 1), timeline.frame_at(t))


def trails_from_timeline(timeline: Any, t: float, model_flags: Sequence[Any], *,
                         window: float = MAX_TRAIL_LIFE) -> list[Trail]:
    """The :class:`Trail` of every trail-leaving entity around ``t``, from a ``DemoTimeline``.

    ``model_flags[segment]`` is an integer array (or sequence) of MDL flags by model precache index for each map
    segment (0 for brush models, sprites and missing models).  Reads the frames from ``t − window`` to the first
    frame at or after ``t``; a track is split where the entity is absent from a frame, changes model or moves more
    than 100 units on an axis between two frames (``CL_RelinkEntities`` draws no trail across a teleport/relink).
    Walks the frames each call: :class:`TrailTracks` gives the same trails from tracks made once.
    """
    if len(timeline.times) == 0:
        return []
    done = [Trail(number, ty, tm, og)
            for number, ty, _, tm, og in _entity_tracks(timeline, *trail_window(timeline, t, window), model_flags)
            if len(tm) >= 2]
    done.sort(key=lambda tr: tr.key)
    return done


@dataclass(frozen=True, slots=True)
class TrailTracks:
    """Every trail track of one map segment, made once (a pure function of the timeline and the segment's model
    flags) and cut to the window around a time by :meth:`around` — what :func:`trails_from_timeline` gives.

    Track ``i`` is entity ``keys[i]`` leaving trail type ``types[i]`` over frames ``first[i]..last[i]``; its
    samples are ``times``/``origins`` rows ``offsets[i]..offsets[i] + last[i] − first[i]``.
    """

    keys: np.ndarray
    types: np.ndarray
    first: np.ndarray
    last: np.ndarray
    offsets: np.ndarray
    times: np.ndarray
    origins: np.ndarray

    @classmethod
    def for_segment(cls, timeline: Any, segment: int, model_flags: Sequence[Any]) -> TrailTracks:
        """The tracks in the frames of map segment ``segment`` (``model_flags`` as for
        :func:`trails_from_timeline`), found with array operations over all the segment's entity rows at once:
        the rows of trail-leaving models sorted by (entity, frame), cut where the entity, its model or the frame
        run changes or it moves more than 100 units on an axis (the rules :func:`trails_from_timeline` walks)."""
        frames = np.flatnonzero(np.asarray(timeline.frame_segment) == segment)
        flags = np.asarray(model_flags[segment], np.int64) if segment < len(model_flags) else np.zeros(0, np.int64)
        if not len(frames) or not len(flags):
            return cls.empty()
        frame_of_row, ents = timeline.frames_entities(int(frames[0]), int(frames[-1]))
        model = np.asarray(ents.model, np.int64)
        ent_flags = np.where(model < len(flags), flags[np.clip(model, 0, len(flags) - 1)], 0)
        rows = np.flatnonzero(((ent_flags & _TRAIL_BITS) != 0)
                              & (np.asarray(timeline.frame_segment)[frame_of_row] == segment))
        number = np.asarray(ents.number, np.int64)[rows]
        frame = frame_of_row[rows]
        order = np.lexsort((frame, number))
        rows, number, frame, model = rows[order], number[order], frame[order], model[rows[order]]
        origins = np.asarray(ents.origin, np.float32)[rows]
        cut = np.ones(len(rows), bool)
        cut[1:] = ((number[1:] != number[:-1]) | (model[1:] != model[:-1]) | (frame[1:] != frame[:-1] + 1)
                   | (np.abs(origins[1:] - origins[:-1]) > 100.0).any(axis=1))
        starts = np.flatnonzero(cut)
        sizes = np.diff(np.append(starts, len(rows)))
        keep = sizes >= 2
        starts, sizes = starts[keep], sizes[keep]
        members = np.repeat(starts - np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes) + np.arange(sizes.sum())
        types = np.zeros(len(starts), np.int64)
        for bit, kind in reversed(_TRAIL_PRIORITY):          # the first matching bit of the priority list wins
            types = np.where(ent_flags[rows[starts]] & bit, kind, types)
        first = frame[starts]
        return cls(number[starts], types, first, first + sizes - 1,
                   np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64),
                   np.asarray(timeline.times, np.float64)[frame[members]], origins[members])

    @classmethod
    def empty(cls) -> TrailTracks:
        none = np.zeros(0, np.int64)
        return cls(none, none, none, none, none, np.zeros(0), np.zeros((0, 3), np.float32))

    def around(self, timeline: Any, t: float, window: float = MAX_TRAIL_LIFE) -> list[tuple[int, Trail]]:
        """(first frame, :class:`Trail`) of every track piece with two samples or more in the frames a trail at
        ``t`` reads (:func:`trails_from_timeline`)."""
        if len(timeline.times) == 0:
            return []
        f_lo, f_hi = trail_window(timeline, t, window)
        lo = np.maximum(self.first, f_lo)
        hi = np.minimum(self.last, f_hi)
        out = []
        for i in np.flatnonzero(hi > lo):
            a = int(self.offsets[i] + lo[i] - self.first[i])
            b = int(self.offsets[i] + hi[i] - self.first[i]) + 1
            out.append((int(lo[i]), Trail(int(self.keys[i]), int(self.types[i]), self.times[a:b], self.origins[a:b])))
        return out


def brightfield_particles(entities: Any, t: float) -> Particles:
    """``EF_BRIGHTFIELD`` (``R_EntityParticles``): 162 particles per entity on a sphere of radius 64, each pushed
    16 units along a direction turning at a fixed random rate, palette 0x6f.  ``entities`` as for
    :func:`dynamic_lights`."""
    eff = np.asarray(entities.effects)
    rows = np.flatnonzero(eff & EF_BRIGHTFIELD)
    if not len(rows):
        return Particles.empty()
    from assets_loader.models.anorms import ANORMS
    normals = np.asarray(ANORMS, np.float64)
    rates = (np.random.Generator(np.random.PCG64(0x51F1E1D)).integers(0, 256, (len(normals), 3)) * 0.01)
    yaw, pitch = t * rates[:, 0], t * rates[:, 1]
    fwd = np.stack([np.cos(pitch) * np.cos(yaw), np.cos(pitch) * np.sin(yaw), -np.sin(pitch)], axis=1)
    shell = normals * 64.0 + fwd * 16.0
    origins = np.asarray(entities.origin, np.float64)[rows]
    pos = (origins[:, None, :] + shell[None]).reshape(-1, 3).astype(np.float32)
    m = len(pos)
    return Particles(pos, np.full(m, 0x6F, np.uint8), np.ones(m, np.float32), np.full(m, float(t)))


# --- dynamic lights ---------------------------------------------------------------------------------------------


def _flicker(numbers: np.ndarray, salt: int, t: float) -> np.ndarray:
    """``rand() & 31`` stand-in: 0..31 from (entity, salt, time slot)."""
    slot = (int(math.floor(t * FLICKER_HZ)) + salt * 0xBF58476D1CE4E5B9) & _MASK64
    x = _mix(numbers.astype(np.uint64) * _GOLD ^ _mix(np.full(len(numbers), slot, np.uint64)))
    return (x >> np.uint64(40)).astype(np.int64) & 31


def dynamic_lights(emitters: Emitters, entities: Any, t: float, *, model_flags: Any = None) -> Lights:
    """The dynamic lights at ``t``.

    ``entities``: the entity states sampled at ``t`` — any object with ``number`` i4 [N], ``effects`` i4 [N],
    ``origin`` f4 [N, 3] and ``angles`` f4 [N, 3] (``SceneState.entities`` fits), or ``None``.
    ``model_flags``: i4 [N] MDL flags of each entity's model (for the rocket light), or ``None``.

    Rules (``CL_ParseTEnt``, ``CL_RelinkEntities``, ``CL_DecayLights``): explosions 350 − 300·age for 0.5 s;
    muzzle flash 200 + rand&31, 16 up and 18 forward, until 0.1 s after the bit (from the emitters when they were
    built with a timeline, else while the sampled state has the bit); ``EF_BRIGHTLIGHT`` 400 + rand&31 at origin
    + 16 up; ``EF_DIMLIGHT`` 200 + rand&31; rocket models 200.  One light per entity (the engine keys them by
    entity: the last one allocated wins: rocket, then dim, then bright, then muzzle flash).
    """
    t = float(t)
    o_list: list[np.ndarray] = []
    r_list: list[np.ndarray] = []
    c_list: list[np.ndarray] = []
    claimed = np.zeros(0, np.int64)   # entities with a continuous light this frame
    if entities is not None and len(entities.number):
        number = np.asarray(entities.number).astype(np.int64)
        eff = np.asarray(entities.effects).astype(np.int64)
        origin = np.asarray(entities.origin, np.float32)
        mf = np.zeros(len(number), np.int64) if model_flags is None else np.asarray(model_flags).astype(np.int64)
        # per entity, the light allocated last in CL_RelinkEntities wins: rocket > dim > bright > muzzle
        rocket = (mf & _MF_ROCKET) != 0
        rocket &= (mf & (_MF_GIB | _MF_ZOMGIB | _MF_TRACER | _MF_TRACER2)) == 0
        dim = ((eff & EF_DIMLIGHT) != 0) & ~rocket
        bright = ((eff & EF_BRIGHTLIGHT) != 0) & ~rocket & ~dim
        muzzle = ((eff & EF_MUZZLEFLASH) != 0) & ~rocket & ~dim & ~bright & (not emitters.has_muzzle_flashes)
        for sel, base, up, salt in ((rocket, 200.0, 0.0, -1), (dim, 200.0, 0.0, 1), (bright, 400.0, 16.0, 2)):
            if sel.any():
                o = origin[sel].copy()
                o[:, 2] += up
                r = np.full(int(sel.sum()), base, np.float32)
                if salt >= 0:
                    r += _flicker(number[sel], salt, t)
                o_list.append(o)
                r_list.append(r)
                c_list.append(np.ones((len(r), 3), np.float32))
        if muzzle.any():
            o_list.append(_muzzle_origin(origin[muzzle], np.asarray(entities.angles)[muzzle]).astype(np.float32))
            r_list.append((200.0 + _flicker(number[muzzle], 3, t)).astype(np.float32))
            c_list.append(np.ones((int(muzzle.sum()), 3), np.float32))
        claimed = number[rocket | dim | bright | muzzle]

    tl = emitters.lights
    if len(tl):
        hi = int(np.searchsorted(tl.times, t, side="right"))
        live = np.flatnonzero(tl.die[:hi] >= t)
        if len(live):
            radius = tl.radius[live] - tl.decay[live] * (t - tl.times[live]).astype(np.float32)
            ent = tl.entity[live]
            keep = radius > 0
            if len(claimed):
                keep &= ~np.isin(ent, claimed)
            # several flashes of one entity overlap (one per message): the newest one is the light
            keep &= _newest_per_entity(ent, tl.times[live])
            live, radius, ent = live[keep], radius[keep], ent[keep]
            if len(live):
                # rand()&31 drawn once per flash: hashed from the entity and the flash's start time
                tbits = np.round(tl.times[live] * 1e6).astype(np.int64).view(np.uint64)
                flick = (_mix(np.maximum(ent, 0).astype(np.uint64) * _GOLD ^ _mix(tbits)) >> np.uint64(40)) & 31
                radius = radius + np.where(ent >= 0, flick.astype(np.float32), np.float32(0))
                o_list.append(tl.origins[live])
                r_list.append(radius.astype(np.float32))
                c_list.append(tl.colors[live])
    if not r_list:
        return Lights.empty()
    return Lights(np.concatenate(o_list).astype(np.float32), np.concatenate(r_list).astype(np.float32),
                  np.concatenate(c_list).astype(np.float32))


def _newest_per_entity(ent: np.ndarray, times: np.ndarray) -> np.ndarray:
    """bool [L]: True for temp-entity lights (ent < 0) and the latest-starting light of each entity."""
    keep = ent < 0
    keyed = np.flatnonzero(~keep)
    if len(keyed):
        order = keyed[np.lexsort((times[keyed], ent[keyed]))]
        last = np.ones(len(order), bool)
        last[:-1] = ent[order][1:] != ent[order][:-1]
        keep[order[last]] = True
    return keep
