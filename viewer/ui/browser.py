"""The library browser (Ctrl+O), pure: the demos of a folder or of the library in sortable columns with a filter
box, and a search tab whose hits open the demo at the moment.

:class:`Browser` is the open browser (tab, rows, sorting, filter, selection, search text and hits, status line);
:func:`browser_key` / :func:`browser_text` / :func:`browser_click` say what a key, typed text or a click does to it,
returning a :class:`Request` for what the window must do (open a demo at a time, run the search, switch between the
folder and the whole library); :func:`browser_layout` draws it as a :class:`UiLayout` in the picker's style.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from ..library.catalog import DemoRow
from ..library.find import LEAD_IN, Hit
from ..render.refdef import Rect, Text, UiLayout
from .timeline_bar import CHAR, DIM_TEXT_COLOR, PLAYED_COLOR, TEXT_COLOR, TOOLTIP_COLOR

VISIBLE_ROWS = 16
TABS = ("demos", "search")
#: The panel: opaque, as the tooltips' colour (a translucent panel let the notice, the scoreboard and the HUD behind
#: it show through its rows).
PANEL_COLOR = (*TOOLTIP_COLOR[:3], 1.0)


def _clock(seconds: float) -> str:
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


@dataclass(frozen=True, slots=True)
class Column:
    """A column of the demos tab: its header, width in characters, the text of a row and the sort key."""

    title: str
    width: int
    text: Callable[[DemoRow], str]
    key: Callable[[DemoRow], Any]


COLUMNS = (
    Column("demo", 22, lambda r: r.name, lambda r: r.name.lower()),
    Column("map", 9, lambda r: r.map if r.error is None else "(error)", lambda r: r.map.lower()),
    Column("players", 18, lambda r: ", ".join(r.players) if r.error is None else r.error,
           lambda r: ", ".join(r.players).lower()),
    Column("time", 6, lambda r: _clock(r.duration), lambda r: r.duration),
    Column("score", 7, lambda r: ":".join(map(str, r.scores[:2])), lambda r: r.scores),
    Column("date", 10, lambda r: r.date[:10], lambda r: r.date),
)
#: The search tab's columns: demo, time of the moment, player, what matched (as wide as the demos tab's).
HIT_COLUMNS = (("demo", 22), ("at", 6), ("player", 12), ("what", 34))


def row_matches(row: DemoRow, words: Sequence[str]) -> bool:
    """Every word of the filter (case-insensitive) is in the row's file name, game, map, a player, the date or
    the decode error."""
    hay = "\n".join([row.name, row.game, row.map, *row.players, row.date, row.error or ""]).lower()
    return all(w in hay for w in words)


@dataclass(frozen=True, slots=True)
class Request:
    """What the window must do: ``open`` ``path`` at ``start`` seconds, ``search`` (run :attr:`Browser.query`),
    ``scope`` (list the whole library instead of the folder, or back)."""

    kind: str
    path: Path | None = None
    start: float = 0.0


@dataclass(frozen=True)     # no slots: ``shown`` is cached per state (drawn every frame)
class Browser:
    """The browser over ``rows`` (of ``folder``; ``None``: the whole library) on tab ``tab``, sorted by column
    ``sort`` (an index of :data:`COLUMNS`, ``descending``), narrowed by ``filter``; the search tab's ``query``, the
    ``hits`` of the query last run (``searched``); ``selected``: the row of the current tab's list; ``status``: a
    line under the list (indexing progress, a bad search)."""

    folder: Path | None
    rows: tuple[DemoRow, ...] = ()
    tab: str = "demos"
    sort: int = 0
    descending: bool = False
    filter: str = ""
    selected: int = 0
    query: str = ""
    hits: tuple[Hit, ...] = ()
    searched: str | None = None
    status: str = ""

    @cached_property
    def shown(self) -> tuple[DemoRow, ...]:
        """The rows the filter keeps, in the sort order."""
        words = self.filter.lower().split()
        kept = [r for r in self.rows if row_matches(r, words)] if words else list(self.rows)
        kept.sort(key=COLUMNS[self.sort].key, reverse=self.descending)
        return tuple(kept)

    @property
    def count(self) -> int:
        return len(self.shown) if self.tab == "demos" else len(self.hits)

    def move(self, rows: int) -> Browser:
        """The selection ``rows`` down (negative: up), kept within the current list."""
        return replace(self, selected=min(max(self.selected + rows, 0), max(self.count - 1, 0)))

    def sorted_by(self, column: int) -> Browser:
        """Sorted by ``column``; the column it is already sorted by turns the order round."""
        descending = not self.descending if column == self.sort else False
        return replace(self, sort=column, descending=descending, selected=0)

    def with_rows(self, rows: Sequence[DemoRow]) -> Browser:
        """New rows (indexing went on), the same demo kept selected when it is still shown."""
        chosen = self.chosen if self.tab == "demos" else None
        new = replace(self, rows=tuple(rows))
        if chosen is None:
            return new.move(0)
        paths = [r.path for r in new.shown]
        return replace(new, selected=paths.index(str(chosen))) if str(chosen) in paths else new.move(0)

    def with_hits(self, hits: Sequence[Hit]) -> Browser:
        return replace(self, hits=tuple(hits), searched=self.query, selected=0,
                       status=f"{len(hits)} match{'' if len(hits) == 1 else 'es'}")

    def typed(self, text: str) -> Browser:
        """``text`` added to the filter (demos tab) or the search (search tab)."""
        if self.tab == "demos":
            return replace(self, filter=self.filter + text, selected=0)
        return replace(self, query=self.query + text)

    def erased(self) -> Browser:
        """Backspace: the last character of the filter or search removed."""
        if self.tab == "demos":
            return replace(self, filter=self.filter[:-1], selected=0)
        return replace(self, query=self.query[:-1])

    def on_tab(self, tab: str) -> Browser:
        return self if tab == self.tab else replace(self, tab=tab, selected=0)

    @property
    def chosen(self) -> Path | None:
        """The demo of the selected row (demos tab) or hit (search tab)."""
        if self.tab == "demos":
            shown = self.shown
            return Path(shown[self.selected].path) if shown else None
        return Path(self.hits[self.selected].path) if self.hits else None

    def open_request(self) -> Request | None:
        """Opening the selection: a demo from its start, a hit :data:`~viewer.library.find.LEAD_IN` seconds
        before its moment."""
        if self.tab == "demos":
            chosen = self.chosen
            return Request("open", chosen) if chosen is not None else None
        if not self.hits:
            return None
        hit = self.hits[self.selected]
        return Request("open", Path(hit.path), max(0.0, hit.time - LEAD_IN))


def browser_key(browser: Browser, name: str) -> tuple[Browser | None, Request | None]:
    """Key ``name`` (a ``pyglet.window.key.symbol_string``) → ``(the browser or None if it closed, a request)``:
    arrows / pages move, Tab switches tab, F2 switches between the folder and the library, Backspace erases, Enter
    opens the selection (on the search tab a changed search runs first), Esc closes."""
    steps = {"UP": -1, "DOWN": 1, "PAGEUP": -VISIBLE_ROWS, "PAGEDOWN": VISIBLE_ROWS,
             "HOME": -browser.count, "END": browser.count}
    if name in steps:
        return browser.move(steps[name]), None
    if name == "TAB":
        return browser.on_tab(TABS[(TABS.index(browser.tab) + 1) % len(TABS)]), None
    if name == "BACKSPACE":
        return browser.erased(), None
    if name == "F2":
        return browser, Request("scope")
    if name in ("RETURN", "ENTER", "NUM_ENTER"):
        if browser.tab == "search" and browser.query.strip() and browser.query != browser.searched:
            return browser, Request("search")
        request = browser.open_request()
        return (None, request) if request is not None else (browser, None)
    if name == "ESCAPE":
        return None, None
    return browser, None


def browser_text(browser: Browser, text: str) -> Browser:
    """Typed ``text`` (pyglet's ``on_text``): its printable characters go into the filter or the search."""
    kept = "".join(c for c in text if c.isprintable())
    return browser.typed(kept) if kept else browser


@dataclass(frozen=True, slots=True)
class _Geometry:
    x: float
    y: float
    w: float
    h: float
    pad: float
    ch: float
    row_h: float

    def line_y(self, line: int) -> float:
        return self.y + self.pad + line * self.row_h


#: Lines of the panel above the list: title, tabs, filter / search box, column headers.
HEAD_LINES = 4
_TABLE_COLS = sum(c.width + 1 for c in COLUMNS)


def _geometry(size: tuple[int, int], scale: int) -> _Geometry:
    s = max(1, scale)
    ch = CHAR * s
    while s > 1 and (_TABLE_COLS + 2) * ch > size[0]:     # a narrow window: smaller letters, all columns shown
        s -= 1
        ch = CHAR * s
    pad, row_h = 6 * s, ch + 3 * s
    w = _TABLE_COLS * ch + 2 * pad
    h = (HEAD_LINES + VISIBLE_ROWS + 2) * row_h + 2 * pad
    return _Geometry((size[0] - w) / 2, max((size[1] - h) / 2, 0), w, h, pad, ch, row_h)


def line_band(size: tuple[int, int], scale: int, line: int) -> tuple[int, int, int, int]:
    """``(x, y, w, h)`` in framebuffer pixels of the panel's text line ``line`` (0: the title, 1: the tabs, 2: the
    filter or search box, 3: the column headers, then from :data:`HEAD_LINES` the rows)."""
    g = _geometry(size, scale)
    return int(g.x), int(g.line_y(line)), int(g.w), int(g.ch)


def _first_shown(browser: Browser) -> int:
    return min(max(browser.selected - VISIBLE_ROWS // 2, 0), max(browser.count - VISIBLE_ROWS, 0))


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "~"


def _column_xs(g: _Geometry, widths: Sequence[int]) -> list[float]:
    xs, x = [], g.x + g.pad
    for width in widths:
        xs.append(x)
        x += (width + 1) * g.ch
    return xs


def browser_click(browser: Browser, x: float, y: float, size: tuple[int, int],
                  scale: int) -> tuple[Browser | None, Request | None]:
    """A click at framebuffer pixels ``(x, y)`` (top-down): on a tab switches to it, on a column header sorts by
    it, on a row selects it (a click on the selected row opens it); outside the panel closes the browser."""
    g = _geometry(size, scale)
    if not (g.x <= x < g.x + g.w and g.y <= y < g.y + g.h):
        return None, None
    line = int((y - g.y - g.pad) // g.row_h)
    if line == 1:
        tab = int((x - g.x - g.pad) // (10 * g.ch))
        return (browser.on_tab(TABS[tab]), None) if 0 <= tab < len(TABS) else (browser, None)
    if line == 3 and browser.tab == "demos":
        for i, left in reversed(list(enumerate(_column_xs(g, [c.width for c in COLUMNS])))):
            if x >= left:
                return browser.sorted_by(i), None
    row = line - HEAD_LINES
    if 0 <= row < VISIBLE_ROWS:
        index = _first_shown(browser) + row
        if index < browser.count:
            if index == browser.selected:
                return browser_key(browser, "RETURN")
            return replace(browser, selected=index), None
    return browser, None


def _demo_lines(browser: Browser) -> tuple[list[str], list[list[str]]]:
    arrow = " v" if browser.descending else " ^"
    heads = [c.title + (arrow if i == browser.sort else "") for i, c in enumerate(COLUMNS)]
    first = _first_shown(browser)
    cells = [[_fit(c.text(r), c.width) for c in COLUMNS] for r in browser.shown[first:first + VISIBLE_ROWS]]
    return heads, cells


def _hit_lines(browser: Browser) -> tuple[list[str], list[list[str]]]:
    first = _first_shown(browser)
    cells = [[_fit(Path(h.path).name, HIT_COLUMNS[0][1]), _clock(h.time), _fit(h.player or "-", HIT_COLUMNS[2][1]),
              _fit(h.match, HIT_COLUMNS[3][1])] for h in browser.hits[first:first + VISIBLE_ROWS]]
    return [title for title, _ in HIT_COLUMNS], cells


def browser_layout(browser: Browser, size: tuple[int, int], scale: int) -> UiLayout:
    """The browser as a centred panel: the folder (or "library"), the tabs, the filter or search box, the column
    headers (the sort column marked ``^`` / ``v``), the visible rows (the selected one on an orange strip), the
    status line and a hint."""
    g = _geometry(size, scale)
    s = g.ch / CHAR
    rects = [Rect(g.x, g.y, g.w, g.h, PANEL_COLOR)]
    where = str(browser.folder) if browser.folder is not None else "the whole library"
    what = f"{len(browser.rows)} demos" if browser.tab == "demos" else "search"
    texts = [Text(g.x + g.pad, g.line_y(0), _fit(f"{where}  ({what})", _TABLE_COLS), g.ch, TEXT_COLOR)]
    for i, tab in enumerate(TABS):
        tx = g.x + g.pad + i * 10 * g.ch
        if tab == browser.tab:
            rects.append(Rect(tx - 2 * s, g.line_y(1) - s, (len(tab) + 2) * g.ch, g.row_h - s, PLAYED_COLOR))
        texts.append(Text(tx + g.ch, g.line_y(1), tab, g.ch, TEXT_COLOR if tab == browser.tab else DIM_TEXT_COLOR))
    if browser.tab == "demos":
        box = f"filter: {browser.filter}_"
        heads, cells = _demo_lines(browser)
        widths = [c.width for c in COLUMNS]
        empty = "(no demos match the filter)" if browser.rows else "(no demos indexed here yet)"
    else:
        box = f"search: {browser.query}_"
        heads, cells = _hit_lines(browser)
        widths = [w for _, w in HIT_COLUMNS]
        empty = ("(no matches)" if browser.searched is not None else
                 "killer:A victim:B weapon:rocket multi:3 within:5 spree:5 kind:chat TEXT")
    texts.append(Text(g.x + g.pad, g.line_y(2), _fit(box, _TABLE_COLS), g.ch, TEXT_COLOR))
    xs = _column_xs(g, widths)
    texts += [Text(x, g.line_y(3), head, g.ch, DIM_TEXT_COLOR) for x, head in zip(xs, heads)]
    first = _first_shown(browser)
    for i, row in enumerate(cells):
        ry = g.line_y(HEAD_LINES + i)
        if first + i == browser.selected:
            rects.append(Rect(g.x + g.pad - 2 * s, ry - s, g.w - 2 * g.pad + 4 * s, g.row_h - s, PLAYED_COLOR))
        texts += [Text(x, ry, cell, g.ch, TEXT_COLOR) for x, cell in zip(xs, row) if cell]
    if not cells:
        texts.append(Text(g.x + g.pad, g.line_y(HEAD_LINES), empty, g.ch, DIM_TEXT_COLOR))
    hint = ("type: filter  click header: sort  Tab: search  F2: library  Enter: open  Esc"
            if browser.tab == "demos" else "type a search  Enter: search, again: open (2 s before)  Tab: demos")
    bottom = HEAD_LINES + VISIBLE_ROWS
    if browser.status:
        texts.append(Text(g.x + g.pad, g.line_y(bottom), _fit(browser.status, _TABLE_COLS), g.ch, DIM_TEXT_COLOR))
    texts.append(Text(g.x + g.pad, g.line_y(bottom + 1), _fit(hint, _TABLE_COLS), g.ch, DIM_TEXT_COLOR))
    return UiLayout(tuple(rects), tuple(texts))
