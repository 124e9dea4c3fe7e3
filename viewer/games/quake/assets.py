"""Quake's game assets a demo segment needs, loaded once from the game filesystem: the map, its models, the palette.

A missing or broken model becomes a placeholder with a warning, never a crash (docs/DESIGN.md, "Errors and bad
input"); a missing map or palette is an error naming the file, since nothing sensible can be drawn without it.
"""

from __future__ import annotations

import warnings
from pathlib import PurePosixPath

from assets_loader.bsp import WorldMesh, load_bsp
from assets_loader.errors import FormatError, NotFoundError
from assets_loader.models import load_mdl, load_spr
from assets_loader.palette import Colormap, Palette, load_colormap, load_palette
from assets_loader.vfs import VirtualFS

from ..base import precache_ref
from ...render.bsp.records import BspSegment
from ...render.refdef import Look, ModelRef, SegmentAssets


def load_palette_pair(fs: VirtualFS) -> tuple[Palette, Colormap | None]:
    """``gfx/palette.lmp`` (required) and ``gfx/colormap.lmp`` (optional)."""
    palette = load_palette(fs.read("gfx/palette.lmp"), name="gfx/palette.lmp")
    colormap = load_colormap(fs.read("gfx/colormap.lmp"), name="gfx/colormap.lmp") if fs.exists("gfx/colormap.lmp") \
        else None
    return palette, colormap


def load_world(fs: VirtualFS, map_path: str) -> WorldMesh:
    """A map with its ``.lit`` when the game dirs have one."""
    lit_path = str(PurePosixPath(map_path).with_suffix(".lit"))
    lit = fs.read(lit_path) if fs.exists(lit_path) else None
    return load_bsp(fs.read(map_path), name=map_path, lit=lit, lit_name=lit_path)


def load_model(fs: VirtualFS, name: str) -> ModelRef:
    """One model precache entry; problems become a ``"missing"`` placeholder and a warning."""
    special = precache_ref(name)
    if special is not None:
        return special
    lower = name.lower()
    try:
        if lower.endswith(".mdl"):
            return ModelRef(name, "alias", alias=load_mdl(fs.read(name), name=name))
        if lower.endswith(".spr"):
            return ModelRef(name, "sprite", sprite=load_spr(fs.read(name), name=name))
        if lower.endswith(".bsp"):
            return ModelRef(name, "bsp", bsp=load_world(fs, name))
    except FormatError as exc:  # NotFoundError included: the game dirs lack the file
        warnings.warn(f"{exc}; drawing a placeholder", stacklevel=2)
        return ModelRef(name, "missing")
    warnings.warn(f"model {name!r}: unknown model type; drawing a placeholder", stacklevel=2)
    return ModelRef(name, "missing")


#: The look when the caller names none: the renderer's defaults (QuakeSpasm's).
DEFAULT_LOOK = Look()


def load_segment_assets(fs: VirtualFS, model_precache: tuple[str, ...], look: Look = DEFAULT_LOOK) -> SegmentAssets:
    """Everything a map segment draws: ``model_precache[1]`` is the map, the rest its models, drawn with
    ``look``."""
    if len(model_precache) < 2 or not model_precache[1]:
        raise FormatError("<demo>", "demo", None, "a map name as model 1 of the precache list")
    try:
        world = load_world(fs, model_precache[1])
    except NotFoundError:  # the session says so once and draws a placeholder floor
        world = None
    palette, colormap = load_palette_pair(fs)
    models = tuple(ModelRef(n, "brush", submodel=0) if i == 1 else load_model(fs, n)
                   for i, n in enumerate(model_precache))
    return BspSegment(models, palette, colormap, look=look, world=world)


def load_map_assets(fs: VirtualFS, map_path: str, look: Look = DEFAULT_LOOK) -> SegmentAssets:
    """A map shown without a demo (``qdv map``): the map itself and no models, drawn with ``look``."""
    palette, colormap = load_palette_pair(fs)
    return BspSegment((), palette, colormap, look=look, world=load_world(fs, map_path))
