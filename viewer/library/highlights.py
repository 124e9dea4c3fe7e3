"""``qdv render --highlights RESULTS.json``: the clips of ``qdv find --json`` hits, and joining them into one reel.

:func:`plan_clips` turns hits into :class:`Clip` ranges (``lead_in`` seconds before the moment, ``lead_out`` after
its end, within the demo) named after the demo, the time and what matched; :mod:`.clip_pool` renders them in parallel.
:func:`concat_clips` joins rendered clips of one codec and size into one file by copying their packets (no
re-encoding), each clip's timestamps moved to follow the previous one's last packet.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Clip", "HighlightsError", "concat_clips", "load_hits", "plan_clips"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class HighlightsError(ValueError):
    """A results file that is not a list of ``qdv find --json`` hits."""


@dataclass(frozen=True, slots=True)
class Clip:
    demo: str
    start: float
    end: float
    out: Path
    player: str | None = None      # whose moment it is (their view where the demo has it)


def load_hits(file: str | Path) -> list[dict[str, Any]]:
    """The hits of a ``qdv find --json`` file: each a dict with ``path`` and ``time`` (``end``, ``match``,
    ``demo_duration`` optional)."""
    try:
        hits = json.loads(Path(file).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise HighlightsError(f"{file}: not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(hits, list):
        raise HighlightsError(f"{file}: expected a list of hits (qdv find --json), found {type(hits).__name__}")
    for i, h in enumerate(hits):
        if not (isinstance(h, dict) and isinstance(h.get("path"), str)
                and isinstance(h.get("time"), int | float) and not isinstance(h.get("time"), bool)):
            raise HighlightsError(f"{file}: hit {i}: expected an object with a string 'path' and a number 'time'")
    return hits


def _slug(text: str, limit: int = 40) -> str:
    return _UNSAFE.sub("-", text).strip("-")[:limit].strip("-") or "moment"


def plan_clips(hits: Sequence[dict[str, Any]], out_dir: str | Path, lead_in: float, lead_out: float,
               suffix: str = ".mp4") -> list[Clip]:
    """One clip per hit: ``time - lead_in`` .. ``end + lead_out`` clamped to the demo, written to
    ``out_dir/NNN_DEMO_MMmSSs_MATCH.mp4``."""
    clips = []
    for i, h in enumerate(hits, 1):
        start = max(0.0, float(h["time"]) - lead_in)
        end = float(h.get("end", h["time"])) + lead_out
        duration = float(h.get("demo_duration") or 0.0)
        if duration > 0:
            end = min(end, duration)
        demo = Path(h["path"]).name.split(".")[0]
        t = int(h["time"])
        name = f"{i:03d}_{_slug(demo)}_{t // 60:02d}m{t % 60:02d}s_{_slug(str(h.get('match', '')))}{suffix}"
        player = h.get("player") if isinstance(h.get("player"), str) else None
        clips.append(Clip(h["path"], start, end, Path(out_dir) / name, player))
    return clips


def concat_clips(clips: Sequence[Path], out: Path) -> None:
    """Join ``clips`` (same streams, codecs and sizes, as one ``qdv render`` setting makes) into ``out``."""
    import av

    with av.open(str(out), "w") as dst:
        with av.open(str(clips[0])) as first:
            streams = [dst.add_stream_from_template(s) for s in first.streams if s.type in ("video", "audio")]
        ends = [0] * len(streams)       # per stream: where the next clip's first packet goes (its time base)
        for clip in clips:
            with av.open(str(clip)) as src:
                sources = [s for s in src.streams if s.type in ("video", "audio")]
                shift: list[int | None] = [None] * len(sources)
                for packet in src.demux(*sources):
                    if packet.dts is None:
                        continue
                    k = sources.index(packet.stream)
                    if shift[k] is None:
                        shift[k] = ends[k] - packet.dts
                    delta = shift[k] or 0
                    packet.dts += delta
                    if packet.pts is not None:
                        packet.pts += delta
                    ends[k] = max(ends[k], packet.dts + (packet.duration or 1))
                    packet.stream = streams[k]
                    dst.mux(packet)
