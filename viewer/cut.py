"""``qdv cut``: write a range of a demo as a new demo of the same format (issue 35), never over an existing file."""

from __future__ import annotations

from pathlib import Path

from assets_loader.demos import load_demo
from assets_loader.demos.detect import maybe_gunzip
from assets_loader.demos.writers import cut_demo, frame_range
from assets_loader.source import read_source

from .export import ExportError, write_new
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
    write_new(out, lambda f: f.write(cut), force)     # the one place the cut is written
    f0, f1 = frame_range(timeline, t0, t1)
    return out, f1 - f0 + 1, float(timeline.times[f1] - timeline.times[f0])
