"""Potentially visible sets and the BSP tree walk.

The visibility lump holds one compressed bit row per leaf: a non-zero byte is 8 literal bits, a zero byte is
followed by a count of zero bytes to emit. Bit ``i`` of leaf ``L``'s row says leaf ``i + 1`` is visible from
``L`` (leaf 0, the shared solid leaf, has no bit). A leaf with ``visofs == -1`` (or a map without vis data)
sees everything, as ``Mod_LeafPVS`` returns ``mod_novis``.

References: Unofficial Quake Specs 3.2, chapter 3.4.3 "Visibility lists"; Quake ``Mod_DecompressVis``,
``Mod_LeafPVS`` and ``Mod_PointInLeaf`` (gl_model.c).
"""

from __future__ import annotations

import numpy as np

from ..errors import BadIndexError, TruncatedError


def decompress_vis(vis: bytes | memoryview, offset: int, numbits: int, path: str = "<bytes>",
                   base: int = 0) -> np.ndarray:
    """Decompress the row at ``vis[offset:]`` into ``numbits`` booleans (``Mod_DecompressVis``).

    ``base`` is the vis lump's file offset, used in error messages. Raises :class:`TruncatedError` if the row
    runs past the end of the lump.
    """
    row = (numbits + 7) >> 3
    out = bytearray(row)
    mv = memoryview(vis)
    n = len(mv)
    pos, o = offset, 0
    while o < row:
        if pos >= n:
            raise TruncatedError(path, "BSP", base + pos, f"{row - o} more bytes of a visibility row",
                                 "end of the visibility lump")
        b = mv[pos]
        if b:
            out[o] = b
            o += 1
            pos += 1
            continue
        if pos + 1 >= n:
            raise TruncatedError(path, "BSP", base + pos, "a zero-run count", "end of the visibility lump")
        o += mv[pos + 1]  # the engine lets a run overshoot the row; the extra zeros are simply dropped
        pos += 2
    bits = np.unpackbits(np.frombuffer(bytes(out), np.uint8), bitorder="little")
    return bits[:numbits].astype(bool)


def point_in_leaf(point, nodes: np.ndarray, planes: np.ndarray, headnode: int, path: str = "<bytes>") -> int:
    """Index of the leaf containing ``point`` (``Mod_PointInLeaf``): walk from ``headnode`` down the tree.

    ``nodes`` is an ``M_NODE`` array (children ``< 0`` are ``-(leaf + 1)``), ``planes`` a ``D_PLANE`` array.
    A point exactly on a plane goes to the back child, as in the engine.
    """
    p = np.asarray(point, dtype=np.float64).reshape(3)
    normals = planes["normal"]
    dists = planes["dist"]
    children = nodes["children"]
    planenums = nodes["planenum"]
    node = int(headnode)
    for _ in range(len(nodes) + 1):
        if node < 0:
            return -1 - node
        plane = int(planenums[node])
        d = float(np.dot(normals[plane], p)) - float(dists[plane])
        node = int(children[node, 0] if d > 0 else children[node, 1])
    raise BadIndexError(path, "BSP", None, "a BSP tree without cycles", f"more than {len(nodes)} nodes on a path")
