"""The demo picker (pure): listing a folder's demos, moving the selection, Enter/Esc, the layout."""

from __future__ import annotations

from pathlib import Path

from viewer.ui.picker import VISIBLE_ROWS, Picker, demo_files, picker_key, picker_layout


def _folder(tmp_path: Path, names) -> Path:
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "sub.dem").mkdir()
    return tmp_path


def test_demo_files_lists_demos_by_name(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["b.mvd", "A.dem", "c.qwd", "d.dem.gz", "e.dm2", "f.dm_68", "notes.txt", "x.bsp"])
    assert [p.name for p in demo_files(folder)] == ["A.dem", "b.mvd", "c.qwd", "d.dem.gz", "e.dm2", "f.dm_68"]
    assert demo_files(tmp_path / "missing") == ()


def test_keys_move_open_and_close(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [f"{i:02d}.dem" for i in range(40)])
    p = Picker.of(folder)
    p, chosen = picker_key(p, "DOWN")
    p, chosen = picker_key(p, "DOWN")
    assert p.selected == 2 and chosen is None
    p, _ = picker_key(p, "UP")
    p, _ = picker_key(p, "PAGEDOWN")
    assert p.selected == 1 + VISIBLE_ROWS
    p, _ = picker_key(p, "END")
    assert p.selected == 39
    p, _ = picker_key(p, "DOWN")
    assert p.selected == 39
    p, _ = picker_key(p, "SPACE")
    assert p.selected == 39
    closed, chosen = picker_key(p, "RETURN")
    assert closed is None and chosen == folder / "39.dem"
    assert picker_key(p, "ESCAPE") == (None, None)


def test_empty_folder_enter_keeps_the_picker(tmp_path: Path) -> None:
    p = Picker.of(tmp_path)
    assert picker_key(p, "RETURN") == (p, None)
    texts = [t.text for t in picker_layout(p, (1280, 720), 2).texts]
    assert "(no demos in this folder)" in texts


def test_layout_shows_the_rows_around_the_selection(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [f"{i:02d}.mvd" for i in range(40)])
    layout = picker_layout(Picker.of(folder).move(30), (1280, 720), 2)
    names = [t.text for t in layout.texts if t.text.endswith(".mvd")]
    assert len(names) == VISIBLE_ROWS and "30.mvd" in names and "00.mvd" not in names
    row = next(t for t in layout.texts if t.text == "30.mvd")
    strip = layout.rects[1]                                   # the highlight behind the selected row
    assert strip.y <= row.y < strip.y + strip.h
