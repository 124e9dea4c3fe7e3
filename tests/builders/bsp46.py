"""Writer for tiny synthetic Quake III maps (IBSP v46).

Record layouts are spelled out with ``struct`` formats written independently of ``assets_loader.bsp46.dtypes``,
so a round trip checks the reader's layouts.

The default map (``Bsp46Spec()``): one node splitting x = 64 (front leaf 0, cluster 0; back leaf 1, cluster 1).
Surface 0 is a planar quad at x 100..164 with lightmap 0 (leaf 0); surface 1 a 3×3 patch with lightmap 1, surface
2 a one-triangle soup, surface 3 a flare (leaf 1); surface 4 a nodraw quad in submodel ``*1``. Brush 0 is the fog
box (0,0,0)–(32,32,32) with visible side 5 (+z). Cluster 0 sees only itself, cluster 1 sees both. Lightmap 0 is
all ``LM0_RGB``, lightmap 1 all ``LM1_RGB``. The world box (0,0,0)–(128,128,128) gives a 3×3×2 light grid whose
cells are all ``GRID_CELL`` except cell (x=1, y=1, z=0), which is black (a wall).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

HEADER_LUMPS = 17
LM0_RGB = (40, 80, 20)
LM1_RGB = (10, 20, 30)
GRID_CELL = (20, 30, 40, 50, 60, 70, 0, 0)  # ambient rgb, directed rgb, lng, lat
SURF_NODRAW = 0x80
CONTENTS_FOG = 64


def vert(xyz, st=(0.0, 0.0), lm=(0.0, 0.0), normal=(0.0, 0.0, 1.0), color=(255, 255, 255, 255)) -> bytes:
    """One ``drawVert_t``: xyz, st, lightmap st, normal, RGBA."""
    return struct.pack("<3f2f2f3f4B", *xyz, *st, *lm, *normal, *color)


def surface(shader: int, kind: int, first_vert: int, num_verts: int, first_index: int = 0, num_indexes: int = 0,
            lightmap: int = -1, fog: int = -1, patch: tuple[int, int] = (0, 0), normal=(0.0, 0.0, 1.0)) -> bytes:
    """One ``dsurface_t``."""
    return struct.pack("<8i4i3f9f2i", shader, fog, kind, first_vert, num_verts, first_index, num_indexes, lightmap,
                       0, 0, 8, 8, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, *normal, *patch)


def quad_verts(x0: float, x1: float, y0: float, y1: float, z: float, lm: float = 0.25) -> list[bytes]:
    """Four vertices of a z-facing quad, lightmap coordinates ``lm`` .. ``2 lm``."""
    return [vert((x0, y0, z), (0, 0), (lm, lm)), vert((x1, y0, z), (1, 0), (2 * lm, lm)),
            vert((x1, y1, z), (1, 1), (2 * lm, 2 * lm)), vert((x0, y1, z), (0, 1), (lm, 2 * lm))]


def patch_verts(grid) -> list[bytes]:
    """Vertices for a patch from rows of (x, y, z) control points."""
    return [vert(p, (p[0] / 64, p[1] / 64), (0.5, 0.5)) for row in grid for p in row]


#: A 3×3 control grid bulging up in the middle, over x 0..64, y 0..64.
PATCH_GRID = [[(0.0, 0.0, 0.0), (32.0, 0.0, 8.0), (64.0, 0.0, 0.0)],
              [(0.0, 32.0, 8.0), (32.0, 32.0, 24.0), (64.0, 32.0, 8.0)],
              [(0.0, 64.0, 0.0), (32.0, 64.0, 8.0), (64.0, 64.0, 0.0)]]


def _default_verts() -> list[bytes]:
    v = quad_verts(100, 164, 0, 64, 0)                                          # 0..3 quad
    v += patch_verts(PATCH_GRID)                                                # 4..12 patch
    v += [vert((0, 0, 40), color=(64, 128, 32, 255)), vert((16, 0, 40)), vert((0, 16, 40))]  # 13..15 soup
    v += quad_verts(200, 232, 0, 32, 0)                                         # 16..19 nodraw quad
    return v


def _default_surfaces() -> list[bytes]:
    return [surface(0, 1, 0, 4, 0, 6, lightmap=0),
            surface(1, 2, 4, 9, lightmap=1, patch=(3, 3)),
            surface(0, 3, 13, 3, 6, 3, lightmap=0),
            surface(0, 4, 0, 0),
            surface(2, 1, 16, 4, 0, 6, lightmap=0)]


def _axial_planes(mins, maxs) -> list[tuple[tuple[float, float, float], float]]:
    """The six planes of a box in ``R_LoadFogs`` order: -x, +x, -y, +y, -z, +z (normals facing out)."""
    out: list[tuple[tuple[float, float, float], float]] = []
    for axis in range(3):
        unit = tuple(1.0 if i == axis else 0.0 for i in range(3))
        out.append(((-unit[0], -unit[1], -unit[2]), -mins[axis]))
        out.append(((unit[0], unit[1], unit[2]), maxs[axis]))
    return out


@dataclass
class Bsp46Spec:
    """Everything in the synthetic map; the defaults give the map described in the module docstring."""

    entities: str = ('{\n"classname" "worldspawn"\n"message" "q3 test"\n}\n'
                     '{\n"classname" "info_player_deathmatch"\n"origin" "16 16 24"\n"angle" "90"\n}\n')
    shaders: list[tuple[str, int, int]] = field(default_factory=lambda: [
        ("textures/test/floor", 0, 1), ("textures/test/curve", 0, 1), ("textures/common/nodraw", SURF_NODRAW, 1),
        ("textures/test/fog", 0, CONTENTS_FOG)])
    planes: list[tuple[tuple[float, float, float], float]] = field(
        default_factory=lambda: [((1.0, 0.0, 0.0), 64.0)] + _axial_planes((0, 0, 0), (32, 32, 32)))
    nodes: list[tuple[int, int, int]] = field(default_factory=lambda: [(0, -1, -2)])
    #: (cluster, first leaf surface, count, first leaf brush, count)
    leafs: list[tuple[int, int, int, int, int]] = field(default_factory=lambda: [(0, 0, 1, 0, 0), (1, 1, 3, 0, 1)])
    leaf_surfaces: list[int] = field(default_factory=lambda: [0, 1, 2, 3])
    leaf_brushes: list[int] = field(default_factory=lambda: [0])
    #: (mins, maxs, first surface, count, first brush, count)
    models: list[tuple] = field(default_factory=lambda: [((0, 0, 0), (128, 128, 128), 0, 4, 0, 1),
                                                         ((200, 0, 0), (232, 32, 0), 4, 1, 1, 0)])
    brushes: list[tuple[int, int, int]] = field(default_factory=lambda: [(0, 6, 3)])
    brush_sides: list[tuple[int, int]] = field(default_factory=lambda: [(i, 3) for i in range(1, 7)])
    verts: list[bytes] = field(default_factory=_default_verts)
    #: clockwise seen from the front, as q3map writes faces
    indexes: list[int] = field(default_factory=lambda: [0, 2, 1, 0, 3, 2, 0, 2, 1])
    fogs: list[tuple[str, int, int]] = field(default_factory=lambda: [("textures/test/fog", 0, 5)])
    surfaces: list[bytes] = field(default_factory=_default_surfaces)
    lightmaps: bytes = bytes(LM0_RGB) * (128 * 128) + bytes(LM1_RGB) * (128 * 128)
    light_grid: bytes = b"".join(bytes(8) if (i % 3, (i // 3) % 3, i // 9) == (1, 1, 0) else bytes(GRID_CELL)
                                 for i in range(18))
    visibility: bytes = struct.pack("<ii", 2, 1) + bytes([0b01, 0b11])


def build_bsp46(spec: Bsp46Spec | None = None) -> bytes:
    """The IBSP v46 file for ``spec`` (default: the map in the module docstring)."""
    s = spec or Bsp46Spec()
    lumps = [
        s.entities.encode("latin-1") + b"\0",
        b"".join(struct.pack("<64sii", n.encode(), f, c) for n, f, c in s.shaders),
        b"".join(struct.pack("<3ff", *n, d) for n, d in s.planes),
        b"".join(struct.pack("<3i3i3i", p, a, b, -128, -128, -128, 128, 128, 128) for p, a, b in s.nodes),
        b"".join(struct.pack("<2i3i3i4i", c, 0, 0, 0, 0, 64, 64, 64, fs, ns, fb, nb) for c, fs, ns, fb, nb in s.leafs),
        struct.pack(f"<{len(s.leaf_surfaces)}i", *s.leaf_surfaces),
        struct.pack(f"<{len(s.leaf_brushes)}i", *s.leaf_brushes),
        b"".join(struct.pack("<3f3f4i", *mn, *mx, fs, ns, fb, nb) for mn, mx, fs, ns, fb, nb in s.models),
        b"".join(struct.pack("<3i", *b) for b in s.brushes),
        b"".join(struct.pack("<2i", *b) for b in s.brush_sides),
        b"".join(s.verts),
        struct.pack(f"<{len(s.indexes)}i", *s.indexes),
        b"".join(struct.pack("<64sii", n.encode(), b, v) for n, b, v in s.fogs),
        b"".join(s.surfaces),
        s.lightmaps,
        s.light_grid,
        s.visibility,
    ]
    body = bytearray()
    directory = []
    offset = 8 + 8 * HEADER_LUMPS
    for data in lumps:
        directory.append((offset + len(body), len(data)))
        body += data
        body += bytes(-len(body) % 4)
    return b"IBSP" + struct.pack("<i", 46) + b"".join(struct.pack("<ii", o, n) for o, n in directory) + bytes(body)
