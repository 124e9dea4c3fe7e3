"""OpenGL contexts and the offscreen target every frame is drawn into.

Each frame is rendered into an offscreen framebuffer, then blitted to the window or read back for a PNG: reading
the window's default framebuffer raises GL_INVALID_OPERATION on Mesa through pyglet (docs/DESIGN.md,
"Rendering notes").
"""

from __future__ import annotations

import copy
import ctypes
import weakref
from collections.abc import Callable
from typing import Any

import moderngl
import numpy as np

GL_VERSION = 330
EGL_DRAW, EGL_READ = 0x3059, 0x305A


class RenderError(RuntimeError):
    """No usable OpenGL 3.3 context could be made."""


#: Per headless context: its own EGL context, and the EGL context current when it was made (display, draw surface,
#: read surface, context; see :func:`release_headless_context`).
_MADE_OVER: weakref.WeakKeyDictionary[moderngl.Context, tuple[int, tuple[int, int, int, int]]] = \
    weakref.WeakKeyDictionary()


def _egl() -> ctypes.CDLL:
    egl = ctypes.CDLL("libEGL.so.1")
    for name in ("eglGetCurrentDisplay", "eglGetCurrentContext"):
        getattr(egl, name).restype = ctypes.c_void_p
    egl.eglGetCurrentSurface.restype = ctypes.c_void_p
    egl.eglGetCurrentSurface.argtypes = [ctypes.c_int]
    egl.eglMakeCurrent.argtypes = [ctypes.c_void_p] * 4
    return egl


def _current_egl_context() -> tuple[int, int, int, int]:
    """(display, draw surface, read surface, context) current in this thread; context 0: none."""
    egl = _egl()
    return (egl.eglGetCurrentDisplay() or 0, egl.eglGetCurrentSurface(EGL_DRAW) or 0,
            egl.eglGetCurrentSurface(EGL_READ) or 0, egl.eglGetCurrentContext() or 0)


def create_headless_context() -> moderngl.Context:
    """A standalone OpenGL 3.3 core context through EGL (no display needed; Mesa llvmpipe works), current from now
    on; give it back with :func:`release_headless_context`."""
    previous = _current_egl_context()
    try:
        settings: dict[str, Any] = {"backend": "egl"}  # moderngl's stub types every keyword setting as a dict
        ctx = moderngl.create_standalone_context(require=GL_VERSION, **settings)
    except Exception as exc:  # moderngl reports missing EGL/GL libraries with plain Exceptions
        raise RenderError(f"cannot create a headless OpenGL {GL_VERSION // 100}.{GL_VERSION % 100 // 10} context "
                          f"through EGL ({exc}); install libegl1 libgl1-mesa-dri libegl-mesa0") from exc
    _MADE_OVER[ctx] = (_current_egl_context()[3], previous)
    return ctx


def release_headless_context(ctx: moderngl.Context) -> None:
    """Release ``ctx``; when it is the current context, make the one current again that was current when it was made
    (another renderer's, a test's), if that one still lives. A released context otherwise stays current (moderngl
    does not unbind it), and GL calls meant for the other context's objects would go to the released one."""
    own, previous = _MADE_OVER.pop(ctx, (0, (0, 0, 0, 0)))
    was_current = own != 0 and _current_egl_context()[3] == own
    ctx.release()
    if was_current and previous[3]:
        _egl().eglMakeCurrent(*(ctypes.c_void_p(handle or None) for handle in previous))  # fails harmlessly if gone


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
    """A colour texture (RGBA8) plus depth buffer of ``size`` (width, height) to render into, or a rectangle of
    another target drawn into as a target of its own (:meth:`region`); ``viewport``: its pixels in the buffers
    (x, y from the bottom, width, height)."""

    def __init__(self, ctx: moderngl.Context, size: tuple[int, int]) -> None:
        self.ctx = ctx
        self.size = size
        self.viewport = (0, 0, *size)
        self.color = ctx.texture(size, 4)
        self.color.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self.depth = ctx.depth_renderbuffer(size)
        self.fbo = ctx.framebuffer(color_attachments=[self.color], depth_attachment=self.depth)
        self._owns_buffers = True

    def region(self, x: int, y: int, w: int, h: int) -> OffscreenTarget:
        """The ``w``×``h`` rectangle ``x`` pixels from this target's left and ``y`` from its top, as a target: drawn
        into through its viewport, with this target's buffers (releasing it releases nothing). A multiview pane
        drawn so is never sampled afterwards, which on llvmpipe waits for the rasterizer (:mod:`.mipmaps`)."""
        part = copy.copy(self)
        part.size = (w, h)
        part.viewport = (self.viewport[0] + x, self.viewport[1] + self.size[1] - y - h, w, h)
        part._owns_buffers = False
        return part

    def use(self) -> None:
        self.fbo.use()
        self.ctx.viewport = self.viewport

    def read_rgb(self) -> np.ndarray:
        """The picture as ``uint8 [H, W, 3]``, top row first."""
        raw = self.fbo.read(viewport=self.viewport, components=3, alignment=1)
        w, h = self.size
        return np.frombuffer(raw, dtype=np.uint8).reshape(h, w, 3)[::-1].copy()

    def read_rgba(self) -> np.ndarray:
        """The picture as ``uint8 [H, W, 4]`` top row first: a flipped view of the rows as GL returns them (bottom
        row first), without a copy. Reading the texture's own four channels spares the driver the per-pixel
        conversion to RGB (about 3 ms a 1280x720 frame on llvmpipe, against 0.3)."""
        w, h = self.size
        rows = np.empty((h, w, 4), np.uint8)
        self.fbo.read_into(rows, viewport=self.viewport, components=4, alignment=1)
        return rows[::-1]

    def release(self) -> None:
        if self._owns_buffers:
            for obj in (self.fbo, self.depth, self.color):
                obj.release()
