"""On-disk Quake II BSP records (``IBSP`` version 38) as numpy dtypes named after ``qfiles.h``.

All little-endian with an explicit ``<``. The header is the magic ``"IBSP"``, the version (38) and 19 lumps.
Planes, vertices, surfedges and the ``lump_t`` entries have the Quake layout (shared with
:mod:`assets_loader.bsp.dtypes`); the rest is Quake II's own.

References: Quake II ``qcommon/qfiles.h`` (``dheader_t``, ``dmodel_t``, ``dnode_t``, ``texinfo_t``, ``dface_t``,
``dleaf_t``, ``dbrush_t``, ``dbrushside_t``, ``dvis_t``, ``dareaportal_t``, ``darea_t``) and ``q_shared.h``
(``SURF_*``, ``CONTENTS_*``).
"""

from __future__ import annotations

import numpy as np

from ..bsp.dtypes import D_LUMP, D_PLANE, D_SURFEDGE, D_VERTEX

IDBSPHEADER = b"IBSP"
BSPVERSION = 38

HEADER_LUMPS = 19
(LUMP_ENTITIES, LUMP_PLANES, LUMP_VERTEXES, LUMP_VISIBILITY, LUMP_NODES, LUMP_TEXINFO, LUMP_FACES,
 LUMP_LIGHTING, LUMP_LEAFS, LUMP_LEAFFACES, LUMP_LEAFBRUSHES, LUMP_EDGES, LUMP_SURFEDGES, LUMP_MODELS,
 LUMP_BRUSHES, LUMP_BRUSHSIDES, LUMP_POP, LUMP_AREAS, LUMP_AREAPORTALS) = range(HEADER_LUMPS)
LUMP_NAMES = ("entities", "planes", "vertexes", "visibility", "nodes", "texinfo", "faces", "lighting", "leafs",
              "leaffaces", "leafbrushes", "edges", "surfedges", "models", "brushes", "brushsides", "pop", "areas",
              "areaportals")

MAXLIGHTMAPS = 4
DVIS_PVS = 0
DVIS_PHS = 1

# surface flags (texinfo_t.flags)
SURF_LIGHT = 0x1
SURF_SLICK = 0x2
SURF_SKY = 0x4
SURF_WARP = 0x8
SURF_TRANS33 = 0x10
SURF_TRANS66 = 0x20
SURF_FLOWING = 0x40
SURF_NODRAW = 0x80
SURF_NAMES = {SURF_LIGHT: "light", SURF_SLICK: "slick", SURF_SKY: "sky", SURF_WARP: "warp",
              SURF_TRANS33: "trans33", SURF_TRANS66: "trans66", SURF_FLOWING: "flowing", SURF_NODRAW: "nodraw"}
#: Faces the GL renderer never lightmaps (``Mod_LoadFaces``): sky, warped and translucent ones.
SURF_NO_LIGHTMAP = SURF_SKY | SURF_WARP | SURF_TRANS33 | SURF_TRANS66

# brush and leaf contents (bits)
CONTENTS_SOLID = 0x1
CONTENTS_WINDOW = 0x2
CONTENTS_AUX = 0x4
CONTENTS_LAVA = 0x8
CONTENTS_SLIME = 0x10
CONTENTS_WATER = 0x20
CONTENTS_MIST = 0x40
CONTENTS_AREAPORTAL = 0x8000
CONTENTS_PLAYERCLIP = 0x10000
CONTENTS_MONSTERCLIP = 0x20000
CONTENTS_ORIGIN = 0x1000000
CONTENTS_MONSTER = 0x2000000
CONTENTS_DEADMONSTER = 0x4000000
CONTENTS_DETAIL = 0x8000000
CONTENTS_TRANSLUCENT = 0x10000000
CONTENTS_LADDER = 0x20000000
#: What stops a line of sight or a camera: ``MASK_SOLID`` (solid and windows).
MASK_SOLID = CONTENTS_SOLID | CONTENTS_WINDOW

#: ``dheader_t``: ident, version, 19 lumps.
dheader_t = np.dtype([("ident", "S4"), ("version", "<i4"), ("lumps", D_LUMP, (HEADER_LUMPS,))])
dplane_t = D_PLANE
dvertex_t = D_VERTEX
#: surfedges: signed edge numbers (negative = edge used backwards).
dsurfedge_t = D_SURFEDGE
#: ``dmodel_t``: bounds, origin, head node, face range.
dmodel_t = np.dtype([("mins", "<f4", (3,)), ("maxs", "<f4", (3,)), ("origin", "<f4", (3,)), ("headnode", "<i4"),
                     ("firstface", "<i4"), ("numfaces", "<i4")])
#: ``dnode_t``: children ``< 0`` are ``-(leaf + 1)``.
dnode_t = np.dtype([("planenum", "<i4"), ("children", "<i4", (2,)), ("mins", "<i2", (3,)), ("maxs", "<i2", (3,)),
                    ("firstface", "<u2"), ("numfaces", "<u2")])
#: ``texinfo_t``: ``vecs`` (s and t axes + offsets), ``SURF_*`` flags, light value, texture name (no extension,
#: under ``textures/``), next texinfo of an animation (-1 = none).
texinfo_t = np.dtype([("vecs", "<f4", (2, 4)), ("flags", "<i4"), ("value", "<i4"), ("texture", "S32"),
                      ("nexttexinfo", "<i4")])
#: ``dedge_t``
dedge_t = np.dtype([("v", "<u2", (2,))])
#: ``dface_t``: ``lightofs`` is a byte offset into the RGB lighting lump (-1 = none).
dface_t = np.dtype([("planenum", "<u2"), ("side", "<i2"), ("firstedge", "<i4"), ("numedges", "<i2"),
                    ("texinfo", "<i2"), ("styles", "u1", (MAXLIGHTMAPS,)), ("lightofs", "<i4")])
#: ``dleaf_t``: contents bits, PVS cluster (-1 = none), area, bounds, leaf face and leaf brush ranges.
dleaf_t = np.dtype([("contents", "<i4"), ("cluster", "<i2"), ("area", "<i2"), ("mins", "<i2", (3,)),
                    ("maxs", "<i2", (3,)), ("firstleafface", "<u2"), ("numleaffaces", "<u2"),
                    ("firstleafbrush", "<u2"), ("numleafbrushes", "<u2")])
#: leaffaces / leafbrushes: face and brush indices listed by leafs.
dleafface_t = np.dtype("<u2")
dleafbrush_t = np.dtype("<u2")
#: ``dbrushside_t``: plane (facing out of the brush) and texinfo (-1 = none).
dbrushside_t = np.dtype([("planenum", "<u2"), ("texinfo", "<i2")])
#: ``dbrush_t``
dbrush_t = np.dtype([("firstside", "<i4"), ("numsides", "<i4"), ("contents", "<i4")])
#: ``dareaportal_t``: the portal number (what the area bits of a frame refer to) and the area on its other side.
dareaportal_t = np.dtype([("portalnum", "<i4"), ("otherarea", "<i4")])
#: ``darea_t``: the area's range in the area portal lump.
darea_t = np.dtype([("numareaportals", "<i4"), ("firstareaportal", "<i4")])
