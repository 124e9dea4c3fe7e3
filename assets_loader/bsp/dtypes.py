"""On-disk BSP records as numpy dtypes, named after ``bspfile.h`` (all little-endian, explicit ``<``).

Three layouts share one header and one lump order:

* ``BSP29`` (version 29): id's original format, 16-bit counts in faces, edges, nodes, leafs, marksurfaces.
* ``BSP2`` (magic ``"BSP2"``): every count and index widened to 32 bits, node/leaf bounds as floats.
* ``2PSB`` (magic ``"2PSB"``, the older RMQ variant of BSP2): 32-bit counts like ``BSP2`` but node and leaf
  bounds kept as 16-bit shorts.

Planes, vertices, texinfo, surfedges and models are identical in all three.

References: Unofficial Quake Specs 3.2, chapter 3.2 "The format of BSP files"; Quake ``bspfile.h``
(``dheader_t``, ``dface_t`` ...); the BSP2/2PSB layouts as described by ericw-tools' and QuakeSpasm's
``bspfile.h`` (``bsp2_dface_t``, ``bsp2rmq_dnode_t`` ...).
"""

from __future__ import annotations

import numpy as np

BSPVERSION = 29
#: ``BSP2VERSION``: the bytes ``"BSP2"`` read as a little-endian int.
BSP2_MAGIC = b"BSP2"
#: ``BSP2RMQVERSION``: the bytes ``"2PSB"`` on disk.
BSP2RMQ_MAGIC = b"2PSB"

HEADER_LUMPS = 15
(LUMP_ENTITIES, LUMP_PLANES, LUMP_TEXTURES, LUMP_VERTEXES, LUMP_VISIBILITY, LUMP_NODES, LUMP_TEXINFO,
 LUMP_FACES, LUMP_LIGHTING, LUMP_CLIPNODES, LUMP_LEAFS, LUMP_MARKSURFACES, LUMP_EDGES, LUMP_SURFEDGES,
 LUMP_MODELS) = range(HEADER_LUMPS)
LUMP_NAMES = ("entities", "planes", "textures", "vertexes", "visibility", "nodes", "texinfo", "faces",
              "lighting", "clipnodes", "leafs", "marksurfaces", "edges", "surfedges", "models")

MAXLIGHTMAPS = 4
MIPLEVELS = 4
MAX_MAP_HULLS = 4
NUM_AMBIENTS = 4

TEX_SPECIAL = 1  # texinfo flag: sky or liquid, no lightmap

CONTENTS_EMPTY = -1
CONTENTS_SOLID = -2
CONTENTS_WATER = -3
CONTENTS_SLIME = -4
CONTENTS_LAVA = -5
CONTENTS_SKY = -6

#: ``lump_t``
D_LUMP = np.dtype([("fileofs", "<i4"), ("filelen", "<i4")])
#: ``dheader_t``: version (or 4-byte magic) + 15 lumps.
D_HEADER = np.dtype([("version", "<i4"), ("lumps", D_LUMP, (HEADER_LUMPS,))])

#: ``dplane_t``
D_PLANE = np.dtype([("normal", "<f4", (3,)), ("dist", "<f4"), ("type", "<i4")])
#: ``dvertex_t``
D_VERTEX = np.dtype([("point", "<f4", (3,))])
#: ``texinfo_t``
D_TEXINFO = np.dtype([("vecs", "<f4", (2, 4)), ("miptex", "<i4"), ("flags", "<i4")])
#: ``dmodel_t``
D_MODEL = np.dtype([("mins", "<f4", (3,)), ("maxs", "<f4", (3,)), ("origin", "<f4", (3,)),
                    ("headnode", "<i4", (MAX_MAP_HULLS,)), ("visleafs", "<i4"),
                    ("firstface", "<i4"), ("numfaces", "<i4")])
#: ``dmiptexlump_t`` header count; followed by ``nummiptex`` int32 offsets.
D_MIPTEX = np.dtype([("name", "S16"), ("width", "<u4"), ("height", "<u4"), ("offsets", "<u4", (MIPLEVELS,))])
#: surfedges: signed edge numbers (negative = edge used backwards).
D_SURFEDGE = np.dtype("<i4")

#: ``bsp29_dedge_t`` / ``bsp2_dedge_t``
D_EDGE_29 = np.dtype([("v", "<u2", (2,))])
D_EDGE_2 = np.dtype([("v", "<u4", (2,))])

#: ``bsp29_dface_t`` / ``bsp2_dface_t``
D_FACE_29 = np.dtype([("planenum", "<i2"), ("side", "<i2"), ("firstedge", "<i4"), ("numedges", "<i2"),
                      ("texinfo", "<i2"), ("styles", "u1", (MAXLIGHTMAPS,)), ("lightofs", "<i4")])
