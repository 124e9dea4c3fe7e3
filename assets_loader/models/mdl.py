"""Quake alias models (``.mdl``, ``IDPO`` version 6): skins, texture coordinates, triangles, animation frames.

Layout: an 84-byte ``mdl_t`` header; ``numskins`` skins (type 0 = one ``skinwidth × skinheight`` picture,
otherwise a group: count, ``count`` float intervals, ``count`` pictures); ``numverts`` ``stvert_t`` (onseam, s,
t); ``numtris`` ``dtriangle_t`` (facesfront, 3 vertex indices); ``numframes`` frames (type 0 = one simple frame,
otherwise a group: count, bbox, ``count`` float intervals, ``count`` simple frames). A simple frame is a bbox
(two ``trivertx_t``), a 16-byte name and ``numverts`` ``trivertx_t`` (3 packed bytes + light normal index);
the position is ``scale * packed + scale_origin``.

Groups are flattened: every simple frame becomes a *pose* (``positions[P, V, 3]``); ``frames[i]`` names its
first pose, pose count and cumulative intervals so a renderer picks ``pose = frame.first_pose +
pick_interval(frame.intervals, time)`` (:meth:`AliasModel.pose_at`). Skins are flattened the same way into
``skin_images[S, H, W]``.

``mesh`` is renderer-ready: the on-seam fix of GLQuake (a vertex flagged on-seam used by a back-facing triangle
takes ``s + skinwidth / 2``) splits such vertices in two; corners are deduplicated on (vertex, seam-shifted) and
texture coordinates are ``((s + 0.5) / skinwidth, (t + 0.5) / skinheight)``. Triangle corner order is the file
order.

References: Unofficial Quake Specs 3.2, chapter 4.3 "The Format of .MDL files" (4.3.0 header, 4.3.1 skins,
4.3.2 skin vertices, 4.3.3 triangles, 4.3.4 frames) and Appendix B (normals); Quake ``Mod_LoadAliasModel``,
``Mod_LoadAllSkins``, ``Mod_LoadAliasFrame`` and ``Mod_LoadAliasGroup`` (gl_model.c) and
``GL_MakeAliasModelDisplayLists`` (gl_mesh.c) for the on-seam texture coordinates; QuakeSpasm's versions of the
same functions.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from ..binreader import BinReader
from ..errors import BadIndexError, BadMagicError
from ..images import MAX_IMAGE_SIDE
from ..source import Source, read_source
from .anim import pick_interval

IDPOLYHEADER = b"IDPO"
ALIAS_VERSION = 6
ALIAS_ONSEAM = 0x20

ALIAS_SINGLE = 0
ALIAS_GROUP = 1
ALIAS_SKIN_SINGLE = 0
ALIAS_SKIN_GROUP = 1

ST_SYNC = 0
ST_RAND = 1

EF_ROCKET = 1
EF_GRENADE = 2
EF_GIB = 4
EF_ROTATE = 8
EF_TRACER = 16
EF_ZOMGIB = 32
EF_TRACER2 = 64
EF_TRACER3 = 128

#: ``mdl_t``: ident, version, scale[3], scale_origin[3], boundingradius, eyeposition[3], numskins, skinwidth,
#: skinheight, numverts, numtris, numframes, synctype, flags, size.
MDL_HEADER = struct.Struct("<4si3f3ff3f6iiif")
D_STVERT = np.dtype([("onseam", "<i4"), ("s", "<i4"), ("t", "<i4")])
D_TRIANGLE = np.dtype([("facesfront", "<i4"), ("vertindex", "<i4", 3)])
TRIVERTX_SIZE = 4
FRAME_HEADER_SIZE = 2 * TRIVERTX_SIZE + 16  # bboxmin, bboxmax, name[16]


@dataclass(frozen=True, slots=True)
class AliasSkin:
    """One skin number: pictures ``first .. first+count-1`` of ``AliasModel.skin_images``.

    ``intervals``: ``f4[count]`` cumulative end times for a group, empty for a single skin."""

    first: int
    count: int
    intervals: np.ndarray
    is_group: bool


@dataclass(frozen=True, slots=True)
class AliasFrame:
    """One frame number (what entities and QuakeC refer to): poses ``first_pose .. first_pose+num_poses-1``.

    ``name`` is the first pose's name; ``intervals``: ``f4[num_poses]`` cumulative end times for a group, empty
    for a single frame; ``bbox_min``/``bbox_max``: ``f4[3]`` decoded bounds (the group's bounds for a group)."""

    name: str
    first_pose: int
    num_poses: int
    intervals: np.ndarray
    bbox_min: np.ndarray
    bbox_max: np.ndarray
    is_group: bool


@dataclass(frozen=True, slots=True)
class AliasMesh:
    """Unrolled triangle mesh after the on-seam fix, ready for a vertex buffer.

    ``vertex_index``: ``i4[M]`` pose vertex (0..V-1) for each mesh vertex, so a pose's positions are
    ``positions[pose][vertex_index]`` → ``[M, 3]``; ``uv``: ``f4[M, 2]`` in [0, 1] for well-formed models;
    ``indices``: ``u4[T, 3]`` mesh-vertex indices per triangle (file corner order)."""

    vertex_index: np.ndarray
    uv: np.ndarray
    indices: np.ndarray


@dataclass(frozen=True, slots=True)
class PosedModel:
    """What a renderer reads from any vertex-animated model (Quake's ``.mdl``, Quake II's ``.md2``): every frame
    stored as whole poses of ``num_verts`` (V) vertices, drawn by blending two poses.

    ``skin_width``/``skin_height``: the skin size the texture coordinates refer to; ``st``: texture coordinates in
    skin pixels; ``triangles`` ``i4[T, 3]`` vertex indices (``num_tris`` = T). Animation: ``frames`` per frame
    number; poses: ``positions`` ``f4[P, V, 3]``, ``normals`` ``u1[P, V]`` (indices into
    :data:`~assets_loader.models.anorms.ANORMS`), ``pose_names`` (P names), ``pose_bbox_min``/``pose_bbox_max``
    ``f4[P, 3]``. Rendering: ``mesh`` (:class:`AliasMesh`).
    """

    path: str
    version: int
    skin_width: int
    skin_height: int
    num_verts: int
    num_tris: int
    st: np.ndarray
    triangles: np.ndarray
    frames: tuple[AliasFrame, ...]
    positions: np.ndarray
    normals: np.ndarray
    pose_names: tuple[str, ...]
    pose_bbox_min: np.ndarray
    pose_bbox_max: np.ndarray
    mesh: AliasMesh

    @property
    def num_frames(self) -> int:
        return len(self.frames)

    @property
    def num_poses(self) -> int:
        return int(self.positions.shape[0])


@dataclass(frozen=True, slots=True)
class AliasModel(PosedModel):
    """A decoded ``.mdl`` (poses and mesh: :class:`PosedModel`; ``st`` is ``i4[V, 2]``, one per vertex).

    Header: ``scale``/``origin``/``eye_position`` ``f4[3]``, ``bounding_radius``, ``synctype``
    (``ST_SYNC``/``ST_RAND``), ``flags`` (``EF_*`` bits; engine extensions may set higher bits), ``size``.
    Skins: ``skins`` per skin number, ``skin_images`` ``u1[S, H, W]`` (S = all pictures, groups flattened);
    ``skin_rgba``: ``u1[S, H, W, 4]`` colours that replace the palette's (a Quake II model with truecolour skins),
    else ``None``.
    Geometry: ``onseam`` ``bool[V]``, ``faces_front`` ``bool[T]``. Poses: P = all simple frames, groups flattened.
    """

    scale: np.ndarray
    origin: np.ndarray
    bounding_radius: float
    eye_position: np.ndarray
    synctype: int
    flags: int
    size: float
    skins: tuple[AliasSkin, ...]
    skin_images: np.ndarray
    onseam: np.ndarray
    faces_front: np.ndarray
    skin_rgba: np.ndarray | None = None

    def pose_at(self, frame: int, time: float) -> int:
        """The pose shown for frame number ``frame`` at ``time`` (client time + entity sync base), seconds.

        Out-of-range frame numbers fall back to frame 0, as the engine does (with a warning there)."""
        f = self.frames[frame if 0 <= frame < len(self.frames) else 0]
        return f.first_pose + pick_interval(f.intervals, time)

    def skin_image_at(self, skin: int, time: float) -> int:
        """The index into ``skin_images`` for skin number ``skin`` at ``time`` (out of range → skin 0)."""
        s = self.skins[skin if 0 <= skin < len(self.skins) else 0]
        return s.first + pick_interval(s.intervals, time)

    def has_flag(self, flag: int) -> bool:
        return bool(self.flags & flag)


def _read_intervals(r: BinReader, count: int, what: str) -> np.ndarray:
    at = r.pos
    intervals = r.array("<f4", count, f"{what} intervals").astype(np.float32)
    if not np.all(intervals > 0):
        i = int(np.argmin(intervals > 0))
        raise BadIndexError(r.path, r.fmt, at + 4 * i, f"{what} intervals > 0", str(float(intervals[i])))
    intervals.setflags(write=False)
    return intervals


def _group_count(r: BinReader, item_size: int, what: str) -> int:
    at = r.pos
    count = r.s32(f"{what} count")
    if count < 1:
        raise BadIndexError(r.path, r.fmt, at, f"a {what} of at least one picture", str(count))
    r.check_count(count, 4 + item_size, what)
    return count


def _load_skins(r: BinReader, numskins: int, width: int, height: int):
    """``Mod_LoadAllSkins``: skin slots and the flattened ``u1[S, H, W]`` pictures."""
    pixels = width * height
    slots: list[AliasSkin] = []
    images: list[np.ndarray] = []
    for _ in range(numskins):
        skintype = r.s32("skin type")
        if skintype == ALIAS_SKIN_SINGLE:
            intervals = np.zeros(0, np.float32)
            count = 1
        else:
            count = _group_count(r, pixels, "skin group")
            intervals = _read_intervals(r, count, "skin group")
        slots.append(AliasSkin(len(images), count, intervals, skintype != ALIAS_SKIN_SINGLE))
        for _ in range(count):
            images.append(r.array(np.uint8, pixels, f"skin ({width}x{height})").reshape(height, width))
    return tuple(slots), np.stack(images)


def _load_frames(r: BinReader, numframes: int, numverts: int):
    """``Mod_LoadAliasFrame`` / ``Mod_LoadAliasGroup``: frame slots, pose vertex views, names and bboxes."""
    frame_size = FRAME_HEADER_SIZE + TRIVERTX_SIZE * numverts
    frames: list[tuple[str, int, int, np.ndarray, np.ndarray, bool]] = []
    verts: list[np.ndarray] = []
    names: list[str] = []
    boxes: list[np.ndarray] = []

    def simple_frame() -> None:
        box = r.array(np.uint8, 2 * TRIVERTX_SIZE, "frame bbox")
        names.append(r.fixed_string(16, "frame name"))
        boxes.append(box)
        verts.append(r.array(np.uint8, TRIVERTX_SIZE * numverts, f"frame vertices ({numverts})"))

    for _ in range(numframes):
        frametype = r.s32("frame type")
        first = len(verts)
        if frametype == ALIAS_SINGLE:
            simple_frame()
            frames.append((names[-1], first, 1, np.zeros(0, np.float32), boxes[-1], False))
        else:
            count = _group_count(r, frame_size, "frame group")
            box = r.array(np.uint8, 2 * TRIVERTX_SIZE, "frame group bbox")
            intervals = _read_intervals(r, count, "frame group")
            for _ in range(count):
                simple_frame()
            frames.append((names[first], first, count, intervals, box, True))
    return frames, verts, names, boxes


def _build_mesh(st: np.ndarray, onseam: np.ndarray, tris: np.ndarray, front: np.ndarray,
                width: int, height: int) -> AliasMesh:
    """On-seam fix + corner deduplication (``GL_MakeAliasModelDisplayLists``)."""
    shifted = (~front)[:, None] & onseam[tris]                      # [T, 3]
    keys = tris.astype(np.int64) * 2 + shifted                     # [T, 3]
    unique, inverse = np.unique(keys.ravel(), return_inverse=True)
    vertex_index = (unique >> 1).astype(np.int32)
    s = st[vertex_index, 0].astype(np.float64) + (unique & 1) * (width // 2)
    t = st[vertex_index, 1].astype(np.float64)
    uv = np.stack([(s + 0.5) / width, (t + 0.5) / height], axis=1).astype(np.float32)
    return AliasMesh(vertex_index, uv, inverse.reshape(-1, 3).astype(np.uint32))


def _readonly(*arrays: np.ndarray) -> None:
    for a in arrays:
        a.setflags(write=False)


def load_mdl(src: Source, name: str | None = None) -> AliasModel:
    """Read a Quake ``.mdl`` (bytes or a path) into an :class:`AliasModel`.

    Raises ``BadMagicError`` (not ``IDPO`` version 6), ``TruncatedError`` (counts that do not fit the file),
    ``BadIndexError`` (non-positive or absurd counts/sizes, triangle vertex indices ≥ numverts, intervals ≤ 0).
    """
    data, path = read_source(src, name)
    r = BinReader(data, path, "MDL")
    if len(data) >= 4 and data[:4] != IDPOLYHEADER:
        raise BadMagicError(path, "MDL", 0, "magic 'IDPO'", repr(data[:4]))
    (_ident, version, sx, sy, sz, ox, oy, oz, radius, ex, ey, ez, numskins, skinwidth, skinheight, numverts,
     numtris, numframes, synctype, flags, size) = r.struct(MDL_HEADER, "MDL header")
    if version != ALIAS_VERSION:
        raise BadMagicError(path, "MDL", 4, f"version {ALIAS_VERSION}", str(version))
    r.check_ranges(((48, "skin count", numskins, 1, None),
                    (52, "skin width", skinwidth, 1, MAX_IMAGE_SIDE),
                    (56, "skin height", skinheight, 1, MAX_IMAGE_SIDE),
                    (60, "vertex count", numverts, 1, None),
                    (64, "triangle count", numtris, 1, None),
                    (68, "frame count", numframes, 1, None)))
    # Every count must fit in what is left before anything is allocated (each skin/frame at its smallest).
    minimum = (numskins * (4 + skinwidth * skinheight) + numverts * D_STVERT.itemsize
               + numtris * D_TRIANGLE.itemsize + numframes * (4 + FRAME_HEADER_SIZE + TRIVERTX_SIZE * numverts))
    r.need(minimum, f"{numskins} skins, {numverts} vertices, {numtris} triangles and {numframes} frames")

    skins, skin_images = _load_skins(r, numskins, skinwidth, skinheight)

    stverts = r.array(D_STVERT, numverts, "skin vertices")
    st = np.stack([stverts["s"], stverts["t"]], axis=1).astype(np.int32)
    onseam = stverts["onseam"] != 0

    tri_at = r.pos
    tris_raw = r.array(D_TRIANGLE, numtris, "triangles")
    triangles = tris_raw["vertindex"].astype(np.int32)
    faces_front = tris_raw["facesfront"] != 0
    bad = (triangles < 0) | (triangles >= numverts)
    if bad.any():
        flat = int(np.argmax(bad.ravel()))
        i, corner = divmod(flat, 3)
        raise BadIndexError(path, "MDL", tri_at + i * D_TRIANGLE.itemsize + 4 + 4 * corner,
                            f"a vertex index < {numverts} in triangle {i}", str(int(triangles[i, corner])))

    frame_rows, verts, pose_names, boxes = _load_frames(r, numframes, numverts)

    scale = np.array([sx, sy, sz], dtype=np.float32)
    origin = np.array([ox, oy, oz], dtype=np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        packed = np.stack(verts).reshape(len(verts), numverts, TRIVERTX_SIZE)
        positions = packed[..., :3].astype(np.float32) * scale + origin
        normals = np.ascontiguousarray(packed[..., 3])
        box = np.stack(boxes).reshape(len(boxes), 2, TRIVERTX_SIZE)[..., :3].astype(np.float32) * scale + origin
        pose_min, pose_max = np.ascontiguousarray(box[:, 0]), np.ascontiguousarray(box[:, 1])
        frames = []
        for fname, first, count, intervals, raw_box, is_group in frame_rows:
            fb = raw_box.reshape(2, TRIVERTX_SIZE)[:, :3].astype(np.float32) * scale + origin
            _readonly(fb)
            frames.append(AliasFrame(fname, first, count, intervals, fb[0], fb[1], is_group))
        mesh = _build_mesh(st, onseam, triangles, faces_front, skinwidth, skinheight)
    _readonly(scale, origin, skin_images, st, onseam, triangles, faces_front, positions, normals, pose_min, pose_max,
              mesh.vertex_index, mesh.uv, mesh.indices)
    eye = np.array([ex, ey, ez], dtype=np.float32)
    _readonly(eye)
    return AliasModel(
        path=path, version=version, scale=scale, origin=origin, bounding_radius=float(radius), eye_position=eye,
        skin_width=skinwidth, skin_height=skinheight, num_verts=numverts, num_tris=numtris, synctype=synctype,
        flags=flags, size=float(size), skins=skins, skin_images=skin_images, st=st, onseam=onseam,
        triangles=triangles, faces_front=faces_front, frames=tuple(frames), positions=positions, normals=normals,
        pose_names=tuple(pose_names), pose_bbox_min=pose_min, pose_bbox_max=pose_max, mesh=mesh)
