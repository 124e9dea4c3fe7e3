"""Writer for tiny synthetic Quake II maps (``IBSP`` version 38), with ``struct`` formats written independently of
``assets_loader.bsp38.dtypes`` so a round trip checks the reader's layouts.

The map (``build_bsp38``): two 64x64 quads on the plane z = 0, quad A at x 0..64 (world, model 0, texinfo 0
``test/wall``) and quad B at x 128..192 (submodel ``*1``, texinfo 1 ``test/anim1``, whose ``nexttexinfo`` chain
goes to texinfo 2 ``test/anim2`` and back). Node 0 splits x = 96: back leaf 2 (cluster 1, area 2, lists face 0);
front node 1 splits x = 120: front leaf 1 (x > 120, cluster 0, area 1, lists face 1), back leaf 3 (solid, no
cluster, lists the brush). Cluster 0 sees only itself, cluster 1 sees both; both hear both. Area 1 and area 2 are
joined by area portal number 1. One solid box brush spans x 100..120, y 0..64, z 0..16. Quad A's lightmap is
5x5 RGB samples, one style; quad B's two styles.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from tests.builders.bsp import pack_lumps

SURF_LIGHT, SURF_WARP, SURF_TRANS33 = 0x1, 0x8, 0x10
CONTENTS_SOLID = 1

_PLANE, _VERTEX, _NODE, _TEXINFO, _FACE = "<3ffi", "<3f", "<i2i3h3hHH", "<8fii32si", "<HhihhBBBBi"
_LEAF, _EDGE, _MODEL, _BRUSH, _BRUSHSIDE, _AREA, _PORTAL = "<ihh3h3hHHHH", "<HH", "<9fiii", "<iii", "<Hh", "<ii", "<ii"


@dataclass
class Bsp38Spec:
    """What to put in the synthetic map; defaults give a valid lit map with two quads."""

    entities: str = ('{\n"classname" "worldspawn"\n"sky" "unit1_"\n}\n'
                     '{\n"classname" "info_player_start"\n"origin" "32 32 24"\n}\n'
                     '{\n"classname" "func_door"\n"model" "*1"\n}\n')
    #: (name, flags, value, nexttexinfo) per texinfo
    texinfo: list[tuple[str, int, int, int]] = field(default_factory=lambda: [
        ("test/wall", 0, 0, -1), ("test/anim1", SURF_LIGHT, 300, 2), ("test/anim2", SURF_LIGHT, 300, 1),
        ("test/water", SURF_WARP | SURF_TRANS33, 0, -1)])
    quad_texinfo: tuple[int, int] = (0, 1)
    quad_styles: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 255, 255, 255), (0, 5, 255, 255))
    lighting: bool = True
    visibility: bool = True


def sample_rgb(quad: int, k: int) -> tuple[int, int, int]:
    """The RGB written for sample ``k`` (all styles counted) of quad ``quad``."""
    base = 10 if quad == 0 else 100
    return ((base + k) % 256, (base + 2 * k) % 256, (base + 3 * k) % 256)


def lighting_lump(spec: Bsp38Spec) -> bytes:
    if not spec.lighting:
        return b""
    nb = sum(1 for s in spec.quad_styles[1] if s != 255)
    a = b"".join(bytes(sample_rgb(0, k)) for k in range(25))
    b = b"".join(bytes(sample_rgb(1, k)) for k in range(25 * nb))
    return a + b


def build_lumps(spec: Bsp38Spec) -> list[bytes]:
    """The 19 lumps of ``spec`` in header order."""
    planes = [((0, 0, 1), 0, 2), ((1, 0, 0), 96, 0),
              ((1, 0, 0), 120, 0), ((-1, 0, 0), -100, 3), ((0, 1, 0), 64, 1), ((0, -1, 0), 0, 4),
              ((0, 0, 1), 16, 2), ((0, 0, -1), 0, 5)]
    plane_lump = b"".join(struct.pack(_PLANE, *n, d, t) for n, d, t in planes)
    quad = [(0, 0, 0), (0, 64, 0), (64, 64, 0), (64, 0, 0)]  # clockwise seen from +z, as qbsp3 writes
    verts = [(x + dx, y, z) for dx in (0, 128) for (x, y, z) in quad]
    edges = [struct.pack(_EDGE, 0, 0)]
    surfedges = []
    for q in range(2):
        for k in range(4):
            a, c = 4 * q + k, 4 * q + (k + 1) % 4
            if k == 2:  # stored reversed, used backwards
                edges.append(struct.pack(_EDGE, c, a))
                surfedges.append(-(len(edges) - 1))
            else:
                edges.append(struct.pack(_EDGE, a, c))
                surfedges.append(len(edges) - 1)
    texinfo = b"".join(struct.pack(_TEXINFO, 1, 0, 0, 0, 0, 1, 0, 0, flags, value, name.encode("latin-1"), nxt)
                       for name, flags, value, nxt in spec.texinfo)
    lofs = (0, 75) if spec.lighting else (-1, -1)
    faces = b"".join(struct.pack(_FACE, 0, 0, 4 * q, 4, spec.quad_texinfo[q], *spec.quad_styles[q], lofs[q])
                     for q in range(2))
    nodes = (struct.pack(_NODE, 1, 1, -3, 0, 0, -16, 192, 64, 16, 0, 2)
             + struct.pack(_NODE, 2, -2, -4, 96, 0, -16, 192, 64, 16, 1, 1))
    leafs = (struct.pack(_LEAF, CONTENTS_SOLID, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
             + struct.pack(_LEAF, 0, 0, 1, 120, 0, -16, 192, 64, 16, 0, 1, 0, 0)
             + struct.pack(_LEAF, 0, 1, 2, 0, 0, -16, 96, 64, 16, 1, 1, 0, 0)
             + struct.pack(_LEAF, CONTENTS_SOLID, -1, 0, 96, 0, -16, 120, 64, 16, 2, 0, 0, 1))
    leaffaces = struct.pack("<2H", 1, 0)
    leafbrushes = struct.pack("<H", 0)
    vis = struct.pack("<i4i", 2, 20, 21, 22, 23) + bytes([0b01, 0b11, 0b11, 0b11]) if spec.visibility else b""
    models = (struct.pack(_MODEL, 0, 0, -16, 192, 64, 16, 0, 0, 0, 0, 0, 1)
              + struct.pack(_MODEL, 128, 0, 0, 192, 64, 0, 0, 0, 0, -2, 1, 1))
    brushes = struct.pack(_BRUSH, 0, 6, CONTENTS_SOLID)
    brushsides = b"".join(struct.pack(_BRUSHSIDE, p, 0) for p in range(2, 8))
    areas = struct.pack(_AREA, 0, 0) + struct.pack(_AREA, 1, 1) + struct.pack(_AREA, 1, 2)
    portals = struct.pack(_PORTAL, 0, 0) + struct.pack(_PORTAL, 1, 2) + struct.pack(_PORTAL, 1, 1)
    return [spec.entities.encode("latin-1") + b"\0", plane_lump, b"".join(struct.pack(_VERTEX, *v) for v in verts),
            vis, nodes, texinfo, faces, lighting_lump(spec), leafs, leaffaces, leafbrushes, b"".join(edges),
            struct.pack(f"<{len(surfedges)}i", *surfedges), models, brushes, brushsides, bytes(256), areas, portals]


def assemble(lumps: list[bytes], version: int = 38) -> bytes:
    """``"IBSP"``, version, 19 lump entries, then the lumps (each padded to 4 bytes)."""
    return pack_lumps(b"IBSP" + struct.pack("<i", version), lumps)


def build_bsp38(spec: Bsp38Spec | None = None, **overrides) -> bytes:
    """A complete synthetic Quake II map for ``spec`` (or ``Bsp38Spec(**overrides)``)."""
    return assemble(build_lumps(spec or Bsp38Spec(**overrides)))


def lump_offset(data: bytes, index: int) -> tuple[int, int]:
    """``(fileofs, filelen)`` of lump ``index`` in IBSP ``data``."""
    return struct.unpack_from("<ii", data, 8 + 8 * index)