D_FACE_2 = np.dtype([("planenum", "<i4"), ("side", "<i4"), ("firstedge", "<i4"), ("numedges", "<i4"),
                     ("texinfo", "<i4"), ("styles", "u1", (MAXLIGHTMAPS,)), ("lightofs", "<i4")])

#: ``bsp29_dnode_t`` / ``bsp2rmq_dnode_t`` (2PSB) / ``bsp2_dnode_t``
D_NODE_29 = np.dtype([("planenum", "<i4"), ("children", "<u2", (2,)), ("mins", "<i2", (3,)),
                      ("maxs", "<i2", (3,)), ("firstface", "<u2"), ("numfaces", "<u2")])
D_NODE_2PSB = np.dtype([("planenum", "<i4"), ("children", "<i4", (2,)), ("mins", "<i2", (3,)),
                        ("maxs", "<i2", (3,)), ("firstface", "<u4"), ("numfaces", "<u4")])
D_NODE_2 = np.dtype([("planenum", "<i4"), ("children", "<i4", (2,)), ("mins", "<f4", (3,)),
                     ("maxs", "<f4", (3,)), ("firstface", "<u4"), ("numfaces", "<u4")])

#: ``bsp29_dclipnode_t`` / ``bsp2_dclipnode_t`` (not needed for drawing; listed for completeness)
D_CLIPNODE_29 = np.dtype([("planenum", "<i4"), ("children", "<u2", (2,))])
D_CLIPNODE_2 = np.dtype([("planenum", "<i4"), ("children", "<i4", (2,))])

#: ``bsp29_dleaf_t`` / ``bsp2rmq_dleaf_t`` (2PSB) / ``bsp2_dleaf_t``
D_LEAF_29 = np.dtype([("contents", "<i4"), ("visofs", "<i4"), ("mins", "<i2", (3,)), ("maxs", "<i2", (3,)),
                      ("firstmarksurface", "<u2"), ("nummarksurfaces", "<u2"),
                      ("ambient_level", "u1", (NUM_AMBIENTS,))])
D_LEAF_2PSB = np.dtype([("contents", "<i4"), ("visofs", "<i4"), ("mins", "<i2", (3,)), ("maxs", "<i2", (3,)),
                        ("firstmarksurface", "<u4"), ("nummarksurfaces", "<u4"),
                        ("ambient_level", "u1", (NUM_AMBIENTS,))])
D_LEAF_2 = np.dtype([("contents", "<i4"), ("visofs", "<i4"), ("mins", "<f4", (3,)), ("maxs", "<f4", (3,)),
                     ("firstmarksurface", "<u4"), ("nummarksurfaces", "<u4"),
                     ("ambient_level", "u1", (NUM_AMBIENTS,))])

#: marksurfaces: face indices listed by leafs.
D_MARKSURFACE_29 = np.dtype("<u2")
D_MARKSURFACE_2 = np.dtype("<u4")

# --- in-memory (normalised) records, the same for every version -------------------------------------------

#: A node after loading: children >= 0 are nodes, < 0 are ``-(leaf + 1)``.
M_NODE = np.dtype([("planenum", "<i4"), ("children", "<i4", (2,)), ("mins", "<f4", (3,)), ("maxs", "<f4", (3,)),
                   ("firstface", "<u4"), ("numfaces", "<u4")])
#: A leaf after loading.
M_LEAF = np.dtype([("contents", "<i4"), ("visofs", "<i4"), ("mins", "<f4", (3,)), ("maxs", "<f4", (3,)),
                   ("firstmarksurface", "<u4"), ("nummarksurfaces", "<u4"),
                   ("ambient_level", "u1", (NUM_AMBIENTS,))])

#: Per-version record layouts: (face, edge, node, leaf, marksurface).
LAYOUTS: dict[str, tuple[np.dtype, np.dtype, np.dtype, np.dtype, np.dtype]] = {
    "BSP29": (D_FACE_29, D_EDGE_29, D_NODE_29, D_LEAF_29, D_MARKSURFACE_29),
    "2PSB": (D_FACE_2, D_EDGE_2, D_NODE_2PSB, D_LEAF_2PSB, D_MARKSURFACE_2),
    "BSP2": (D_FACE_2, D_EDGE_2, D_NODE_2, D_LEAF_2, D_MARKSURFACE_2),
}
CLIPNODE_LAYOUTS = {"BSP29": D_CLIPNODE_29, "2PSB": D_CLIPNODE_2, "BSP2": D_CLIPNODE_2}
