"""Mipmap chains made on the CPU (viewer/render/mipmaps.py): the levels llvmpipe's glGenerateMipmap makes, bit for
bit, uploaded without ever making the texture a render target; and a clear error for a texture the driver lacks."""

from __future__ import annotations

import ctypes
from pathlib import Path

import moderngl
import numpy as np
import pytest

from viewer.render.context import RenderError
from viewer.render.mipmaps import next_level, upload_mipmaps
from viewer.render.textures import upload_rgba

_FORMATS = {1: 0x1903, 2: 0x8227, 3: 0x1907, 4: 0x1908}   # GL_RED, GL_RG, GL_RGB, GL_RGBA


def _level(tex: moderngl.Texture | moderngl.TextureArray, level: int) -> np.ndarray:
    """Level ``level`` of ``tex`` as the driver holds it (``glGetTexImage``: moderngl reads only the levels it made)."""
    load = tex.ctx.mglo._context.load_opengl_function
    get_image = ctypes.CFUNCTYPE(None, ctypes.c_uint, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
                                 ctypes.c_void_p)(load("glGetTexImage"))
    pixel_store = ctypes.CFUNCTYPE(None, ctypes.c_uint, ctypes.c_int)(load("glPixelStorei"))
    layers = (tex.layers,) if isinstance(tex, moderngl.TextureArray) else ()
    out = np.zeros(layers + (max(1, tex.height >> level), max(1, tex.width >> level), tex.components), np.uint8)
    tex.use(0)
    pixel_store(0x0D05, 1)   # GL_PACK_ALIGNMENT
    target = 0x8C1A if layers else 0x0DE1   # GL_TEXTURE_2D_ARRAY, GL_TEXTURE_2D
    get_image(target, level, _FORMATS[tex.components], 0x1401, out.ctypes.data_as(ctypes.c_void_p))
    return out


@pytest.mark.parametrize("shape", [(64, 64, 4), (37, 50, 4), (5, 7, 3), (1, 9, 1), (16, 8, 2), (6, 17, 256, 4),
                                   (3, 37, 50, 4)])
def test_every_level_is_the_drivers_own(ctx, shape) -> None:
    """Power-of-two and odd sides, 1 to 4 components, pictures and arrays: every level equals the driver's own."""
    pixels = np.random.default_rng(len(shape) * 100 + shape[-2]).integers(0, 256, shape, dtype=np.uint8)
    *layers, h, w, c = shape
    make = (lambda: ctx.texture_array((w, h, layers[0]), c, pixels.tobytes())) if layers else \
        (lambda: ctx.texture((w, h), c, pixels.tobytes()))
    driver, ours = make(), make()
    driver.build_mipmaps()
    upload_mipmaps(ours, pixels)
    level, expected = 0, pixels
    while True:
        assert (_level(ours, level) == _level(driver, level)).all(), f"level {level}"
        assert (_level(ours, level) == expected).all()
        if expected.shape[-3:-1] == (1, 1):
            break
        level, expected = level + 1, next_level(expected)
    assert level == max(h, w).bit_length() - 1
    assert ctx.error == "GL_NO_ERROR"
    driver.release()
    ours.release()


def test_even_sides_average_pairs_rounded_along_x_then_y() -> None:
    pixels = np.array([[[0], [1], [10], [13]], [[1], [1], [200], [255]]], np.uint8)
    # along x: (0, 1) → 1, (10, 13) → 12 and (1, 1) → 1, (200, 255) → 228; then along y: (1, 1) → 1, (12, 228) → 120
    assert next_level(pixels)[..., 0].tolist() == [[1, 120]]


def test_mipmaps_only_of_a_texture_the_driver_holds(ctx) -> None:
    """A side of 0 or over GL_MAX_TEXTURE_SIZE (glTexImage2D gave it no storage), a released texture or pixels of
    another shape are a RenderError naming the size, never a glTexImage on whatever the context has under its name."""
    limit = int(ctx.info["GL_MAX_TEXTURE_SIZE"])
    with pytest.raises(RenderError, match=r"a 0x16 texture: each side must be 1\.\."):
        upload_rgba(ctx, np.zeros((16, 0, 4), np.uint8))
    with pytest.raises(RenderError, match=rf"a {limit * 2}x1 texture"):
        upload_mipmaps(ctx.texture((limit * 2, 1), 4), np.zeros((1, limit * 2, 4), np.uint8))
    ctx.clear_errors()                              # glTexImage2D's GL_INVALID_VALUE for that one
    tex = upload_rgba(ctx, np.full((4, 8, 4), 200, np.uint8))
    assert _level(tex, 2).tolist() == [[[200] * 4] * 2]   # the chain is there: 8x4, 4x2, 2x1
    with pytest.raises(RenderError, match=r"shape \(4, 8, 4\) from pixels of shape \(8, 4, 4\)"):
        upload_mipmaps(tex, np.zeros((8, 4, 4), np.uint8))
    with pytest.raises(RenderError, match="a f2 texture of 4 components: 8-bit ones only"):
        upload_mipmaps(ctx.texture((4, 4), 4, dtype="f2"), np.zeros((4, 4, 4), np.uint8))
    tex.release()
    with pytest.raises(RenderError, match="released"):
        upload_mipmaps(tex, np.zeros((4, 8, 4), np.uint8))


def test_no_renderer_has_the_driver_make_mipmaps() -> None:
    """glGenerateMipmap draws into the texture, and llvmpipe then waits for its rasterizer whenever the texture is
    bound to sample from (mipmaps.py): every mipmapped texture goes through upload_mipmaps."""
    viewer = Path(__file__).resolve().parents[1] / "viewer"
    callers = [str(path.relative_to(viewer)) for path in viewer.rglob("*.py") if ".build_mipmaps(" in path.read_text()]
    assert callers == []
