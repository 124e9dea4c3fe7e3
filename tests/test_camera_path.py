"""Camera paths: centripetal Catmull-Rom positions through every key, shortest-arc orientation, holds at the ends,
entity look-at, and the versioned JSON file (docs: README "Camera paths")."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from viewer.camera_path import (
    CameraKey, CameraPath, CameraPathError, _angles, _quat, camera_at, keys_outside, load_path, parse_path,
    path_file_for, save_path,
)


def _path(*keys: CameraKey) -> CameraPath:
    path = CameraPath()
    for k in keys:
        path = path.with_key(k)
    return path


KEYS = (CameraKey(1.0, (0, 0, 0), (0, 0, 0), 90), CameraKey(2.0, (100, 0, 0), (0, 90, 0), 100),
        CameraKey(4.0, (100, 200, 50), (10, 180, 0), 70), CameraKey(5.0, (0, 210, 50), (-20, 270, 0), 90))


def test_the_spline_passes_through_every_key_and_holds_at_the_ends() -> None:
    path = _path(*KEYS)
    for k in KEYS:
        cam = camera_at(path, k.time)
        assert cam.origin == pytest.approx(k.origin, abs=1e-6)
        assert cam.fov == pytest.approx(k.fov)
    assert camera_at(path, -3.0).origin == pytest.approx(KEYS[0].origin)
    assert camera_at(path, 99.0).origin == pytest.approx(KEYS[-1].origin)
    assert camera_at(path, 3.0).fov == pytest.approx(85.0)                    # fov: straight line 100 → 70
    assert camera_at(CameraPath(), 1.0) is None


def test_centripetal_parameterisation_has_no_overshoot_on_uneven_collinear_keys() -> None:
    # keys on a line with very uneven spacing: a uniform Catmull-Rom runs backwards (a loop); centripetal does not
    path = _path(CameraKey(0, (0, 0, 0), (0, 0, 0)), CameraKey(1, (1, 0, 0), (0, 0, 0)),
                 CameraKey(2, (100, 0, 0), (0, 0, 0)), CameraKey(3, (101, 0, 0), (0, 0, 0)))
    xs = [camera_at(path, t).origin[0] for t in np.linspace(0, 3, 301)]
    assert all(b >= a - 1e-9 for a, b in zip(xs, xs[1:], strict=False))
    assert max(abs(camera_at(path, t).origin[1]) for t in np.linspace(0, 3, 31)) < 1e-9


def test_yaw_from_170_to_minus_170_turns_20_degrees_not_340() -> None:
    path = _path(CameraKey(0, (0, 0, 0), (0, 170, 0)), CameraKey(1, (0, 0, 0), (0, -170, 0)))
    yaws = [camera_at(path, t).angles[1] % 360 for t in np.linspace(0, 1, 11)]
    assert all(170 - 1e-6 <= y <= 190 + 1e-6 for y in yaws)
    assert camera_at(path, 0.5).angles[1] % 360 == pytest.approx(180.0, abs=1e-6)


@given(st.floats(-85, 85), st.floats(-179, 179), st.floats(-60, 60))
def test_angles_survive_the_quaternion_round_trip(pitch: float, yaw: float, roll: float) -> None:
    back = _angles(_quat((pitch, yaw, roll)))
    assert back[0] == pytest.approx(pitch, abs=1e-6)
    assert math.remainder(back[1] - yaw, 360) == pytest.approx(0, abs=1e-6)
    assert back[2] == pytest.approx(roll, abs=1e-6)


def test_a_key_can_look_at_a_moving_entity() -> None:
    path = _path(CameraKey(0, (0, 0, 0), (0, 0, 0), look_at=5), CameraKey(10, (0, 0, 0), (0, 0, 0), look_at=5))
    def target(entity: int, t: float):
        return (100.0, 100.0 * t, 0.0) if entity == 5 else None
    assert camera_at(path, 0.0, target).angles[1] == pytest.approx(0.0, abs=1e-6)
    assert camera_at(path, 1.0, target).angles[1] == pytest.approx(45.0, abs=1e-6)
    assert camera_at(path, 1.0).angles[1] == pytest.approx(0.0, abs=1e-6)   # no lookup: the key's own angles


def test_edits_keep_keys_sorted_and_unique_in_time() -> None:
    path = _path(*KEYS)
    assert [k.time for k in path.moved(0, 3.0).keys] == [2.0, 3.0, 4.0, 5.0]
    assert [k.time for k in path.without(1).keys] == [1.0, 4.0, 5.0]
    assert len(path.with_key(CameraKey(2.0, (1, 1, 1), (0, 0, 0))).keys) == 4


def test_save_and_load_round_trip(tmp_path) -> None:
    path = _path(*KEYS, CameraKey(6.0, (1, 2, 3), (4, 5, 6), 80, look_at=3))
    file = path_file_for(tmp_path / "duel.dem.gz")
    assert file.name == "duel.camera.json"
    save_path(path, file)
    assert load_path(file) == path
    assert json.loads(file.read_text())["version"] == 1


@pytest.mark.parametrize(("text", "field"), [
    ('{"version": 2, "keys": []}', "version"),
    ('{"version": 1, "keys": [{"time": "x", "origin": [0,0,0], "angles": [0,0,0]}]}', r"keys\[0\].time"),
    ('{"version": 1, "keys": [{"time": 1, "origin": [0,0], "angles": [0,0,0]}]}', r"keys\[0\].origin"),
    ('{"version": 1, "keys": [{"time": 1, "origin": [0,0,0], "angles": [0,0,0], "fov": 500}]}', r"keys\[0\].fov"),
    ('[1, 2]', "the file"),
    ('{"version": 1, "keys": [', "the file"),
])
def test_a_malformed_or_future_file_names_the_file_and_the_field(text: str, field: str) -> None:
    with pytest.raises(CameraPathError, match=rf"path.camera.json: bad camera path file: expected {field}"):
        parse_path(text, "path.camera.json")


def test_keys_outside_the_demo_are_kept_and_reported() -> None:
    path = _path(CameraKey(-1.0, (0, 0, 0), (0, 0, 0)), *KEYS)
    assert keys_outside(path, duration=4.5) == [0, 4]
    assert len(path.keys) == 5


def test_the_readme_example_is_a_valid_path() -> None:
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Camera paths"):]
    example = re.search(r"```json\n(.*?)```", section, re.S).group(1)
    path = parse_path(example, "README.md")
    assert len(path.keys) >= 2 and all(isinstance(k.time, float) for k in path.keys)
