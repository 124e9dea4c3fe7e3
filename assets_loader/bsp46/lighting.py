"""Quake III baked light: the overbright colour shift, the lightmap atlas and the light grid.

The engine brightens every lightmap texel, vertex colour and light grid sample by ``r_mapOverBrightBits -
tr.overbrightBits`` bits and, where a channel overflows, scales the whole colour down so its largest channel is
255 (hue kept, no clipping to white). ioquake3 in a window (no hardware gamma) has ``tr.overbrightBits`` 0 and
``r_mapOverBrightBits`` 2, so the default shift is 2.

The 128×128 lightmaps are packed into one RGBA atlas, row by row, with one extra all-white tile at the end for
surfaces drawn without a lightmap (the engine binds its white image to ``$lightmap`` there).

The light grid (``R_LoadLightGrid``) covers the world model's box in ``gridsize`` cells (default 64 64 128);
:meth:`LightGrid.sample` is ``R_SetupEntityLightingGrid``: a trilinear blend of the 8 surrounding cells,
skipping black cells (inside walls) and renormalising.

References: ioquake3 ``renderergl1/tr_bsp.c`` (``R_ColorShiftLightingBytes``, ``R_LoadLightmaps``,
``R_LoadLightGrid``), ``renderergl1/tr_light.c`` (``R_SetupEntityLightingGrid``), ``tr_image.c``
(``R_SetColorMappings``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .dtypes import D_LIGHTGRID, LIGHTGRID_SIZE, LIGHTMAP_SIZE

#: ``r_mapOverBrightBits`` default minus ``tr.overbrightBits`` in a window.
DEFAULT_OVERBRIGHT_SHIFT = 2
#: ``r_ambientScale`` and ``r_directedScale`` defaults.
AMBIENT_SCALE = 0.6
DIRECTED_SCALE = 1.0


def color_shift(rgb: np.ndarray, shift: int = DEFAULT_OVERBRIGHT_SHIFT) -> np.ndarray:
    """``R_ColorShiftLightingBytes`` on uint8 ``[..., 3]``: shift left, then normalise by the largest channel."""
    c = rgb.astype(np.int32) << shift
    peak = c.max(axis=-1, keepdims=True)
    scaled = np.where(peak > 255, c * 255 // np.maximum(peak, 1), c)
    return scaled.astype(np.uint8)


@dataclass(frozen=True, slots=True)
class LightmapAtlas:
    """All lightmaps in one RGBA uint8 image ``pixels[H, W, 4]``.

    Lightmap ``i`` sits at pixel ``(x, y) = tiles[i]``; ``tiles[count]`` is the white tile.
    """

    pixels: np.ndarray
    tiles: np.ndarray
    count: int

    def remap(self, uv: np.ndarray, lightmap: np.ndarray) -> np.ndarray:
        """Lightmap texture coordinates ``uv[N, 2]`` of lightmap numbers ``lightmap[N]`` → atlas coordinates.

        A negative lightmap number points at the middle of the white tile.
        """
        h, w = self.pixels.shape[:2]
        idx = np.where(lightmap < 0, self.count, lightmap)
        local = np.where((lightmap < 0)[:, None], 0.5, uv)
        origin = self.tiles[idx].astype(np.float32)
        out = np.empty_like(uv, dtype=np.float32)
        out[:, 0] = (origin[:, 0] + local[:, 0] * LIGHTMAP_SIZE) / w
        out[:, 1] = (origin[:, 1] + local[:, 1] * LIGHTMAP_SIZE) / h
        return out


def build_atlas(raw: bytes | memoryview, shift: int = DEFAULT_OVERBRIGHT_SHIFT) -> LightmapAtlas:
    """Pack the lightmap lump (``n × 128 × 128 × 3`` bytes; a partial tail is ignored) into a square-ish atlas."""
    tile_bytes = LIGHTMAP_SIZE * LIGHTMAP_SIZE * 3
    count = len(raw) // tile_bytes
    tiles_total = count + 1
    cols = max(1, math.ceil(math.sqrt(tiles_total)))
    rows = math.ceil(tiles_total / cols)
    pixels = np.full((rows * LIGHTMAP_SIZE, cols * LIGHTMAP_SIZE, 4), 255, np.uint8)
    maps = np.frombuffer(raw, np.uint8, count * tile_bytes).reshape(count, LIGHTMAP_SIZE, LIGHTMAP_SIZE, 3)
    shifted = color_shift(maps, shift)
    tiles = np.zeros((tiles_total, 2), np.int32)
    for i in range(tiles_total):
        x, y = (i % cols) * LIGHTMAP_SIZE, (i // cols) * LIGHTMAP_SIZE
        tiles[i] = (x, y)
        if i < count:
            pixels[y:y + LIGHTMAP_SIZE, x:x + LIGHTMAP_SIZE, :3] = shifted[i]
    return LightmapAtlas(pixels, tiles, count)


@dataclass(frozen=True, slots=True)
class LightSample:
    """Light for a model at one point: ``ambient`` and ``directed`` RGB (0‥255 scale, already multiplied by
    ``r_ambientScale``/``r_directedScale``) and the unit ``direction`` the directed light comes from."""

    ambient: tuple[float, float, float]
    directed: tuple[float, float, float]
    direction: tuple[float, float, float]


#: Grid points whose lit cells :class:`LightGrid` keeps, at most this many.
_MAX_POINTS = 4096


@dataclass(frozen=True, slots=True)
class LightGrid:
    """The light grid: ``cells`` is ``D_LIGHTGRID[z, y, x]`` with colours already overbright-shifted (also kept as
    bytes, which :meth:`sample` reads cell by cell faster than an array, and the lit cells around each grid point
    sampled lately: models move a little from frame to frame)."""

    origin: tuple[float, float, float]
    size: tuple[float, float, float]
    bounds: tuple[int, int, int]
    cells: np.ndarray
    _raw: bytes = field(init=False, repr=False, compare=False)
    _around: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_raw", np.ascontiguousarray(self.cells, D_LIGHTGRID).tobytes())
        object.__setattr__(self, "_around", {})

    def sample(self, point, ambient_scale: float = AMBIENT_SCALE,
               directed_scale: float = DIRECTED_SCALE) -> LightSample:
        """``R_SetupEntityLightingGrid`` at ``point`` (x, y, z): the eight cells around it weighed by nearness, in
        Python floats (the same double arithmetic as the engine's, without an array per corner)."""
        pos, frac = [], []
        for i in range(3):
            v = (float(point[i]) - self.origin[i]) / self.size[i]
            p = math.floor(v)
            frac.append(v - p)
            pos.append(min(max(p, 0), self.bounds[i] - 1))
        fx, fy, fz = frac
        gx, gy, gz = 1.0 - fx, 1.0 - fy, 1.0 - fz
        ambient, directed, direction = [0.0] * 3, [0.0] * 3, [0.0] * 3
        total = 0.0
        for corner, amb, light, towards in self._lit_corners(tuple(pos)):
            factor = (fx if corner & 1 else gx) * (fy if corner & 2 else gy) * (fz if corner & 4 else gz)
            total += factor
            for k in range(3):
                ambient[k] += factor * amb[k]
                directed[k] += factor * light[k]
                direction[k] += factor * towards[k]
        if 0 < total < 0.99:
            ambient = [v / total for v in ambient]
            directed = [v / total for v in directed]
        norm = float(np.linalg.norm(direction))
        unit = vec3([v / norm for v in direction]) if norm > 0 else (0.0, 0.0, 1.0)
        return LightSample(vec3([v * ambient_scale for v in ambient]), vec3([v * directed_scale for v in directed]),
                           unit)

    def _lit_corners(self, pos: tuple[int, ...]) -> tuple:
        """``(corner, ambient, directed, direction)`` of each of the eight cells from grid point ``pos`` (corner bit
        ``j`` set: one further along axis ``j``) that lies in the grid and has some ambient light, as floats,
        kept for the last points asked for (at most :data:`_MAX_POINTS`)."""
        found = self._around.get(pos)
        if found is None:
            if len(self._around) >= _MAX_POINTS:
                self._around.clear()
            raw, (nx, ny, _) = self._raw, self.bounds
            corners = []
            for corner in range(8):
                at = [p + 1 if corner & (1 << j) else p for j, p in enumerate(pos)]
                if any(a > b - 1 for a, b in zip(at, self.bounds)):
                    continue
                x, y, z = at
                o = ((z * ny + y) * nx + x) * D_LIGHTGRID.itemsize
                amb, light, lng, lat = raw[o:o + 3], raw[o + 3:o + 6], raw[o + 6], raw[o + 7]
                if not any(amb):
                    continue
                up, around = lat * (2 * math.pi / 256), lng * (2 * math.pi / 256)
                towards = (math.cos(up) * math.sin(around), math.sin(up) * math.sin(around), math.cos(around))
                corners.append((corner, tuple(float(v) for v in amb), tuple(float(v) for v in light), towards))
            found = self._around[pos] = tuple(corners)
        return found


def vec3(v) -> tuple[float, float, float]:
    """``v[0..2]`` as a tuple of Python floats."""
    return float(v[0]), float(v[1]), float(v[2])


def build_light_grid(raw: bytes | memoryview, world_mins, world_maxs,
                     size: tuple[float, float, float] = LIGHTGRID_SIZE,
                     shift: int = DEFAULT_OVERBRIGHT_SHIFT) -> LightGrid | None:
    """The light grid over the world box, or ``None`` when the lump does not match it (the engine then warns
    "light grid mismatch" and lights models without it)."""
    if not (np.isfinite(size).all() and min(size) > 0 and np.isfinite(np.concatenate([world_mins, world_maxs])).all()):
        return None
    try:
        origin = tuple(size[i] * math.ceil(float(world_mins[i]) / size[i]) for i in range(3))
        maxs = tuple(size[i] * math.floor(float(world_maxs[i]) / size[i]) for i in range(3))
        bounds = tuple(int((maxs[i] - origin[i]) / size[i]) + 1 for i in range(3))
    except (OverflowError, ValueError):  # a grid size so small the cell count is not a finite number
        return None
    if min(bounds) <= 0 or len(raw) != bounds[0] * bounds[1] * bounds[2] * D_LIGHTGRID.itemsize:
        return None
    cells = np.frombuffer(raw, D_LIGHTGRID).copy().reshape(bounds[2], bounds[1], bounds[0])
    cells["ambient"] = color_shift(cells["ambient"], shift)
    cells["directed"] = color_shift(cells["directed"], shift)
    return LightGrid((origin[0], origin[1], origin[2]), (size[0], size[1], size[2]),
                     (bounds[0], bounds[1], bounds[2]), cells)
