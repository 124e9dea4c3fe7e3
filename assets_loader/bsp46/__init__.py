"""Quake III maps (IBSP version 46) → :class:`Bsp46World`: renderer-ready vertices, indices in shader batches,
tessellated patches, a lightmap atlas, the light grid, clusters and their PVS, fogs, submodels and brushes.
:mod:`.materials` pairs each batch with its shader and decoded images.

References: ioquake3 ``qcommon/qfiles.h``; ``renderergl1/tr_bsp.c`` (``RE_LoadWorldMap``).
"""

from .dtypes import (
                     LIGHTMAP_BY_VERTEX,
                     LIGHTMAP_NONE,
                     LIGHTMAP_WHITEIMAGE,
                     MST_FLARE,
                     MST_PATCH,
                     MST_PLANAR,
                     MST_TRIANGLE_SOUP,
                     SURFACE_KINDS,
)
from .lighting import LightGrid, LightmapAtlas, LightSample, color_shift
from .loader import load_bsp46
from .patch import PATCH_LEVEL, tessellate
from .world import BATCH, DRAW_VERTEX, SURFACE, Bsp46World, Fog, Submodel46

__all__ = ["BATCH", "DRAW_VERTEX", "LIGHTMAP_BY_VERTEX", "LIGHTMAP_NONE", "LIGHTMAP_WHITEIMAGE", "MST_FLARE",
           "MST_PATCH", "MST_PLANAR", "MST_TRIANGLE_SOUP", "PATCH_LEVEL", "SURFACE", "SURFACE_KINDS", "Bsp46World",
           "Fog", "LightGrid", "LightSample", "LightmapAtlas", "Submodel46", "color_shift", "load_bsp46",
           "tessellate"]
