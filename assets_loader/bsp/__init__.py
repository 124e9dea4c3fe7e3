"""Quake BSP maps (version 29, BSP2, 2PSB) → :class:`WorldMesh`: triangles, textures, lightmap atlas, PVS.

References: Unofficial Quake Specs 3.2, chapter 3 "The BSP files"; Quake ``Mod_LoadBrushModel`` (gl_model.c).
"""

from .entities import parse_entities
from .lightmap import Lightmap
from .loader import load_bsp
from .mesh import DRAW, VERTEX, MeshData
from .pvs import decompress_vis
from .textures import Texture, animated_texture
from .world import FACE, BspWorld, Submodel, WorldMesh

__all__ = ["load_bsp", "BspWorld", "WorldMesh", "MeshData", "Submodel", "Texture", "Lightmap", "VERTEX", "DRAW", "FACE",
           "parse_entities", "decompress_vis", "animated_texture"]
