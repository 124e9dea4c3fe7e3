"""Fuzz the Quake and QuakeWorld demo decoders through ``load_demo``: NetQuake ``.dem`` (also gzipped),
QuakeWorld ``.qwd`` and ``.mvd``, and Quake II ``.dm2``; besides corpus heads, small copy-forward demos
(:mod:`.copy_forward`: frames delta-coded from a full entity set) whose duplicated runs multiply the rows kept."""

from __future__ import annotations

import gzip

from assets_loader.demos import load_demo

from .copy_forward import dm2_copy_forward, qwd_copy_forward
from .corpus import DATA, head, whole
from .engine import Target

_HEAD = 96 << 10


def _seeds() -> list[tuple[str, bytes]]:
    dem = whole(DATA / "quake1" / "lq1" / "demo3.dem")
    qw = DATA / "quakeworld"
    return [dem, ("demo3.dem.gz", gzip.compress(dem[1][:_HEAD])),
            head(qw / "lq_lqdm2_mvd.mvd", _HEAD), head(qw / "lq_lqdm2_ranger.qwd", _HEAD),
            head(DATA / "quake2" / "demos" / "AQtion-demo-guide.dm2", 16 << 10),
            ("copy_forward.dm2", dm2_copy_forward(40, 200)), ("copy_forward.qwd", qwd_copy_forward(40, 100))]


def _load(data: bytes, name: str) -> object:
    timeline = load_demo(data, name)
    return timeline.duration, timeline.num_frames


TARGETS = (Target("load_demo", _load, _seeds),)
