"""Surface lightmap extents and the lightmap atlas.

Extents follow ``CalcSurfaceExtents``: each vertex's texture coordinate ``s = dot(pos, vecs[0][:3]) +
vecs[0][3]`` is computed in double precision and stored as a float (QuakeSpasm's fix so 64-bit builds agree
with the x87 light compilers), then ``texturemins = floor(min / 16) * 16``, ``extents = (ceil(max / 16) -
floor(min / 16)) * 16``; the lightmap is ``(extents >> 4) + 1`` samples wide and high.

Atlas layout: a face with ``n`` styles (``styles[i] != 255``, up to 4) stores its ``n`` blocks of
``smax x tmax`` samples side by side in one row of the atlas, style ``k`` at ``x + k * smax``. A vertex
carries the lightmap uv of style 0 and ``lm_step`` (= ``smax / atlas_width``), so a shader reads style ``k`` at
``lm_uv + (k * lm_step, 0)`` and weights it by the current value of light style ``styles[k]``. Blocks are
packed on shelves (tallest first). Texel centres match GLQuake's ``(s - texturemins + 8) / 16``, so bilinear
filtering never reaches a neighbouring block. Two 1x1 reserved blocks hold white (faces of a map without
lighting, and sky/liquid faces, which are never lightmapped) and black (faces with ``lightofs == -1`` in a
lit map, which the engine leaves dark).

Quake stores one grey byte per sample (``.lit`` files and Quake II three RGB bytes); the atlas is always RGB.
Quake II's ``lightofs`` counts bytes of its RGB lump, so its faces' samples are read ``sample_step = 3`` entries
apart from a byte-wise view (see :func:`build_lightmap`).

References: Unofficial Quake Specs 3.2, chapter 3.2.9 "Light maps"; Quake ``CalcSurfaceExtents``
(gl_model.c, with QuakeSpasm's precision fix), ``GL_CreateSurfaceLightmap`` / ``BuildSurfaceDisplayList``
and ``R_BuildLightMap`` (gl_rsurf.c).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import BadIndexError
from .lumps import LumpReader

WHITE_BLOCK = 0  # index of the reserved white 1x1 block in the packing order
BLACK_BLOCK = 1
#: Texels copied into the atlas at a time (bounds the index arrays :func:`build_lightmap` makes).
_COPY_TEXELS = 1 << 20


@dataclass(frozen=True, slots=True)
class Lightmap:
    """The packed lightmap atlas.

    ``atlas``: uint8 ``[H, W, 3]`` RGB. ``rects``: int32 ``[F, 4]`` per face ``(x, y, smax, tmax)``: the
    style-0 block's top-left texel and one block's size (style ``k`` starts at ``x + k * smax``).
    ``num_styles``: uint8 ``[F]`` blocks stored per face (0 for faces without a lightmap, which point at a
    reserved white or black texel). ``white`` / ``black``: ``(x, y)`` of the reserved texels.
    """

    atlas: np.ndarray
    rects: np.ndarray
    num_styles: np.ndarray
    white: tuple[int, int]
    black: tuple[int, int]

    @property
    def width(self) -> int:
        return int(self.atlas.shape[1])

    @property
    def height(self) -> int:
        return int(self.atlas.shape[0])


def calc_surface_extents(st: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(texturemins, extents)``, int32 ``[F, 2]`` each, from the float32 st values ``[N, 2]`` of the faces'
    vertices (face ``f`` owns ``st[starts[f]:starts[f] + counts[f]]``). Faces without vertices get zeros."""
    nf = len(starts)
    mins = np.zeros((nf, 2), np.float32)
    maxs = np.zeros((nf, 2), np.float32)
    has = counts > 0
    if has.any() and len(st):
        idx = starts[has]
        mins[has] = np.minimum.reduceat(st, idx, axis=0)
        maxs[has] = np.maximum.reduceat(st, idx, axis=0)
    bmins = np.floor(mins / np.float32(16)).astype(np.int64)
    bmaxs = np.ceil(maxs / np.float32(16)).astype(np.int64)
    texturemins = np.clip(bmins * 16, -(1 << 31), (1 << 31) - 1).astype(np.int32)
    extents = np.clip((bmaxs - bmins) * 16, 0, (1 << 31) - 1).astype(np.int32)
    return texturemins, extents


def count_styles(styles: np.ndarray) -> np.ndarray:
    """int64 ``[F]``: how many of each face's 4 ``styles`` are used, counting up to the first 255 as the engine's
    loops do."""
    nf = len(styles)
    if not nf:
        return np.zeros(0, np.int64)
    padded = np.concatenate([styles, np.full((nf, 1), 255, np.uint8)], axis=1)
    return np.argmax(padded == 255, axis=1).astype(np.int64)


def lightmap_samples(extents: np.ndarray, styles: np.ndarray, lit: np.ndarray) -> np.ndarray:
    """int64 ``[F]``: light samples each face reads (``smax * tmax * styles``; 0 where ``lit`` is False)."""
    smax = (extents[:, 0].astype(np.int64) >> 4) + 1
    tmax = (extents[:, 1].astype(np.int64) >> 4) + 1
    return np.where(lit, smax * tmax * count_styles(styles), 0)


def check_light_samples(bsp: LumpReader, faces_lump: int, face_t: np.dtype, lightofs: np.ndarray, need: np.ndarray,
                        available: int, unit: str) -> None:
    """Raise ``BadIndexError`` unless every face's ``lightofs + need`` lies inside the ``available`` samples
    (or bytes) of the lighting lump, and the lightmaps together stay near the lump's size (no huge atlas)."""
    lit = need > 0
    bsp.bad_index(faces_lump, face_t, lit & (lightofs + need > available), "lightofs",
                  f"with its styles x extents {unit} inside the {available}-{unit[:-1]} lighting lump", lightofs)
    if int(need.sum()) > 64 * available + (1 << 20):
        raise BadIndexError(bsp.path, bsp.version, bsp.ofs[faces_lump], "lightmaps that fit the lighting lump",
                            f"{int(need.sum())} {unit} in all")


