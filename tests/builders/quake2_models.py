"""Writers for tiny synthetic Quake II models: ``.md2`` alias models and ``.sp2`` sprites (``qfiles.h`` layouts
written with ``struct``, independently of the loaders)."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Md2Spec:
    """What to write. ``frames``: ``(name, scale, translate, u1[V, 4] packed xyz + normal index)``."""

    skin_width: int = 8
    skin_height: int = 4
    skins: list[str] = field(default_factory=lambda: ["models/test/skin.pcx"])
    st: list[tuple[int, int]] = field(default_factory=lambda: [(0, 0), (4, 0), (4, 2), (8, 4)])
    #: (xyz a, b, c, st a, b, c): the second triangle uses vertex 2 with another texture coordinate
    triangles: list[tuple[int, ...]] = field(default_factory=lambda: [(0, 1, 2, 0, 1, 2), (2, 1, 0, 3, 1, 0)])
    frames: list = field(default_factory=list)
    glcmds: list[int] = field(default_factory=lambda: [0])
    version: int = 8
    ident: bytes = b"IDP2"
    frame_padding: int = 0


def md2_verts(numverts: int, seed: int = 0) -> np.ndarray:
    v = (np.arange(numverts * 4, dtype=np.int64).reshape(numverts, 4) * 11 + seed * 7) % 256
    v[:, 3] %= 162
    return v.astype(np.uint8)


def default_md2(**kw) -> Md2Spec:
    spec = Md2Spec(**kw)
    if not spec.frames:
        spec.frames = [("stand01", (0.5, 1.0, 2.0), (-8.0, 0.0, 4.0), md2_verts(3, 0)),
                       ("stand02", (0.25, 0.5, 1.0), (1.0, 2.0, 3.0), md2_verts(3, 1))]
    return spec


def build_md2(spec: Md2Spec | None = None) -> bytes:
    spec = spec or default_md2()
    numverts = len(spec.frames[0][3])
    framesize = 40 + 4 * numverts + spec.frame_padding
    skins = b"".join(s.encode("latin-1").ljust(64, b"\0") for s in spec.skins)
    st = b"".join(struct.pack("<hh", s, t) for s, t in spec.st)
    tris = b"".join(struct.pack("<6h", *t) for t in spec.triangles)
    frames = b"".join(struct.pack("<3f3f16s", *scale, *translate, name.encode("latin-1"))
                      + verts.astype(np.uint8).tobytes() + b"\0" * spec.frame_padding
                      for name, scale, translate, verts in spec.frames)
    glcmds = struct.pack(f"<{len(spec.glcmds)}i", *spec.glcmds)
    ofs_skins = 68
    ofs_st = ofs_skins + len(skins)
    ofs_tris = ofs_st + len(st)
    ofs_frames = ofs_tris + len(tris)
    ofs_glcmds = ofs_frames + len(frames)
    ofs_end = ofs_glcmds + len(glcmds)
    header = struct.pack("<4s16i", spec.ident, spec.version, spec.skin_width, spec.skin_height, framesize,
                         len(spec.skins), numverts, len(spec.st), len(spec.triangles), len(spec.glcmds),
                         len(spec.frames), ofs_skins, ofs_st, ofs_tris, ofs_frames, ofs_glcmds, ofs_end)
    return header + skins + st + tris + frames + glcmds


def build_sp2(frames: list[tuple[str, int, int, int, int]], version: int = 2, ident: bytes = b"IDS2") -> bytes:
    """``frames``: ``(picture name, width, height, origin_x, origin_y)``."""
    body = b"".join(struct.pack("<4i64s", w, h, ox, oy, name.encode("latin-1")) for name, w, h, ox, oy in frames)
    return struct.pack("<4sii", ident, version, len(frames)) + body
