"""Drawing a :class:`~viewer.render.refdef.HudLayout`: every picture in an RGBA atlas, all quads in one draw call
per page.

The caller loads the game's pictures (gfx.wad lumps such as ``sbar``/``num_0``, ``gfx/*.lmp`` files; Quake III's
truecolour art as RGBA arrays) and passes them in by name; this module reads no files.  Pictures are uploaded
lazily, once, the first time a layout uses them: RGBA arrays as they are, palette colours with index 255
transparent (qpics), ``conchars`` as one 128×128 entry (16×16 glyphs of 8×8, index 0
transparent, as ``Draw_Init`` makes it).  Entries are shelf-packed into 1024×1024 atlas pages (a new page when one
is full), plus one white texel for fills.  A name the caller has no picture for draws as a magenta/black checker
(docs/DESIGN.md: a visible placeholder, never a crash).

:meth:`HudRenderer.draw` builds one vertex array for the layout (6 vertices per quad: screen position, texel
coordinate, atlas rectangle, colour) and draws it with alpha blending, depth test off, into whatever framebuffer is
bound; quads are drawn in layout order (consecutive quads on the same page and blend share a draw call).  Pictures
whose game says how they blend (a :class:`PicBlends` mapping: Quake III's shader scripts, ``blendFunc``) are drawn
with those factors instead (``None``: opaque).  The fragment
shader fetches exact texels (``texelFetch``, i.e. nearest filtering) and wraps texel coordinates inside the
picture's rectangle, which tiles ``backtile``.

References: QuakeSpasm ``gl_draw.c`` (``Draw_Init``: conchars index 0 → transparent; ``Draw_PicFromWad`` /
``Draw_CachePic``: qpics with index 255 transparent; ``Draw_Pic``, ``Draw_Character``, ``Draw_Fill``,
``Draw_TileClear``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import chain
from typing import Protocol, runtime_checkable

import moderngl
import numpy as np

from assets_loader.images import Image
from assets_loader.palette import TRANSPARENT_INDEX, Palette

from .gl_state import ALPHA_BLEND, OVERLAY, use_state
from .overlay import DynamicVertices, overlay_state
from .programs import load_program
from .refdef import HudLayout, HudQuad

ATLAS_SIZE = 1024
_FLOATS_PER_VERTEX = 12          # pos 2, uv 2, rect 4, colour 4
_PLACEHOLDER = "<missing>"
_WHITE = "<white>"
#: How many recent layouts keep their vertices (a multiview's panes each have theirs).
_CACHED_LAYOUTS = 8
#: Corner k of a quad's two triangles takes the right edge (x1, u1) and/or the bottom edge (y1, v1).
_RIGHT = np.array([False, True, False, False, True, True])
_BOTTOM = np.array([False, False, True, True, False, True])
#: What a quad takes from the atlas, by (kind, ref, tint): page, blend id, whether it tiles, the atlas rectangle
#: (x, y, w, h), the texel extent (u1, v1) of an untiled quad, its colour (the tint, or a fill's palette colour).
_SOURCE_COLUMNS = 12


@dataclass(frozen=True, slots=True)
class AtlasEntry:
    """Where a picture lives: atlas ``page`` and its ``x, y, width, height`` in texels."""

    page: int
    x: int
    y: int
    width: int
    height: int


class _Page:
    """One atlas texture with a shelf packer."""

    def __init__(self, ctx: moderngl.Context, size: int) -> None:
        self.size = size
        self.texture = ctx.texture((size, size), 4)
        self.texture.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self.texture.repeat_x = self.texture.repeat_y = False
        self.texture.write(np.zeros((size, size, 4), np.uint8).tobytes())
        self.shelf_x = 0
        self.shelf_y = 0
        self.shelf_h = 0

    def place(self, w: int, h: int) -> tuple[int, int] | None:
        if w > self.size or h > self.size:
            return None
        if self.shelf_x + w > self.size:
            self.shelf_y += self.shelf_h
            self.shelf_x = 0
            self.shelf_h = 0
        if self.shelf_y + h > self.size:
            return None
        x, y = self.shelf_x, self.shelf_y
        self.shelf_x += w
        self.shelf_h = max(self.shelf_h, h)
        return x, y


#: A HUD picture: palette indices, or truecolour ``u1 [H, W, 4]`` RGBA (row 0 the top).
HudPic = Image | np.ndarray
#: GL ``(source, destination)`` blend factors, ``None`` for opaque.
Blend = tuple[int, int] | None


@runtime_checkable
class PicBlends(Protocol):
    """Pictures that say how each one blends (by default: alpha blending)."""

    def blend(self, name: str) -> Blend:
        """The blend factors picture ``name`` is drawn with."""
        ...


def _pic_size(pic: HudPic) -> tuple[int, int]:
    if isinstance(pic, np.ndarray):
        return int(pic.shape[1]), int(pic.shape[0])
    return pic.width, pic.height


class HudRenderer:
    """Draws HUD layouts with ``pics`` (lower-case picture name → indexed image or RGBA array, ``"conchars"``
    included), indexed ones coloured by ``palette``."""

    def __init__(self, ctx: moderngl.Context, palette: Palette, pics: Mapping[str, HudPic],
                 atlas_size: int = ATLAS_SIZE) -> None:
        self.ctx = ctx
        self.palette = palette
        self.pics = pics
        self.atlas_size = atlas_size
        self.program = load_program(ctx, "hud")
        self.program["u_atlas"] = 0
        self._blends = pics if isinstance(pics, PicBlends) else None
        self._rgba = palette.rgba_table(TRANSPARENT_INDEX)
        self._pages: list[_Page] = []
        self._entries: dict[str, AtlasEntry] = {}
        self._vertices_buffer = DynamicVertices(ctx, self.program, ("2f 2f 4f 4f", "in_pos", "in_uv", "in_rect",
                                                                     "in_color"))
        self._source_rows: dict[tuple[str, str | int, tuple[float, float, float]], int] = {}
        self._sources: list[tuple[float, ...]] = []
        self._table = np.zeros((0, _SOURCE_COLUMNS), np.float64)
        self._blend_ids: dict[Blend, int] = {}
        self._recent: dict[int, tuple[int, tuple[HudQuad, ...], np.ndarray, list[tuple[int, Blend, int, int]]]] = {}
        self._uploaded: tuple[np.ndarray, moderngl.VertexArray] | None = None     # what the buffer holds
        white = np.full((2, 2, 4), 255, np.uint8)
        self._add(_WHITE, white)
        checker = np.zeros((2, 2, 4), np.uint8)
        checker[..., 3] = 255
        checker[0, 0, [0, 2]] = 255
        checker[1, 1, [0, 2]] = 255
        self._add(_PLACEHOLDER, checker)

    # --- pictures ------------------------------------------------------------------------------------------------

    def _add(self, name: str, rgba: np.ndarray) -> AtlasEntry:
        h, w = rgba.shape[:2]
        found = next(((i, spot) for i, page in enumerate(self._pages) if (spot := page.place(w, h)) is not None), None)
        if found is None:
            page = _Page(self.ctx, max(self.atlas_size, w, h))
            self._pages.append(page)
            spot = page.place(w, h)
            if spot is None:
                raise ValueError(f"HUD picture {name!r} ({w}x{h}) does not fit an empty atlas page")
            found = (len(self._pages) - 1, spot)
        index, (x, y) = found
        if w and h:
            self._pages[index].texture.write(np.ascontiguousarray(rgba).tobytes(), viewport=(x, y, w, h))
        entry = AtlasEntry(index, x, y, w, h)
        self._entries[name] = entry
        return entry

    def entry(self, name: str) -> AtlasEntry:
        """The atlas entry of picture ``name`` (``"conchars"`` included), uploading it on first use; the placeholder
        entry if the caller gave no such picture (or an empty one)."""
        key = name.lower()
        found = self._entries.get(key)
        if found is not None:
            return found
        image = self.pics.get(key)
        if image is None or 0 in _pic_size(image):
            return self._entries[_PLACEHOLDER]
        if isinstance(image, np.ndarray):
            return self._add(key, np.ascontiguousarray(image, np.uint8))
        indices = np.asarray(image.indices, np.uint8)
        if key == "conchars":
            rgba = self._rgba[indices].copy()
            rgba[indices == 0, 3] = 0      # Draw_Init: conchars' index 0 is transparent
        else:
            rgba = self._rgba[indices]
        return self._add(key, rgba)

    def pic_size(self, name: str) -> tuple[int, int] | None:
        """``(width, height)`` of picture ``name`` or ``None`` if missing (usable as ``build_hud(pic_sizes=…)``)."""
        image = self.pics.get(name.lower())
        if image is None or 0 in _pic_size(image):
            return None
        return _pic_size(image)

    # --- drawing -------------------------------------------------------------------------------------------------

    def _blend(self, name: str) -> Blend:
        return self._blends.blend(name) if self._blends is not None else ALPHA_BLEND

    def _source(self, key: tuple[str, str | int, tuple[float, float, float]]) -> int:
        """The row of :attr:`_table` of quads of ``(kind, ref, tint)`` (uploading their picture on first use): what
        they take from the atlas (:data:`_SOURCE_COLUMNS`)."""
        found = self._source_rows.get(key)
        if found is not None:
            return found
        kind, ref, tint = key
        blend: Blend = ALPHA_BLEND
        colour = tint
        if kind == "char":
            e = self.entry("conchars")
            code = int(ref) & 255
            rect = (e.x + (code & 15) * 8, e.y + (code >> 4) * 8, 8, 8) if e.width >= 128 else \
                (e.x, e.y, e.width, e.height)
            extent = (float(rect[2]), float(rect[3]))
        elif kind == "fill":
            e = self._entries[_WHITE]
            c = self.palette.rgb[int(ref) & 255]
            colour = (c[0] / 255.0, c[1] / 255.0, c[2] / 255.0)
            rect = (e.x, e.y, 1, 1)
            extent = (1.0, 1.0)
        else:
            e = self.entry(str(ref))
            rect = (e.x, e.y, e.width, e.height)
            extent = (float(e.width), float(e.height))
            if kind != "tile":
                blend = self._blend(str(ref))
        if blend not in self._blend_ids:
            self._blend_ids[blend] = len(self._blend_ids)
        self._sources.append((e.page, self._blend_ids[blend], kind == "tile", *rect, *extent, *colour))
        row = self._source_rows[key] = len(self._sources) - 1
        return row

    def _vertices(self, layout: HudLayout) -> tuple[np.ndarray, list[tuple[int, Blend, int, int]]]:
        """``f4[6 * N, 12]`` vertices and ``(page, blend, first vertex, count)`` runs in layout order, in one go
        over all quads (what each takes from the atlas looked up once per picture, character or colour)."""
        quads = layout.quads
        n = len(quads)
        rows, source = self._source_rows, self._source
        index = np.fromiter((rows[k] if k in rows else source(k) for k in ((q.kind, q.ref, q.tint) for q in quads)),
                            np.intp, n)
        if len(self._table) != len(self._sources):
            self._table = np.array(self._sources, np.float64)
        sources = self._table[index]                                                  # [N, 12]
        geometry = np.fromiter(chain.from_iterable((q.x, q.y, q.w, q.h, q.alpha) for q in quads), np.float64,
                               5 * n).reshape(n, 5)
        x0, y0 = geometry[:, 0], geometry[:, 1]
        x1, y1 = x0 + geometry[:, 2], y0 + geometry[:, 3]
        tile = sources[:, 2] != 0
        scale = float(max(1, layout.scale))
        u0 = np.where(tile, x0 / scale, 0.0)
        v0 = np.where(tile, y0 / scale, 0.0)
        u1 = np.where(tile, x1 / scale, sources[:, 7])
        v1 = np.where(tile, y1 / scale, sources[:, 8])
        data = np.empty((n, 6, _FLOATS_PER_VERTEX), np.float32)
        data[:, :, 0] = np.where(_RIGHT, x1[:, None], x0[:, None])
        data[:, :, 1] = np.where(_BOTTOM, y1[:, None], y0[:, None])
        data[:, :, 2] = np.where(_RIGHT, u1[:, None], u0[:, None])
        data[:, :, 3] = np.where(_BOTTOM, v1[:, None], v0[:, None])
        data[:, :, 4:8] = sources[:, None, 3:7]
        data[:, :, 8:11] = sources[:, None, 9:12]
        data[:, :, 11] = geometry[:, None, 4]
        keys = sources[:, 0] * len(self._blend_ids) + sources[:, 1]
        firsts = [0, *(np.flatnonzero(keys[1:] != keys[:-1]) + 1).tolist(), n]
        blends = list(self._blend_ids)
        runs = [(int(sources[a, 0]), blends[int(sources[a, 1])], a * 6, (b - a) * 6)
                for a, b in zip(firsts[:-1], firsts[1:])]
        return data.reshape(-1, _FLOATS_PER_VERTEX), runs

    def _cached_vertices(self, layout: HudLayout) -> tuple[np.ndarray, list[tuple[int, Blend, int, int]]]:
        """:meth:`_vertices` of ``layout``, or of an equal layout drawn lately (the same HUD as the last frame, or
        as another pane of this moment): the last :data:`_CACHED_LAYOUTS` are kept, found by their quads' hash
        (hashed once a call: it is most of a hit's cost)."""
        key = hash((layout.scale, layout.quads))
        found = self._recent.get(key)
        if found is not None and found[0] == layout.scale and (found[1] is layout.quads or found[1] == layout.quads):
            return found[2], found[3]
        vertices, runs = self._vertices(layout)
        if key not in self._recent and len(self._recent) >= _CACHED_LAYOUTS:
            del self._recent[next(iter(self._recent))]
        self._recent[key] = (layout.scale, layout.quads, vertices, runs)
        return vertices, runs

    def draw(self, layout: HudLayout, screen_size: tuple[int, int] | None = None) -> None:
        """Draw ``layout`` over the bound framebuffer of ``screen_size`` pixels (default: the layout's)."""
        if not layout.quads:
            return
        size = screen_size or layout.screen_size
        vertices, runs = self._cached_vertices(layout)
        if self._uploaded is None or self._uploaded[0] is not vertices:
            self._uploaded = (vertices, self._vertices_buffer.upload(vertices))
        vao = self._uploaded[1]
        self.program["u_screen"] = (float(size[0]), float(size[1]))
        with overlay_state(self.ctx):
            for page, blend, first, count in runs:
                use_state(self.ctx, replace(OVERLAY, blend=blend))
                self._pages[page].texture.use(0)
                vao.render(moderngl.TRIANGLES, vertices=count, first=first)

    def release(self) -> None:
        self._vertices_buffer.release()
        self._uploaded = None
        self._recent.clear()
        self._source_rows.clear()
        self._sources.clear()
        for page in self._pages:
            page.texture.release()
        self._pages.clear()
        self._entries.clear()
        self.program.release()
