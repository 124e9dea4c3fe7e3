"""Writers for tiny synthetic alias models (``.mdl``) and sprites (``.spr``)."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np


@dataclass
class MdlSpec:
    """What to write. ``skins``: list of either an ``u1[H, W]`` array (single) or ``(intervals, [arrays])``
    (group). ``frames``: list of either ``(name, u1[V, 4])`` (single) or ``(intervals, [(name, u1[V, 4]), …])``."""

    skin_width: int = 8
    skin_height: int = 4
    st: list[tuple[int, int, int]] = field(default_factory=lambda: [(0, 0, 0), (0x20, 0, 3), (0, 7, 3)])
    triangles: list[tuple[int, int, int, int]] = field(default_factory=lambda: [(1, 0, 1, 2), (0, 0, 2, 1)])
    skins: list = field(default_factory=list)
    frames: list = field(default_factory=list)
    scale: tuple[float, float, float] = (0.5, 0.25, 2.0)
    origin: tuple[float, float, float] = (-10.0, 0.0, 5.0)
    radius: float = 12.0
    eye: tuple[float, float, float] = (0.0, 0.0, 22.0)
    synctype: int = 0
    flags: int = 0
    size: float = 3.0
    version: int = 6
    ident: bytes = b"IDPO"


def simple_verts(numverts: int, seed: int = 0) -> np.ndarray:
    """``u1[V, 4]``: packed xyz + normal index."""
    v = (np.arange(numverts * 4, dtype=np.int64).reshape(numverts, 4) * 13 + seed * 5) % 256
    v[:, 3] %= 162
    return v.astype(np.uint8)


def default_spec(**kw) -> MdlSpec:
    spec = MdlSpec(**kw)
    if not spec.skins:
        spec.skins = [np.full((spec.skin_height, spec.skin_width), 5, np.uint8)]
    if not spec.frames:
        n = len(spec.st)
        spec.frames = [("stand1", simple_verts(n, 0)), ("stand2", simple_verts(n, 1))]
    return spec


def _bbox(verts: np.ndarray) -> bytes:
    lo = verts[:, :3].min(axis=0).tolist() + [0]
    hi = verts[:, :3].max(axis=0).tolist() + [0]
    return bytes(lo) + bytes(hi)


def _simple_frame(name: str, verts: np.ndarray) -> bytes:
    return _bbox(verts) + name.encode("latin-1").ljust(16, b"\0")[:16] + verts.astype(np.uint8).tobytes()


def build_mdl(spec: MdlSpec | None = None) -> bytes:
    spec = spec or default_spec()
    out = bytearray()
    out += struct.pack("<4si3f3ff3f6iiif", spec.ident, spec.version, *spec.scale, *spec.origin, spec.radius,
                       *spec.eye, len(spec.skins), spec.skin_width, spec.skin_height, len(spec.st),
                       len(spec.triangles), len(spec.frames), spec.synctype, spec.flags, spec.size)
    for skin in spec.skins:
        if isinstance(skin, np.ndarray):
            out += struct.pack("<i", 0) + skin.astype(np.uint8).tobytes()
        else:
            intervals, images = skin
            out += struct.pack("<ii", 1, len(images)) + struct.pack(f"<{len(intervals)}f", *intervals)
            out += b"".join(im.astype(np.uint8).tobytes() for im in images)
    for onseam, s, t in spec.st:
        out += struct.pack("<3i", onseam, s, t)
    for tri in spec.triangles:
        out += struct.pack("<4i", *tri)
    for frame in spec.frames:
        if isinstance(frame[0], str):
            out += struct.pack("<i", 0) + _simple_frame(*frame)
        else:
            intervals, poses = frame
            allv = np.concatenate([v for _, v in poses])
            out += struct.pack("<ii", 1, len(poses)) + _bbox(allv)
            out += struct.pack(f"<{len(intervals)}f", *intervals)
            out += b"".join(_simple_frame(n, v) for n, v in poses)
    return bytes(out)


def build_spr_image(indices: np.ndarray, origin: tuple[int, int]) -> bytes:
    height, width = indices.shape
    return struct.pack("<4i", origin[0], origin[1], width, height) + indices.astype(np.uint8).tobytes()


def build_spr(frames: list, sprtype: int = 2, radius: float = 20.0, synctype: int = 0, version: int = 1,
              ident: bytes = b"IDSP", beamlength: float = 0.0) -> bytes:
    """``frames``: list of ``(indices u1[H, W], (ox, oy))`` (single) or ``(intervals, [(indices, (ox, oy)), …])``."""
    images = []
    body = bytearray()
    for frame in frames:
        if isinstance(frame[0], np.ndarray):
            images.append(frame[0])
            body += struct.pack("<i", 0) + build_spr_image(*frame)
        else:
            intervals, pics = frame
            images += [p for p, _ in pics]
            body += struct.pack("<ii", 1, len(pics)) + struct.pack(f"<{len(intervals)}f", *intervals)
            body += b"".join(build_spr_image(*p) for p in pics)
    maxw = max((im.shape[1] for im in images), default=0)
    maxh = max((im.shape[0] for im in images), default=0)
    head = struct.pack("<4siifiiifi", ident, version, sprtype, radius, maxw, maxh, len(frames), beamlength, synctype)
    return head + bytes(body)
