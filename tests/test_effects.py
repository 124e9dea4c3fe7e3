"""Particle effects, trails and dynamic lights as pure functions of time (viewer.games.quake.fx)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from assets_loader.demos.events import ParticleEvent, PrintEvent, TempEntityEvent
from assets_loader.demos.quake import protocol as NQ
from viewer.games.quake.fx import (
    EF_BRIGHTLIGHT, EF_DIMLIGHT, EF_MUZZLEFLASH, RAMP1, RAMP2, RAMP3, EffectKind, Particles, Trail,
    brightfield_particles, build_emitters, dynamic_lights, muzzle_flashes_from_timeline, particles_at,
    trail_particles, trail_type_for_flags, trails_from_timeline,
)


def te(time: float, te_num: int, origin=(0.0, 0.0, 0.0), **kw) -> TempEntityEvent:
    """A temp entity by its NetQuake wire code, named as the decoder names it."""
    return TempEntityEvent(time, 0, 0, NQ.TE_NAMES[te_num], origin, **kw)


def explosion_emitters(time: float = 1.0, origin=(0.0, 0.0, 0.0)):
    return build_emitters([te(time, 3, origin)])


def same(a: Particles, b: Particles) -> bool:
    return (np.array_equal(a.positions, b.positions) and np.array_equal(a.colors, b.colors)
            and np.array_equal(a.sizes, b.sizes))


def busy_events():
    evs = [PrintEvent(0.5, 0, 0, "hello")]
    for i in range(30):
        evs.append(te(0.1 * i, (0, 1, 2, 3, 4, 7, 8, 10, 11, 12)[i % 10], (i * 10.0, 0.0, 5.0),
                      color_start=100, color_length=8))
        evs.append(ParticleEvent(0.1 * i + 0.05, 0, 0, (0.0, i * 5.0, 0.0), (1.0, 2.0, 3.0), 20, 73))
    return evs


# --- determinism ------------------------------------------------------------------------------------------------


def test_same_t_twice_gives_identical_arrays_in_any_order() -> None:
    em = build_emitters(busy_events())
    trail = [Trail(7, 0, np.array([0.0, 0.1, 0.2, 0.3, 0.4]), np.cumsum(np.full((5, 3), 20.0), axis=0))]
    times = [0.05, 1.37, 2.9, 0.7, 1.37, 2.2, 0.05]
    first = {t: particles_at(em, t, trail) for t in times}
    for t in reversed(times):
        assert same(particles_at(em, t, trail), first[t])
    rng = np.random.default_rng(1)
    state = np.random.get_state()
    for t in rng.permutation(times):
        assert same(particles_at(em, float(t), trail), first[float(t)])
    assert np.array_equal(np.random.get_state()[1], state[1])   # the global RNG was never touched


def test_rebuilt_emitters_give_the_same_particles() -> None:
    a = particles_at(build_emitters(busy_events()), 1.23)
    b = particles_at(build_emitters(busy_events()), 1.23)
    assert len(a) > 0 and same(a, b)


def test_emitters_sorted_by_time_and_non_effects_ignored() -> None:
    em = build_emitters(list(reversed(busy_events())))
    assert len(em) == 60
    assert np.all(np.diff(em.times) >= 0)


# --- explosions -------------------------------------------------------------------------------------------------


def test_explosion_expands_and_dies_by_its_die_time() -> None:
    em = explosion_emitters(1.0, (10.0, 20.0, 30.0))
    assert len(particles_at(em, 0.999)) == 0
    spreads = []
    for dt in (0.0, 0.1, 0.2, 0.4):
        p = particles_at(em, 1.0 + dt)
        d = np.linalg.norm(p.positions - np.array([10.0, 20.0, 30.0]), axis=1)
        spreads.append(np.median(d))
    assert len(particles_at(em, 1.0)) == 1024
    assert spreads == sorted(spreads) and spreads[-1] > 3 * spreads[0]
    # pt_explode2 (ramp 15/s, dies at 8) are gone after 8/15 s, pt_explode (10/s) after 0.8 s
    assert 0 < len(particles_at(em, 1.0 + 0.55)) <= 512
    assert len(particles_at(em, 1.0 + 0.8001)) == 0


def test_explosion2_uses_its_colour_range_and_lives_0_3_s() -> None:
    em = build_emitters([te(2.0, 12, color_start=200, color_length=4)])
    p = particles_at(em, 2.1)
    assert len(p) == 512
    assert set(np.unique(p.colors)) == {200, 201, 202, 203}
    assert len(particles_at(em, 2.3)) == 512 and len(particles_at(em, 2.301)) == 0


def test_colour_ramp_advances() -> None:
    em = explosion_emitters(0.0)
    early, late = particles_at(em, 0.01), particles_at(em, 0.35)
    ramp_colours = set(RAMP1.tolist()) | set(RAMP2.tolist())
    assert set(early.colors.tolist()) <= ramp_colours and set(late.colors.tolist()) <= ramp_colours
    # both ramps run from 0x6f down to 0x61/0x66: later particles are further down
    assert late.colors.astype(int).mean() < early.colors.astype(int).mean() - 3
    # trails: rocket fire walks ramp3 at 5 steps a second
    tr = [Trail(1, 0, np.array([0.0, 0.01]), np.array([[0, 0, 0], [0.5, 0, 0]], np.float32))]
    c0 = trail_particles(tr, 0.01).colors[0]
    c1 = trail_particles(tr, 0.01 + 0.21).colors[0]
    i0 = list(RAMP3[:6]).index(c0)
    assert c1 == RAMP3[i0 + 1]


def test_effect_particle_counts_match_the_engine() -> None:
    counts = {3: 1024, 4: 1024, 10: 1024, 11: 896, 12: 512, 0: 10, 1: 20, 2: 20, 7: 30, 8: 20}
    for te_num, n in counts.items():
        em = build_emitters([te(5.0, te_num, color_start=1, color_length=1)])
        assert int(em.counts[0]) == n
        assert len(particles_at(em, 5.0)) == n, te_num
    # beams make no particles
    assert len(build_emitters([te(1.0, 5), te(1.0, 6), te(1.0, 9), te(1.0, 13)])) == 0


def test_teleport_splash_makes_896_particles_living_at_most_0_34_s() -> None:
    em = build_emitters([te(0.0, 11, (0.0, 0.0, 0.0))])
    assert em.kinds[0] == EffectKind.TELEPORT
    assert len(particles_at(em, 0.0)) == 896
    assert len(particles_at(em, 0.341)) == 0
    p = particles_at(em, 0.0)
    assert set(np.unique(p.colors).tolist()) <= set(range(7, 15))


def test_svc_particle_count_255_is_an_explosion() -> None:
    em = build_emitters([ParticleEvent(1.0, 0, 0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1024, 0)])
    assert em.kinds[0] == EffectKind.EXPLOSION and len(particles_at(em, 1.0)) == 1024


def test_blood_particles_drift_along_their_direction_and_keep_colour_row() -> None:
    em = build_emitters([ParticleEvent(0.0, 0, 0, (0.0, 0.0, 0.0), (2.0, 0.0, 0.0), 20, 73)])
    p = particles_at(em, 0.0)
    assert len(p) == 20 and set(np.unique(p.colors).tolist()) <= set(range(72, 80))
    later = particles_at(em, 0.1)   # velocity dir * 15 = 30 units/s along x
    assert 0 < len(later) <= 20
    assert later.positions[:, 0].mean() > p.positions[:, 0].mean() + 1.0


# --- motion rules -----------------------------------------------------------------------------------------------


def test_gravity_pulls_grav_particles_down_exactly() -> None:
    tr = [Trail(3, 2, np.array([0.0, 0.001]), np.array([[0, 0, 100], [0.5, 0, 100]], np.float32))]  # 1 particle
    z0 = trail_particles(tr, 0.0).positions[0, 2]         # spawned at the segment start, t = 0
    for dt in (0.25, 0.5, 1.0):
        z = trail_particles(tr, dt).positions[0, 2]
        assert z == pytest.approx(z0 - 0.5 * 40.0 * dt * dt, abs=1e-3)   # sv_gravity 800 * 0.05
    z_moon = trail_particles(tr, 1.0, gravity=400.0).positions[0, 2]
    assert z_moon == pytest.approx(z0 - 0.5 * 20.0, abs=1e-3)


def test_rocket_fire_rises_and_dies_when_its_ramp_ends() -> None:
    tr = [Trail(3, 0, np.array([0.0, 0.001]), np.array([[0, 0, 0], [0.5, 0, 0]], np.float32))]
    p0 = trail_particles(tr, 0.001)
    ramp0 = list(RAMP3[:6]).index(p0.colors[0])
    p1 = trail_particles(tr, 0.1)
    assert p1.positions[0, 2] > p0.positions[0, 2]
    life = (6 - ramp0) / 5.0
    assert len(trail_particles(tr, 0.001 + life - 0.01)) == 1
    assert len(trail_particles(tr, 0.001 + life + 0.01)) == 0


def test_explode_particles_accelerate_outwards() -> None:
    em = explosion_emitters(0.0)
    a, b, c = (particles_at(em, t) for t in (0.1, 0.2, 0.3))
    # the surviving pt_explode particles (odd indices) are still ordered: compare the spread growth
    ra, rb, rc = (np.abs(p.positions[:, :2]).max() for p in (a, b, c))
    assert rc - rb > rb - ra > 0


# --- trails -----------------------------------------------------------------------------------------------------


def straight(key: int, ty: int, length: float, duration: float = 0.1, start: float = 0.0) -> Trail:
    return Trail(key, ty, np.array([start, start + duration]),
                 np.array([[0.0, 0.0, 0.0], [length, 0.0, 0.0]], np.float32))


def test_trail_density_follows_distance_travelled() -> None:
    n30 = len(trail_particles([straight(1, 2, 30.0)], 0.1))
    n60 = len(trail_particles([straight(1, 2, 60.0)], 0.1))
    n60_slight = len(trail_particles([straight(1, 4, 60.0)], 0.1))
    assert (n30, n60, n60_slight) == (10, 20, 10)
    # half-way along the segment only the particles already passed exist
    assert len(trail_particles([straight(1, 2, 60.0)], 0.05)) == 11
    # a stationary entity leaves nothing
    still = Trail(1, 2, np.array([0.0, 0.1, 0.2]), np.zeros((3, 3), np.float32))
    assert len(trail_particles([still], 0.2)) == 0


def test_trail_particles_do_not_depend_on_the_window_start() -> None:
    times = np.arange(0.0, 3.01, 0.05)
    origins = np.stack([times * 600.0, np.sin(times) * 50, np.zeros_like(times)], axis=1).astype(np.float32)
    full = Trail(9, 0, times, origins)
    recent = Trail(9, 0, times[12:], origins[12:])      # from t - 2.02 s
    t = 2.62
    assert same(trail_particles([full], t), trail_particles([recent], t))
    assert len(trail_particles([full], t)) > 0


def test_tracer_and_voor_trails() -> None:
    tracer = trail_particles([straight(2, 3, 60.0)], 0.1)
    assert set(np.unique(tracer.colors).tolist()) <= {52, 60}
    assert len(trail_particles([straight(2, 3, 60.0)], 0.1 + 0.51)) == 0
    voor = trail_particles([straight(2, 6, 60.0)], 0.1)
    assert set(np.unique(voor.colors).tolist()) <= {152, 153, 154, 155}


def test_trail_type_priority() -> None:
    assert trail_type_for_flags(1) == 0 and trail_type_for_flags(2) == 1 and trail_type_for_flags(4) == 2
    assert trail_type_for_flags(16) == 3 and trail_type_for_flags(32) == 4 and trail_type_for_flags(64) == 5
    assert trail_type_for_flags(128) == 6 and trail_type_for_flags(8) is None
    assert trail_type_for_flags(4 | 1) == 2     # gib beats rocket, as in CL_RelinkEntities


def ents(numbers, models=None, effects=None, origins=None, angles=None):
    n = len(numbers)
    return SimpleNamespace(
        number=np.asarray(numbers, np.int32),
        model=np.asarray(models if models is not None else [0] * n, np.int32),
        effects=np.asarray(effects if effects is not None else [0] * n, np.int32),
        origin=np.asarray(origins if origins is not None else np.zeros((n, 3)), np.float32).reshape(n, 3),
        angles=np.asarray(angles if angles is not None else np.zeros((n, 3)), np.float32).reshape(n, 3))


class FakeTimeline:
    """The parts of DemoTimeline the effects read: times, frame_segment, frame_at, frame_entities."""

    def __init__(self, frames):
        self.times = np.array([f[0] for f in frames])
        self.frame_segment = np.zeros(len(frames), np.int32)
        self._frames = [f[1] for f in frames]

    def frame_at(self, t):
        return min(int(np.searchsorted(self.times, t, side="left")), len(self.times) - 1)

    def frame_entities(self, f):
        e = self._frames[f]
        return _Ents(e)


class _Ents:
    def __init__(self, ns):
        self.__dict__.update(vars(ns))

    def __len__(self):
        return len(self.number)


def test_trails_from_timeline_split_at_model_change_and_gaps() -> None:
    flags = [np.array([0, 0, 1, 2, 0])]       # model 2 rocket, model 3 grenade
    frames = []
    for f in range(10):
        t = 0.1 * f
        numbers, models, origins = [], [], []
        if f != 5:                              # entity 20 vanishes in frame 5
            numbers.append(20)
            models.append(2)
            origins.append((f * 50.0, 0, 0))
        numbers.append(30)
        models.append(3 if f < 7 else 4)
        origins.append((0, f * 20.0, 0))
        frames.append((t, ents(numbers, models, origins=origins)))
    tl = FakeTimeline(frames)
    trails = trails_from_timeline(tl, 0.9, flags)
    by_key = {}
    for tr in trails:
        by_key.setdefault(tr.key, []).append(tr)
    assert [len(tr.times) for tr in by_key[20]] == [5, 4]
    assert all(tr.type == 0 for tr in by_key[20])
    assert [(tr.type, len(tr.times)) for tr in by_key[30]] == [(1, 7)]     # model 4 leaves no trail
    assert len(trail_particles(trails, 0.9)) > 0


# --- dynamic lights ---------------------------------------------------------------------------------------------


def test_explosion_light_decays_then_disappears() -> None:
    em = explosion_emitters(2.0, (1.0, 2.0, 3.0))
    assert len(dynamic_lights(em, None, 1.99)) == 0
    radii = [float(dynamic_lights(em, None, 2.0 + dt).radius[0]) for dt in (0.0, 0.25, 0.5)]
    assert radii == pytest.approx([350.0, 275.0, 200.0])
    assert len(dynamic_lights(em, None, 2.501)) == 0
    lights = dynamic_lights(em, None, 2.1)
    assert np.allclose(lights.origins[0], (1, 2, 3)) and np.allclose(lights.colors[0], 1.0)


def test_entity_lights_follow_the_engine_radii() -> None:
    em = build_emitters([])
    e = ents([1, 2, 3, 4], effects=[EF_DIMLIGHT, EF_BRIGHTLIGHT, EF_MUZZLEFLASH, 0],
             origins=[(0, 0, 0), (100, 0, 0), (200, 0, 0), (300, 0, 0)])
    lights = dynamic_lights(em, e, 1.0, model_flags=np.array([0, 0, 0, 1]))
    r = dict(zip(lights.origins[:, 0].round().astype(int).tolist(), lights.radius.tolist()))
    assert 200 <= r[0] < 232                   # dim light
    assert 400 <= r[100] < 432                 # bright light
    assert 200 <= r[218] < 232                 # muzzle flash: 18 units forward (yaw 0 → +x), 16 up
    assert r[300] == 200                       # rocket
    assert same_lights(lights, dynamic_lights(em, e, 1.0, model_flags=np.array([0, 0, 0, 1])))


def same_lights(a, b) -> bool:
    return np.array_equal(a.origins, b.origins) and np.array_equal(a.radius, b.radius)


def test_muzzle_flash_from_timeline_lasts_0_1_s_after_the_message() -> None:
    frames = [(0.0, ents([1])), (0.1, ents([1], effects=[EF_MUZZLEFLASH], angles=[(0, 90, 0)])),
              (0.2, ents([1])), (0.3, ents([1]))]
    tl = FakeTimeline(frames)
    flashes = muzzle_flashes_from_timeline(tl)
    assert len(flashes) == 1
    start, die, number, origin = flashes[0]
    assert (start, die, number) == (0.0, pytest.approx(0.2), 1)
    assert np.allclose(origin, (0, 18, 16), atol=1e-4)
    em = build_emitters([], timeline=tl)
    assert em.has_muzzle_flashes
    assert len(dynamic_lights(em, None, 0.05)) == 1
    assert len(dynamic_lights(em, None, 0.19)) == 1
    assert len(dynamic_lights(em, None, 0.21)) == 0
    # a dim light on the same entity replaces the flash (CL_AllocDlight by key)
    lights = dynamic_lights(em, ents([1], effects=[EF_DIMLIGHT]), 0.15)
    assert len(lights) == 1 and np.allclose(lights.origins[0], 0)


def test_packed_keeps_the_lights_nearest_the_camera() -> None:
    from viewer.games.quake.fx import Lights
    n = 40
    origins = np.zeros((n, 3), np.float32)
    origins[:, 0] = np.arange(n) * 100.0
    lights = Lights(origins, np.full(n, 200.0, np.float32), np.ones((n, 3), np.float32))
    packed, colors, count = lights.packed(32, camera_origin=(3900.0, 0.0, 0.0))
    assert packed.shape == (32, 4) and colors.shape == (32, 3) and count == 32
    assert set(packed[:, 0].astype(int).tolist()) == set(range(800, 4000, 100))
    few = Lights(origins[:3], np.full(3, 50.0, np.float32), np.ones((3, 3), np.float32))
    packed, colors, count = few.packed()
    assert count == 3 and np.all(packed[3:] == 0) and np.all(packed[:3, 3] == 50.0)


# --- capacity and cost ------------------------------------------------------------------------------------------


def test_particle_pool_cap_keeps_the_oldest() -> None:
    em = build_emitters([te(0.0, 3), te(0.1, 3, (500.0, 0.0, 0.0))])
    p = particles_at(em, 0.15, max_particles=1024)
    assert len(p) == 1024 and np.all(p.spawn == 0.0)
    assert len(particles_at(em, 0.15, max_particles=2048)) == 2048


def test_only_emitters_alive_at_t_are_evaluated() -> None:
    em = build_emitters([te(float(i), 3) for i in range(100)])
    idx = em.alive_indices(50.3)
    assert idx.tolist() == [50]
    assert em.alive_indices(49.7).tolist() == [49]       # explosion particles live up to 0.8 s
    assert em.alive_indices(49.81).tolist() == []


def test_brightfield_particles() -> None:
    p = brightfield_particles(ents([1, 2], effects=[1, 0], origins=[(0, 0, 0), (9, 9, 9)]), 3.0)
    assert len(p) == 162 and np.all(p.colors == 0x6F)
    d = np.linalg.norm(p.positions, axis=1)
    assert np.all(d > 64 - 16.5) and np.all(d < 64 + 16.5)
