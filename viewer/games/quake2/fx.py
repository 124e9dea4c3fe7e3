"""Quake II particles and dynamic lights as pure functions of time: temp entities, muzzle flashes, entity trails and
laser beams.

Quake II moves a particle in closed form already (``CL_AddParticles``: ``org + vel·dt + ½·accel·dt²``, alpha
``1 + alphavel·dt``, gone when alpha reaches 0), so each effect here is its spawn record plus a seeded generator:
the particles alive at ``t`` are recomputed from the records whose particles can still be alive, whatever order the
calls come in.  Effects by temp entity (``CL_ParseTEnt``): impacts spray ``CL_ParticleEffect`` sparks of the kind's
colour (gunshot dark, blood red, sparks yellow…); splashes and laser sparks take the sent colour and count;
explosions throw 256 orange ``CL_ExplosionParticles`` and light 350 units for half a second; rail trails are the
blue spiral and white core of ``CL_RailTrail``; bubble trails a bubble every 32 units.  Muzzle flashes light a point
18 units before and 16 right of their entity for 16 ms (Q2PRO's ``CL_MuzzleFlash``, ``cl_muzzlelight_time``: 200
units + 0–31, 100 + 0–31 silenced, the chain gun's more; coloured by weapon).  Entities leave
trails between their frames (``EF_ROCKET`` smoke and fire, ``EF_GRENADE`` smoke, ``EF_BLASTER`` / ``EF_HYPERBLASTER``
yellow, ``EF_GIB`` blood, ``EF_FLAG1`` / ``EF_FLAG2`` red or blue ``CL_FlagTrail`` specks) and carry lights (rockets,
blasters, ``EF_BFG``, flag carriers red or blue); ``RF_BEAM`` lasers are a line of
particles from origin to old_origin in one of the colours packed in their skin.

Explosions also leave their animated mesh and its shrinking light (:mod:`.explosions`); the explosion kinds without
one light 350 units for half a second.

Each particle carries its alpha ``1 + alphavel·dt``, which Q2PRO draws it at (beam particles are opaque).

Q2PRO reads frame N of a demo once its client time passes frame N−1 (``CL_DemoFrame``) and fires the frame's temp
entities and muzzle flashes then (``CL_ParseFrame`` … ``CL_ParseTEnt``, ``CL_MuzzleFlash``), while it draws the
entities moving from N−1 to N: particles and flash lights start at the previous frame's time (at most one 100 ms
frame before their own), and a particle shows a frame older than it would from the event's own time.

References: Quake II 3.20 ``client/cl_fx.c`` (``CL_ParticleEffect``, ``CL_ParticleEffect2``, ``CL_ExplosionParticles``,
``CL_RailTrail``, ``CL_BubbleTrail``, ``CL_RocketTrail``, ``CL_DiminishingTrail``, ``CL_BlasterTrail``,
``CL_FlagTrail``, ``CL_ParseMuzzleFlash``, ``CL_AddParticles``), ``client/cl_tent.c`` (``CL_ParseTEnt``,
``splash_color``), ``client/cl_ents.c`` (``CL_AddPacketEntities``: trails, entity lights, ``RF_BEAM``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from assets_loader.demos import DemoTimeline, SceneState
from assets_loader.demos.events import MuzzleFlashEvent, TempEntityEvent
from assets_loader.demos.quake2.protocol import (EF_BFG, EF_BLASTER, EF_FLAG1, EF_FLAG2, EF_GIB, EF_GRENADE,
                                                 EF_HYPERBLASTER, EF_ROCKET, RF_BEAM)

from ...render.refdef import Camera, Lights, Particles, SegmentAssets
from ...render.view_math import angle_vectors
from ..base import EffectModel, ShadedDraws
from . import explosions

GRAVITY = 40.0                       # PARTICLE_GRAVITY
MAX_LIFE = 1.3                       # the longest particle life here (alphavel ≥ -1/1.2 … plus margin)
TRAIL_WINDOW = 1.0                   # seconds of entity movement whose trail particles may still be alive
#: How many frames' trail movers :class:`Quake2Effects` keeps before it forgets those outside the trail window.
MOVERS_KEPT = 256
#: ``CL_FlagTrail`` colours (red team's flag, blue team's) and the flag carrier's light.
FLAG_TRAIL_COLORS = {EF_FLAG1: 242, EF_FLAG2: 115}
FLAG_LIGHT_COLORS = {EF_FLAG1: (1.0, 0.1, 0.1), EF_FLAG2: (0.1, 0.1, 1.0)}
FLAG_LIGHT_RADIUS = 225.0
SPLASH_COLORS = (0x00, 0xE0, 0xB0, 0x50, 0xD0, 0xE0, 0xE8)
#: Impact temp entities: (colour, count, colour spread) as ``CL_ParseTEnt`` calls ``CL_ParticleEffect``.
IMPACTS = {
    "gunshot": (0x00, 40), "shotgun": (0x00, 20), "blood": (0xE8, 60), "sparks": (0xE0, 6),
    "bullet_sparks": (0xE0, 6), "blaster": (0xE0, 40), "screen_sparks": (0xD0, 40), "shield_sparks": (0xB0, 40),
    "greenblood": (0xDF, 30), "moreblood": (0xE8, 250), "electric_sparks": (0x75, 40), "blaster2": (0xD0, 40),
    "flechette": (0x6F, 40), "heatbeam_sparks": (0x08, 50), "heatbeam_steam": (0xE0, 20),
}
EXPLOSIONS = frozenset({"explosion1", "barrel_explosion", "rocket_explosion", "grenade_explosion",
                        "rocket_explosion_water", "grenade_explosion_water", "plasma_explosion", "explosion1_big",
                        "explosion1_np", "bfg_explosion", "bfg_bigexplosion", "plain_explosion", "tracker_explosion",
                        "nukeblast"})
LINES = frozenset({"railtrail", "bubbletrail", "bubbletrail2", "debugtrail", "bfg_laser"})
#: Muzzle flash light colours by flash name (Q2PRO's ``CL_MuzzleFlash``); others are yellow.
FLASH_COLORS = {"railgun": (0.5, 0.5, 1.0), "rocket": (1.0, 0.5, 0.2), "grenade": (1.0, 0.5, 0.0),
                "bfg": (0.0, 1.0, 0.0), "login": (0.0, 1.0, 0.0), "logout": (1.0, 0.0, 0.0),
                "respawn": (1.0, 1.0, 0.0), "bluehyperblaster": (0.0, 0.0, 1.0), "chaingun1": (1.0, 0.25, 0.0),
                "chaingun2": (1.0, 0.5, 0.0), "phalanx": (1.0, 0.5, 0.5), "ionripper": (1.0, 0.5, 0.5),
                "etf_rifle": (0.9, 0.7, 0.0), "blaster2": (0.0, 1.0, 0.0), "tracker": (-1.0, -1.0, -1.0),
                "nuke1": (1.0, 0.0, 0.0), "nuke4": (0.0, 0.0, 1.0), "nuke8": (0.0, 1.0, 1.0)}
#: Flashes whose light is larger than 200 (before the random 0–31) whatever the silencer.
FLASH_RADII = {"chaingun1": 200.0, "chaingun2": 225.0, "chaingun3": 250.0}
#: How long a flash lights (``cl_muzzlelight_time`` 16 ms; 100 ms for the heat beam's and the nuke's).
FLASH_LIGHT_TIME = 0.016
LONG_FLASHES = frozenset({"heatbeam", "nuke1", "nuke2", "nuke4", "nuke8"})
LONG_FLASH_LIGHT_TIME = 0.1
#: The longest Quake II frame: an event fires at the previous frame's time, at most this much before its own.
FRAME_TIME = 0.1


@dataclass(frozen=True, slots=True, eq=False)
class _Cloud:
    """Particles of one effect relative to its spawn: origin/velocity/accel f4 [N, 3], colour u1 [N], alphavel
    f4 [N] (negative: life = -1/alphavel)."""

    org: np.ndarray
    vel: np.ndarray
    accel: np.ndarray
    color: np.ndarray
    alphavel: np.ndarray

    def at(self, dt: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Positions, colours and alphas of the particles still alive ``dt`` seconds after the spawn."""
        alpha = 1.0 + self.alphavel * dt
        alive = alpha > 0.0
        pos = self.org[alive] + self.vel[alive] * dt + 0.5 * self.accel[alive] * dt * dt
        return pos.astype(np.float32), self.color[alive], alpha[alive].astype(np.float32)


