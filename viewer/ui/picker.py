"""The demo picker: the demos of a folder as a list in the window (arrows move, Enter opens, Esc closes), pure.

:func:`demo_files` lists a folder's demos (``qdv play DIR``, a dropped folder, Ctrl+O on the last folder);
:class:`Picker` is the open list and its selection; :func:`picker_key` says what a key does to it;
:func:`picker_layout` draws it as a :class:`UiLayout` (the window shows :data:`VISIBLE_ROWS` rows around the
selection).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from assets_loader.demos import is_demo_name

from ..render.refdef import Rect, Text, UiLayout
from .timeline_bar import CHAR, DIM_TEXT_COLOR, PANEL_COLOR, PLAYED_COLOR, TEXT_COLOR

VISIBLE_ROWS = 16
#: Characters of a file name shown (longer names keep their start and end).
NAME_WIDTH = 60


def demo_files(folder: str | Path) -> tuple[Path, ...]:
    """The demo files directly inside ``folder`` (the endings ``load_demo`` decodes, :func:`~assets_loader.demos.
    is_demo_name`), by name (case-insensitive); ``()`` for an unreadable folder."""
    try:
        entries = list(Path(folder).iterdir())
    except OSError:
        return ()
    return tuple(sorted((p for p in entries if p.is_file() and is_demo_name(p.name)), key=lambda p: p.name.lower()))


@dataclass(frozen=True, slots=True)
class Picker:
    """The demos ``files`` of ``folder`` with row ``selected`` highlighted."""

    folder: Path
    files: tuple[Path, ...]
    selected: int = 0

    @classmethod
    def of(cls, folder: str | Path) -> Picker:
        return cls(Path(folder), demo_files(folder))

    def move(self, rows: int) -> Picker:
        """The selection ``rows`` down (negative: up), kept within the list."""
        if not self.files:
            return self
        return Picker(self.folder, self.files, min(max(self.selected + rows, 0), len(self.files) - 1))

    @property
    def chosen(self) -> Path | None:
        return self.files[self.selected] if self.files else None


def picker_key(picker: Picker, name: str) -> tuple[Picker | None, Path | None]:
    """Key ``name`` (a ``pyglet.window.key.symbol_string``) in the picker → ``(the picker or None if it closed,
    the demo to open or None)``. Keys it does not know leave it as it is."""
    steps = {"UP": -1, "DOWN": 1, "PAGEUP": -VISIBLE_ROWS, "PAGEDOWN": VISIBLE_ROWS,
             "HOME": -len(picker.files), "END": len(picker.files)}
    if name in steps:
        return picker.move(steps[name]), None
    if name in ("RETURN", "ENTER", "NUM_ENTER"):
        return (None, picker.chosen) if picker.chosen is not None else (picker, None)
    if name == "ESCAPE":
        return None, None
    return picker, None


def _short(name: str) -> str:
    return name if len(name) <= NAME_WIDTH else name[:NAME_WIDTH // 2 - 2] + "..." + name[-(NAME_WIDTH // 2 - 1):]


def picker_layout(picker: Picker, size: tuple[int, int], scale: int) -> UiLayout:
    """The picker as a centred panel: the folder, the visible rows (the selected one on an orange strip), a hint."""
    s = max(1, scale)
    ch = CHAR * s
    row_h = ch + 3 * s
    first = min(max(picker.selected - VISIBLE_ROWS // 2, 0), max(len(picker.files) - VISIBLE_ROWS, 0))
    shown = picker.files[first:first + VISIBLE_ROWS]
    names = [_short(p.name) for p in shown] or ["(no demos in this folder)"]
    folder = _short(str(picker.folder))
    hint = "Up/Down: choose  Enter: open  Esc: close"
    count = f"{len(picker.files)} demo{'' if len(picker.files) == 1 else 's'}"
    cols = max(len(folder), len(hint), len(count), *(len(n) + 2 for n in names))
    pad = 6 * s
    w = cols * ch + 2 * pad
    h = (len(names) + 4) * row_h + 2 * pad
    x, y = (size[0] - w) / 2, max((size[1] - h) / 2, 0)
    rects = [Rect(x, y, w, h, PANEL_COLOR)]
    texts = [Text(x + pad, y + pad, folder, ch, TEXT_COLOR),
             Text(x + pad, y + pad + row_h, count, ch, DIM_TEXT_COLOR)]
    top = y + pad + 2 * row_h
    for i, name in enumerate(names):
        ry = top + i * row_h
        if shown and first + i == picker.selected:
            rects.append(Rect(x + pad - 2 * s, ry - s, w - 2 * pad + 4 * s, row_h - s, PLAYED_COLOR))
        texts.append(Text(x + pad + 2 * ch, ry, name, ch, TEXT_COLOR))
    texts.append(Text(x + pad, top + (len(names) + 1) * row_h, hint, ch, DIM_TEXT_COLOR))
    return UiLayout(tuple(rects), tuple(texts))
