"""``qdv cut``: write a range of a demo as a new demo of the same format (issue 35), never over an existing file."""

from __future__ import annotations

from pathlib import Path

from assets_loader.demos import load_demo
from assets_loader.demos.detect import maybe_gunzip
from assets_loader.demos.writers import cut_demo, frame_range
from assets_loader.source import read_source

from .export import ExportError
from .file_writes import open_new
from .timespec import parse_range


def cut_file(demo: str, start: str, end: str, out: str | Path, force: bool = False) -> tuple[Path, int, float]:
    """Cut ``demo`` from ``start`` to ``end`` (time specs, :func:`~.timespec.parse_range`) into ``out``; returns
    the path, the number of frames and the seconds written.  ``TimespecError`` / ``ValueError`` for a bad or empty
    range, :class:`FormatError` for a demo that cannot be cut, :class:`ExportError` for a file in the way."""
    out = Path(out)
    if out.exists() and not force:
        raise ExportError(f"{out}: already exists (use --force to overwrite)")
    timeline = load_demo(demo)
    first, last = parse_range(start, end, timeline.duration)
    t0, t1 = timeline.start_time + first, timeline.start_time + last
    data, label = read_source(demo, None, "demo")
    cut = cut_demo(maybe_gunzip(data, label), timeline, t0, t1)
    _write(out, cut, force)
    f0, f1 = frame_range(timeline, t0, t1)
    return out, f1 - f0 + 1, float(timeline.times[f1] - timeline.times[f0])


def _write(path: Path, data: bytes, force: bool) -> None:
    """The one place the cut is written (:func:`~.file_writes.open_new`: a new file unless ``force``, never through a
    link); a partial file is removed."""
    try:
        with open_new(path, force) as f:
            f.write(data)
    except FileExistsError:
        raise ExportError(f"{path}: already exists (use --force to overwrite)") from None
    except IsADirectoryError:
        raise ExportError(f"{path}: is a directory, expected a file name") from None
    except OSError as exc:
        if path.is_file():
            path.unlink()
        raise ExportError(f"{path}: cannot write: {exc.strerror or exc}") from None
