"""Quake-family game data and demo recordings → numpy arrays and frozen dataclasses (no GL, no windows).

The small public API for scripts and notebooks: each loader takes bytes or a path and raises only
:class:`~assets_loader.errors.FormatError` subclasses on bad input.
"""

from .bsp import WorldMesh, load_bsp
from .bsp38 import World38, load_bsp38
from .demos import DemoTimeline, load_demo, sample
from .errors import FormatError
from .images import load_lmp
from .models import AliasModel, Md2Model, Sprite2Model, SpriteModel, load_md2, load_mdl, load_sp2, load_spr
from .pak import load_pak
from .pcx import load_pcx
from .palette import load_colormap, load_palette
from .vfs import VirtualFS
from .truecolor import load_rgba
from .wad2 import load_wad
from .wal import load_wal

__all__ = ["load_demo", "DemoTimeline", "sample", "VirtualFS", "load_pak", "load_bsp", "WorldMesh", "load_mdl",
           "AliasModel", "load_spr", "SpriteModel", "load_wad", "load_lmp", "load_palette", "load_colormap",
           "FormatError", "load_bsp38", "World38", "load_md2", "Md2Model", "load_sp2", "Sprite2Model", "load_pcx",
           "load_wal", "load_rgba"]
