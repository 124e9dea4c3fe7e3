"""On-disk Quake III BSP (IBSP version 46) records as numpy dtypes, named after ``qfiles.h``.

Seventeen lumps follow the ``"IBSP"`` magic and version 46. All records are little-endian with explicit ``<``.

References: ioquake3 ``qcommon/qfiles.h`` (``dheader_t``, ``dshader_t``, ``dsurface_t``, ``drawVert_t`` …) and
``qcommon/surfaceflags.h`` (``SURF_*``, ``CONTENTS_*``).
"""

from __future__ import annotations

import numpy as np

BSP_IDENT = b"IBSP"
BSP_VERSION = 46

HEADER_LUMPS = 17
(LUMP_ENTITIES, LUMP_SHADERS, LUMP_PLANES, LUMP_NODES, LUMP_LEAFS, LUMP_LEAFSURFACES, LUMP_LEAFBRUSHES,
 LUMP_MODELS, LUMP_BRUSHES, LUMP_BRUSHSIDES, LUMP_DRAWVERTS, LUMP_DRAWINDEXES, LUMP_FOGS, LUMP_SURFACES,
 LUMP_LIGHTMAPS, LUMP_LIGHTGRID, LUMP_VISIBILITY) = range(HEADER_LUMPS)
LUMP_NAMES = ("entities", "shaders", "planes", "nodes", "leafs", "leafsurfaces", "leafbrushes", "models",
              "brushes", "brushsides", "drawverts", "drawindexes", "fogs", "surfaces", "lightmaps", "lightgrid",
              "visibility")

#: ``mapSurfaceType_t``
MST_BAD, MST_PLANAR, MST_PATCH, MST_TRIANGLE_SOUP, MST_FLARE = range(5)
SURFACE_KINDS = ("bad", "planar", "patch", "triangle_soup", "flare")

#: ``LIGHTMAP_*`` (tr_common.h): negative lightmap numbers a shader is found with.
LIGHTMAP_2D = -4
LIGHTMAP_BY_VERTEX = -3
LIGHTMAP_WHITEIMAGE = -2
LIGHTMAP_NONE = -1

LIGHTMAP_SIZE = 128
MAX_PATCH_SIZE = 32
LIGHTGRID_SIZE = (64.0, 64.0, 128.0)

#: ``SURF_*`` surface flags (surfaceflags.h) the renderer looks at.
SURF_SKY = 0x4
SURF_NOLIGHTMAP = 0x400
SURF_NODRAW = 0x80
#: ``CONTENTS_*`` bits (surfaceflags.h): what stops a camera, and fog volumes.
CONTENTS_SOLID = 1
CONTENTS_FOG = 64

#: ``lump_t``
D_LUMP = np.dtype([("fileofs", "<i4"), ("filelen", "<i4")])
#: ``dheader_t``
D_HEADER = np.dtype([("ident", "S4"), ("version", "<i4"), ("lumps", D_LUMP, (HEADER_LUMPS,))])
#: ``dshader_t``
D_SHADER = np.dtype([("shader", "S64"), ("surfaceFlags", "<i4"), ("contentFlags", "<i4")])
#: ``dplane_t``
D_PLANE = np.dtype([("normal", "<f4", (3,)), ("dist", "<f4")])
#: ``dnode_t``: children >= 0 are nodes, < 0 are ``-(leaf + 1)``.
D_NODE = np.dtype([("planeNum", "<i4"), ("children", "<i4", (2,)), ("mins", "<i4", (3,)), ("maxs", "<i4", (3,))])
#: ``dleaf_t``
D_LEAF = np.dtype([("cluster", "<i4"), ("area", "<i4"), ("mins", "<i4", (3,)), ("maxs", "<i4", (3,)),
                   ("firstLeafSurface", "<i4"), ("numLeafSurfaces", "<i4"),
                   ("firstLeafBrush", "<i4"), ("numLeafBrushes", "<i4")])
#: ``dmodel_t``
D_MODEL = np.dtype([("mins", "<f4", (3,)), ("maxs", "<f4", (3,)), ("firstSurface", "<i4"), ("numSurfaces", "<i4"),
                    ("firstBrush", "<i4"), ("numBrushes", "<i4")])
#: ``dbrush_t``
D_BRUSH = np.dtype([("firstSide", "<i4"), ("numSides", "<i4"), ("shaderNum", "<i4")])
#: ``dbrushside_t``
D_BRUSHSIDE = np.dtype([("planeNum", "<i4"), ("shaderNum", "<i4")])
#: ``drawVert_t``
D_DRAWVERT = np.dtype([("xyz", "<f4", (3,)), ("st", "<f4", (2,)), ("lightmap", "<f4", (2,)), ("normal", "<f4", (3,)),
                       ("color", "u1", (4,))])
#: ``dfog_t``
D_FOG = np.dtype([("shader", "S64"), ("brushNum", "<i4"), ("visibleSide", "<i4")])
#: ``dsurface_t``
D_SURFACE = np.dtype([("shaderNum", "<i4"), ("fogNum", "<i4"), ("surfaceType", "<i4"), ("firstVert", "<i4"),
                      ("numVerts", "<i4"), ("firstIndex", "<i4"), ("numIndexes", "<i4"), ("lightmapNum", "<i4"),
                      ("lightmapX", "<i4"), ("lightmapY", "<i4"), ("lightmapWidth", "<i4"),
                      ("lightmapHeight", "<i4"), ("lightmapOrigin", "<f4", (3,)), ("lightmapVecs", "<f4", (3, 3)),
                      ("patchWidth", "<i4"), ("patchHeight", "<i4")])
#: One light grid cell: ambient RGB, directed RGB, direction as (longitude, latitude) bytes.
D_LIGHTGRID = np.dtype([("ambient", "u1", (3,)), ("directed", "u1", (3,)), ("lng", "u1"), ("lat", "u1")])
