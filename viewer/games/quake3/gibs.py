"""Quake III gibs (``EV_GIB_PLAYER``): body parts thrown from the gibbed player, falling, bouncing off the map and
leaving one blood mark each at their first bounce and a trail of blood puffs while they fly.

``CG_GibPlayer`` throws the skull or the brain, then the abdomen, an arm, the chest, a fist, a foot, a forearm, the
intestine and two legs, each at a random velocity (±250 sideways, 250 ± 250 up) under gravity 800; a part lives
5 to 8 s and sinks 16 units into the floor during its last second.  A bounce reflects the velocity off the surface
and keeps 0.6 of it; a part on a floor moving up slower than 40 units/s comes to rest.  Blood marks are
``bloodMark`` squares of radius 16 ‥ 47; the trail leaves a ``bloodTrail`` puff every 150 ms that grows from 16
units and drops 40 over 2 s, fading.

The engine traces the map's brushes; here the flight is stepped every 25 ms and a point counts as solid when it
lies in a leaf outside every cluster (the map's solid space), the contact found by halving the step and the
surface normal from which neighbouring points are solid.  Random numbers come from the event's index, so a gib
flies the same way at every look.

References: ioquake3 ``code/cgame/cg_effects.c`` (``CG_GibPlayer``, ``CG_LaunchGib``), ``cg_localents.c``
(``CG_AddFragment``, ``CG_ReflectVelocity``, ``CG_FragmentBounceMark``, ``CG_BloodTrail``,
``CG_AddFallScaleFade``), ``code/game/bg_public.h`` (``DEFAULT_GRAVITY``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assets_loader.bsp46 import Bsp46World

__all__ = ["GIB_MODELS", "Flight", "Gib", "launch_gibs"]

GIB_VELOCITY, GIB_JUMP, GRAVITY = 250.0, 250.0, 800.0
BOUNCE, STOP_SPEED = 0.6, 40.0
SINK_TIME, SINK_DEPTH = 1.0, 16.0
STEP = 0.025
_G = "models/gibs/"
#: Every part after the head (``CG_GibPlayer``'s order).
BODY_PARTS = tuple(_G + n + ".md3" for n in ("abdomen", "arm", "chest", "fist", "foot", "forearm", "intestine",
                                               "leg", "leg"))
GIB_MODELS = (_G + "skull.md3", _G + "brain.md3", *BODY_PARTS)


@dataclass(frozen=True, slots=True, eq=False)
class Flight:
    """One arc: from ``start`` s at ``base`` with velocity ``delta`` under gravity (``moving``), or resting."""

    start: float
    base: np.ndarray
    delta: np.ndarray
    moving: bool

    def at(self, t: float) -> np.ndarray:
        """Where the arc is at ``t`` (``[3]`` float64: :meth:`point`)."""
        return np.array(self.point(t))

    def point(self, t: float) -> tuple[float, float, float]:
        """Where the arc is at ``t``, in plain floats."""
        x, y, z = self.base.tolist()
        if self.moving:
            dt = t - self.start
            dx, dy, dz = self.delta.tolist()
            x, y, z = x + dx * dt, y + dy * dt, z + dz * dt
            z -= 0.5 * GRAVITY * dt * dt
        return x, y, z

    def velocity(self, t: float) -> np.ndarray:
        v = self.delta.copy()
        v[2] -= GRAVITY * (t - self.start)
        return v


@dataclass(frozen=True, slots=True, eq=False)
class Gib:
    """A thrown part: ``model``, its arcs in time order, when it goes, and its blood mark (time, point, normal,
    radius, rotation) if it bounced."""

    model: str
    flights: tuple[Flight, ...]
    end: float
    mark: tuple[float, np.ndarray, np.ndarray, float, float] | None

    def position(self, t: float) -> np.ndarray:
        """Where the part is at ``t`` (sunk while it goes)."""
        return np.array(self.point(t))

    def point(self, t: float) -> tuple[float, float, float]:
        """:meth:`position` in plain floats (:meth:`Flight.point`)."""
        flight = self.flights[0]
        for f in self.flights:
            if f.start <= t:
                flight = f
        x, y, z = flight.point(t)
        left = self.end - t
        if not flight.moving and left < SINK_TIME:
            z -= SINK_DEPTH * (1.0 - left / SINK_TIME)
        return x, y, z

    def flying(self, t: float) -> bool:
        flight = next((f for f in reversed(self.flights) if f.start <= t), self.flights[0])
        return flight.moving


class _Random:
    """A small fixed generator for one event (``rand`` / ``random`` / ``crandom``)."""

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    def random(self) -> float:
        return float(self._rng.random())

    def crandom(self) -> float:
        return 2.0 * self.random() - 1.0


def _solid(level: Bsp46World | None, p: np.ndarray) -> bool:
    return level is not None and level.point_cluster(p) < 0


def _normal(level: Bsp46World | None, p: np.ndarray) -> np.ndarray:
    """The surface normal at ``p``, from the axis directions that lead into solid space."""
    n = np.zeros(3)
    for axis in range(3):
        for sign in (-1.0, 1.0):
            q = p.copy()
            q[axis] += sign * 2.0
            if _solid(level, q):
                n[axis] -= sign
    norm = float(np.linalg.norm(n))
    return n / norm if norm > 0 else np.array([0.0, 0.0, 1.0])


def _fly(level: Bsp46World | None, model: str, origin: np.ndarray, velocity: np.ndarray, start: float,
         end: float, rng: _Random) -> Gib:
    flights = [Flight(start, origin.copy(), velocity.copy(), True)]
    mark = None
    t = start
    while t < end:
        flight = flights[-1]
        t_next = min(t + STEP, end)
        q = flight.at(t_next)
        if not _solid(level, q):
            t = t_next
            continue
        lo, hi = t, t_next                   # find the contact: the last free point
        for _ in range(8):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if _solid(level, flight.at(mid)) else (mid, hi)
        hit = flight.at(lo)
        normal = _normal(level, hit)
        if mark is None:
            mark = (lo, hit, normal, 16.0 + float(int(rng.random() * 32)), rng.random() * 360.0)
        v = flight.velocity(lo)
        v = (v - 2.0 * float(v @ normal) * normal) * BOUNCE
        rest = normal[2] > 0 and v[2] < STOP_SPEED
        flights.append(Flight(lo, hit, v, not rest))
        if rest:
            break
        t = lo + 1e-4
    return Gib(model, tuple(flights), end, mark)


def launch_gibs(level: Bsp46World | None, origin, time: float, seed: int) -> tuple[Gib, ...]:
    """The parts one ``EV_GIB_PLAYER`` at ``origin`` and ``time`` throws (rules: module docstring)."""
    rng = _Random(seed)
    origin = np.asarray(origin, np.float64)
    out = []
    head = GIB_MODELS[0] if rng.random() < 0.5 else GIB_MODELS[1]
    for model in (head, *BODY_PARTS):
        velocity = np.array([rng.crandom() * GIB_VELOCITY, rng.crandom() * GIB_VELOCITY,
                             GIB_JUMP + rng.crandom() * GIB_VELOCITY])
        end = time + 5.0 + rng.random() * 3.0
        out.append(_fly(level, model, origin, velocity, time, end, rng))
    return tuple(out)
