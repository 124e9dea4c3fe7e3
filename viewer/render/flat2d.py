"""Flat-coloured 2D shapes over the picture (the caster's overlays: outlines, minimap floors, arrows, trails):
triangles in pixels from the top-left corner, each vertex with its RGBA colour, drawn with the UI program's solid
mode (``shaders/ui.glsl``) without depth test, alpha blended. Lines are thin quads (a core profile draws lines one
pixel wide only)."""

from __future__ import annotations

import moderngl
import numpy as np

from .overlay import DynamicVertices, overlay_state
from .programs import load_program


def line_quads(segments: np.ndarray, width: float) -> np.ndarray:
    """Pixel segments ``[S, 2, 2]`` as two triangles each, ``f8 [S * 6, 2]``, ``width`` pixels across."""
    seg = np.asarray(segments, np.float64).reshape(-1, 2, 2)
    a, b = seg[:, 0], seg[:, 1]
    d = b - a
    n = np.linalg.norm(d, axis=1, keepdims=True)
    side = np.c_[-d[:, 1], d[:, 0]] / np.maximum(n, 1e-9) * (width / 2)
    corners = np.stack([a - side, a + side, b + side, a - side, b + side, b - side], axis=1)
    return corners.reshape(-1, 2)


class Flat2D:
    """Draws coloured triangles over the bound framebuffer."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.program = load_program(ctx, "ui")
        self.program["u_font"] = 0
        self._buffer = DynamicVertices(ctx, self.program, ("2f 2f 4f 1f", "in_pos", "in_uv", "in_color", "in_mode"))

    def draw(self, points: np.ndarray, colours: np.ndarray, screen_size: tuple[int, int]) -> None:
        """Triangles ``points`` ``[3 * T, 2]`` (pixels) with per-vertex ``colours`` ``[3 * T, 4]`` (RGBA 0..1)
        over a ``screen_size`` framebuffer."""
        n = len(points)
        if not n:
            return
        data = np.zeros((n, 9), np.float32)
        data[:, 0:2] = points
        data[:, 4:8] = colours
        vao = self._buffer.upload(data)
        self.program["u_screen"] = (float(screen_size[0]), float(screen_size[1]))
        with overlay_state(self.ctx):
            vao.render(moderngl.TRIANGLES, vertices=n)

    def release(self) -> None:
        self._buffer.release()
        self.program.release()
