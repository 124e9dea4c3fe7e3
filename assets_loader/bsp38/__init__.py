"""Quake II BSP maps (``IBSP`` version 38) → :class:`World38`: triangles, WAL textures, RGB lightmap atlas, PVS/PHS
by cluster, areas and area portals, brushes.

References: Quake II ``qcommon/qfiles.h``, ``qcommon/cmodel.c`` and ``ref_gl/gl_model.c``.
"""

from .loader import load_bsp38
from .world import ANIM_FPS, FACE38, World38

__all__ = ["ANIM_FPS", "FACE38", "World38", "load_bsp38"]
