"""Writer for tiny synthetic MD3 models (``IDP3`` version 15), layouts spelled out with ``struct``."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Md3SurfaceSpec:
    """A surface: positions ``[F, V, 3]`` (multiples of 1/64 round-trip exactly), packed normals ``[F, V]``,
    st ``[V, 2]``, triangles ``[T, 3]`` and shader names."""

    name: str
    positions: np.ndarray
    normals: np.ndarray
    st: np.ndarray
    triangles: np.ndarray
    shaders: list[str] = field(default_factory=lambda: ["models/test/skin.tga"])


@dataclass
class Md3Spec:
    """A model: frame names, tags (name → per-frame ``(origin, axis[3][3])``) and surfaces."""

    name: str = "test.md3"
    frames: list[str] = field(default_factory=lambda: ["f0", "f1"])
    tags: dict[str, list[tuple]] = field(default_factory=dict)
    surfaces: list[Md3SurfaceSpec] = field(default_factory=list)


def triangle_surface(num_frames: int = 2, name: str = "s_body") -> Md3SurfaceSpec:
    """One triangle that moves 1 unit in x per frame, normals pointing up (latitude 0, longitude 0)."""
    base = np.array([[0.0, 0.0, 0.0], [16.0, 0.0, 0.0], [0.0, 16.0, 8.5]], np.float32)
    positions = np.stack([base + [f, 0, 0] for f in range(num_frames)])
    return Md3SurfaceSpec(name, positions, np.zeros((num_frames, 3), np.uint16),
                          np.array([[0, 0], [1, 0], [0, 1]], np.float32), np.array([[0, 1, 2]], np.int32))


def build_md3(spec: Md3Spec | None = None) -> bytes:
    """The MD3 file for ``spec``."""
    s = spec or Md3Spec(surfaces=[triangle_surface()])
    nframes = len(s.frames)
    frames = b"".join(struct.pack("<3f3f3ff16s", -1, -1, -1, 1, 1, 1, 0, 0, 0, 1.0, n.encode()) for n in s.frames)
    tags = b""
    for f in range(nframes):
        for tname, per_frame in s.tags.items():
            origin, axis = per_frame[f]
            tags += struct.pack("<64s3f9f", tname.encode(), *origin, *np.asarray(axis, np.float32).ravel())
    surfaces = b""
    for surf in s.surfaces:
        nverts = surf.st.shape[0]
        shaders = b"".join(struct.pack("<64si", n.encode(), i) for i, n in enumerate(surf.shaders))
        tris = np.asarray(surf.triangles, "<i4").tobytes()
        st = np.asarray(surf.st, "<f4").tobytes()
        xyz = np.rint(np.asarray(surf.positions) * 64).astype("<i2")
        xyzn = b"".join(struct.pack("<3hH", *xyz[f, v], int(surf.normals[f, v]))
                        for f in range(nframes) for v in range(nverts))
        ofs_shaders = 108
        ofs_tris = ofs_shaders + len(shaders)
        ofs_st = ofs_tris + len(tris)
        ofs_xyz = ofs_st + len(st)
        ofs_end = ofs_xyz + len(xyzn)
        surfaces += struct.pack("<4s64s10i", b"IDP3", surf.name.encode(), 0, nframes, len(surf.shaders), nverts,
                                len(surf.triangles), ofs_tris, ofs_shaders, ofs_st, ofs_xyz, ofs_end)
        surfaces += shaders + tris + st + xyzn
    ofs_frames = 108
    ofs_tags = ofs_frames + len(frames)
    ofs_surfaces = ofs_tags + len(tags)
    ofs_end = ofs_surfaces + len(surfaces)
    header = struct.pack("<4si64s9i", b"IDP3", 15, s.name.encode(), 0, nframes, len(s.tags), len(s.surfaces), 0,
                         ofs_frames, ofs_tags, ofs_surfaces, ofs_end)
    return header + frames + tags + surfaces


def build_md3_shared_block(num_surfaces: int, num_frames: int, num_verts: int) -> bytes:
    """A model whose ``num_surfaces`` surface headers (no triangles, no shaders) all point at one block of
    ``num_frames × num_verts`` zero vertices and one ``st`` block at the end of the file: the shared-range shape."""
    frames = b"".join(struct.pack("<3f3f3ff16s", -1, -1, -1, 1, 1, 1, 0, 0, 0, 1.0, b"f%d" % f)
                      for f in range(num_frames))
    ofs_surfaces = 108 + len(frames)
    st_at = ofs_surfaces + 108 * num_surfaces
    xyz_at = st_at + 8 * num_verts
    surfaces = b""
    for i in range(num_surfaces):
        start = ofs_surfaces + 108 * i
        surfaces += struct.pack("<4s64s10i", b"IDP3", b"s%d" % i, 0, num_frames, 0, num_verts, 0, 108, 108,
                                st_at - start, xyz_at - start, 108)
    end = xyz_at + 8 * num_frames * num_verts
    header = struct.pack("<4si64s9i", b"IDP3", 15, b"shared.md3", 0, num_frames, 0, num_surfaces, 0, 108, 108,
                         ofs_surfaces, end)
    return header + frames + surfaces + bytes(8 * num_verts) + bytes(8 * num_frames * num_verts)
