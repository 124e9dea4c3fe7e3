"""A player's name in the viewer's UI font, for a game whose own text pictures are missing (no game data: Quake III
without ``gfx/2d/bigchars``): the name's colour codes still colour it (Quake III), Quake's bronze characters stay
bronze (the font's high half)."""

from __future__ import annotations

from assets_loader.demos.quake3.colors import colored_chars

from ..render.refdef import HudLayout, Text, UiLayout

WHITE = (1.0, 1.0, 1.0)


def has_pictures(layout: HudLayout, pic_size) -> bool:
    """Whether every picture ``layout`` draws is known to ``pic_size`` (a name → size or ``None``), the font of
    its characters included."""
    for quad in layout.quads:
        name = "conchars" if quad.kind == "char" else str(quad.ref)
        if quad.kind in ("pic", "char") and not name.startswith("<") and pic_size(name) is None:
            return False
    return True


def ui_name_tag(name: str, x: float, y: float, glyph: float, color_codes: bool) -> UiLayout:
    """``name`` in ``glyph``-pixel UI characters centred on pixel ``x``, its bottom at pixel ``y``, with a shadow
    one pixel down and right; ``color_codes``: Quake III's ``^`` codes colour it and take no room."""
    chars = colored_chars(name, WHITE) if color_codes else [(ch, WHITE) for ch in name]
    left, top = x - len(chars) * glyph / 2, y - glyph
    shadow = tuple(Text(left + i * glyph + 1, top + 1, ch, glyph, (0.0, 0.0, 0.0, 0.8))
                   for i, (ch, _) in enumerate(chars))
    texts = tuple(Text(left + i * glyph, top, ch, glyph, (*rgb, 1.0)) for i, (ch, rgb) in enumerate(chars))
    return UiLayout((), shadow + texts)
