"""Editing a camera path as values (viewer/camera_path_edit.py) and the key row above the timeline bar
(viewer/ui/key_row.py): add, replace, delete, move, select, aim, where Ctrl+S saves, and which mark is clicked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from viewer.camera_path import CameraKey, CameraPath, load_path, save_path
from viewer.camera_path_edit import PathEdit, centred_entity, outside_report, path_beside, save_target
from viewer.render.refdef import Camera
from viewer.ui.key_row import KEY_COLOR, LOOK_AT_COLOR, SELECTED_COLOR, key_mark_at, key_mark_x, key_row_layout, \
    key_row_top, on_key_row
from viewer.ui.timeline_bar import bar_geometry

A = Camera((0.0, 0.0, 100.0), (10.0, 90.0, 0.0), 90.0)
B = Camera((500.0, 0.0, 100.0), (0.0, 180.0, 0.0), 70.0)
C = Camera((500.0, 500.0, 50.0), (-5.0, -90.0, 0.0), 100.0)


def _three() -> PathEdit:
    edit, _ = PathEdit().add(10.0, A)
    edit, _ = edit.add(30.0, C)
    edit, _ = edit.add(20.0, B)
    return edit


def test_add_sorts_by_time_selects_the_new_key_and_says_so() -> None:
    edit, said = PathEdit().add(10.0, A)
    assert said == "camera key 1 of 1 added at 0:10.0"
    edit, _ = edit.add(30.0, C)
    edit, said = edit.add(20.0, B)
    assert [k.time for k in edit.path.keys] == [10.0, 20.0, 30.0]
    assert edit.selected == 1 and said == "camera key 2 of 3 added at 0:20.0"
    assert edit.key == CameraKey(20.0, B.origin, B.angles, 70.0, None)


def test_add_at_the_time_of_a_key_replaces_it() -> None:
    edit, said = _three().add(20.0, A)
    assert len(edit.path.keys) == 3 and edit.path.keys[1].origin == A.origin
    assert said == "camera key 2 of 3 added at 0:20.0"


def test_replace_keeps_time_and_aim_and_changes_the_pose() -> None:
    edit, _ = _three().toggle_look_at(3, "LQ_Warden")
    edit, said = edit.replace_pose(A)
    assert edit.key == CameraKey(20.0, A.origin, A.angles, 90.0, 3)
    assert said == "camera key 2 at 0:20.0: pose replaced"


def test_edits_without_a_selection_change_nothing_and_say_how_to_select() -> None:
    edit = PathEdit(_three().path)
    for changed, said in (edit.replace_pose(A), edit.delete(), edit.toggle_look_at(3)):
        assert changed == edit and "click a key mark" in said


def test_delete_selects_the_key_that_took_its_place_then_the_one_before() -> None:
    edit, said = _three().delete()
    assert [k.time for k in edit.path.keys] == [10.0, 30.0] and edit.selected == 1
    assert said == "camera key 2 at 0:20.0 deleted (2 left)"
    edit, _ = edit.delete()
    assert [k.time for k in edit.path.keys] == [10.0] and edit.selected == 0
    edit, said = edit.delete()
    assert edit.path.keys == () and edit.selected is None and said.endswith("(0 left)")


def test_move_resorts_and_the_selection_follows_the_moved_key() -> None:
    edit = _three().move(0, 25.0)                 # the first key past the second
    assert [k.time for k in edit.path.keys] == [20.0, 25.0, 30.0]
    assert edit.selected == 1 and edit.key.origin == A.origin
    edit = edit.move(1, 35.0)
    assert [k.time for k in edit.path.keys] == [20.0, 30.0, 35.0] and edit.selected == 2


def test_move_onto_another_key_is_refused() -> None:
    edit = _three()
    assert edit.move(0, 20.0) == edit
    assert edit.move(0, 20.0 + 1e-4) == edit


def test_select_and_look_at_toggle() -> None:
    edit, said = _three().select(2)
    assert edit.selected == 2 and said == "camera key 3 at 0:30.0 selected"
    edit, said = edit.toggle_look_at(5, "LQ_Ranger")
    assert edit.key.look_at == 5 and said == "camera key 3 at 0:30.0 looks at LQ_Ranger (entity 5)"
    edit, said = edit.toggle_look_at(5)
    assert edit.key.look_at is None and "looks where its angles point" in said
    unchanged, said = edit.toggle_look_at(None)
    assert unchanged == edit and said.startswith("no player to look at")


def test_centred_entity_is_the_one_nearest_the_view_axis_inside_the_cone() -> None:
    cam = Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 90.0)     # looking along +x
    positions = {2: (100.0, 30.0, 0.0), 3: (100.0, -5.0, 0.0), 4: (-100.0, 0.0, 0.0)}
    assert centred_entity(cam, positions) == 3
    assert centred_entity(cam, {2: (100.0, 100.0, 0.0), 4: (-100.0, 0.0, 0.0)}) is None   # 45° and behind


def test_outside_report_names_the_keys_kept_outside() -> None:
    path = CameraPath((CameraKey(-1.0, A.origin, A.angles), CameraKey(5.0, A.origin, A.angles),
                       CameraKey(99.0, A.origin, A.angles)))
    assert outside_report(path, 60.0) == \
        "camera keys outside the demo, kept (the camera holds there): 1 (-0:01.0), 3 (1:39.0)"
    assert outside_report(path, 120.0) == "camera keys outside the demo, kept (the camera holds there): 1 (-0:01.0)"


def test_save_target_overwrites_only_the_path_s_own_file(tmp_path: Path) -> None:
    demo = tmp_path / "duel.mvd"
    assert save_target(demo, None) == tmp_path / "duel.camera.json"
    (tmp_path / "duel.camera.json").write_text("someone else's", encoding="utf-8")
    assert save_target(demo, None) == tmp_path / "duel.camera-2.json"
    (tmp_path / "duel.camera-2.json").write_text("{}", encoding="utf-8")
    assert save_target(demo, None) == tmp_path / "duel.camera-3.json"
    assert save_target(demo, str(tmp_path / "duel.camera.json")) == tmp_path / "duel.camera.json"


def test_path_beside_loads_the_demo_s_file_and_owns_it(tmp_path: Path) -> None:
    demo = tmp_path / "duel.mvd"
    assert path_beside(demo, 60.0) == (PathEdit(), "")
    file = tmp_path / "duel.camera.json"
    save_path(_three().path, file)
    edit, said = path_beside(demo, 25.0)
    assert edit.path == load_path(file) and edit.file == str(file) and edit.selected is None
    assert not edit.unsaved
    assert said == f"camera path: 3 keys from {file}; camera keys outside the demo, kept (the camera holds " \
                   "there): 3 (0:30.0)"


def test_unsaved_follows_edits_against_what_was_loaded() -> None:
    """``unsaved``: any add, move or delete since the path was loaded (or saved); undoing the edit clears it."""
    loaded = PathEdit.loaded(_three().path, "duel.camera.json")
    assert not loaded.unsaved and not PathEdit().unsaved
    added, _ = loaded.add(50.0, A)
    assert added.unsaved
    removed, _ = added.delete()                                   # the added key is the selected one
    assert removed.path == loaded.path and not removed.unsaved


def test_path_beside_leaves_a_broken_file_alone_and_says_why(tmp_path: Path) -> None:
    file = tmp_path / "duel.camera.json"
    file.write_text(json.dumps({"version": 7, "keys": []}), encoding="utf-8")
    edit, said = path_beside(tmp_path / "duel.mvd", 60.0)
    assert edit == PathEdit() and said.startswith("camera path not loaded:") and "version" in said
    assert save_target(tmp_path / "duel.mvd", edit.file) == tmp_path / "duel.camera-2.json"


# --- the key row ----------------------------------------------------------------------------------------------------

G = bar_geometry((1280, 720), 100.0, 160.0)           # a 60 s demo starting at 100 s; scale 2


def test_key_row_sits_above_the_bar_and_marks_sit_at_their_times() -> None:
    keys = _three().path.keys
    assert key_row_top(G) == G.top - 24 and on_key_row(G, 5, G.top - 1) and not on_key_row(G, 5, G.top)
    assert key_mark_x(G, keys[1]) == pytest.approx(G.x_of(120.0))
    x = key_mark_x(G, keys[1])
    assert key_mark_at(G, keys, x + 10, G.top - 5) == 1
    assert key_mark_at(G, keys, x + 14, G.top - 5) is None          # beyond the hover radius
    assert key_mark_at(G, keys, x, G.top + 5) is None                # on the bar, not on the row
    assert key_mark_at(G, keys, key_mark_x(G, keys[0]) + 1, G.top - 5) == 0


def test_key_row_layout_draws_every_key_the_selected_one_on_top_and_a_tooltip() -> None:
    edit, _ = _three().toggle_look_at(3)
    keys = edit.path.keys
    assert key_row_layout(G, (), None).rects == ()
    layout = key_row_layout(G, keys, 1)
    marks = [r for r in layout.rects if r.color in (KEY_COLOR, LOOK_AT_COLOR)]
    assert [r.x + r.w / 2 for r in marks] == pytest.approx([key_mark_x(G, keys[i]) for i in (0, 2, 1)])
    assert marks[-1].color == LOOK_AT_COLOR and [r.color for r in layout.rects].count(SELECTED_COLOR) == 1
    assert all(key_row_top(G) <= r.y and r.y + r.h <= G.top for r in layout.rects)
    hovered = key_row_layout(G, keys, 1, (key_mark_x(G, keys[1]), G.top - 4))
    assert [t.text for t in hovered.texts] == ["key 2  0:20.0  fov 70  look at 3"]
