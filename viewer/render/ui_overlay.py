"""Drawing a :class:`~viewer.ui.timeline_bar.UiLayout`: coloured rectangles, then text in Quake's ``conchars`` font,
with the small ``shaders/ui.glsl`` program (one vertex array per call, alpha blending, no depth test).

The font is the 128×128 ``conchars`` picture of ``gfx.wad`` (16×16 glyphs of 8×8 texels, palette index 0
transparent, as ``Draw_Init`` makes it). Without a font only the rectangles are drawn.

References: QuakeSpasm ``gl_draw.c`` (``Draw_Init``, ``Draw_Character``).
"""

from __future__ import annotations

import moderngl
import numpy as np

from assets_loader.images import Image
from assets_loader.palette import Palette

from .overlay import DynamicVertices, overlay_state
from .programs import load_program
from .refdef import UiLayout

_FLOATS_PER_VERTEX = 9          # pos 2, uv 2, colour 4, mode 1


def conchars_rgba(conchars: Image, palette: Palette) -> np.ndarray:
    """``u1[128, 128, 4]``: the font in palette colours, index 0 transparent."""
    indices = np.asarray(conchars.indices, np.uint8).reshape(conchars.height, conchars.width)
    rgba = palette.rgba_table()[indices].copy()
    rgba[indices == 0, 3] = 0
    return rgba


class UiRenderer:
    """Draws UI layouts into whatever framebuffer is bound; ``font`` is :func:`conchars_rgba` output or ``None``."""

    def __init__(self, ctx: moderngl.Context, font: np.ndarray | None) -> None:
        self.ctx = ctx
        self.program = load_program(ctx, "ui")
        self.program["u_font"] = 0
        self.has_font = font is not None
        data = font if font is not None else np.zeros((8, 8, 4), np.uint8)
        h, w = data.shape[:2]
        self.font = ctx.texture((w, h), 4, np.ascontiguousarray(data, np.uint8).tobytes())
        self.font.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self._vertices_buffer = DynamicVertices(ctx, self.program, ("2f 2f 4f 1f", "in_pos", "in_uv", "in_color",
                                                                     "in_mode"))

    @staticmethod
    def vertices(layout: UiLayout, has_font: bool = True) -> np.ndarray:
        """``f4[6 * N, 9]``: two triangles per rectangle and per glyph, rectangles first (the glyphs of all texts
        built with numpy in one go)."""
        rects = [(r.x, r.y, r.x + r.w, r.y + r.h, 0.0, 0.0, 0.0, 0.0, *r.color, 0.0) for r in layout.rects
                 if r.w > 0 and r.h > 0]
        texts = layout.texts if has_font else ()
        lengths = np.fromiter((len(t.text) for t in texts), np.int64, len(texts))
        joined = "".join(t.text for t in texts)
        codes = np.fromiter(map(ord, joined), np.int64, len(joined)) & 255
        owner = np.repeat(np.arange(len(texts)), lengths)                       # the text of each character
        column = np.arange(len(joined)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        drawn = codes != 32
        codes, owner, column = codes[drawn], owner[drawn], column[drawn]
        x, y, size = np.array([(t.x, t.y, t.size) for t in texts], np.float64).reshape(-1, 3)[owner].T
        glyphs = np.empty((len(codes), 13), np.float64)
        glyphs[:, 0] = x + column * size
        glyphs[:, 1] = y
        glyphs[:, 2] = glyphs[:, 0] + size
        glyphs[:, 3] = y + size
        glyphs[:, 4] = (codes & 15) / 16.0
        glyphs[:, 5] = (codes >> 4) / 16.0
        glyphs[:, 6] = glyphs[:, 4] + 1 / 16
        glyphs[:, 7] = glyphs[:, 5] + 1 / 16
        glyphs[:, 8:12] = np.array([t.color for t in texts], np.float64).reshape(-1, 4)[owner]
        glyphs[:, 12] = 1.0
        q = np.concatenate([np.array(rects, np.float64).reshape(-1, 13), glyphs]).astype(np.float32)   # [N, 13]
        out = np.empty((len(q), 6, _FLOATS_PER_VERTEX), np.float32)
        # corner k takes x from column xs[k], y from ys[k] (and the matching texture coordinates)
        xs, ys = (0, 2, 0, 0, 2, 2), (1, 1, 3, 3, 1, 3)
        for k in range(6):
            out[:, k, 0] = q[:, xs[k]]
            out[:, k, 1] = q[:, ys[k]]
            out[:, k, 2] = q[:, xs[k] + 4]
            out[:, k, 3] = q[:, ys[k] + 4]
        out[:, :, 4:9] = q[:, None, 8:13]
        return out.reshape(-1, _FLOATS_PER_VERTEX)

    def draw(self, layout: UiLayout, screen_size: tuple[int, int]) -> None:
        """Draw ``layout`` over the bound framebuffer of ``screen_size`` pixels."""
        vertices = self.vertices(layout, self.has_font)
        if not len(vertices):
            return
        vao = self._vertices_buffer.upload(vertices)
        self.program["u_screen"] = (float(screen_size[0]), float(screen_size[1]))
        with overlay_state(self.ctx):
            self.font.use(0)
            vao.render(moderngl.TRIANGLES, vertices=len(vertices))

    def release(self) -> None:
        self._vertices_buffer.release()
        for obj in (self.font, self.program):
            obj.release()