def _cloud(org: np.ndarray, vel: np.ndarray, color: np.ndarray, alphavel: np.ndarray, gravity: float) -> _Cloud:
    accel = np.zeros_like(vel)
    accel[:, 2] = -gravity
    return _Cloud(org.astype(np.float32), vel.astype(np.float32), accel.astype(np.float32),
                  (color & 0xFF).astype(np.uint8), alphavel.astype(np.float32))


def particle_effect(rng: np.random.Generator, origin: np.ndarray, direction: np.ndarray, color: int, count: int,
                    spread: bool = True) -> _Cloud:
    """``CL_ParticleEffect`` (``spread``: colour + rand&7) / ``CL_ParticleEffect2``."""
    d = rng.integers(0, 32, count)[:, None]
    org = origin + rng.integers(-4, 4, (count, 3)) + d * direction
    vel = rng.uniform(-20, 20, (count, 3))
    colors = color + (rng.integers(0, 8, count) if spread else 0)
    return _cloud(org, vel, np.asarray(colors), -1.0 / (0.5 + rng.random(count) * 0.3), GRAVITY)


def explosion(rng: np.random.Generator, origin: np.ndarray) -> _Cloud:
    """``CL_ExplosionParticles``: 256 orange sparks flying out up to 192 units/s."""
    n = 256
    org = origin + rng.integers(-16, 16, (n, 3))
    vel = rng.integers(-192, 192, (n, 3)).astype(np.float32)
    return _cloud(org, vel, 0xE0 + rng.integers(0, 8, n), -0.8 / (0.5 + rng.random(n) * 0.3), GRAVITY)


