"""The cgame's virtual 640 × 480 screen: pictures, fills, text and 3D icons placed in its units and stretched over
the whole target (x and y scaled apart, as ``CG_AdjustFrom640`` does), collected as HUD quads and models.

References: ioquake3 ``code/cgame/cg_drawtools.c`` (``CG_AdjustFrom640``, ``CG_DrawPic``, ``CG_FillRect``,
``CG_DrawStringExt``, ``CG_DrawStrlen``), ``cg_draw.c`` (``CG_DrawField``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from assets_loader.demos.quake3.colors import colored_chars

from ...render.refdef import HudModel, HudQuad
from . import hud_icons
from .hud_pics import char_pic

__all__ = ["NUMBERS", "SELECT_GOLD", "VirtualScreen", "WHITE"]

#: The colour of ``gfx/2d/select``, drawn as a frame round the selected box.
SELECT_GOLD = (252 / 255, 189 / 255, 66 / 255)
NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
WHITE = (1.0, 1.0, 1.0)


@dataclass
class VirtualScreen:
    """Quads in virtual 640 × 480 units, stretched to a ``size`` target."""

    size: tuple[int, int]
    quads: list[HudQuad] = field(default_factory=list)
    models: list[HudModel] = field(default_factory=list)

    @property
    def sx(self) -> float:
        return self.size[0] / 640.0

    @property
    def sy(self) -> float:
        return self.size[1] / 480.0

    def pic(self, name: str, x: float, y: float, w: float, h: float, color=WHITE, alpha: float = 1.0) -> None:
        x0, y0 = round(x * self.sx), round(y * self.sy)
        x1, y1 = round((x + w) * self.sx), round((y + h) * self.sy)
        self.quads.append(HudQuad("pic", name, x0, y0, x1 - x0, y1 - y0, alpha, tuple(color)))

    def model(self, icon: hud_icons.Icon) -> None:
        """A 3D icon in its box (rounded to pixels like :meth:`pic`)."""
        x0, y0 = round(icon.x * self.sx), round(icon.y * self.sy)
        x1, y1 = round((icon.x + icon.w) * self.sx), round((icon.y + icon.h) * self.sy)
        self.models.append(HudModel(x0, y0, x1 - x0, y1 - y0, icon.draw))

    def fill(self, x: float, y: float, w: float, h: float, color, alpha: float) -> None:
        self.pic("<white>", x, y, w, h, color, alpha)

    def frame(self, x: float, y: float, w: float, h: float, alpha: float = 1.0) -> None:
        """The selection frame: a border in ``gfx/2d/select``'s gold, one unit thick (OpenArena's look)."""
        for fx, fy, fw, fh in ((x, y, w, 1), (x, y + h - 1, w, 1), (x, y, 1, h), (x + w - 1, y, 1, h)):
            self.fill(fx, fy, fw, fh, SELECT_GOLD, alpha)

    def text(self, s: str, x: float, y: float, w: float, h: float, color=WHITE, alpha: float = 1.0,
             shadow: bool = False, force: bool = False) -> None:
        """``CG_DrawStringExt``: glyphs ``w`` × ``h`` units from ``x`` in ``color``, which colour codes change
        unless ``force`` (``forceColor``; :mod:`~assets_loader.demos.quake3.colors`: the codes take no room);
        ``shadow`` draws a black copy 2 units down and right first (the quads of a string drawn lately reused: the
        HUD draws the same names and numbers every frame)."""
        self.quads.extend(_text_quads(self.size, s, x, y, w, h, tuple(color), alpha, shadow, force))

    def _text(self, s: str, x: float, y: float, w: float, h: float, color: tuple, alpha: float, shadow: bool,
              force: bool) -> None:
        size = 64 if h * self.sy > 40 else 32
        drawn = [(ch, tuple(color) if force else rgb) for ch, rgb in colored_chars(s, tuple(color))]
        if shadow:
            for i, (ch, _) in enumerate(drawn):
                if ch != " ":
                    self.pic(char_pic(ord(ch), size), x + i * w + 2, y + 2, w, h, (0.0, 0.0, 0.0), alpha)
        for i, (ch, rgb) in enumerate(drawn):
            if ch != " ":
                self.pic(char_pic(ord(ch), size), x + i * w, y, w, h, rgb, alpha)

    def field(self, x: float, y: float, value: int, color) -> None:
        """``CG_DrawField``: up to three digits right-aligned in 32 × 48 cells from ``x``."""
        value = max(min(value, 999), -99)
        digits = str(value)
        x += 2 + 32 * (3 - len(digits))
        for ch in digits:
            name = "gfx/2d/numbers/minus_32b" if ch == "-" else f"gfx/2d/numbers/{NUMBERS[int(ch)]}_32b"
            self.pic(name, x, 432, 32, 48, color)
            x += 32


@lru_cache(maxsize=256)
def _text_quads(size: tuple[int, int], s: str, x: float, y: float, w: float, h: float, color: tuple, alpha: float,
                shadow: bool, force: bool) -> tuple[HudQuad, ...]:
    """The quads of :meth:`VirtualScreen.text` on a ``size`` target."""
    screen = VirtualScreen(size)
    screen._text(s, x, y, w, h, color, alpha, shadow, force)
    return tuple(screen.quads)
