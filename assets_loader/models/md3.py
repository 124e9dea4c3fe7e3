"""Quake III models (``.md3``, ``IDP3`` version 15): frames, tags, surfaces with shaders, compressed vertices.

Layout: a 108-byte ``md3Header_t``; ``numFrames`` ``md3Frame_t`` (bounds, local origin, radius, name);
``numFrames × numTags`` ``md3Tag_t`` (name, origin, 3×3 axis; frame-major); ``numSurfaces`` surfaces, each a
``md3Surface_t`` header followed (at offsets relative to the surface) by ``md3Shader_t``, ``md3Triangle_t``,
``md3St_t`` and ``numFrames × numVerts`` ``md3XyzNormal_t`` (position in 1/64 units; normal as latitude and
longitude bytes, each ``2π/256`` per step). All offsets and counts are checked against the file and the engine's
limits before anything is allocated.

Frame lerp and tag lerp are pure functions: :func:`lerp_vertices` and :meth:`Md3Model.lerp_tag` follow
``LerpMeshVertexes`` and ``R_LerpTag`` (positions and tag origins blended, normals and axes blended then
renormalised).

References: ioquake3 ``qcommon/qfiles.h`` (``md3Header_t``, ``md3Frame_t``, ``md3Tag_t``, ``md3Surface_t``,
``md3Shader_t``, ``md3Triangle_t``, ``md3St_t``, ``md3XyzNormal_t``, ``MD3_MAX_*``); ``renderergl1/tr_model.c``
(``R_LoadMD3``, ``R_LerpTag``); ``tr_surface.c`` (``LerpMeshVertexes``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..budgets import check_budget
from ..errors import BadIndexError, BadMagicError, TruncatedError
from ..source import Source, read_source

MD3_IDENT = b"IDP3"
MD3_VERSION = 15
MD3_XYZ_SCALE = 1.0 / 64
MD3_MAX_FRAMES = 1024
MD3_MAX_TAGS = 16
MD3_MAX_SURFACES = 32
MD3_MAX_SHADERS = 256
MD3_MAX_VERTS = 4096
MD3_MAX_TRIANGLES = 8192
_FMT = "MD3"
#: How many :meth:`Md3Model.lerp_tag` answers a model keeps (then they are dropped and worked out again).
TAGS_KEPT = 1024

D_MD3_HEADER = np.dtype([("ident", "S4"), ("version", "<i4"), ("name", "S64"), ("flags", "<i4"),
                         ("numFrames", "<i4"), ("numTags", "<i4"), ("numSurfaces", "<i4"), ("numSkins", "<i4"),
                         ("ofsFrames", "<i4"), ("ofsTags", "<i4"), ("ofsSurfaces", "<i4"), ("ofsEnd", "<i4")])
D_MD3_FRAME = np.dtype([("bounds", "<f4", (2, 3)), ("localOrigin", "<f4", (3,)), ("radius", "<f4"),
                        ("name", "S16")])
D_MD3_TAG = np.dtype([("name", "S64"), ("origin", "<f4", (3,)), ("axis", "<f4", (3, 3))])
D_MD3_SURFACE = np.dtype([("ident", "S4"), ("name", "S64"), ("flags", "<i4"), ("numFrames", "<i4"),
                          ("numShaders", "<i4"), ("numVerts", "<i4"), ("numTriangles", "<i4"),
                          ("ofsTriangles", "<i4"), ("ofsShaders", "<i4"), ("ofsSt", "<i4"),
                          ("ofsXyzNormals", "<i4"), ("ofsEnd", "<i4")])
D_MD3_SHADER = np.dtype([("name", "S64"), ("shaderIndex", "<i4")])
D_MD3_TRIANGLE = np.dtype([("indexes", "<i4", (3,))])
D_MD3_ST = np.dtype([("st", "<f4", (2,))])
D_MD3_XYZNORMAL = np.dtype([("xyz", "<i2", (3,)), ("normal", "<u2")])


def _name(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("latin-1")


def decode_normals(packed: np.ndarray) -> np.ndarray:
    """float32 ``[..., 3]`` unit normals from ``md3XyzNormal_t.normal`` (high byte latitude, low longitude)."""
    lat = ((packed >> 8) & 0xFF).astype(np.float32) * np.float32(2 * np.pi / 256)
    lng = (packed & 0xFF).astype(np.float32) * np.float32(2 * np.pi / 256)
    return np.stack([np.cos(lat) * np.sin(lng), np.sin(lat) * np.sin(lng), np.cos(lng)], axis=-1).astype(np.float32)


@dataclass(frozen=True, slots=True)
class Md3Frame:
    """One frame's box, local origin, radius and name."""

    name: str
    mins: tuple[float, float, float]
    maxs: tuple[float, float, float]
    local_origin: tuple[float, float, float]
    radius: float


