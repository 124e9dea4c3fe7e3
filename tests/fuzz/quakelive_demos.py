"""Fuzz the Quake Live demo tables (``.dm_73``, ``.dm_90``, ``.dm_91``): the same Huffman framing as Quake III with
Quake Live's entity / player field tables, configstrings and scoreboard commands, through the whole timeline."""

from __future__ import annotations

from assets_loader.demos.quake3 import parse_demo
from assets_loader.demos.quake3.timeline import timeline_from_demo

from .corpus import DATA, head
from .engine import Target

_HEAD = 32 << 10


def _seeds() -> list[tuple[str, bytes]]:
    ql = DATA / "public" / "quakelive"
    return [head(ql / "dm_73_duel_scores.dm_73", _HEAD), head(ql / "dm_90_gameplay_default_online.dm_90", _HEAD),
            head(ql / "dm_91_duel.dm_91", _HEAD)]


def _load(data: bytes, name: str) -> object:
    return parse_demo(data, name, keep_before_error=True)


def _timeline(data: bytes, name: str) -> object:
    return timeline_from_demo(parse_demo(data, name, keep_before_error=True))


TARGETS = (Target("parse_demo", _load, _seeds), Target("timeline", _timeline, _seeds))
