"""Fuzz the Quake III demo parser (``.dm_68``, ``.dm_71``): Huffman bit stream, gamestate, delta snapshots (also
a small copy-forward demo, :mod:`.copy_forward`: snapshots that keep every entity of the one before)."""

from __future__ import annotations

from assets_loader.demos.quake3 import parse_demo

from .copy_forward import dm68_copy_forward
from .corpus import DATA, head
from .engine import Target

_HEAD = 48 << 10


def _seeds() -> list[tuple[str, bytes]]:
    demos = DATA / "quake3" / "demos"
    return [head(demos / "oa_dm1_follow_p68.dm_68", _HEAD), head(demos / "oa_dm1_player_p71.dm_71", _HEAD),
            ("copy_forward.dm_68", dm68_copy_forward(40, 200))]


def _load(data: bytes, name: str) -> object:
    return parse_demo(data, name, keep_before_error=True)


TARGETS = (Target("parse_demo", _load, _seeds),)