def line(rng: np.random.Generator, name: str, start: np.ndarray, end: np.ndarray) -> _Cloud:
    """Rail trail (spiral + core), bubble trail, BFG laser and debug trail particles from ``start`` to ``end``."""
    vec = end - start
    length = float(np.linalg.norm(vec))
    if length < 1e-3:
        return _cloud(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0, np.int32), np.zeros(0), 0.0)
    d = vec / length
    if name == "railtrail":
        right = np.cross(d, [0.0, 0.0, 1.0] if abs(d[2]) < 0.99 else [1.0, 0.0, 0.0])
        right /= np.linalg.norm(right)
        up = np.cross(right, d)
        i = np.arange(int(length))
        ang = i * 0.1
        ring = np.cos(ang)[:, None] * right + np.sin(ang)[:, None] * up
        spiral_org = start + i[:, None] * d + ring * 3
        core = np.arange(0.0, length, 0.75)
        core_org = start + core[:, None] * d + rng.uniform(-3, 3, (len(core), 3))
        org = np.concatenate([spiral_org, core_org])
        vel = np.concatenate([ring * 6, rng.uniform(-3, 3, (len(core), 3))])
        colors = np.concatenate([0x74 + rng.integers(0, 8, len(i)), rng.integers(0, 16, len(core))])
        alphavel = np.concatenate([-1.0 / (1.0 + rng.random(len(i)) * 0.2), -1.0 / (0.6 + rng.random(len(core)) * 0.2)])
        return _cloud(org, vel, colors, alphavel, 0.0)
    step = 32.0 if name.startswith("bubbletrail") else 8.0
    s = np.arange(0.0, length, step)
    org = start + s[:, None] * d + rng.uniform(-2, 2, (len(s), 3))
    vel = rng.uniform(-5, 5, (len(s), 3))
    if name.startswith("bubbletrail"):
        vel[:, 2] += 6
    colors = (4 if name.startswith("bubbletrail") else 0xD0) + rng.integers(0, 8, len(s))
    return _cloud(org, vel, colors, -1.0 / (1.0 + rng.random(len(s)) * 0.2), 0.0)


def temp_entity_cloud(rng: np.random.Generator, e: TempEntityEvent) -> _Cloud | None:
    """The particles of one temp entity (``None`` for kinds without particles here)."""
    origin = np.asarray(e.origin, np.float64)
    direction = np.asarray(e.direction if e.direction is not None else (0.0, 0.0, 1.0), np.float64)
    if e.name in IMPACTS:
        color, count = IMPACTS[e.name]
        return particle_effect(rng, origin, direction, color, count)
    if e.name == "splash":
        color = SPLASH_COLORS[e.color] if e.color is not None and e.color < len(SPLASH_COLORS) else 0
        return particle_effect(rng, origin, direction, color, e.count or 8)
    if e.name in ("laser_sparks", "welding_sparks", "tunnel_sparks"):
        return particle_effect(rng, origin, direction, e.color or 0, e.count or 8, spread=False)
    if e.name in EXPLOSIONS:
        return explosion(rng, origin)
    if e.name in LINES and e.end is not None:
        return line(rng, e.name, origin, np.asarray(e.end, np.float64))
    return None


