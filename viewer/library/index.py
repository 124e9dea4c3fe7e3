"""``qdv index DIR…``: find the demos under folders, decode the new and changed ones in parallel, store them.

The per-demo work is :func:`~.records.demo_record` (a pure function of the file), mapped over a
``ProcessPoolExecutor`` of ``workers`` processes or, given a ``scheduler`` address, over a Dask cluster
(``dask.distributed``, the ``library`` extra); only the records travel back and this process alone writes the
database. A file whose size and modification time are stored unchanged is not read again, one whose content hash
is (only touched) is not decoded again; stored files that are gone from the folders are removed.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from assets_loader.demos import is_demo_name

from .records import DemoRecord, demo_record, file_hash
from .store import known_files, remove_paths, touch_path, write_record

__all__ = ["IndexResult", "demo_paths", "index_folders"]


@dataclass(frozen=True, slots=True)
class IndexResult:
    decoded: int        # files decoded (new or changed)
    unchanged: int      # files not decoded: same size and modification time, or same content
    removed: int        # stored files no longer found
    errors: int         # files that did not decode
    demo_seconds: float
    duplicates: int     # stored files whose content hash another stored file has too


def demo_paths(folders: Iterable[str | Path]) -> list[str]:
    """The demo files under ``folders`` (recursively, by the endings ``load_demo`` decodes, ``.gz`` too) as
    absolute paths, sorted; a folder given as a file is taken as that file."""
    found: set[str] = set()
    for folder in folders:
        root = Path(folder).resolve()
        if root.is_file():
            found.add(str(root))
            continue
        for dirpath, _dirs, files in os.walk(root):
            found.update(os.path.join(dirpath, f) for f in files if is_demo_name(f))
    return sorted(found)


def _pool_records(paths: list[str], workers: int) -> Iterator[DemoRecord]:
    if workers <= 1:
        yield from map(demo_record, paths)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for future in as_completed([pool.submit(demo_record, p) for p in paths]):
            yield future.result()


def _dask_records(paths: list[str], scheduler: str) -> Iterator[DemoRecord]:
    try:
        from distributed import Client, as_completed as dask_completed
    except ImportError:
        raise ValueError("--scheduler needs dask.distributed: pip install 'quake-demo-viewer[library]'") from None
    with Client(scheduler) as client:
        for future in dask_completed(client.map(demo_record, paths, pure=False)):
            yield future.result()


def index_folders(db: sqlite3.Connection, folders: Iterable[str | Path], workers: int | None = None,
                  scheduler: str | None = None,
                  progress: Callable[[DemoRecord, int], None] | None = None) -> IndexResult:
    """Bring the library ``db`` up to date with the demos under ``folders``; ``progress(record, files_to_decode)``
    is called per decoded file. Folders are compared whole: stored files under them that are gone are removed."""
    roots = [Path(f).resolve() for f in folders]
    paths = demo_paths(roots)
    stored = known_files(db)
    current = set(paths)
    gone = [p for p in stored if p not in current and any(Path(p).is_relative_to(r) for r in roots)]
    remove_paths(db, gone)
    todo, sizes = [], {}
    for p in paths:
        st = os.stat(p)
        old = stored.get(p)
        if old is not None and old[:2] == (st.st_size, st.st_mtime):
            continue
        if old is not None and old[0] == st.st_size and old[2] == file_hash(p):
            touch_path(db, p, st.st_mtime)      # touched, not changed: the stored records stand
            continue
        todo.append(p)
        sizes[p] = st.st_size
    todo.sort(key=lambda p: -sizes[p])     # the largest first: no worker is left with a long demo at the end
    if scheduler:
        records = _dask_records(todo, scheduler)
    else:
        records = _pool_records(todo, workers or os.cpu_count() or 1)
    errors, seconds = 0, 0.0
    for rec in records:
        write_record(db, rec)
        db.commit()
        errors += rec.error is not None
        seconds += rec.info.get("duration", 0.0)
        if progress:
            progress(rec, len(todo))
    db.commit()
    duplicates = db.execute("SELECT COALESCE(SUM(n), 0) FROM (SELECT COUNT(*) AS n FROM demos GROUP BY hash "
                            "HAVING n > 1)").fetchone()[0]
    return IndexResult(len(todo), len(paths) - len(todo), len(gone), errors, seconds, duplicates)

