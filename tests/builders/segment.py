"""Segment assets for tests of game code that needs a loaded map but draws nothing (traces, beams, marks)."""

from __future__ import annotations

from assets_loader.bsp46 import Bsp46World
from viewer.games.quake3.assets import GREY_PALETTE
from viewer.render.q3.records import Quake3Segment, Quake3World
from viewer.render.refdef import ModelRef, SegmentAssets


def level_assets(level: Bsp46World | None) -> SegmentAssets | None:
    """A Quake III segment holding only ``level`` (no shaders, images or models); ``None`` for no map."""
    if level is None:
        return None
    return Quake3Segment((), GREY_PALETTE, q3_world=Quake3World(level, (), {}))


def named_models(names: tuple[str, ...]) -> SegmentAssets:
    """A segment whose model precache is ``names`` with nothing loaded: what effects that find their models by name
    need."""
    return SegmentAssets(tuple(ModelRef(name, "none") for name in names), GREY_PALETTE)
