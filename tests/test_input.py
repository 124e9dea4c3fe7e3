"""Keys and mouse → actions: every documented binding, modifiers, the free camera taking WASD/QE, held-key
movement and the speed ladder."""

from __future__ import annotations

import pytest

from viewer import input as inp
from viewer.input import ALT, CTRL, SHIFT, Action, key_action, mouse_drag, mouse_press, mouse_release, movement


@pytest.mark.parametrize("name, mods, expected", [
    ("SPACE", 0, Action("toggle_pause")),
    ("RIGHT", 0, Action("seek_by", 5.0)),
    ("LEFT", 0, Action("seek_by", -5.0)),
    ("RIGHT", SHIFT, Action("seek_by", 30.0)),
    ("LEFT", SHIFT, Action("seek_by", -30.0)),
    ("UP", 0, Action("speed", 1)), ("BRACKETRIGHT", 0, Action("speed", 1)),
    ("DOWN", 0, Action("speed", -1)), ("BRACKETLEFT", 0, Action("speed", -1)),
    ("BACKSPACE", 0, Action("reverse")),
    ("HOME", 0, Action("seek_start")), ("END", 0, Action("seek_end")),
    ("PERIOD", 0, Action("step", 1)), ("COMMA", 0, Action("step", -1)),
    ("PAGEDOWN", 0, Action("marker", 1)), ("N", 0, Action("marker", 1)),
    ("PAGEUP", 0, Action("marker", -1)), ("N", SHIFT, Action("marker", -1)),
    ("B", 0, Action("toggle_bar")),
    ("F", 0, Action("camera", 1)), ("C", 0, Action("camera", 2)), ("V", 0, Action("camera", 0)),
    ("R", 0, Action("orbit_next", 1)), ("R", SHIFT, Action("orbit_next", -1)),
    ("TAB", 0, Action("player", 1)), ("TAB", SHIFT, Action("player", -1)),
    ("QUOTELEFT", 0, Action("toggle_scores")), ("H", 0, Action("toggle_hud")),
    ("F12", 0, Action("screenshot")),
    ("ENTER", ALT, Action("fullscreen")), ("RETURN", ALT, Action("fullscreen")), ("F11", 0, Action("fullscreen")),
    ("F1", 0, Action("help")), ("QUESTION", 0, Action("help")), ("SLASH", SHIFT, Action("help")),
    ("ESCAPE", 0, Action("escape")), ("Q", CTRL, Action("quit")),
    ("F3", 0, Action("toggle_fps")), ("L", 0, Action("mouse_look")), ("O", CTRL, Action("open")),
])
def test_key_bindings(name: str, mods: int, expected: Action) -> None:
    assert key_action(name, mods) == expected


@pytest.mark.parametrize("name", ["_0", "_5", "_9", "NUM_3"])
def test_digits_jump_to_tenths(name: str) -> None:
    action = key_action(name)
    assert action.name == "jump_fraction"
    assert action.a == pytest.approx(int(name[-1]) / 10)


def test_unbound_keys_do_nothing() -> None:
    assert key_action("Z") is None
    assert key_action("ENTER") is None          # Enter without Alt
    assert key_action("SLASH") is None          # "/" without Shift is not "?"


def test_free_camera_takes_the_movement_keys() -> None:
    for name in "WASDQE":
        assert key_action(name, free_camera=True) is None
    assert key_action("SPACE", free_camera=True) == Action("toggle_pause")
    assert key_action("Q", CTRL, free_camera=True) == Action("quit")


def test_modifier_bits_match_pyglet() -> None:
    # pyglet.window.key.MOD_SHIFT/MOD_CTRL/MOD_ALT and mouse.LEFT/RIGHT, without importing pyglet.window
    # (that needs a display): the values are fixed by pyglet's API.
    assert (SHIFT, CTRL, ALT) == (1, 2, 4)
    assert (inp.MOUSE_LEFT, inp.MOUSE_MIDDLE, inp.MOUSE_RIGHT) == (1, 2, 4)