def _hash_rng(*keys: int) -> np.random.Generator:
    return np.random.default_rng([k & 0xFFFFFFFF for k in keys])


def fire_times(timeline: DemoTimeline, events: tuple[TempEntityEvent, ...] | tuple[MuzzleFlashEvent, ...]
               ) -> np.ndarray:
    """When Q2PRO fires each event: as it reads the event's frame, at the previous frame's time (no more than
    :data:`FRAME_TIME` before the event's own; the first frame's events at their own time)."""
    own = np.array([e.time for e in events], np.float64)
    frames = np.array([e.frame for e in events], np.int64)
    if not len(own) or not len(timeline.times):
        return own
    previous = timeline.times[np.clip(frames - 1, 0, len(timeline.times) - 1)]
    return np.where(frames > 0, np.clip(previous, own - FRAME_TIME, own), own)


@dataclass(frozen=True, slots=True, eq=False)
class Quake2Effects:
    """A timeline's effects (``GameView.prepare_effects``): temp entities and muzzle flashes by time (the event's
    own, which the explosions count from, and the time Q2PRO fires it: :func:`fire_times`)."""

    te_times: np.ndarray
    temp_entities: tuple[TempEntityEvent, ...]
    te_fired: np.ndarray
    flash_fired: np.ndarray
    flashes: tuple[MuzzleFlashEvent, ...]
    timeline: DemoTimeline
    #: Frame → the trail movers :meth:`_movers` found in it (each frame's are read from the timeline once; only
    #: the frames of the trail window last drawn are kept, so playing a long demo does not grow it).
    movers: dict[int, tuple[tuple[int, int, np.ndarray, np.ndarray, float], ...]] = field(default_factory=dict)

    @staticmethod
    def of(timeline: DemoTimeline) -> Quake2Effects:
        tes = tuple(e for e in timeline.events_of_kind("temp_entity") if isinstance(e, TempEntityEvent))
        flashes = tuple(e for e in timeline.events_of_kind("muzzleflash") if isinstance(e, MuzzleFlashEvent))
        return Quake2Effects(np.array([e.time for e in tes], np.float64), tes, fire_times(timeline, tes),
                             fire_times(timeline, flashes), flashes, timeline)

    def particles(self, timeline: DemoTimeline, t: float, model_flags: list[np.ndarray] | None) -> Particles:
        positions: list[np.ndarray] = []
        colors: list[np.ndarray] = []
        spawns: list[np.ndarray] = []
        alphas: list[np.ndarray] = []
        lo, hi = np.searchsorted(self.te_fired, [t - MAX_LIFE, t], side="right")
        for i in range(int(lo), int(hi)):
            cloud = temp_entity_cloud(_hash_rng(i, 0x7E), self.temp_entities[i])
            if cloud is None:
                continue
            fired = float(self.te_fired[i])
            p, c, a = cloud.at(t - fired)
            positions.append(p)
            colors.append(c)
            spawns.append(np.full(len(c), fired))
            alphas.append(a)
        self._trails(timeline, t, positions, colors, spawns, alphas)
        if not positions:
            return Particles.empty()
        pos = np.concatenate(positions).astype(np.float32)
        return Particles(pos, np.concatenate(colors).astype(np.uint8), np.ones(len(pos), np.float32),
                         np.concatenate(spawns), np.concatenate(alphas).astype(np.float32))

    def _trails(self, timeline: DemoTimeline, t: float, positions: list[np.ndarray], colors: list[np.ndarray],
                spawns: list[np.ndarray], alphas: list[np.ndarray]) -> None:
        """Trails of the entities that moved during the last :data:`TRAIL_WINDOW` seconds, and laser beams now."""
        if not timeline.num_frames:
            return
        hi = timeline.frame_at(t)
        lo = max(int(np.searchsorted(timeline.times, t - TRAIL_WINDOW)), 1)
        if len(self.movers) > MOVERS_KEPT:
            for f in [f for f in self.movers if not lo <= f <= hi]:
                del self.movers[f]
        for f in range(lo, hi + 1):
            t0, t1 = float(timeline.times[f - 1]), float(timeline.times[f])
            for number, flags, start, end, dist in self._movers(timeline, f):
                spacing = 3.0 if flags & (EF_ROCKET | EF_GRENADE | EF_GIB) else 5.0
                s = np.arange(0.0, dist, spacing)
                born = t0 + (t1 - t0) * s / dist
                keep = born <= t
                rng = _hash_rng(number, f, 0x7A)
                n = int(keep.sum())
                if not n:
                    continue
                flag = not flags & ~(EF_FLAG1 | EF_FLAG2)
                spread = 16.0 if flag else 1.5
                org = start + (s[keep] / dist)[:, None] * (end - start) + rng.uniform(-spread, spread, (n, 3))
                vel = rng.uniform(-5, 5, (n, 3))
                life = 0.8 + rng.random(n) * 0.2 if flag else 0.6 + rng.random(n) * 0.4
                if flag:                                  # CL_FlagTrail (the engine's last choice of trail)
                    color = np.full(n, FLAG_TRAIL_COLORS[EF_FLAG1 if flags & EF_FLAG1 else EF_FLAG2])
                    grav = 0.0
                elif flags & EF_GIB:
                    color, grav = 0xE8 + rng.integers(0, 8, n), GRAVITY
                elif flags & EF_ROCKET:
                    color, grav = 0xDC + rng.integers(0, 4, n), -GRAVITY / 2
                elif flags & EF_GRENADE:
                    color, grav = 4 + rng.integers(0, 8, n), -GRAVITY / 2
                else:
                    color, grav = 0xE0 + rng.integers(0, 8, n), 0.0
                cloud = _cloud(org, vel, color, -1.0 / life, grav)
                dt = t - born[keep]
                alpha = 1.0 + cloud.alphavel * dt
                alive = alpha > 0
                pos = cloud.org + cloud.vel * dt[:, None] + 0.5 * cloud.accel * (dt * dt)[:, None]
                positions.append(pos[alive].astype(np.float32))
                colors.append(cloud.color[alive])
                spawns.append(born[keep][alive])
                alphas.append(alpha[alive])
        self._beams(timeline.frame_entities(hi), positions, colors, spawns, alphas, t)

    def _movers(self, timeline: DemoTimeline, f: int) -> tuple[tuple[int, int, np.ndarray, np.ndarray, float], ...]:
        """The entities of frame ``f`` with a trail effect that moved 1 to 512 units since frame ``f − 1``, as
        (number, trail effect bits, start, end, distance): what the trails of that frame are drawn from, whatever
        the time (worked out once per frame: the trail window covers ten frames or so)."""
        found = self.movers.get(f)
        if found is None:
            a, b = timeline.frame_entities(f - 1), timeline.frame_entities(f)
            flags = b.effects & (EF_ROCKET | EF_GRENADE | EF_BLASTER | EF_HYPERBLASTER | EF_GIB | EF_FLAG1 | EF_FLAG2)
            rows = []
            for j in np.flatnonzero(flags):
                k = a.index_of(int(b.number[j]))
                if k is None:
                    continue
                start, end = a.origin[k].astype(np.float64), b.origin[j].astype(np.float64)
                dist = float(np.linalg.norm(end - start))
                if 1 <= dist <= 512:
                    rows.append((int(b.number[j]), int(flags[j]), start, end, dist))
            found = self.movers[f] = tuple(rows)
        return found

    @staticmethod
    def _beams(ents, positions: list[np.ndarray], colors: list[np.ndarray], spawns: list[np.ndarray],
               alphas: list[np.ndarray], t: float) -> None:
        renderfx = ents.extra.get("renderfx")
        old = ents.extra.get("old_origin")
        if renderfx is None or old is None:
            return
        for j in np.flatnonzero(renderfx & RF_BEAM):
            start, end = ents.origin[j].astype(np.float64), old[j].astype(np.float64)
            dist = float(np.linalg.norm(end - start))
            if dist < 1:
                continue
            s = np.arange(0.0, dist, 4.0)
            pos = start + (s / dist)[:, None] * (end - start)
            color = (int(ents.skin[j]) >> ((int(ents.frame[j]) & 3) * 8)) & 0xFF
            positions.append(pos.astype(np.float32))
            colors.append(np.full(len(s), color, np.uint8))
            spawns.append(np.full(len(s), t))
            alphas.append(np.ones(len(s), np.float32))

    def lights(self, state: SceneState, t: float, model_flags: np.ndarray | None) -> Lights:
        origins: list[np.ndarray] = []
        radius: list[float] = []
        colors: list[tuple[float, float, float]] = []
        for origin, r, color in explosions.lights_at(self.te_times, self.temp_entities, t):
            origins.append(origin)
            radius.append(r)
            colors.append(color)
        lo, hi = np.searchsorted(self.te_times, [t - 0.5, t], side="right")
        for i in range(int(lo), int(hi)):
            e = self.temp_entities[i]
            if e.name in EXPLOSIONS and e.name not in explosions.KINDS:
                origins.append(np.asarray(e.origin, np.float32))
                radius.append(350.0 * (1.0 - (t - e.time) / 0.5))
                colors.append((0.0, 1.0, 0.0) if e.name.startswith("bfg") else (1.0, 0.5, 0.5))
        self._flash_lights(t, origins, radius, colors)
        ents = state.entities
        for j in np.flatnonzero(ents.effects & (EF_ROCKET | EF_BLASTER | EF_HYPERBLASTER | EF_BFG)):
            fx = int(ents.effects[j])
            origins.append(ents.origin[j].astype(np.float32))
            if fx & EF_ROCKET:
                radius.append(200.0)
                colors.append((1.0, 1.0, 0.0))
            elif fx & EF_BFG:
                radius.append(200.0)
                colors.append((0.0, 1.0, 0.0))
            else:
                radius.append(200.0)
                colors.append((1.0, 1.0, 0.0))
        lit = EF_ROCKET | EF_BLASTER | EF_HYPERBLASTER | EF_BFG
        carriers = ((ents.effects & (EF_FLAG1 | EF_FLAG2)) != 0) & ((ents.effects & lit) == 0)
        for j in np.flatnonzero(carriers):
            origins.append(ents.origin[j].astype(np.float32))
            radius.append(FLAG_LIGHT_RADIUS)
            colors.append(FLAG_LIGHT_COLORS[EF_FLAG1 if int(ents.effects[j]) & EF_FLAG1 else EF_FLAG2])
        if not origins:
            return Lights.empty()
        return Lights(np.stack(origins).astype(np.float32), np.asarray(radius, np.float32),
                      np.asarray(colors, np.float32))

    def _flash_lights(self, t: float, origins: list[np.ndarray], radius: list[float],
                      colors: list[tuple[float, float, float]]) -> None:
        """The muzzle flashes lit at ``t``: from their firing, at their entity as its frame has it."""
        lo, hi = np.searchsorted(self.flash_fired, [t - LONG_FLASH_LIGHT_TIME, t], side="right")
        for i in range(int(lo), int(hi)):
            f = self.flashes[i]
            life = LONG_FLASH_LIGHT_TIME if f.name in LONG_FLASHES else FLASH_LIGHT_TIME
            if t > self.flash_fired[i] + life:
                continue
            ents = self.timeline.frame_entities(f.frame)
            k = ents.index_of(f.entity)
            if k is None:
                continue
            origin = ents.origin[k].astype(np.float64)
            if not f.monster:
                forward, right, _ = angle_vectors(ents.angles[k])
                origin = origin + 18.0 * forward + 16.0 * right
            jitter = float(_hash_rng(i, 0x3F).integers(0, 32))
            base = FLASH_RADII.get(f.name or "", 200.0 if f.monster else 100.0 * (2 - int(f.silenced)))
            origins.append(origin.astype(np.float32))
            radius.append(base + jitter)
            colors.append(FLASH_COLORS.get(f.name or "", (1.0, 1.0, 0.0)))

    def shaded(self, state: SceneState, t: float, camera: Camera, first_person: bool,
               assets: SegmentAssets | None = None) -> ShadedDraws:
        """Nothing is drawn through shader scripts."""
        return ShadedDraws()

    def models(self, state: SceneState, t: float) -> list[EffectModel]:
        return explosions.models_at(self.te_times, self.temp_entities, t)
