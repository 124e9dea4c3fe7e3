"""One test per interpolation rule of sample() (CL_LerpPoint / CL_RelinkEntities), on synthetic demos."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.demos import load_demo, sample
from tests.builders.dem import DemWriter


def timeline(*frames, signon=()):
    """``frames``: (time, [update kwargs…], angles) tuples."""
    w = DemWriter()
    w.block(w.serverinfo("maps/t.bsp", ["progs/a.mdl", "progs/b.mdl"]), w.setview(1), *signon)
    for t, updates, *angles in frames:
        w.block(w.time(t), *(w.update(**u) for u in updates), angles=angles[0] if angles else (0, 0, 0))
    return load_demo(w.build())


def ent(state, number):
    i = state.entities.index_of(number)
    assert i is not None, f"entity {number} not drawn"
    return i


def test_linear_lerp_midway():
    tl = timeline((1.0, [dict(entity=2, model=2, origin=(0, 0, 0))]),
                  (1.1, [dict(entity=2, model=2, origin=(10, -20, 4))]))
    s = sample(tl, 1.05)
    assert s.lerp == pytest.approx(0.5)
    assert s.entities.origin[ent(s, 2)].tolist() == pytest.approx([5, -10, 2])


def test_lerp_clamped_outside_the_demo():
    tl = timeline((1.0, [dict(entity=2, model=2, origin=(0, 0, 0))]),
                  (1.1, [dict(entity=2, model=2, origin=(10, 0, 0))]))
    assert sample(tl, -50).entities.origin[0, 0] == 0          # before the first frame: frame 0
    assert sample(tl, 99).entities.origin[0, 0] == 10          # after the last: the last frame
    assert sample(tl, 99).lerp == 1.0


def test_teleport_snaps():
    tl = timeline((1.0, [dict(entity=2, model=2, origin=(0, 0, 0))]),
                  (1.1, [dict(entity=2, model=2, origin=(0, 500, 0))]))
    s = sample(tl, 1.01)
    assert s.entities.origin[ent(s, 2)].tolist() == [0, 500, 0]


def test_model_change_snaps():
    tl = timeline((1.0, [dict(entity=2, model=2, origin=(0, 0, 0))]),
                  (1.1, [dict(entity=2, model=3, origin=(10, 0, 0))]))
    s = sample(tl, 1.05)
    assert s.entities.origin[ent(s, 2), 0] == 10


def test_angles_take_the_shortest_arc():
    tl = timeline((1.0, [dict(entity=2, model=2, angles=(0, 350, 0))]),
                  (1.1, [dict(entity=2, model=2, angles=(0, 10, 0))]))
    s = sample(tl, 1.05)
    yaw = s.entities.angles[ent(s, 2), 1] % 360
    assert min(yaw, 360 - yaw) == pytest.approx(0, abs=1.5)      # through 0, not through 180


def test_view_angles_shortest_arc():
    tl = timeline((1.0, [], (0, 350, 0)), (1.1, [], (0, 10, 0)))
    yaw = sample(tl, 1.05).view_angles[1] % 360
    assert min(yaw, 360 - yaw) == pytest.approx(0, abs=1e-3)


def test_entity_absent_from_newer_frame_is_not_drawn():
    tl = timeline((1.0, [dict(entity=2, model=2), dict(entity=3, model=2)]),
                  (1.1, [dict(entity=2, model=2)]))
    assert sample(tl, 1.05).entities.number.tolist() == [2]
    assert sample(tl, 1.0).entities.number.tolist() == [2, 3]


def test_new_entity_is_not_lerped():
    tl = timeline((1.0, [dict(entity=2, model=2)]),
                  (1.1, [dict(entity=2, model=2), dict(entity=3, model=2, origin=(40, 0, 0))]))
    s = sample(tl, 1.05)
    assert s.entities.origin[ent(s, 3), 0] == 40


def test_frame_blend_from_the_time_the_frame_changed():
    tl = timeline((1.0, [dict(entity=2, model=2, frame=0)]),
                  (1.1, [dict(entity=2, model=2, frame=1)]),
                  (1.2, [dict(entity=2, model=2, frame=1)]))
    s = sample(tl, 1.15)                     # frame changed in the 1.1 message: blend starts at 1.0
    i = ent(s, 2)
    assert (s.entities.prev_frame[i], s.entities.frame[i]) == (0, 1)
    assert s.entities.frame_blend[i] == pytest.approx(1.0)
    s = sample(tl, 1.04)
    assert s.entities.frame_blend[ent(s, 2)] == pytest.approx(0.4, abs=1e-4)


def test_frame_blend_resets_on_model_change():
    tl = timeline((1.0, [dict(entity=2, model=2, frame=0)]),
                  (1.1, [dict(entity=2, model=3, frame=4)]))
    s = sample(tl, 1.05)
    i = ent(s, 2)
    assert s.entities.prev_frame[i] == 4 and s.entities.frame_blend[i] == 1.0


def test_view_origin_is_view_entity_plus_viewheight():
    tl = timeline((1.0, [dict(entity=1, model=1, origin=(0, 0, 0))]),
                  (1.1, [dict(entity=1, model=1, origin=(10, 0, 0))]))
    s = sample(tl, 1.05)
    assert s.view_origin.tolist() == pytest.approx([5, 0, 22])
    assert s.view_entity == 1


def test_view_origin_snaps_on_teleport():
    tl = timeline((1.0, [dict(entity=1, model=1, origin=(0, 0, 0))]),
                  (1.1, [dict(entity=1, model=1, origin=(1000, 0, 0))]))
    assert sample(tl, 1.01).view_origin[0] == 1000


def test_deterministic_any_order():
    frames = [(1.0 + i / 10, [dict(entity=2, model=2, origin=(i * 3, i, 0), angles=(0, i * 40 % 360, 0))])
              for i in range(20)]
    tl = timeline(*frames)
    ts = np.random.default_rng(1).uniform(0.5, 3.5, 200)
    first = [sample(tl, t) for t in ts]
    again = [tl.sample(t) for t in ts[::-1]][::-1]
    for a, b in zip(first, again):
        assert a.frame == b.frame and np.array_equal(a.entities.origin, b.entities.origin)
        assert np.array_equal(a.entities.angles, b.entities.angles)


def test_statics_and_stats_in_scene():
    w = DemWriter()
    tl = timeline((1.0, []), signon=(w.spawnstatic(2, origin=(1, 2, 3)),))
    s = sample(tl, 1.0)
    assert len(s.statics) == 1 and s.statics.number[0] == -1
    assert set(s.stats) >= {"health", "armor", "ammo", "items", "viewheight"}
    assert len(s.lightstyles) == 64


def test_timeline_arrays_are_read_only():
    tl = timeline((1.0, [dict(entity=2, model=2)]))
    with pytest.raises(ValueError):
        tl.times[0] = 5
    with pytest.raises(ValueError):
        tl.frame_entities(0).origin[0, 0] = 5


@pytest.mark.parametrize("message", ["intermission", "cutscene"])
def test_intermission_view_is_the_view_entity_itself(message):
    """V_CalcIntermissionRefdef: no view height, and the entity's angles instead of the block's."""
    w = DemWriter()
    w.block(w.serverinfo("maps/t.bsp", ["progs/a.mdl"]), w.setview(1))
    w.block(w.time(1.0), w.update(entity=1, model=2, origin=(0, 0, 0), angles=(10, 90, 0)), angles=(0, 0, 0))
    start = getattr(w, message)() if message == "intermission" else w.cutscene("")
    w.block(w.time(1.1), start, w.update(entity=1, model=2, origin=(64, 0, 0), angles=(22.5, 45, 0)),
            angles=(0, 0, 0))
    s = sample(load_demo(w.build()), 1.1)
    assert s.view_origin.tolist() == pytest.approx([64, 0, 0], abs=0.01)
    assert s.view_angles.tolist() == pytest.approx([22.5, 45, 0], abs=0.01)