def test_movement_from_held_keys() -> None:
    assert movement(set()) == inp.Movement()
    assert not movement(set()).moving
    m = movement({"W", "D", "E", "LSHIFT"})
    assert (m.forward, m.right, m.up, m.fast) == (1, 1, 1, True)
    m = movement({"S", "A", "Q"})
    assert (m.forward, m.right, m.up, m.fast) == (-1, -1, -1, False)
    assert movement({"W", "S"}).forward == 0


def test_mouse_on_the_bar_scrubs_elsewhere_looks() -> None:
    assert mouse_press(100, 700, inp.MOUSE_LEFT, on_bar=True) == Action("scrub_begin", 100)
    assert mouse_press(100, 700, inp.MOUSE_RIGHT, on_bar=True) is None
    assert mouse_press(100, 100, inp.MOUSE_RIGHT, on_bar=False) == Action("mouse_look")
    assert mouse_press(100, 100, inp.MOUSE_LEFT, on_bar=False) == Action("drag_begin")
    assert mouse_drag(120, 700, 20, 0, scrubbing=True) == Action("scrub_move", 120)
    assert mouse_drag(120, 100, 3, -2, scrubbing=False) == Action("look", 3, -2)
    assert mouse_release(inp.MOUSE_LEFT, scrubbing=True) == Action("scrub_end")
    assert mouse_release(inp.MOUSE_RIGHT, scrubbing=False) == Action("drag_end")
    assert inp.mouse_scroll(2) == Action("zoom", 2)
    assert inp.mouse_motion(5, 6) == Action("hover", 5, 6)


def test_speed_ladder_keeps_sign_and_limits() -> None:
    assert inp.next_speed(1.0, +1) == 2.0
    assert inp.next_speed(1.0, -1) == 0.5
    assert inp.next_speed(10.0, +1) == 10.0
    assert inp.next_speed(0.1, -1) == 0.1
    assert inp.next_speed(-1.0, +1) == -2.0
    assert inp.next_speed(1.5, -1) == 1.0      # an off-ladder speed snaps to the neighbour


def test_help_lists_every_bound_key() -> None:
    text = " ".join(k for k, _ in inp.KEY_HELP)
    for label in ("Space", "Left", "Backspace", "Home", "0 - 9", "PgDn", "B", "F", "C", "R", "Tab", "F12",
                  "Alt+Enter", "F1", "Esc", "`", "H", "V", "F3", "L", "Ctrl+O"):
        assert label in text


@pytest.mark.parametrize("name, mods, expected", [
    ("I", 0, Action("mark_in")), ("O", 0, Action("mark_out")),
    ("I", SHIFT, Action("clear_marks")), ("O", SHIFT, Action("clear_marks")),
    ("E", CTRL, Action("export")),
])
def test_export_range_keys(name: str, mods: int, expected: Action) -> None:
    assert key_action(name, mods) == expected
    assert key_action("E", CTRL, free_camera=True) == Action("export")    # E alone flies the free camera up
    assert key_action("O", CTRL) == Action("open")                        # Ctrl+O still opens a demo
    text = " ".join(k for k, _ in inp.KEY_HELP)
    assert all(label in text for label in ("I / O", "Shift+I", "Ctrl+E"))


def test_camera_path_keys_and_key_row_mouse() -> None:
    assert inp.key_action("K") == Action("key_add")
    assert inp.key_action("K", inp.SHIFT) == Action("key_replace")
    assert inp.key_action("K", inp.CTRL) == Action("key_look_at")
    assert inp.key_action("DELETE") == Action("key_delete")
    assert inp.key_action("P") == Action("path_camera")
    assert inp.key_action("S", inp.CTRL, free_camera=True) == Action("path_save")   # not "fly back"
    assert inp.key_action("S", free_camera=True) is None
    assert inp.mouse_press(50, 600, inp.MOUSE_LEFT, on_bar=True, key_mark=2) == Action("key_grab", 2, 50)
    assert inp.mouse_drag(60, 600, 10, 0, scrubbing=False, moving_key=True) == Action("key_drag", 60)
    assert inp.mouse_release(inp.MOUSE_LEFT, scrubbing=False, moving_key=True) == Action("key_drop")
    text = " ".join(k for k, _ in inp.KEY_HELP)
    for label in ("K / Shift+K", "Delete", "Ctrl+K", "P", "Ctrl+S", "key row"):
        assert label in text
