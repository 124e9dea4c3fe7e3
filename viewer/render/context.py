"""OpenGL contexts and the offscreen target every frame is drawn into.

Each frame is rendered into an offscreen framebuffer, then blitted to the window or read back for a PNG: reading
the window's default framebuffer raises GL_INVALID_OPERATION on Mesa through pyglet (docs/DESIGN.md,
"Rendering notes").
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

import moderngl
import numpy as np

GL_VERSION = 330


class RenderError(RuntimeError):
    """No usable OpenGL 3.3 context could be made."""


def create_headless_context() -> moderngl.Context:
    """A standalone OpenGL 3.3 core context through EGL (no display needed; Mesa llvmpipe works)."""
    try:
        settings: dict[str, Any] = {"backend": "egl"}  # moderngl's stub types every keyword setting as a dict
        return moderngl.create_standalone_context(require=GL_VERSION, **settings)
    except Exception as exc:  # moderngl reports missing EGL/GL libraries with plain Exceptions
        raise RenderError(f"cannot create a headless OpenGL {GL_VERSION // 100}.{GL_VERSION % 100 // 10} context "
                          f"through EGL ({exc}); install libegl1 libgl1-mesa-dri libegl-mesa0") from exc


def egl_flush() -> Callable[[], None]:
    """``glFlush`` of the current EGL context (moderngl has no flush, only ``finish``, which also waits).

    Mesa's llvmpipe rasterizes a batch of draws only once it is flushed; without a flush, the draws of several
    frames pile up in one batch and are rasterized together when a result is read, while drawing waits. Found
    through ``eglGetProcAddress`` (Mesa answers for core functions too: ``EGL_KHR_get_all_proc_addresses``)."""
    egl = ctypes.CDLL("libEGL.so.1")
    egl.eglGetProcAddress.restype = ctypes.c_void_p
    egl.eglGetProcAddress.argtypes = [ctypes.c_char_p]
    address = egl.eglGetProcAddress(b"glFlush")
    if not address:
        raise RenderError("EGL does not provide glFlush")
    return ctypes.CFUNCTYPE(None)(address)


class OffscreenTarget:
    """A colour texture (RGBA8) plus depth buffer of ``size`` (width, height) to render into."""

    def __init__(self, ctx: moderngl.Context, size: tuple[int, int]) -> None:
        self.ctx = ctx
        self.size = size
        self.color = ctx.texture(size, 4)
        self.color.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self.depth = ctx.depth_renderbuffer(size)
        self.fbo = ctx.framebuffer(color_attachments=[self.color], depth_attachment=self.depth)

    def use(self) -> None:
        self.fbo.use()
        self.ctx.viewport = (0, 0, *self.size)

    def read_rgb(self) -> np.ndarray:
        """The picture as ``uint8 [H, W, 3]``, top row first."""
        raw = self.fbo.read(components=3, alignment=1)
        w, h = self.size
        return np.frombuffer(raw, dtype=np.uint8).reshape(h, w, 3)[::-1].copy()

    def read_rgba(self) -> np.ndarray:
        """The picture as ``uint8 [H, W, 4]`` top row first: a flipped view of the rows as GL returns them (bottom
        row first), without a copy. Reading the texture's own four channels spares the driver the per-pixel
        conversion to RGB (about 3 ms a 1280x720 frame on llvmpipe, against 0.3)."""
        w, h = self.size
        rows = np.empty((h, w, 4), np.uint8)
        self.fbo.read_into(rows, components=4, alignment=1)
        return rows[::-1]

    def release(self) -> None:
        for obj in (self.fbo, self.depth, self.color):
            obj.release()
