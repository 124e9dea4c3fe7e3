"""Writer for tiny synthetic BSP files (BSP29, BSP2, 2PSB) and matching ``.lit`` files.

Record layouts are spelled out here with ``struct`` formats written independently of
``assets_loader.bsp.dtypes``, so a round trip really checks the reader's layouts.

The map (``build_bsp``): two 64x64 quads on the plane z = 0, quad A at x 0..64 (world, model 0) and quad B at
x 128..192 (submodel ``*1``). One node splits x = 96: its front child is leaf 1 (x > 96), back leaf 2. Leaf 1
lists face 1, leaf 2 face 0. Each quad's lightmap is 5x5 samples (extents 64); quad B has two styles.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

HEADER_LUMPS = 15

# (face, edge, node, leaf, marksurface, clipnode) struct formats per version
_FORMATS = {
    # planenum side firstedge numedges texinfo styles[4] lightofs
    "BSP29": ("<hhihh4Bi", "<HH", "<i2H3h3hHH", "<ii3h3hHH4B", "<H", "<i2H"),
    "BSP2": ("<iiiii4Bi", "<II", "<i2i3f3fII", "<ii3f3fII4B", "<I", "<i2i"),
    "2PSB": ("<iiiii4Bi", "<II", "<i2i3h3hII", "<ii3h3hII4B", "<I", "<i2i"),
}


@dataclass
class BspSpec:
    """What to put in the synthetic map; defaults give a valid lit map with two quads."""

    version: str = "BSP29"
    entities: str = ('{\n"classname" "worldspawn"\n"message" "test map"\n}\n'
                     '{\n"classname" "info_player_start"\n"origin" "160 32 16"\n}\n'
                     '{\n"classname" "func_door"\n"model" "*1"\n}\n')
    #: texture names; ``None`` writes a -1 miptex offset (texture stripped from the BSP)
    textures: list[str | None] = field(default_factory=lambda: ["wall", None])
    texture_size: tuple[int, int] = (16, 16)
    #: texinfo miptex for each quad
    quad_miptex: tuple[int, int] = (0, 0)
    quad_styles: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 255, 255, 255), (0, 2, 255, 255))
    lighting: bool = True
    visibility: bool = True


def lighting_samples(spec: BspSpec) -> bytes:
    """Grey lighting lump: quad A 25 samples of value 10+i, quad B 2 x 25 samples of 100+i."""
    if not spec.lighting:
        return b""
    a = bytes(10 + i for i in range(25))
    nb = sum(1 for s in spec.quad_styles[1] if s != 255)
    b = bytes((100 + i) % 256 for i in range(25 * nb))
    return a + b


def build_lit(spec: BspSpec) -> bytes:
    """A ``.lit`` for ``spec``: sample ``v`` becomes RGB ``(v, 255 - v, 7)``."""
    out = bytearray(b"QLIT" + struct.pack("<i", 1))
    for v in lighting_samples(spec):
        out += bytes((v, 255 - v, 7))
    return bytes(out)


def _miptex_lump(spec: BspSpec) -> bytes:
    w, h = spec.texture_size
    n = len(spec.textures)
    blobs = []
    for i, name in enumerate(spec.textures):
        if name is None:
            blobs.append(None)
            continue
        head = struct.pack("<16sII4I", name.encode("latin-1"), w, h, 40, 40 + w * h, 40 + w * h + w * h // 4,
                           40 + w * h + w * h // 4 + w * h // 16)
        pixels = b"".join(bytes([(i * 16 + level) % 256]) * ((w >> level) * (h >> level)) for level in range(4))
        blobs.append(head + pixels)
    offsets = []
    pos = 4 + 4 * n
    body = b""
    for blob in blobs:
        if blob is None:
            offsets.append(-1)
        else:
            offsets.append(pos)
            body += blob
            pos += len(blob)
    return struct.pack("<i", n) + struct.pack(f"<{n}i", *offsets) + body


def build_lumps(spec: BspSpec) -> list[bytes]:
    """The 15 lumps of ``spec`` in header order."""
    fface, fedge, fnode, fleaf, fmark, fclip = _FORMATS[spec.version]
    planes = struct.pack("<3ffi", 0, 0, 1, 0, 2) + struct.pack("<3ffi", 1, 0, 0, 96, 0)
    quad = [(0, 0, 0), (0, 64, 0), (64, 64, 0), (64, 0, 0)]  # clockwise seen from +z, as qbsp writes
    verts = [(x + dx, y, z) for dx in (0, 128) for (x, y, z) in quad]
    vertexes = b"".join(struct.pack("<3f", *v) for v in verts)
    # edge 0 unused; quad q uses edges 1+4q..4+4q; the third edge is stored reversed and used as negative
    edges = [struct.pack(fedge, 0, 0)]
    surfedges = []
    for q in range(2):
        b = 4 * q
        for k in range(4):
            a, c = b + k, b + (k + 1) % 4
            if k == 2:
                edges.append(struct.pack(fedge, c, a))
                surfedges.append(-(len(edges) - 1))
            else:
                edges.append(struct.pack(fedge, a, c))
                surfedges.append(len(edges) - 1)
    texinfo = b"".join(struct.pack("<8fii", 1, 0, 0, 0, 0, 1, 0, 0, mt, 0) for mt in spec.quad_miptex)
    light = lighting_samples(spec)
    lofs = (0, 25) if spec.lighting else (-1, -1)
    faces = b"".join(struct.pack(fface, 0, 0, 4 * q, 4, q, *spec.quad_styles[q], lofs[q]) for q in range(2))
    nodes = struct.pack(fnode, 1, *((65534, 65533) if spec.version == "BSP29" else (-2, -3)),
                        0, 0, 0, 192, 64, 0, 0, 2)
    # leaf 0 solid; leaf 1 (front, x > 96) sees leafs 1 and 2; leaf 2 sees only itself
    vis = bytes([0b11, 0b10]) if spec.visibility else b""
    leafs = (struct.pack(fleaf, -2, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
             + struct.pack(fleaf, -1, 0 if spec.visibility else -1, 96, 0, 0, 192, 64, 0, 0, 1, 0, 0, 0, 0)
             + struct.pack(fleaf, -1, 1 if spec.visibility else -1, 0, 0, 0, 96, 64, 0, 1, 1, 0, 0, 0, 0))
    marksurfaces = struct.pack(fmark, 1) + struct.pack(fmark, 0)
    clipnodes = struct.pack(fclip, 0, *((65535, 65534) if spec.version == "BSP29" else (-1, -2)))
    models = (struct.pack("<9f4iiii", 0, 0, 0, 192, 64, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1)
              + struct.pack("<9f4iiii", 128, 0, 0, 192, 64, 0, 0, 0, 0, -3, 0, 0, 0, 0, 1, 1))
    entities = spec.entities.encode("latin-1") + b"\0"
    return [entities, planes, _miptex_lump(spec), vertexes, vis, nodes, texinfo, faces, light, clipnodes, leafs,
            marksurfaces, b"".join(edges), struct.pack(f"<{len(surfedges)}i", *surfedges), models]


def pack_lumps(magic: bytes, lumps: list[bytes]) -> bytes:
    """``magic`` (the bytes before the lump directory), the ``lump_t`` directory, then the lumps, each padded to
    4 bytes → file bytes (Quake's and Quake II's layout)."""
    pos = len(magic) + 8 * len(lumps)
    directory = b""
    body = b""
    for lump in lumps:
        directory += struct.pack("<ii", pos, len(lump))
        pad = (-len(lump)) % 4
        body += lump + b"\0" * pad
        pos += len(lump) + pad
    return magic + directory + body


def assemble(version: str, lumps: list[bytes]) -> bytes:
    """Header + lumps (each padded to 4 bytes) → file bytes."""
    return pack_lumps(struct.pack("<i", 29) if version == "BSP29" else version.encode("ascii"), lumps)


def build_bsp(spec: BspSpec | None = None, **overrides) -> bytes:
    """A complete synthetic BSP file for ``spec`` (or ``BspSpec(**overrides)``)."""
    spec = spec or BspSpec(**overrides)
    return assemble(spec.version, build_lumps(spec))


def lump_offset(data: bytes, index: int) -> tuple[int, int]:
    """``(fileofs, filelen)`` of lump ``index`` in BSP ``data``."""
    return struct.unpack_from("<ii", data, 4 + 8 * index)
