"""Issue 30 class 4: side files are read like every input (regular file, size limit, UTF-8, bounded nesting and
numbers) and a camera path of many keys is read in one sort."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from assets_loader.errors import NotAFileError, TooLargeError
from viewer.camera_path import CameraKey, CameraPath, CameraPathError, load_path, parse_path
from viewer.camera_path_edit import path_beside
from viewer.side_files import JSON_STRINGS, TOML_STRINGS, SideFileError, check_nesting, read_text


def _keys(times) -> str:
    keys = [{"time": t, "origin": [i, 0, 0], "angles": [0, 0, 0]} for i, t in enumerate(times)]
    return json.dumps({"version": 1, "keys": keys})


def test_keys_are_sorted_and_the_last_of_one_time_stays() -> None:
    path = parse_path(_keys([3.0, 1.0, 2.0, 1.0]))
    assert [k.time for k in path.keys] == [1.0, 2.0, 3.0]
    assert path.keys[0].origin == (3.0, 0.0, 0.0)          # the second key at 1.0 replaced the first, as with_key does
    one_by_one = CameraPath()
    for key in parse_path(_keys([3.0, 1.0, 2.0])).keys:
        one_by_one = one_by_one.with_key(key)
    assert CameraPath.of(list(one_by_one.keys)) == one_by_one


def test_thirty_thousand_keys_in_any_order_come_out_sorted() -> None:
    """(Its time is bounded in a child by tests/test_bad_input.py: 38 s when every key re-sorted the path.)"""
    path = parse_path(_keys([(i * 7919) % 30_000 / 10 for i in range(30_000)]))
    assert [k.time for k in path.keys] == [i / 10 for i in range(30_000)]


@pytest.mark.parametrize(("text", "found"), [
    ('{"version": 1, "keys": [{"time": 1' + "0" * 5000 + "}]}", "a number of 5001 digits"),
    ('{"version": 1, "keys": ' + "[" * 100_000 + "]" * 100_000 + "}", "100001 levels"),
    ('{"version": 1, "keys": [{"time": 0, "origin": [1e300, 0, 0], "angles": [0, 0, 0]}]}', "1e+300"),
    ('{"version": 1, "keys": [{"time": 0, "origin": [0, 0, 0], "angles": [0, 0, 0], "look_at": 99999999}]}',
     "99999999"),
])
def test_hostile_json_is_one_camera_path_error(text: str, found: str) -> None:
    with pytest.raises(SideFileError, match="demo.camera.json") as caught:
        parse_path(text, "demo.camera.json")
    assert found in str(caught.value)


def test_brackets_inside_strings_do_not_count() -> None:
    check_nesting('{"note": "' + "[" * 1000 + '"}', "x", "camera path", JSON_STRINGS)
    check_nesting("last_dir = '" + "[" * 1000 + "' # ]]]]\nx = \"\"\"[[[[\"\"\"", "x", "settings", TOML_STRINGS)


def test_a_fifo_a_device_a_large_file_and_latin1_are_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.camera.json")
    with pytest.raises(NotAFileError, match="a FIFO"):
        load_path(tmp_path / "fifo.camera.json")
    with pytest.raises(NotAFileError, match="a character device; expected a regular camera path file"):
        load_path("/dev/zero")
    big = tmp_path / "big.camera.json"
    with open(big, "wb") as f:
        f.truncate((8 << 20) + 1)
    with pytest.raises(TooLargeError, match="QDV_MAX_CAMERA_PATH_SIZE"):
        load_path(big)
    latin = tmp_path / "latin.camera.json"
    latin.write_bytes(b'{"x": "caf\xe9"}')
    with pytest.raises(SideFileError, match="offset 10: expected UTF-8 text, found the byte 0xe9"):
        read_text(latin, "camera path")


def test_a_bad_file_beside_a_demo_is_a_notice(tmp_path: Path) -> None:
    demo = tmp_path / "d.dem"
    os.mkfifo(tmp_path / "d.camera.json")
    edit, said = path_beside(demo, 30.0)
    assert edit.path == CameraPath() and edit.file is None
    assert said.startswith("camera path not loaded: ") and "a FIFO (named pipe)" in said


def test_a_good_path_still_loads(tmp_path: Path) -> None:
    file = tmp_path / "p.camera.json"
    file.write_text(_keys([0.5]), encoding="utf-8")
    assert load_path(file) == CameraPath((CameraKey(0.5, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)),))
    with pytest.raises(CameraPathError):
        parse_path('{"version": 1, "keys": [{"time": "x"}]}')
