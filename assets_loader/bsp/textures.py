"""The BSP texture lump: ``dmiptexlump_t`` offsets to ``miptex_t`` headers and their 4 mip levels.

Pixels stay 8-bit palette indices (views into the file bytes, no copy). A miptex offset of -1 (texture
stripped from the BSP) or a header without pixel data (offsets 0, textures meant to come from a WAD) gives a
placeholder :class:`Texture` with ``is_missing`` set and a small checker pattern, as QuakeSpasm shows
``notexture``.

Animated textures are linked the way ``Mod_LoadTextures`` does: names ``+0name .. +9name`` form the primary
sequence, ``+aname .. +jname`` the alternate one; a gap in either sequence is an error, as in the engine.
Each member gets its own complete sequence (``anim_frames``) and the other one (``alt_frames``, which
``R_TextureAnimation`` switches to when the entity's frame is non-zero), so the renderer picks
``frames[int(time * 5) % len(frames)]`` (ten ticks per second, two ticks per frame: the engine's
``ANIM_CYCLE``) starting from any member.

References: Unofficial Quake Specs 3.2, chapter 3.2.4 "Texture lump"; Quake ``Mod_LoadTextures``
(gl_model.c) and ``R_TextureAnimation`` (gl_rsurf.c).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import BadIndexError, FormatError, TruncatedError
from .dtypes import D_MIPTEX, MIPLEVELS

#: Ten animation ticks per second, ``ANIM_CYCLE`` = 2 ticks per frame.
ANIM_FPS = 5.0


@dataclass(frozen=True, slots=True)
class Texture:
    """One BSP texture.

    ``mips``: 4 uint8 palette-index arrays, level ``i`` of shape ``[height >> i, width >> i]``.
    ``anim_frames``: texture indices of the whole sequence this texture belongs to (``+0..+9`` or ``+a..+j``),
    in frame order, empty when not animated; ``alt_frames``: the group's other sequence (empty if none).
    ``liquid`` is ``"water"``, ``"lava"``, ``"slime"``, ``"tele"`` or ``None``. ``is_missing``: a placeholder
    (miptex offset -1, pixels held in an external WAD, or the ``notexture`` for a texinfo naming no texture).
    """

    name: str
    width: int
    height: int
    mips: tuple[np.ndarray, ...]
    anim_frames: tuple[int, ...] = ()
    alt_frames: tuple[int, ...] = ()
    is_missing: bool = False

    @property
    def is_sky(self) -> bool:
        return self.name[:3].lower() == "sky"

    @property
    def is_liquid(self) -> bool:
        return self.name.startswith("*")

    @property
    def is_fence(self) -> bool:
        return self.name.startswith("{")

    @property
    def liquid(self) -> str | None:
        if not self.is_liquid:
            return None
        for kind in ("lava", "slime", "tele"):
            if self.name.startswith("*" + kind):
                return kind
        return "water"

    @property
    def is_animated(self) -> bool:
        return bool(self.anim_frames)


def placeholder_texture(name: str = "", width: int = 16, height: int = 16) -> Texture:
    """A 2x2 checker texture (palette indices 0 and 15) of ``width`` x ``height`` standing in for a missing
    one (keeping the real size when the header is known, so texture coordinates stay right)."""
    mips = []
    for i in range(MIPLEVELS):
        w, h = max(width >> i, 1), max(height >> i, 1)
        if w * h <= 1 << 16:
            yy, xx = np.indices((h, w))
            mip = np.where(((yy * 2 // h) + (xx * 2 // w)) % 2 == 0, 15, 0).astype(np.uint8)
            mip.flags.writeable = False
        else:  # a header-only texture claiming a huge size: a constant view, no allocation
            mip = np.broadcast_to(np.uint8(15), (h, w))
        mips.append(mip)
    return Texture(name, width, height, tuple(mips), is_missing=True)


def Mod_LoadTextures(data: bytes, fileofs: int, filelen: int, path: str) -> list[Texture]:
    """Read the texture lump at ``data[fileofs:fileofs + filelen]`` into :class:`Texture` records."""
    if filelen == 0:
        return []
    if filelen < 4:
        raise TruncatedError(path, "BSP", fileofs, "a 4-byte miptex count", f"{filelen} bytes")
    count = int(np.frombuffer(data, "<i4", 1, fileofs)[0])
    if count < 0 or 4 + 4 * count > filelen:
        raise BadIndexError(path, "BSP", fileofs, f"a miptex count that fits in {filelen} bytes", str(count))
    offsets = np.frombuffer(data, "<i4", count, fileofs + 4)
    textures: list[Texture] = []
    for i, ofs in enumerate(offsets.tolist()):
        where = fileofs + 4 + 4 * i
        if ofs == -1:
            textures.append(placeholder_texture())
            continue
        if ofs < 0 or ofs + D_MIPTEX.itemsize > filelen:
            raise BadIndexError(path, "BSP", where, f"miptex {i} offset inside the texture lump ({filelen} bytes)",
                                str(ofs))
        head = np.frombuffer(data, D_MIPTEX, 1, fileofs + ofs)[0]
        name = head["name"].split(b"\0", 1)[0].decode("latin-1")
        width, height = int(head["width"]), int(head["height"])
        mip_ofs = [int(o) for o in head["offsets"]]
        external = all(o == 0 for o in mip_ofs)  # pixels in a WAD: name and size only
        if (width == 0 or height == 0 or width & 15 or height & 15 or width > 65536 or height > 65536
                or (not external and width * height > filelen)):
            raise FormatError(path, "BSP", fileofs + ofs + 16, f"16-aligned texture size for {name!r} "
                              f"fitting in the lump", f"{width}x{height}")
        if external:
            textures.append(placeholder_texture(name, width, height))
            continue
        mips = []
        for level, mofs in enumerate(mip_ofs):
            w, h = width >> level, height >> level
            start = ofs + mofs
            if mofs < D_MIPTEX.itemsize or start + w * h > filelen:
                raise BadIndexError(path, "BSP", fileofs + ofs + 24 + 4 * level,
                                    f"mip {level} of {name!r} ({w}x{h}) inside the texture lump",
                                    f"offset {mofs}")
            mips.append(np.frombuffer(data, np.uint8, w * h, fileofs + start).reshape(h, w))
        textures.append(Texture(name, width, height, tuple(mips)))
    return _link_animations(textures, path, fileofs)


def _frame_slot(name: str) -> tuple[str, int] | None:
    """``"+0lava"`` → ``("primary", 0)``: which sequence and frame a ``+`` name belongs to."""
    if len(name) < 2 or name[0] != "+":
        return None
    c = name[1].lower()
    if "0" <= c <= "9":
        return "primary", ord(c) - ord("0")
    if "a" <= c <= "j":
        return "alternate", ord(c) - ord("a")
    return "bad", 0


def _link_animations(textures: list[Texture], path: str, fileofs: int) -> list[Texture]:
    groups: dict[str, dict[str, dict[int, int]]] = {}
    for index, tex in enumerate(textures):
        if tex.is_missing and not tex.name:
            continue
        slot = _frame_slot(tex.name)
        if slot is None:
            continue
        kind, frame = slot
        if kind == "bad":
            raise FormatError(path, "BSP", fileofs, f"an animation frame 0-9 or a-j in texture {tex.name!r}",
                              repr(tex.name[1]))
        group = groups.setdefault(tex.name[2:].lower(), {"primary": {}, "alternate": {}})
        group[kind].setdefault(frame, index)  # the engine links the first texture of each frame
    out = list(textures)
    for base, group in groups.items():
        seqs = {}
        for kind in ("primary", "alternate"):
            frames = group[kind]
            n = max(frames) + 1 if frames else 0
            if len(frames) != n:
                missing = min(set(range(n)) - set(frames))
                raise FormatError(path, "BSP", fileofs, f"animation frame {missing} of texture group {base!r}",
                                  "a gap in the sequence")
            seqs[kind] = tuple(frames[k] for k in range(n))
        for own, other in (("primary", "alternate"), ("alternate", "primary")):
            for index in seqs[own]:
                t = out[index]
                out[index] = Texture(t.name, t.width, t.height, t.mips, seqs[own], seqs[other], t.is_missing)
    return out


def animated_texture(textures: tuple[Texture, ...] | list[Texture], index: int, time: float,
                     alternate: bool = False) -> int:
    """The texture index to draw for texture ``index`` at ``time`` seconds (``R_TextureAnimation``).

    ``alternate`` is the entity's ``frame != 0`` (buttons that were pressed show ``+a..+j`` frames).
    """
    tex = textures[index]
    frames = tex.alt_frames if alternate and tex.alt_frames else tex.anim_frames
    if not frames:
        return index
    return frames[int(time * ANIM_FPS) % len(frames)]
