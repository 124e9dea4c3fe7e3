"""Quake II sprites (``.sp2``, ``IDS2`` version 2): a list of frames, each a ``.pcx`` picture with its size and
the point of the picture that sits on the entity's origin.

Layout: ``dsprite_t`` (ident, version, ``numframes``) then ``numframes`` ``dsprframe_t`` (``width``, ``height``,
``origin_x``, ``origin_y``, 64-byte picture name). A sprite always faces the viewer; frame ``n`` of an entity
shows ``frames[n % numframes]``. The picture spans ``-origin_x .. width - origin_x`` to the right and
``-origin_y .. height - origin_y`` upwards (``R_DrawSpriteModel``).

References: Quake II ``dsprite_t`` / ``dsprframe_t`` (qcommon/qfiles.h); ``Mod_LoadSpriteModel`` (ref_gl/gl_model.c)
and ``R_DrawSpriteModel`` (ref_gl/gl_rmain.c).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from ..binreader import BinReader
from ..errors import BadIndexError, BadMagicError
from ..images import MAX_IMAGE_SIDE
from ..source import Source, read_source

IDSPRITEHEADER = b"IDS2"
SPRITE_VERSION = 2
MAX_SKINNAME = 64
#: ``dsprite_t`` without its frames: ident, version, numframes.
SP2_HEADER = struct.Struct("<4sii")
#: ``dsprframe_t``: width, height, origin_x, origin_y, name[64].
D_SPRFRAME = np.dtype([("width", "<i4"), ("height", "<i4"), ("origin_x", "<i4"), ("origin_y", "<i4"),
                       ("name", "S64")])


@dataclass(frozen=True, slots=True)
class Sprite2Frame:
    """One frame: the picture ``name`` (a ``.pcx`` path), its ``width``/``height`` in world units and the
    ``origin_x``/``origin_y`` of the picture that sits on the entity's origin."""

    name: str
    width: int
    height: int
    origin_x: int
    origin_y: int

    @property
    def left(self) -> float:
        return float(-self.origin_x)

    @property
    def right(self) -> float:
        return float(self.width - self.origin_x)

    @property
    def down(self) -> float:
        return float(-self.origin_y)

    @property
    def up(self) -> float:
        return float(self.height - self.origin_y)


@dataclass(frozen=True, slots=True)
class Sprite2Model:
    """A decoded ``.sp2``: ``frames`` in file order."""

    path: str
    version: int
    frames: tuple[Sprite2Frame, ...]

    @property
    def num_frames(self) -> int:
        return len(self.frames)

    def frame_at(self, frame: int) -> Sprite2Frame:
        """The frame an entity with frame number ``frame`` shows (``frame % numframes``, as the engine does)."""
        return self.frames[frame % len(self.frames)]


def load_sp2(src: Source, name: str | None = None) -> Sprite2Model:
    """Read a Quake II ``.sp2`` (bytes or a path) into a :class:`Sprite2Model`.

    Raises ``BadMagicError`` (not ``IDS2`` version 2), ``TruncatedError`` (frames past the end),
    ``BadIndexError`` (no frames, negative or absurd sizes).
    """
    data, path = read_source(src, name)
    r = BinReader(data, path, "SP2")
    if len(data) >= 4 and data[:4] != IDSPRITEHEADER:
        raise BadMagicError(path, "SP2", 0, "magic 'IDS2'", repr(data[:4]))
    _ident, version, numframes = r.struct(SP2_HEADER, "SP2 header")
    if version != SPRITE_VERSION:
        raise BadMagicError(path, "SP2", 4, f"version {SPRITE_VERSION}", str(version))
    if numframes < 1:
        raise BadIndexError(path, "SP2", 8, "at least one frame", str(numframes))
    at = r.pos
    raw = r.array(D_SPRFRAME, numframes, f"{numframes} sprite frames")
    for field, field_at in (("width", 0), ("height", 4)):
        bad = (raw[field] < 0) | (raw[field] > MAX_IMAGE_SIDE)
        if bad.any():
            i = int(np.argmax(bad))
            raise BadIndexError(path, "SP2", at + i * D_SPRFRAME.itemsize + field_at,
                                f"frame {i}'s {field} in 0..{MAX_IMAGE_SIDE}", str(int(raw[field][i])))
    frames = tuple(Sprite2Frame(n.split(b"\0", 1)[0].decode("latin-1"), int(w), int(h), int(x), int(y))
                   for n, w, h, x, y in zip(raw["name"].tolist(), raw["width"].tolist(), raw["height"].tolist(),
                                            raw["origin_x"].tolist(), raw["origin_y"].tolist()))
    return Sprite2Model(path, version, frames)
