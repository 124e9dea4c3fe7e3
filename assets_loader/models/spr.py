"""Quake sprites (``.spr``, ``IDSP`` version 1): camera-facing 8-bit pictures, single or timed groups.

Layout: a 36-byte ``dsprite_t`` header (ident, version, type, bounding radius, max width, max height, frame
count, beam length, sync type), then ``numframes`` frames: type 0 = one picture; otherwise a group (count,
``count`` float intervals, ``count`` pictures). A picture is ``int32 origin[2], width, height`` then
``width*height`` indices (255 transparent). The picture spans ``left = origin[0]`` to ``right = origin[0] +
width`` and ``up = origin[1]`` down to ``down = origin[1] - height`` in sprite space.

Version 2 (Half-Life) and ``IDS2`` (Quake II) sprites are refused with a ``BadMagicError``.

References: Unofficial Quake Specs 3.2, chapter 5.2 "The Format of .SPR files"; Quake ``Mod_LoadSpriteModel``,
``Mod_LoadSpriteFrame`` and ``Mod_LoadSpriteGroup`` (gl_model.c), ``R_GetSpriteFrame`` (gl_rmain.c) and the
``SPR_*`` orientation types of spritegn.h.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from ..binreader import BinReader
from ..errors import BadIndexError, BadMagicError
from ..images import check_dimensions
from ..source import Source, read_source
from .anim import pick_interval
from .mdl import _group_count, _read_intervals

IDSPRITEHEADER = b"IDSP"
SPRITE_VERSION = 1

SPR_VP_PARALLEL_UPRIGHT = 0
SPR_FACING_UPRIGHT = 1
SPR_VP_PARALLEL = 2
SPR_ORIENTED = 3
SPR_VP_PARALLEL_ORIENTED = 4
SPRITE_TYPES = range(5)

SPR_SINGLE = 0
SPR_GROUP = 1

#: ``dsprite_t``: ident, version, type, boundingradius, width, height, numframes, beamlength, synctype.
SPR_HEADER = struct.Struct("<4siifiiifi")
#: ``dspriteframe_t``: origin[2], width, height.
SPR_FRAME = struct.Struct("<4i")


@dataclass(frozen=True, slots=True)
class SpriteImage:
    """One picture: ``origin_x`` (left edge), ``origin_y`` (top edge) offsets in sprite units,
    ``width``/``height`` and ``indices`` ``u1[height, width]`` (255 transparent)."""

    origin_x: int
    origin_y: int
    width: int
    height: int
    indices: np.ndarray

    @property
    def up(self) -> float:
        return float(self.origin_y)

    @property
    def down(self) -> float:
        return float(self.origin_y - self.height)

    @property
    def left(self) -> float:
        return float(self.origin_x)

    @property
    def right(self) -> float:
        return float(self.origin_x + self.width)


@dataclass(frozen=True, slots=True)
class SpriteFrame:
    """One frame number: ``images`` (one, or a group's pictures) and ``intervals`` ``f4[n]`` cumulative end
    times (empty for a single picture)."""

    images: tuple[SpriteImage, ...]
    intervals: np.ndarray
    is_group: bool

    def image_at(self, time: float) -> SpriteImage:
        """The picture shown at ``time`` (client time + entity sync base), seconds."""
        return self.images[pick_interval(self.intervals, time)]


@dataclass(frozen=True, slots=True)
class SpriteModel:
    """A decoded ``.spr``: ``type`` (``SPR_*`` orientation), ``bounding_radius``, ``max_width``/``max_height``,
    ``beam_length``, ``synctype`` and ``frames`` per frame number."""

    path: str
    version: int
    type: int
    bounding_radius: float
    max_width: int
    max_height: int
    beam_length: float
    synctype: int
    frames: tuple[SpriteFrame, ...]

    @property
    def num_frames(self) -> int:
        return len(self.frames)

    def image_at(self, frame: int, time: float) -> SpriteImage:
        """``R_GetSpriteFrame``: out-of-range frame numbers fall back to frame 0."""
        return self.frames[frame if 0 <= frame < len(self.frames) else 0].image_at(time)


def _read_image(r: BinReader) -> SpriteImage:
    at = r.pos
    ox, oy, width, height = r.struct(SPR_FRAME, "sprite frame header")
    check_dimensions(r, width, height, at + 8, "sprite frame")
    pixels = r.array(np.uint8, width * height, f"sprite frame pixels ({width}x{height})")
    return SpriteImage(ox, oy, width, height, pixels.reshape(height, width))


def load_spr(src: Source, name: str | None = None) -> SpriteModel:
    """Read a Quake ``.spr`` (bytes or a path) into a :class:`SpriteModel`.

    Raises ``BadMagicError`` (not ``IDSP`` version 1), ``TruncatedError`` (frames past the end),
    ``BadIndexError`` (unknown type, non-positive frame count, negative or absurd sizes, intervals ≤ 0).
    """
    data, path = read_source(src, name)
    r = BinReader(data, path, "SPR")
    if len(data) >= 4 and data[:4] != IDSPRITEHEADER:
        raise BadMagicError(path, "SPR", 0, "magic 'IDSP'", repr(data[:4]))
    _ident, version, sprtype, radius, width, height, numframes, beamlength, synctype = r.struct(
        SPR_HEADER, "SPR header")
    if version != SPRITE_VERSION:
        raise BadMagicError(path, "SPR", 4, f"version {SPRITE_VERSION} (Quake; 2 is Half-Life)", str(version))
    if sprtype not in SPRITE_TYPES:
        raise BadIndexError(path, "SPR", 8, "a sprite type 0..4", str(sprtype))
    if numframes < 1:
        raise BadIndexError(path, "SPR", 24, "a frame count >= 1", str(numframes))
    r.check_count(numframes, 4 + SPR_FRAME.size, f"{numframes} sprite frames")
    frames = []
    for _ in range(numframes):
        frametype = r.s32("sprite frame type")
        if frametype == SPR_SINGLE:
            frames.append(SpriteFrame((_read_image(r),), np.zeros(0, np.float32), False))
        else:
            count = _group_count(r, SPR_FRAME.size, "sprite group")
            intervals = _read_intervals(r, count, "sprite group")
            frames.append(SpriteFrame(tuple(_read_image(r) for _ in range(count)), intervals, True))
    return SpriteModel(path, version, sprtype, float(radius), width, height, float(beamlength), synctype,
                       tuple(frames))
