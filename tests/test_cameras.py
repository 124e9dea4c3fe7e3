"""Camera controllers: free-fly look/move maths, chase and orbit cameras clipped against lqdm3."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from assets_loader.bsp import WorldMesh, load_bsp
from assets_loader.bsp.dtypes import CONTENTS_SKY, CONTENTS_SOLID
from assets_loader.bsp.trace import point_contents, trace_line
from assets_loader.bsp38 import load_bsp38
from assets_loader.bsp38.dtypes import MASK_SOLID
from assets_loader.bsp38.trace import point_contents as point_contents38
from assets_loader.bsp38.trace import trace_line as trace_line38
from assets_loader.vfs import QUAKE2_BASE_GAME, VirtualFS
from viewer.render.view_math import angle_vectors
from viewer.render.refdef import Camera
from viewer.cameras import FreeFly, Orbit, chase_camera, map_start_camera, orbit_camera

from .conftest import QUAKE2

approx = pytest.approx


@pytest.fixture(scope="module")
def lqdm3(lq1_pak) -> WorldMesh:
    return load_bsp(lq1_pak.read("maps/lqdm3.bsp"), "maps/lqdm3.bsp")


def player_eyes(world: WorldMesh) -> list[np.ndarray]:
    """Eye positions (origin + 22) of player starts and of items and weapons (which sit where players walk)."""
    out = []
    for e in world.entities:
        if e.get("classname", "").startswith(("info_player", "item_", "weapon_")) and "origin" in e:
            out.append(np.array([float(v) for v in e["origin"].split()]) + (0, 0, 22))
    return out


# --- FreeFly.look --------------------------------------------------------------------------------------------

def test_mouse_right_turns_right_and_up_looks_up() -> None:
    cam = FreeFly((0.0, 0.0, 0.0), (0.0, 90.0, 0.0))
    turned = cam.look(100, 0)
    assert turned.angles == approx((0.0, 75.0, 0.0))
    assert turned.look(0, 100).angles == approx((-15.0, 75.0, 0.0))
    assert cam.look(10, 20, sensitivity=1.0).angles == approx((-20.0, 80.0, 0.0))


def test_pitch_is_clamped_to_89() -> None:
    cam = FreeFly((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    assert cam.look(0, -10_000).angles[0] == 89.0
    assert cam.look(0, 10_000).angles[0] == -89.0
    assert cam.look(0, -10_000).look(0, 1, sensitivity=1.0).angles[0] == 88.0


def test_yaw_wraps_to_0_360() -> None:
    cam = FreeFly((0.0, 0.0, 0.0), (0.0, 10.0, 0.0))
    assert cam.look(100, 0).angles[1] == approx(355.0)
    assert cam.look(-7 * 360, 0, sensitivity=1.0).angles[1] == approx(10.0)
    for dx in np.linspace(-5000, 5000, 41):
        assert 0.0 <= cam.look(float(dx), 0).angles[1] < 360.0
    tiny = cam.look(10 + 1e-14, 0, sensitivity=1.0).angles[1]  # -1e-14 + 360 rounds to 360.0
    assert 0.0 <= tiny < 360.0 and tiny == approx(0.0, abs=1e-9)


# --- FreeFly.move --------------------------------------------------------------------------------------------

def test_forward_follows_yaw() -> None:
    assert FreeFly((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)).move(1.0, 1, 0, 0).origin == approx((320.0, 0.0, 0.0))
    north = FreeFly((0.0, 0.0, 0.0), (0.0, 90.0, 0.0)).move(0.5, 1, 0, 0)
    assert north.origin == approx((0.0, 160.0, 0.0), abs=1e-9)


def test_right_strafes_level_and_back_reverses() -> None:
    cam = FreeFly((0.0, 0.0, 0.0), (45.0, 90.0, 0.0))
    assert cam.move(1.0, 0, 1, 0).origin == approx((320.0, 0.0, 0.0), abs=1e-9)  # yaw 90: right is +X
    assert cam.move(1.0, 0, -1, 0).origin == approx((-320.0, 0.0, 0.0), abs=1e-9)
    back = FreeFly((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)).move(1.0, -1, 0, 0)
    assert back.origin == approx((-320.0, 0.0, 0.0))


def test_forward_includes_pitch_like_noclip() -> None:
    down = FreeFly((0.0, 0.0, 0.0), (89.0, 0.0, 0.0)).move(1.0, 1, 0, 0)
    f, _, _ = angle_vectors((89.0, 0.0, 0.0))
    assert down.origin == approx(tuple(f * 320))
    assert down.origin[2] < -319


@pytest.mark.parametrize("pitch", [-89.0, 0.0, 30.0, 89.0])
def test_up_moves_world_z_whatever_the_pitch(pitch: float) -> None:
    cam = FreeFly((1.0, 2.0, 3.0), (pitch, 123.0, 0.0))
    assert cam.move(0.25, 0, 0, 1).origin == approx((1.0, 2.0, 83.0))
    assert cam.move(0.25, 0, 0, -1).origin == approx((1.0, 2.0, -77.0))


def test_fast_is_four_times_and_speed_scales() -> None:
    cam = FreeFly((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    assert cam.move(0.1, 1, 0, 0, fast=True).origin == approx((128.0, 0.0, 0.0))
    assert cam.move(0.1, 1, 0, 0, speed=100).origin == approx((10.0, 0.0, 0.0))


def test_diagonals_are_not_faster_and_inputs_are_clamped() -> None:
    cam = FreeFly((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    diag = np.array(cam.move(1.0, 1, 1, 0).origin)
    assert np.linalg.norm(diag) == approx(320.0)
    assert diag[0] > 0 and diag[1] < 0  # forward +X, right -Y at yaw 0
    assert cam.move(1.0, 5, 0, 0).origin == approx((320.0, 0.0, 0.0))
    half = cam.move(1.0, 0.5, 0, 0).origin
    assert half == approx((160.0, 0.0, 0.0)), "analogue inputs below 1 move slower"


def test_zero_dt_or_no_input_does_not_move() -> None:
    cam = FreeFly((5.0, 6.0, 7.0), (10.0, 20.0, 0.0))
    assert cam.move(0.0, 1, 1, 1, fast=True) == cam
    assert cam.move(-1.0, 1, 0, 0) == cam
    assert cam.move(1.0, 0, 0, 0) == cam


def test_freefly_is_immutable() -> None:
    cam = FreeFly((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    moved = cam.move(1.0, 1, 0, 0).look(10, 10)
    assert cam == FreeFly((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    assert moved != cam
    with pytest.raises(dataclasses.FrozenInstanceError):
        cam.origin = (1.0, 1.0, 1.0)  # type: ignore[misc]
    assert not hasattr(cam, "__dict__")


def test_camera_round_trip() -> None:
    cam = FreeFly((1.0, 2.0, 3.0), (10.0, 20.0, 0.0)).camera(fov=100)
    assert cam == Camera((1.0, 2.0, 3.0), (10.0, 20.0, 0.0), 100)
    assert FreeFly((1.0, 2.0, 3.0), (10.0, 20.0, 0.0)).camera().fov == 90.0
    back = FreeFly.from_camera(Camera((1, 2, 3), (95.0, -90.0, 15.0), 90.0))
    assert back.origin == (1.0, 2.0, 3.0)
    assert back.angles == approx((89.0, 270.0, 0.0))
    assert all(isinstance(v, float) for v in back.origin + back.angles)


# --- chase camera --------------------------------------------------------------------------------------------

def test_chase_in_open_space_sits_back_and_up() -> None:
    eye = (100.0, 200.0, 50.0)
    cam = chase_camera(None, eye, (0.0, 90.0, 0.0))
    assert cam.origin == approx((100.0, 100.0, 66.0), abs=1e-9)
    assert cam.fov == 90.0
    # it looks at the aim point 4096 units ahead: nearly level, same yaw, a little down
    assert cam.angles[1] == approx(90.0)
    assert 0 < cam.angles[0] < 1
    pitched = chase_camera(None, eye, (30.0, 0.0, 0.0), back=50, up=10, fov=110)
    assert pitched.origin == approx((100 - 50 * math.cos(math.radians(30)), 200.0, 60.0))
    assert pitched.fov == 110


def test_chase_looks_at_what_the_player_aims_at(lqdm3: WorldMesh) -> None:
    eye = player_eyes(lqdm3)[0]
    for angles in [(0.0, 0.0, 0.0), (20.0, 135.0, 0.0), (-30.0, 250.0, 0.0)]:
        cam = chase_camera(lqdm3, eye, angles)
        f, _, _ = angle_vectors(angles)
        aim = np.array(trace_line(lqdm3, eye, eye + f * 4096, sky_is_solid=True).end)
        look, _, _ = angle_vectors(cam.angles)
        to_aim = aim - np.array(cam.origin)
        assert look @ to_aim / np.linalg.norm(to_aim) == approx(1.0, abs=1e-6)


def test_chase_never_goes_into_walls_on_lqdm3(lqdm3: WorldMesh) -> None:
    rng = np.random.default_rng(7)
    eyes = player_eyes(lqdm3)
    assert len(eyes) > 10
    done = clipped = 0
    while done < 200:
        eye = eyes[rng.integers(len(eyes))] + (*rng.uniform(-12, 12, 2), 0.0)
        if point_contents(lqdm3, eye) in (CONTENTS_SOLID, CONTENTS_SKY):
            continue
        angles = (float(rng.uniform(-80, 80)), float(rng.uniform(0, 360)), 0.0)
        cam = chase_camera(lqdm3, eye, angles)
        assert point_contents(lqdm3, cam.origin) not in (CONTENTS_SOLID, CONTENTS_SKY)
        # never through a wall: the eye sees the camera
        assert trace_line(lqdm3, eye, cam.origin, sky_is_solid=True).fraction == 1.0
        free = chase_camera(None, eye, angles)
        offset = np.array(cam.origin) - eye
        full = np.array(free.origin) - eye
        assert np.linalg.norm(offset) <= np.linalg.norm(full) + 1e-6
        assert np.hypot(*offset[:2]) <= 100 + 1e-6
        if np.linalg.norm(offset) < np.linalg.norm(full) - 1e-6:
            clipped += 1
            assert np.cross(offset, full) == approx((0, 0, 0), abs=1e-6), "pulled in along the same line"
        else:
            assert cam.origin == approx(free.origin)
        done += 1
    assert 0 < clipped < 200, "some cameras hit walls, some do not"


def test_chase_is_pulled_in_front_of_a_wall(lqdm3: WorldMesh) -> None:
    eye = player_eyes(lqdm3)[0]
    for yaw in range(0, 360, 15):
        angles = (0.0, float(yaw), 0.0)
        f, _, _ = angle_vectors(angles)
        ideal = eye - f * 100 + (0, 0, 16)
        tr = trace_line(lqdm3, eye, ideal, sky_is_solid=True)
        cam = chase_camera(lqdm3, eye, angles)
        if tr.fraction == 1.0:
            assert cam.origin == approx(tuple(ideal))
        else:
            dist = np.linalg.norm(np.array(cam.origin) - eye)
            assert dist == approx(max(np.linalg.norm(np.array(tr.end) - eye) - 8, 0), abs=1e-6)


# --- orbit ---------------------------------------------------------------------------------------------------

def test_orbit_in_open_space_is_at_the_distance_looking_at_the_target() -> None:
    target = np.array([10.0, 20.0, 30.0])
    cam = orbit_camera(None, target, yaw=90.0, pitch=20.0, distance=150.0)
    offset = np.array(cam.origin) - target
    assert np.linalg.norm(offset) == approx(150.0)
    assert offset[2] > 0, "positive pitch looks down from above"
    assert offset[1] < 0 and abs(offset[0]) < 1e-9, "yaw 90 looks along +Y from behind"
    look, _, _ = angle_vectors(cam.angles)
    assert look @ (-offset / 150.0) == approx(1.0)
    assert orbit_camera(None, target, 0.0, 0.0, fov=70).fov == 70


def test_orbit_on_lqdm3_stays_out_of_walls(lqdm3: WorldMesh) -> None:
    eye = player_eyes(lqdm3)[0]
    distances = []
    for yaw in range(0, 360, 30):
        for pitch in (-60.0, 0.0, 20.0, 60.0):
            cam = orbit_camera(lqdm3, eye, float(yaw), pitch, 300.0)
            assert point_contents(lqdm3, cam.origin) not in (CONTENTS_SOLID, CONTENTS_SKY)
            assert trace_line(lqdm3, eye, cam.origin, sky_is_solid=True).fraction == 1.0
            distances.append(np.linalg.norm(np.array(cam.origin) - eye))
    assert max(distances) <= 300 + 1e-6
    assert min(distances) < 300, "some directions hit walls"


def test_orbit_and_chase_on_quake2_terminal_stay_out_of_walls() -> None:
    """Quake II maps collide through their brushes (``CM_BoxTrace``): the cameras must use that trace, not the
    Quake leaf contents (whose codes Quake II's bit flags do not share)."""
    fs = VirtualFS(QUAKE2, "action", base=QUAKE2_BASE_GAME)
    world = load_bsp38(fs.read("maps/terminal.bsp"), "maps/terminal.bsp", fs)
    eye = np.array(map_start_camera(world).origin)
    distances = []
    for yaw in range(0, 360, 30):
        for pitch in (-60.0, 0.0, 60.0):
            cam = orbit_camera(world, eye, float(yaw), pitch, 2000.0)
            assert point_contents38(world, cam.origin) & MASK_SOLID == 0
            assert trace_line38(world, eye, cam.origin).fraction == 1.0
            distances.append(np.linalg.norm(np.array(cam.origin) - eye))
        chase = chase_camera(world, eye, (0.0, float(yaw), 0.0), back=2000.0)
        assert point_contents38(world, chase.origin) & MASK_SOLID == 0
    assert min(distances) < 2000 and max(distances) <= 2000 + 1e-6, "walls pull some cameras in"


def test_orbit_state_look_and_zoom() -> None:
    o = Orbit()
    assert (o.yaw, o.pitch, o.distance) == (0, 20, 150)
    turned = o.look(10, 10)
    assert (turned.yaw, turned.pitch) == approx((357.0, 17.0))
    assert o.look(0, -1000).pitch == 89.0 and o.look(0, 1000).pitch == -89.0
    assert o.zoom(1).distance < 150 < o.zoom(-1).distance
    assert o.zoom(1).zoom(-1).distance == approx(150.0)
    assert o.zoom(100).distance == 32.0
    assert o.zoom(-100).distance == 1000.0
    assert o.zoom(0) == o
    assert o == Orbit(), "immutable"
    cam = turned.camera(None, (0, 0, 0))
    assert cam == orbit_camera(None, (0, 0, 0), turned.yaw, turned.pitch, turned.distance)
