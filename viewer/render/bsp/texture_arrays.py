"""A BSP world's plain textures gathered into one texture array per size: the world's faces of one size are then one
draw, sorted front to back across their textures, instead of a draw per texture.

A texture is plain when nothing about it changes per draw: not a sky (Quake's two scrolling layers, Quake II's
``SURF_SKY``), not a liquid or warped surface, not flowing (``SURF_FLOWING`` scrolls it) and not a frame of an
animation (``R_TextureAnimation`` picks those per time and entity). Each plain texture becomes a layer of the array
of its size, with the pixels, mipmaps (``glGenerateMipmap`` per layer, as for its own texture) and filtering its own
texture would have had, and every vertex of its faces carries the layer's number (an extra vertex attribute), so a
draw of any of its faces — world, brush entity or translucent — reads it from the array.

References: GLQuake ``R_DrawWorld``'s texture chains (one batch per texture, which this merges); OpenGL 3.0
``GL_TEXTURE_2D_ARRAY``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import moderngl
import numpy as np

from assets_loader.bsp38.dtypes import SURF_FLOWING, SURF_SKY, SURF_WARP
from assets_loader.ranges import range_positions

from ..mipmaps import upload_mipmaps
from ..refdef import MapWorld
from ..textures import TEXTURE_MODES

__all__ = ["TextureArrays", "array_slots", "plain_textures", "texture_arrays"]


def plain_textures(world: MapWorld, flags: np.ndarray) -> np.ndarray:
    """``bool [T]``: the textures drawn the same way every frame (module docstring); ``flags``: each texture's
    ``SURF_*`` bits (:func:`.surfaces.texture_flags`)."""
    animated = {i for tex in world.textures for i in (*tex.anim_frames, *tex.alt_frames)}
    return np.array([not (tex.is_sky or tex.is_liquid or tex.anim_frames or tex.alt_frames or i in animated
                          or int(flags[i]) & (SURF_SKY | SURF_WARP | SURF_FLOWING))
                     for i, tex in enumerate(world.textures)], bool)


@dataclass(frozen=True, slots=True)
class TextureArrays:
    """``arrays``: one texture array per size; ``bucket`` / ``layer`` i8 [T]: each texture's array and layer (-1:
    drawn from its own texture); ``layers``: a buffer of one f4 per mesh vertex, its texture's layer (0 where none)."""

    arrays: tuple[moderngl.TextureArray, ...]
    bucket: np.ndarray
    layer: np.ndarray
    layers: moderngl.Buffer

    def release(self) -> None:
        for array in self.arrays:
            array.release()
        self.layers.release()


def texture_arrays(ctx: moderngl.Context, world: MapWorld, plain: np.ndarray,
                   rgba_of: Callable[[int], np.ndarray], texture_mode: str) -> TextureArrays:
    """The arrays of the ``plain`` textures (:func:`plain_textures`), each layer ``rgba_of(texture)`` (``uint8
    [H, W, 4]``, what its own texture would upload), mipmapped and minified by ``texture_mode``."""
    count = len(world.textures)
    bucket = np.full(count, -1, np.int64)
    layer = np.full(count, -1, np.int64)
    by_size: dict[tuple[int, int], list[tuple[int, np.ndarray]]] = {}
    side = int(ctx.info["GL_MAX_TEXTURE_SIZE"])  # (a texture beyond it keeps its own, whose upload says so)
    for i in np.flatnonzero(plain).tolist():
        rgba = np.ascontiguousarray(rgba_of(i), np.uint8)
        if 0 < rgba.shape[0] <= side and 0 < rgba.shape[1] <= side:
            by_size.setdefault((rgba.shape[1], rgba.shape[0]), []).append((i, rgba))
    most = int(ctx.info["GL_MAX_ARRAY_TEXTURE_LAYERS"])
    groups = [(size, textures[k:k + most]) for size, textures in sorted(by_size.items())
              for k in range(0, len(textures), most)]
    arrays = []
    for b, ((w, h), members) in enumerate(groups):
        layers = np.stack([rgba for _, rgba in members])
        array = ctx.texture_array((w, h, len(members)), 4, layers.tobytes())
        upload_mipmaps(array, layers)
        array.filter = (TEXTURE_MODES[texture_mode], moderngl.LINEAR)
        array.repeat_x = array.repeat_y = True
        arrays.append(array)
        numbers = [i for i, _ in members]
        bucket[numbers] = b
        layer[numbers] = np.arange(len(numbers))
    mesh = world.mesh
    per_vertex = np.zeros(len(mesh.vertices), np.float32)
    faces = np.flatnonzero(mesh.face_count > 0)
    counts = mesh.face_count[faces].astype(np.int64)
    firsts = mesh.face_first[faces].astype(np.int64)
    positions = range_positions(firsts, counts)
    face_layer = np.maximum(layer[world.faces["texture"][faces].astype(np.int64)], 0)
    per_vertex[mesh.indices[positions]] = np.repeat(face_layer, counts).astype(np.float32)
    return TextureArrays(tuple(arrays), bucket, layer, ctx.buffer(per_vertex.tobytes() or bytes(4)))


def array_slots(world: MapWorld, bucket: np.ndarray) -> np.ndarray:
    """``i8 [D]``: the group of each of the world model's draws (``mesh.draws`` of model 0) in the visible list
    (:class:`~.visibility.WorldVisibility`'s ``slots``): its own, or one per array for the textures of ``bucket``
    (:attr:`TextureArrays.bucket`), whose faces are then ordered front to back together."""
    draws = world.mesh.draws
    world_draws = draws[draws["model"] == 0]
    slots = np.arange(len(world_draws), dtype=np.int64)
    of_draw = bucket[world_draws["texture"].astype(np.int64)]
    slots[of_draw >= 0] = len(world_draws) + of_draw[of_draw >= 0]
    return slots
