"""Mipmap chains computed here and uploaded level by level, instead of ``glGenerateMipmap``.

Mesa's llvmpipe makes each level by drawing into the texture, and its scenes keep that render target on record
after they are done: from then on, binding the texture to sample from (``llvmpipe_set_sampler_views`` →
``llvmpipe_flush_resource``) flushes the frame being built and waits for the rasterizer, once or more a frame
(Quake II's world: 1.1 waits a frame of 2.5–3 ms at 1280×720). A chain uploaded with ``glTexImage2D/3D`` never
makes the texture a render target.

The levels are what llvmpipe's ``glGenerateMipmap`` makes, bit for bit: each level ``max(1, side // 2)`` texels a
side, every texel the bilinear sample of the level above at its centre, with weights in 1/256 and each lerp rounded
(for even sides: the rounded mean of each pair along x, then of those along y).
"""

from __future__ import annotations

import ctypes

import moderngl
import numpy as np

from .context import RenderError

_GL_TEXTURE_2D = 0x0DE1
_GL_TEXTURE_2D_ARRAY = 0x8C1A
_GL_UNPACK_ALIGNMENT = 0x0CF5
_GL_TEXTURE_MAX_LEVEL = 0x813D
_GL_UNSIGNED_BYTE = 0x1401
#: components → (internal format, pixel format) of moderngl's ``f1`` textures.
_FORMATS = {1: (0x8229, 0x1903), 2: (0x822B, 0x8227), 3: (0x8051, 0x1907), 4: (0x8058, 0x1908)}

_enum, _int = ctypes.c_uint, ctypes.c_int
_TEX_IMAGE_2D = ctypes.CFUNCTYPE(None, _enum, _int, _int, _int, _int, _int, _enum, _enum, ctypes.c_void_p)
_TEX_IMAGE_3D = ctypes.CFUNCTYPE(None, _enum, _int, _int, _int, _int, _int, _int, _enum, _enum, ctypes.c_void_p)
_PIXEL_STORE = ctypes.CFUNCTYPE(None, _enum, _int)
_TEX_PARAMETER = ctypes.CFUNCTYPE(None, _enum, _enum, _int)


def _sample_positions(side: int, half: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each of ``half`` texels along an axis of ``side``: the two source texels and the second one's weight
    (0..255), as llvmpipe samples at the texel's centre (the position in 1/256 texels, rounded; edges clamped)."""
    centre = (np.arange(half, dtype=np.float32) + np.float32(0.5)) / np.float32(half)
    fixed = np.round((centre * np.float32(side) - np.float32(0.5)) * 256).astype(np.int64)
    first = fixed >> 8
    return np.clip(first, 0, side - 1), np.clip(first + 1, 0, side - 1), (fixed & 255).astype(np.uint16)


def _lerp(a: np.ndarray, b: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """``a + ((b - a) * weight + 128 >> 8)`` (weight 0..255) in unsigned 16 bits: at most 255 * 256 + 128."""
    return (a * (256 - weight) + b * weight + 128) >> 8


def next_level(pixels: np.ndarray) -> np.ndarray:
    """The mipmap level below ``pixels`` (``uint8 [..., H, W, C]``: one picture, or the layers of an array)."""
    h, w = pixels.shape[-3:-1]
    p = pixels.astype(np.uint16)
    a, b, weight = _sample_positions(w, max(1, w // 2))
    p = _lerp(p[..., a, :], p[..., b, :], weight[:, None])
    a, b, weight = _sample_positions(h, max(1, h // 2))
    p = _lerp(p[..., a, :, :], p[..., b, :, :], weight[:, None, None])
    return p.astype(np.uint8)


def upload_mipmaps(tex: moderngl.Texture | moderngl.TextureArray, pixels: np.ndarray) -> None:
    """Give ``tex`` (an 8-bit texture or texture array, level 0 already uploaded from ``pixels``: ``uint8 [H, W, C]``
    or ``[layers, H, W, C]``) every level below it down to 1×1. A texture the driver does not hold (released, or a
    side of 0 or over ``GL_MAX_TEXTURE_SIZE``: its ``glTexImage`` failed) is a :class:`RenderError` naming its size."""
    if isinstance(tex.mglo, moderngl.InvalidObject) or isinstance(tex.ctx.mglo, moderngl.InvalidObject):
        raise RenderError(f"mipmaps of a {tex.width}x{tex.height} texture whose texture or context was released")
    limit = int(tex.ctx.info["GL_MAX_TEXTURE_SIZE"])
    if not (0 < tex.width <= limit and 0 < tex.height <= limit):
        raise RenderError(f"mipmaps of a {tex.width}x{tex.height} texture: each side must be 1..{limit}")
    if tex.dtype != "f1" or tex.components not in _FORMATS:
        raise RenderError(f"mipmaps of a {tex.dtype} texture of {tex.components} components: 8-bit ones only")
    layers = tex.layers if isinstance(tex, moderngl.TextureArray) else 0
    shape = ((layers,) if layers else ()) + (tex.height, tex.width, tex.components)
    if pixels.shape != shape:
        raise RenderError(f"mipmaps of a texture of shape {shape} from pixels of shape {pixels.shape}")
    load = tex.ctx.mglo._context.load_opengl_function   # the context's own GL loader (EGL or the window's)
    internal, layout = _FORMATS[tex.components]
    tex.use(int(tex.ctx.info["GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS"]) - 1)   # the last unit: no renderer samples it
    _PIXEL_STORE(load("glPixelStorei"))(_GL_UNPACK_ALIGNMENT, 1)
    image_2d, image_3d = _TEX_IMAGE_2D(load("glTexImage2D")), _TEX_IMAGE_3D(load("glTexImage3D"))
    target = _GL_TEXTURE_2D_ARRAY if layers else _GL_TEXTURE_2D

    def upload(level: int, image: np.ndarray) -> None:
        h, w = image.shape[-3:-1]
        data = image.ctypes.data_as(ctypes.c_void_p)
        if layers:
            image_3d(target, level, internal, w, h, layers, 0, layout, _GL_UNSIGNED_BYTE, data)
        else:
            image_2d(target, level, internal, w, h, 0, layout, _GL_UNSIGNED_BYTE, data)

    chain = [np.ascontiguousarray(pixels)]
    while chain[-1].shape[-3:-1] != (1, 1):
        chain.append(np.ascontiguousarray(next_level(chain[-1])))
    # Mesa stores a level 0 that came without levels on its own, and copies it next to the others only at the first
    # draw (until then it is held twice). Told the number of levels first, and given level 0 again (as 1x1 first:
    # a level 0 of the size it has would stay where it is), it stores level 0 with room for the rest at once.
    _TEX_PARAMETER(load("glTexParameteri"))(target, _GL_TEXTURE_MAX_LEVEL, len(chain) - 1)
    upload(0, chain[-1])
    for level, image in enumerate(chain):
        upload(level, image)
