"""Quake-family game data and demo recordings → numpy arrays and frozen dataclasses (no GL, no windows).

The small public API for scripts and notebooks: each loader takes bytes or a path and raises only
:class:`~assets_loader.errors.FormatError` subclasses on bad input.
"""

from .bsp import WorldMesh, load_bsp
from .demos import DemoTimeline, load_demo, sample
from .errors import FormatError
from .images import load_lmp
from .models import AliasModel, SpriteModel, load_mdl, load_spr
from .pak import load_pak
from .palette import load_colormap, load_palette
from .vfs import VirtualFS
from .wad2 import load_wad

__all__ = ["load_demo", "DemoTimeline", "sample", "VirtualFS", "load_pak", "load_bsp", "WorldMesh", "load_mdl",
           "AliasModel", "load_spr", "SpriteModel", "load_wad", "load_lmp", "load_palette", "load_colormap",
           "FormatError"]
