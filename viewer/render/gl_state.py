"""The fixed-function state of a drawing pass, set in one place (ioquake3's ``GL_State``/``GL_Cull``): every pass
says all of it (depth test, depth write and function, which faces are culled and which winding is the front,
blending, polygon offset), so nothing one pass sets can leak into the next (the window once froze on a leaked
``front_face``).

What was last applied is remembered per context, so a pass only writes what differs; :func:`forget` drops that
memory (each frame and each overlay starts from it), and the depth write, which moderngl keeps per framebuffer, is
compared with the bound framebuffer's own.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import moderngl

#: ``(source, destination)`` factors of ordinary alpha blending.
ALPHA_BLEND = (moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA)


@dataclass(frozen=True, slots=True)
class GlState:
    """One pass's state: ``depth_test``; ``depth_write``; ``depth_func`` (``"<"`` GL's default, ``"<="``,
    ``"=="``); ``cull``: the faces left out (``"back"``, ``"front"``, ``None`` for none); ``front_face``: the winding
    of front faces (``"ccw"``, ``"cw"``); ``blend``: the blend factors, ``None`` for none; ``polygon_offset``:
    ``(factor, units)``."""

    depth_test: bool = True
    depth_write: bool = True
    depth_func: str = "<"
    cull: str | None = "back"
    front_face: str = "ccw"
    blend: tuple[int, int] | None = None
    polygon_offset: tuple[float, float] = (0.0, 0.0)


#: 2D layers over the picture: no depth, no culling, alpha blended.
OVERLAY = GlState(depth_test=False, depth_write=True, cull=None, blend=ALPHA_BLEND)

_applied: weakref.WeakKeyDictionary[moderngl.Context, GlState] = weakref.WeakKeyDictionary()


def use_state(ctx: moderngl.Context, state: GlState) -> None:
    """Make ``state`` the state of the draws that follow."""
    last = _applied.get(ctx)
    if last is state:
        fbo = ctx.fbo
        if fbo.depth_mask != state.depth_write:
            fbo.depth_mask = state.depth_write
        return
    if last is None or last.depth_test != state.depth_test:
        (ctx.enable if state.depth_test else ctx.disable)(moderngl.DEPTH_TEST)
    if last is None or last.depth_func != state.depth_func:
        ctx.depth_func = state.depth_func
    if last is None or last.cull != state.cull:
        if state.cull is None:
            ctx.disable(moderngl.CULL_FACE)
        else:
            ctx.enable(moderngl.CULL_FACE)
            ctx.cull_face = state.cull
    if last is None or last.front_face != state.front_face:
        ctx.front_face = state.front_face
    if last is None or last.blend != state.blend:
        if state.blend is None:
            ctx.disable(moderngl.BLEND)
        else:
            ctx.enable(moderngl.BLEND)
            ctx.blend_func = state.blend
    if last is None or last.polygon_offset != state.polygon_offset:
        ctx.polygon_offset = state.polygon_offset
    fbo = ctx.fbo
    if fbo.depth_mask != state.depth_write:
        fbo.depth_mask = state.depth_write
    _applied[ctx] = state


def forget(ctx: moderngl.Context) -> None:
    """Forget what was applied on ``ctx``: the next :func:`use_state` writes every part (at the start of a frame,
    after anything outside these passes may have touched the state)."""
    _applied.pop(ctx, None)


def rebind(ctx: moderngl.Context) -> None:
    """Bind ``ctx.fbo`` again, as moderngl needs to apply a framebuffer's colour mask, keeping the viewport (binding
    would set it to the whole framebuffer; a multiview pane is a part of it)."""
    viewport = ctx.viewport
    ctx.fbo.use()
    ctx.viewport = viewport