def pack_shelves(widths: np.ndarray, heights: np.ndarray, min_width: int = 256,
                 max_width: int = 4096) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Pack rectangles on shelves, tallest first. Returns ``(x, y, W, H)``; ``W`` is a power of two."""
    widths = np.asarray(widths, np.int64)
    heights = np.asarray(heights, np.int64)
    n = len(widths)
    area = int((widths * heights).sum())
    width = min_width
    while width < max_width and width * width < area * 1.15:
        width *= 2
    widest = int(widths.max()) if n else 1
    while width < widest:
        width *= 2
    order = np.lexsort((-widths, -heights))
    xs = np.zeros(n, np.int64)
    ys = np.zeros(n, np.int64)
    x = y = shelf_h = 0
    ws = widths[order].tolist()
    hs = heights[order].tolist()
    ox = [0] * n
    oy = [0] * n
    for i in range(n):
        w = ws[i]
        if x + w > width:
            y += shelf_h
            x = shelf_h = 0
        ox[i] = x
        oy[i] = y
        x += w
        shelf_h = max(shelf_h, hs[i])
    xs[order] = ox
    ys[order] = oy
    height = max(y + shelf_h, 1)
    height = (height + 3) & ~3
    return xs, ys, width, height


def _copy_blocks(atlas: np.ndarray, samples: np.ndarray, lightofs: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                 smax: np.ndarray, tmax: np.ndarray, nstyles: np.ndarray, sample_step: int) -> None:
    """Copy these faces' style blocks from ``samples`` into the atlas at ``(xs, ys)``."""
    per = smax * tmax
    sizes = per * nstyles
    starts = np.cumsum(sizes) - sizes
    fid = np.repeat(np.arange(len(sizes)), sizes)
    local = np.arange(int(sizes.sum()), dtype=np.int64) - starts[fid]
    k, r = np.divmod(local, per[fid])
    sm = smax[fid]
    t, s = np.divmod(r, sm)
    atlas[ys[fid] + t, xs[fid] + k * sm + s] = samples[lightofs[fid] + local * sample_step]


def build_lightmap(samples: np.ndarray | None, lightofs: np.ndarray, styles: np.ndarray, extents: np.ndarray,
                   lit: np.ndarray, special: np.ndarray, sample_step: int = 1) -> Lightmap:
    """Pack every lit face's style blocks into one RGB atlas.

    ``samples``: uint8 ``[L, 3]`` light samples (grey expanded to RGB, or the ``.lit`` colours), ``None`` when
    the map has no lighting. ``lightofs`` int ``[F]`` (sample offsets), ``styles`` uint8 ``[F, 4]``,
    ``extents`` int ``[F, 2]``, ``lit`` bool ``[F]``: faces that have a lightmap (the caller has checked that
    every lit face's blocks lie inside ``samples``), ``special`` bool ``[F]``: unlit faces that point at the
    white texel (sky, liquids); other unlit faces point at the black one (all white if ``samples`` is None).
    Sample ``k`` of a face is ``samples[lightofs + k * sample_step]``.
    """
    nf = len(lightofs)
    smax = (extents[:, 0].astype(np.int64) >> 4) + 1
    tmax = (extents[:, 1].astype(np.int64) >> 4) + 1
    nstyles = np.where(lit, count_styles(styles), 0)
    lit = lit & (nstyles > 0)
    lit_idx = np.flatnonzero(lit)
    bw = np.concatenate([[1, 1], smax[lit_idx] * nstyles[lit_idx]])
    bh = np.concatenate([[1, 1], tmax[lit_idx]])
    xs, ys, width, height = pack_shelves(bw, bh)
    atlas = np.zeros((height, width, 3), np.uint8)
    atlas[ys[WHITE_BLOCK], xs[WHITE_BLOCK]] = 255
    white = (int(xs[WHITE_BLOCK]), int(ys[WHITE_BLOCK]))
    black = (int(xs[BLACK_BLOCK]), int(ys[BLACK_BLOCK]))

    rects = np.zeros((nf, 4), np.int32)
    rects[:, 2] = 1
    rects[:, 3] = 1
    use_white = np.ones(nf, bool) if samples is None else np.asarray(special, bool)
    rects[:, 0] = np.where(use_white, white[0], black[0])
    rects[:, 1] = np.where(use_white, white[1], black[1])
    rects[lit_idx, 0] = xs[2:]
    rects[lit_idx, 1] = ys[2:]
    rects[lit_idx, 2] = smax[lit_idx]
    rects[lit_idx, 3] = tmax[lit_idx]

    if len(lit_idx) and samples is not None:
        # Copy a run of faces at a time, so the index arrays stay small however many texels the map holds.
        ends = np.cumsum(smax[lit_idx] * tmax[lit_idx] * nstyles[lit_idx])
        start = 0
        while start < len(lit_idx):
            stop = max(int(np.searchsorted(ends, ends[start] + _COPY_TEXELS, side="left")), start + 1)
            run = slice(start, stop)
            _copy_blocks(atlas, samples, lightofs[lit_idx[run]].astype(np.int64), xs[2:][run], ys[2:][run],
                         smax[lit_idx[run]], tmax[lit_idx[run]], nstyles[lit_idx[run]], sample_step)
            start = stop
    return Lightmap(atlas, rects, nstyles.astype(np.uint8), white, black)
