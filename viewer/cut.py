"""``qdv cut``: write a range of a demo as a new demo of the same format (issue 35), never over an existing file;
split a demo by maps, rounds or lives (:mod:`.cut_split`), cut the hits of ``qdv find --json`` in a batch, and the
window's Ctrl+X range beside the demo."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from assets_loader.demos import load_demo
from assets_loader.demos.detect import maybe_gunzip
from assets_loader.demos.timeline import DemoTimeline
from assets_loader.demos.writers import cut_demo, frame_range
from assets_loader.errors import FormatError
from assets_loader.source import read_source

from .cut_split import split_pieces
from .export import ExportError, next_numbered_path, write_new
from .timespec import parse_range

__all__ = ["Cut", "cut_beside", "cut_file", "cut_hits", "cut_timeline", "split_file"]

#: (path written, frames, seconds).
Cut = tuple[Path, int, float]


def _demo_bytes(demo: str) -> bytes:
    data, label = read_source(demo, None, "demo")
    return maybe_gunzip(data, label)


def cut_timeline(data: bytes, timeline: DemoTimeline, t0: float, t1: float, out: str | Path, force: bool = False
                 ) -> Cut:
    """Write ``t0..t1`` (the playback clock, ``timeline.times``) of the demo ``data`` that ``timeline`` was decoded
    from to ``out`` (never over a file without ``force``)."""
    out = Path(out)
    if out.exists() and not force:
        raise ExportError(f"{out}: already exists (use --force to overwrite)")
    cut = cut_demo(data, timeline, t0, t1)
    write_new(out, lambda f: f.write(cut), force)     # the one place a cut is written
    f0, f1 = frame_range(timeline, t0, t1)
    return out, f1 - f0 + 1, float(timeline.times[f1] - timeline.times[f0])


def cut_file(demo: str, start: str, end: str, out: str | Path, force: bool = False) -> Cut:
    """Cut ``demo`` from ``start`` to ``end`` (time specs, :func:`~.timespec.parse_range`) into ``out``; returns
    the path, the number of frames and the seconds written.  ``TimespecError`` / ``ValueError`` for a bad or empty
    range, :class:`FormatError` for a demo that cannot be cut, :class:`ExportError` for a file in the way."""
    if Path(out).exists() and not force:
        raise ExportError(f"{out}: already exists (use --force to overwrite)")
    timeline = load_demo(demo)
    first, last = parse_range(start, end, timeline.duration)
    return cut_timeline(_demo_bytes(demo), timeline, timeline.start_time + first, timeline.start_time + last,
                        out, force)


def cut_beside(demo: str, timeline: DemoTimeline, t0: float, t1: float) -> Cut:
    """The window's Ctrl+X: ``t0..t1`` of ``demo`` (decoded as ``timeline``) into the first free
    ``DEMO_cutNNNN.EXT`` in the demo's folder; never over a file, even one made meanwhile."""
    demo_path = Path(demo)
    out = next_numbered_path(demo_path.parent, f"{demo_path.name.split('.')[0]}_cut", f".{timeline.format}")
    return cut_timeline(_demo_bytes(demo), timeline, t0, t1, out)


def _clock(seconds: float) -> str:
    t = max(0, int(seconds))
    return f"{t // 60:02d}m{t % 60:02d}s"


def _refuse_existing(outs: Sequence[Path], force: bool) -> None:
    taken = [str(p) for p in outs if p.exists()]
    if taken and not force:
        more = f" and {len(taken) - 1} more" if len(taken) > 1 else ""
        raise ExportError(f"{taken[0]}{more}: already exist(s) (use --force to overwrite)")


def split_file(demo: str, by: str, out_dir: str | Path, force: bool = False) -> list[Cut]:
    """Split ``demo`` ``by`` maps, rounds or lives (:func:`~.cut_split.split_pieces`) into ``out_dir``, one demo per
    piece named ``DEMO_NN_WHAT_MMmSSs.EXT`` (index, the map / round / life, where it starts in the demo).  Nothing is
    written when one of the names is taken (unless ``force``); :class:`~.cut_split.NoPiecesError` when the demo has
    nothing to split by."""
    timeline = load_demo(demo)
    pieces = split_pieces(timeline, by)
    stem = Path(demo).name.split(".")[0]
    outs = [Path(out_dir) / f"{stem}_{i:02d}_{p.what}_{_clock(p.start - timeline.start_time)}.{timeline.format}"
            for i, p in enumerate(pieces, 1)]
    _refuse_existing(outs, force)
    data = _demo_bytes(demo)
    return [cut_timeline(data, timeline, p.start, p.end, out, force) for p, out in zip(pieces, outs)]


def cut_hits(hits: Sequence[dict[str, Any]], out_dir: str | Path, before: float, after: float, force: bool = False,
             failed: Callable[[Path, Exception], None] | None = None) -> list[Cut]:
    """Cut each hit of ``qdv find --json`` (``before`` seconds before its time to ``after`` after its end) into
    ``out_dir``, named after the demo, the time and what matched (:func:`~.library.highlights.plan_clips`) with the
    demo's own extension.  A hit whose demo cannot be cut is passed to ``failed`` (else raised) and skipped."""
    from .library.highlights import plan_clips

    done: list[Cut] = []
    loaded: tuple[str, DemoTimeline, bytes] | None = None      # hits come grouped by demo: decode each once
    for clip in plan_clips(hits, out_dir, before, after, suffix=""):
        try:
            if loaded is None or loaded[0] != clip.demo:
                loaded = (clip.demo, load_demo(clip.demo), _demo_bytes(clip.demo))
            _demo, timeline, data = loaded
            out = clip.out.with_name(f"{clip.out.name}.{timeline.format}")
            done.append(cut_timeline(data, timeline, timeline.start_time + clip.start,
                                     timeline.start_time + min(clip.end, timeline.duration), out, force))
        except (FormatError, OSError, ValueError) as exc:      # ExportError is an OSError
            if failed is None:
                raise
            failed(clip.out, exc)
    return done
