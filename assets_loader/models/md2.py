"""Quake II alias models (``.md2``, ``IDP2`` version 8): skins by name, texture coordinates, triangles, frames.

Layout: a 68-byte ``dmdl_t`` header (ident, version, skin size, frame size, the counts of skins, vertices, texture
coordinates, triangles, GL commands and frames, then the file offset of each table and of the end). Tables:
``num_skins`` 64-byte skin names (``.pcx`` paths); ``num_st`` ``dstvert_t`` (short s, t in skin pixels);
``num_tris`` ``dtriangle_t`` (3 vertex indices, 3 texture-coordinate indices); ``num_frames`` frames of
``framesize`` bytes: ``daliasframe_t`` (float scale[3], translate[3], name[16]) and ``num_xyz`` ``dtrivertx_t``
(3 packed bytes + a normal index into the same 162-normal table as Quake, :mod:`.anorms`); the position is
``scale * packed + translate`` (per frame, where Quake's ``.mdl`` has one scale for the whole model).

The result is a :class:`~.mdl.PosedModel` like Quake's :class:`~.mdl.AliasModel`: every frame is one pose
(``positions[P, V, 3]``, ``normals[P, V]``), ``frames`` are :class:`~.mdl.AliasFrame` records without groups,
``pose_at`` picks a pose the same way, and ``mesh`` is an :class:`~.mdl.AliasMesh`: the unique (vertex,
texture coordinate) corners with uv ``st / skin size`` (Q2PRO's reading of the ``st`` table), so a renderer
interpolates two poses with one blend factor exactly as for Quake models.
Skins are separate pictures (PCX, or TGA/PNG/JPG in later engines); :func:`load_md2_skins` reads them from a game
filesystem.

References: Quake II ``dmdl_t``, ``dstvert_t``, ``dtriangle_t``, ``daliasframe_t`` and the ``MAX_*`` limits
(qcommon/qfiles.h); ``Mod_LoadAliasModel`` (ref_gl/gl_model.c); Q2PRO ``MOD_LoadMD2`` for the texture coordinates.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from ..binreader import BinReader
from ..errors import BadIndexError, BadMagicError, FormatError
from ..images import MAX_IMAGE_SIDE
from ..source import Source, read_source
from ..vfs import VirtualFS
from .mdl import AliasFrame, AliasMesh, PosedModel

IDALIASHEADER = b"IDP2"
ALIAS_VERSION = 8
MAX_TRIANGLES = 4096
MAX_VERTS = 2048
MAX_FRAMES = 512
MAX_MD2SKINS = 32
MAX_SKINNAME = 64

#: ``dmdl_t``: ident, version, skinwidth, skinheight, framesize, num_skins, num_xyz, num_st, num_tris,
#: num_glcmds, num_frames, ofs_skins, ofs_st, ofs_tris, ofs_frames, ofs_glcmds, ofs_end.
MD2_HEADER = struct.Struct("<4s16i")
D_STVERT = np.dtype([("s", "<i2"), ("t", "<i2")])
D_TRIANGLE = np.dtype([("index_xyz", "<i2", (3,)), ("index_st", "<i2", (3,))])
#: ``daliasframe_t`` without its vertices: scale[3], translate[3], name[16].
D_FRAME_HEADER = np.dtype([("scale", "<f4", (3,)), ("translate", "<f4", (3,)), ("name", "S16")])
TRIVERTX_SIZE = 4


@dataclass(frozen=True, slots=True)
class Md2Model(PosedModel):
    """A decoded ``.md2`` (poses and mesh: :class:`~.mdl.PosedModel`; ``st`` is ``i4[S, 2]``, its own table).

    ``skin_names``: the skins' ``.pcx`` paths; ``triangle_st`` ``i4[T, 3]``: each corner's index into ``st``;
    ``num_glcmds`` (the GL command list is not kept); ``frame_scale``/``frame_translate`` ``f4[P, 3]``: each
    frame's decoding of its packed vertices.
    """

    skin_names: tuple[str, ...]
    num_glcmds: int
    triangle_st: np.ndarray
    frame_scale: np.ndarray
    frame_translate: np.ndarray

    def pose_at(self, frame: int, time: float) -> int:
        """The pose shown for frame number ``frame`` (``time`` is unused: MD2 has no frame groups).

        Out-of-range frame numbers fall back to frame 0, as ``R_DrawAliasModel`` does (with a warning there)."""
        return frame if 0 <= frame < len(self.frames) else 0


def _section(r: BinReader, offset: int, count: int, item: int, at: int, what: str) -> None:
    """Raise unless ``count`` items of ``item`` bytes at ``offset`` lie after the header and inside the file."""
    if offset < MD2_HEADER.size or offset + count * item > len(r):
        raise BadIndexError(r.path, "MD2", at, f"{count} {what} of {item} bytes inside the {len(r)}-byte file "
                            f"after the header", f"offset {offset}")


def _build_mesh(triangles: np.ndarray, triangle_st: np.ndarray, st: np.ndarray, width: int,
                height: int) -> AliasMesh:
    """Unique (vertex, st) corners → ``AliasMesh`` with uv ``st / skin size``."""
    keys = triangles.astype(np.int64) * (len(st) + 1) + triangle_st
    unique, inverse = np.unique(keys.ravel(), return_inverse=True)
    vertex_index = (unique // (len(st) + 1)).astype(np.int32)
    corner_st = st[unique % (len(st) + 1)].astype(np.float64)
    uv = (corner_st / (width, height)).astype(np.float32)
    return AliasMesh(vertex_index, uv, inverse.reshape(-1, 3).astype(np.uint32))


def load_md2(src: Source, name: str | None = None) -> Md2Model:
    """Read a Quake II ``.md2`` (bytes or a path) into an :class:`Md2Model`.

    Raises ``BadMagicError`` (not ``IDP2`` version 8), ``BadIndexError`` (counts outside the engine's limits,
    tables outside the file, a frame size too small for its vertices, triangle indices out of range),
    ``TruncatedError`` (shorter than the header).
    """
    data, path = read_source(src, name)
    r = BinReader(data, path, "MD2")
    if len(data) >= 4 and data[:4] != IDALIASHEADER:
        what = " (a Quake III MD3 model)" if data[:4] == b"IDP3" else ""
        raise BadMagicError(path, "MD2", 0, "magic 'IDP2'", repr(data[:4]) + what)
    (_ident, version, skinwidth, skinheight, framesize, num_skins, num_xyz, num_st, num_tris, num_glcmds,
     num_frames, ofs_skins, ofs_st, ofs_tris, ofs_frames, ofs_glcmds, _ofs_end) = r.struct(MD2_HEADER, "MD2 header")
    if version != ALIAS_VERSION:
        raise BadMagicError(path, "MD2", 4, f"version {ALIAS_VERSION}", str(version))
    r.check_ranges(((8, "skin width", skinwidth, 1, MAX_IMAGE_SIDE),
                    (12, "skin height", skinheight, 1, MAX_IMAGE_SIDE),
                    (20, "skin count", num_skins, 0, MAX_MD2SKINS),
                    (24, "vertex count", num_xyz, 1, MAX_VERTS),
                    (28, "texture coordinate count", num_st, 1, None),
                    (32, "triangle count", num_tris, 1, MAX_TRIANGLES),
                    (36, "GL command count", num_glcmds, 0, None),
                    (40, "frame count", num_frames, 1, MAX_FRAMES)))
    min_frame = D_FRAME_HEADER.itemsize + TRIVERTX_SIZE * num_xyz
    if framesize < min_frame:
        raise BadIndexError(path, "MD2", 16, f"a frame size of at least {min_frame} bytes for {num_xyz} vertices",
                            str(framesize))
    _section(r, ofs_skins, num_skins, MAX_SKINNAME, 44, "skin names")
    _section(r, ofs_st, num_st, D_STVERT.itemsize, 48, "texture coordinates")
    _section(r, ofs_tris, num_tris, D_TRIANGLE.itemsize, 52, "triangles")
    _section(r, ofs_frames, num_frames, framesize, 56, "frames")
    _section(r, ofs_glcmds, num_glcmds, 4, 60, "GL command words")

    r.seek(ofs_skins)
    skin_names = tuple(r.fixed_string(MAX_SKINNAME, "skin name") for _ in range(num_skins))
    r.seek(ofs_st)
    st_raw = r.array(D_STVERT, num_st, "texture coordinates")
    st = np.stack([st_raw["s"], st_raw["t"]], axis=1).astype(np.int32)
    r.seek(ofs_tris)
    tris = r.array(D_TRIANGLE, num_tris, "triangles")
    triangles = tris["index_xyz"].astype(np.int32)
    triangle_st = tris["index_st"].astype(np.int32)
    for field, values, limit, at in (("index_xyz", triangles, num_xyz, 0), ("index_st", triangle_st, num_st, 6)):
        bad = (values < 0) | (values >= limit)
        if bad.any():
            flat = int(np.argmax(bad.ravel()))
            i, corner = divmod(flat, 3)
            raise BadIndexError(path, "MD2", ofs_tris + i * D_TRIANGLE.itemsize + at + 2 * corner,
                                f"triangle {i}'s {field} below {limit}", str(int(values[i, corner])))

    raw = np.frombuffer(data, np.uint8, num_frames * framesize, ofs_frames).reshape(num_frames, framesize)
    head = raw[:, :D_FRAME_HEADER.itemsize].copy().view(D_FRAME_HEADER)[:, 0]
    packed = raw[:, D_FRAME_HEADER.itemsize:min_frame].reshape(num_frames, num_xyz, TRIVERTX_SIZE)
    scale = np.ascontiguousarray(head["scale"])
    translate = np.ascontiguousarray(head["translate"])
    with np.errstate(over="ignore", invalid="ignore"):
        positions = packed[..., :3].astype(np.float32) * scale[:, None] + translate[:, None]
        pose_min = positions.min(axis=1)
        pose_max = positions.max(axis=1)
        mesh = _build_mesh(triangles, triangle_st, st, skinwidth, skinheight)
    normals = np.ascontiguousarray(packed[..., 3])
    names = tuple(n.split(b"\0", 1)[0].decode("latin-1") for n in head["name"].tolist())
    empty = np.zeros(0, np.float32)
    empty.setflags(write=False)
    frames = tuple(AliasFrame(names[i], i, 1, empty, pose_min[i], pose_max[i], False) for i in range(num_frames))
    for a in (st, triangles, triangle_st, positions, normals, pose_min, pose_max, scale, translate,
              mesh.vertex_index, mesh.uv, mesh.indices):
        a.setflags(write=False)
    return Md2Model(path=path, version=version, skin_width=skinwidth, skin_height=skinheight, num_verts=num_xyz,
                    num_tris=num_tris, st=st, triangles=triangles, frames=frames, positions=positions, normals=normals,
                    pose_names=names, pose_bbox_min=pose_min, pose_bbox_max=pose_max, mesh=mesh,
                    skin_names=skin_names, num_glcmds=num_glcmds, triangle_st=triangle_st, frame_scale=scale,
                    frame_translate=translate)


@dataclass(frozen=True, slots=True)
class Md2Skins:
    """An MD2's skin pictures at the header's skin size: ``indices`` ``u1[S, H, W]`` palette indices (for a
    truecolour or missing skin: the 2x2 checker of missing textures), ``truecolor``: per skin the RGBA
    ``u1[H, W, 4]`` of a TGA/PNG/JPG skin, else ``None``; ``missing``: the names that could not be used."""

    indices: np.ndarray
    truecolor: tuple[np.ndarray | None, ...]
    missing: tuple[str, ...]


def load_md2_skins(model: Md2Model, fs: VirtualFS) -> Md2Skins:
    """The model's skins from ``fs``. A name is looked up as it is, then under the other picture extensions
    (:meth:`~assets_loader.vfs.VirtualFS.find_image`: a ``.tga`` name may be a ``.pcx`` file and the other way
    round, as Q2PRO's image lookup allows); a PCX gives palette indices, a TGA/PNG/JPG truecolour.

    A skin of another size than the header's is resampled (nearest texel): texture coordinates are fractions
    of the skin, so the engines draw any size the same way. A model without skins gets one placeholder.
    """
    from ..bsp.textures import placeholder_texture
    from ..pcx import load_pcx
    from ..truecolor import load_rgba

    h, w = model.skin_height, model.skin_width
    checker = placeholder_texture("", w, h).mips[0]
    if not model.skin_names:
        return Md2Skins(checker[None], (None,), ())
    images: list[np.ndarray] = []
    truecolor: list[np.ndarray | None] = []
    missing: list[str] = []
    for name in model.skin_names:
        found = fs.find_image(name)
        pixels: np.ndarray | None = None
        try:
            if found is not None and found.lower().endswith(".pcx"):
                pixels = load_pcx(fs.read(found), found).indices
            elif found is not None:
                pixels = load_rgba(fs.read(found), found)
        except FormatError:
            pixels = None
        if pixels is None:
            missing.append(name)
            images.append(checker)
            truecolor.append(None)
            continue
        rows = np.arange(h) * pixels.shape[0] // h
        cols = np.arange(w) * pixels.shape[1] // w
        resized = pixels[rows][:, cols]
        resized.setflags(write=False)
        images.append(resized if resized.ndim == 2 else checker)
        truecolor.append(resized if resized.ndim == 3 else None)
    out = np.stack(images)
    out.setflags(write=False)
    return Md2Skins(out, tuple(truecolor), tuple(missing))