@dataclass(frozen=True, slots=True)
class Md3Surface:
    """A mesh with one material: ``shaders`` names (a ``.skin`` may replace them), ``triangles`` uint32
    ``[T, 3]``, ``st`` float32 ``[V, 2]``, and per frame the vertices as the file packs them (a third of the memory
    of floats, as ``R_LoadMD3`` keeps them): ``xyz`` int16 ``[F, V, 3]`` in 1/64 units and ``packed_normals``
    uint16 ``[F, V]``; :attr:`positions` and :attr:`normals` decode every frame, :meth:`frame` one."""

    name: str
    flags: int
    shaders: tuple[str, ...]
    triangles: np.ndarray
    st: np.ndarray
    xyz: np.ndarray
    packed_normals: np.ndarray

    @property
    def positions(self) -> np.ndarray:
        """float32 ``[F, V, 3]``: every frame's positions."""
        return self.xyz.astype(np.float32) * np.float32(MD3_XYZ_SCALE)

    @property
    def normals(self) -> np.ndarray:
        """float32 ``[F, V, 3]``: every frame's unit normals."""
        return decode_normals(self.packed_normals)

    def clamped(self, frame: int) -> int:
        """``frame`` clamped to the surface's frames (``LerpMeshVertexes``' callers clamp them so)."""
        return min(max(frame, 0), len(self.xyz) - 1)

    def frame(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """Frame ``index``'s positions and unit normals, float32 ``[V, 3]`` each."""
        positions = self.xyz[index].astype(np.float32) * np.float32(MD3_XYZ_SCALE)
        return positions, decode_normals(self.packed_normals[index])


@dataclass(frozen=True, slots=True)
class Md3Model:
    """A loaded MD3: ``frames``, tag names with ``tag_origins`` float32 ``[F, T, 3]`` and ``tag_axes`` float32
    ``[F, T, 3, 3]`` (row ``i`` is axis ``i``: forward, left, up), and ``surfaces``."""

    name: str
    flags: int
    frames: tuple[Md3Frame, ...]
    tag_names: tuple[str, ...]
    tag_origins: np.ndarray
    tag_axes: np.ndarray
    surfaces: tuple[Md3Surface, ...]
    #: :meth:`lerp_tag`'s answers so far, by (tag, frames, fraction): a pose holds for several views.
    tags_lerped: dict[tuple[str, int, int, float], tuple[np.ndarray, np.ndarray] | None] = field(
        default_factory=dict, compare=False, repr=False)

    @property
    def num_frames(self) -> int:
        return len(self.frames)

    def lerp_tag(self, tag: str, old_frame: int, frame: int, frac: float) -> tuple[np.ndarray, np.ndarray] | None:
        """``R_LerpTag``: tag ``tag`` blended ``frac`` of the way from ``old_frame`` to ``frame`` (frames clamped
        to the model), as ``(origin[3], axis[3, 3])`` with each axis renormalised (read-only: answers are kept, at
        most :data:`TAGS_KEPT`); ``None`` if there is no such tag."""
        key = (tag, old_frame, frame, frac)
        if key in self.tags_lerped:
            return self.tags_lerped[key]
        if len(self.tags_lerped) >= TAGS_KEPT:
            self.tags_lerped.clear()
        out = self.tags_lerped[key] = self._lerp_tag(tag, old_frame, frame, frac)
        return out

    def _lerp_tag(self, tag: str, old_frame: int, frame: int, frac: float) -> tuple[np.ndarray, np.ndarray] | None:
        if tag not in self.tag_names:
            return None
        t = self.tag_names.index(tag)
        last = self.num_frames - 1
        a, b = min(max(old_frame, 0), last), min(max(frame, 0), last)
        origin = (1 - frac) * self.tag_origins[a, t] + frac * self.tag_origins[b, t]
        axis = (1 - frac) * self.tag_axes[a, t] + frac * self.tag_axes[b, t]
        norms = np.linalg.norm(axis, axis=1, keepdims=True)
        origin, axis = origin.astype(np.float32), (axis / np.where(norms > 0, norms, 1)).astype(np.float32)
        origin.flags.writeable = axis.flags.writeable = False
        return origin, axis


def lerp_vertices(surface: Md3Surface, old_frame: int, frame: int, frac: float) -> tuple[np.ndarray, np.ndarray]:
    """``LerpMeshVertexes``: positions and renormalised normals ``frac`` of the way from ``old_frame`` to
    ``frame`` (frames clamped to the surface)."""
    return lerp_frames(surface.frame(surface.clamped(old_frame)), surface.frame(surface.clamped(frame)), frac)


def lerp_frames(old: tuple[np.ndarray, np.ndarray], new: tuple[np.ndarray, np.ndarray],
                frac: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`lerp_vertices` of two frames already decoded (:meth:`Md3Surface.frame`)."""
    (pos_a, nrm_a), (pos_b, nrm_b) = old, new
    pos = (1 - frac) * pos_a + frac * pos_b
    nrm = (1 - frac) * nrm_a + frac * nrm_b
    length = np.linalg.norm(nrm, axis=1, keepdims=True)
    return pos.astype(np.float32), (nrm / np.where(length > 0, length, 1)).astype(np.float32)


def _array(data: bytes, path: str, offset: int, dtype: np.dtype, count: int, what: str) -> np.ndarray:
    """``count`` records at ``offset``, after checking they lie inside the file."""
    size = count * dtype.itemsize
    if offset < 0 or count < 0 or offset + size > len(data):
        raise TruncatedError(path, _FMT, offset, f"{count} {what} ({size} bytes) inside the file",
                             f"file size {len(data)}")
    return np.frombuffer(data, dtype, count, offset)


def _count(path: str, offset: int, value: int, limit: int, what: str, minimum: int = 0) -> int:
    if not minimum <= value <= limit:
        raise BadIndexError(path, _FMT, offset, f"{minimum}..{limit} {what}", str(value))
    return value


def _surface(data: bytes, path: str, start: int, num_frames: int, spent: int) -> tuple[Md3Surface, int]:
    """The surface at ``start`` and where the next one starts; ``spent``: frames × vertices of the surfaces
    before it, checked with this one's against the model budget before its vertices are decoded (surfaces may
    all point at one vertex block)."""
    head = _array(data, path, start, D_MD3_SURFACE, 1, "surface header")[0]
    if head["ident"] != MD3_IDENT:
        raise BadMagicError(path, _FMT, start, "surface ident 'IDP3'", repr(bytes(head["ident"])))
    if int(head["numFrames"]) != num_frames:
        raise BadIndexError(path, _FMT, start + 72, f"{num_frames} frames in the surface like the model",
                            str(int(head["numFrames"])))
    nshaders = _count(path, start + 76, int(head["numShaders"]), MD3_MAX_SHADERS, "shaders")
    nverts = _count(path, start + 80, int(head["numVerts"]), MD3_MAX_VERTS, "vertices")
    ntris = _count(path, start + 84, int(head["numTriangles"]), MD3_MAX_TRIANGLES, "triangles")
    tris = _array(data, path, start + int(head["ofsTriangles"]), D_MD3_TRIANGLE, ntris, "triangles")["indexes"]
    shaders = _array(data, path, start + int(head["ofsShaders"]), D_MD3_SHADER, nshaders, "shaders")
    st = _array(data, path, start + int(head["ofsSt"]), D_MD3_ST, nverts, "texture coordinates")["st"]
    check_budget(path, _FMT, "model_vertices", spent + num_frames * nverts, "vertices in all frames of all surfaces")
    xyzn = _array(data, path, start + int(head["ofsXyzNormals"]), D_MD3_XYZNORMAL, nverts * num_frames,
                  "vertices").reshape(num_frames, nverts)
    bad = (tris < 0) | (tris >= nverts)
    if bad.any():
        k = int(np.argmax(bad.any(axis=1)))
        raise BadIndexError(path, _FMT, start + int(head["ofsTriangles"]) + 12 * k,
                            f"triangle {k} indices below {nverts} vertices", str(tris[k].tolist()))
    end = int(head["ofsEnd"])
    if end <= 0 or start + end > len(data):
        raise TruncatedError(path, _FMT, start + 104, "a surface end inside the file", str(end))
    surface = Md3Surface(_name(bytes(head["name"])), int(head["flags"]),
                         tuple(_name(bytes(n)) for n in shaders["name"]), tris.astype(np.uint32),
                         st.astype(np.float32), np.array(xyzn["xyz"], np.int16),
                         np.array(xyzn["normal"], np.uint16))
    return surface, start + end


def load_md3(src: Source, name: str | None = None) -> Md3Model:
    """Load an MD3 from a path or bytes."""
    data, path = read_source(src, name)
    if len(data) < 8:
        raise TruncatedError(path, _FMT, 0, "a 108-byte MD3 header", f"{len(data)} bytes")
    if data[:4] != MD3_IDENT:
        raise BadMagicError(path, _FMT, 0, "magic 'IDP3'", repr(data[:4]))
    version = int.from_bytes(data[4:8], "little", signed=True)
    if version != MD3_VERSION:
        raise BadMagicError(path, _FMT, 4, f"version {MD3_VERSION}", str(version))
    head = _array(data, path, 0, D_MD3_HEADER, 1, "header")[0]
    nframes = _count(path, 76, int(head["numFrames"]), MD3_MAX_FRAMES, "frames", minimum=1)
    ntags = _count(path, 80, int(head["numTags"]), MD3_MAX_TAGS, "tags")
    nsurf = _count(path, 84, int(head["numSurfaces"]), MD3_MAX_SURFACES, "surfaces")
    frames = _array(data, path, int(head["ofsFrames"]), D_MD3_FRAME, nframes, "frames")
    tags = _array(data, path, int(head["ofsTags"]), D_MD3_TAG, nframes * ntags, "tags").reshape(nframes, ntags)
    surfaces = []
    pos = int(head["ofsSurfaces"])
    spent = 0
    for _ in range(nsurf):
        surface, pos = _surface(data, path, pos, nframes, spent)
        surfaces.append(surface)
        spent += nframes * len(surface.st)
    frame_recs = tuple(
        Md3Frame(_name(bytes(f["name"])), _v3(f["bounds"][0]), _v3(f["bounds"][1]), _v3(f["localOrigin"]),
                 float(f["radius"])) for f in frames)
    tag_names = tuple(_name(bytes(n)) for n in tags["name"][0]) if ntags else ()
    return Md3Model(_name(bytes(head["name"])), int(head["flags"]), frame_recs, tag_names,
                    tags["origin"].astype(np.float32), tags["axis"].astype(np.float32), tuple(surfaces))


def _v3(v) -> tuple[float, float, float]:
    return float(v[0]), float(v[1]), float(v[2])
