"""The library browser open in the window: the :class:`~.browser.Browser` model with the library file behind it.

:class:`BrowserSession` opens the library (``--db``, default the platform data folder), lists a folder's stored
demos, indexes the folder in a child process (:class:`~viewer.library.catalog.FolderIndexing`) with a progress
line while the rows fill in, runs the search tab's queries with :func:`viewer.library.find.find`, and turns keys,
text and clicks into the demo to open (path and start second). No window here: tests drive it directly.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import replace
from pathlib import Path

from ..library.catalog import FolderIndexing, demo_rows, parse_search
from ..library.find import find
from ..library.store import default_db_path, open_db
from .browser import Browser, Request, browser_click, browser_key, browser_text

__all__ = ["BrowserSession"]

#: Seconds between looks at the indexing's progress (each reads the library file).
POLL_SECONDS = 0.25


class BrowserSession:
    """The browser on ``folder`` over the library at ``db_path``; ``workers``: the indexing's decoding processes
    (default: the core count). :attr:`browser` is ``None`` once it closed."""

    def __init__(self, folder: str | Path, db_path: str | Path | None = None, workers: int | None = None) -> None:
        self.db_path = Path(db_path) if db_path is not None else default_db_path()
        self.folder = Path(folder).resolve()
        self.workers = workers
        self.db = open_db(self.db_path)
        self.browser: Browser | None = Browser(self.folder, tuple(demo_rows(self.db, self.folder)))
        self.indexing: FolderIndexing | None = FolderIndexing(self.db_path, self.folder, workers)
        self._seen = ""
        self._next_poll = 0.0

    @property
    def scope(self) -> Path | None:
        return self.browser.folder if self.browser is not None else self.folder

    def poll(self) -> str | None:
        """Each frame: while the folder is being indexed, the progress line and the rows stored so far; once
        done, the last rows and what the indexing said if it failed. Returns the status line when it changed."""
        if self.indexing is None or self.browser is None:
            return None
        running = self.indexing.running
        if running and time.monotonic() < self._next_poll:
            return None
        self._next_poll = time.monotonic() + POLL_SECONDS
        try:
            status = self.indexing.progress(self.db) if running else ""
            if status != self._seen or not running:
                self._seen = status
                self.browser = self.browser.with_rows(demo_rows(self.db, self.scope))
        except sqlite3.OperationalError:    # the writer holds the file: next frame
            return None
        if not running:
            failure = self.indexing.failure
            self.indexing.stop()
            self.indexing = None
            status = f"indexing failed: {failure}" if failure else f"{len(self.browser.rows)} demos indexed"
        changed = status != self.browser.status
        self.browser = replace(self.browser, status=status)
        return status if changed else None

    def _do(self, browser: Browser | None, request: Request | None) -> tuple[Path, float] | None:
        self.browser = browser
        if request is None or browser is None and request.kind != "open":
            return None
        if request.kind == "open":
            assert request.path is not None
            return request.path, request.start
        assert browser is not None
        if request.kind == "search":
            try:
                hits = find(self.db, parse_search(browser.query, browser.folder))
            except ValueError as exc:
                self.browser = replace(browser, status=f"bad search: {exc}")
                return None
            self.browser = browser.with_hits(hits)
        elif request.kind == "scope":
            scope = None if browser.folder is not None else self.folder
            status = browser.status if self.indexing is not None else ""   # "N demos indexed": the folder's
            self.browser = replace(browser, folder=scope, rows=tuple(demo_rows(self.db, scope)), selected=0,
                                   status=status)
        return None

    def key(self, name: str) -> tuple[Path, float] | None:
        """A key (``pyglet.window.key.symbol_string``) → the demo to open and its start second, or ``None``."""
        assert self.browser is not None
        return self._do(*browser_key(self.browser, name))

    def text(self, text: str) -> None:
        assert self.browser is not None
        self.browser = browser_text(self.browser, text)

    def click(self, x: float, y: float, size: tuple[int, int], scale: int) -> tuple[Path, float] | None:
        assert self.browser is not None
        return self._do(*browser_click(self.browser, x, y, size, scale))

    def close(self) -> None:
        """Stop the indexing (what it stored stays) and close the library file."""
        if self.indexing is not None:
            self.indexing.stop()
            self.indexing = None
        self.browser = None
        self.db.close()

