"""Quake III colour codes (``^1Red^7White``): the one parser of them, for drawing and for plain text.

A code is ``^`` followed by any character but ``^`` and the end of the string (``Q_IsColorString``); it selects
``g_color_table[ColorIndex(c)]`` with ``ColorIndex(c) = (c - '0') & 7`` and takes no room on the screen.  A ``^``
before another ``^`` or at the end is drawn as itself.

References: ioquake3 ``code/qcommon/q_shared.h`` (``Q_COLOR_ESCAPE``, ``Q_IsColorString``, ``ColorIndex``),
``q_shared.c`` (``g_color_table``, ``Q_CleanStr``, ``Q_PrintStrlen``), ``code/cgame/cg_drawtools.c``
(``CG_DrawStringExt``, ``CG_DrawStrlen``).
"""

from __future__ import annotations

import re

__all__ = ["COLOR_ESCAPE", "COLOR_TABLE", "color_index", "colored_chars", "is_color_string", "strip_colors",
           "visible_len"]

COLOR_ESCAPE = "^"
#: ``g_color_table``: black, red, green, yellow, blue, cyan, magenta, white (RGB 0..1).
COLOR_TABLE: tuple[tuple[float, float, float], ...] = (
    (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (1.0, 1.0, 0.0),
    (0.0, 0.0, 1.0), (0.0, 1.0, 1.0), (1.0, 0.0, 1.0), (1.0, 1.0, 1.0),
)
_CODE = re.compile(r"\^[^^]", re.DOTALL)


def is_color_string(text: str, i: int) -> bool:
    """``Q_IsColorString``: whether a colour code starts at ``text[i]``."""
    return text[i:i + 1] == COLOR_ESCAPE and i + 1 < len(text) and text[i + 1] != COLOR_ESCAPE


def color_index(c: str) -> int:
    """``ColorIndex``: the ``g_color_table`` entry the code character ``c`` selects (``'1'`` red … ``'7'`` white,
    any other character wrapped into 0..7)."""
    return (ord(c) - ord("0")) & 7


def strip_colors(text: str) -> str:
    """``text`` without its colour codes (``Q_CleanStr``'s colour part; other characters are kept)."""
    return _CODE.sub("", text)


def visible_len(text: str) -> int:
    """Characters drawn for ``text`` (``CG_DrawStrlen``)."""
    return len(strip_colors(text))


def colored_chars(text: str, color: tuple[float, float, float]) -> list[tuple[str, tuple[float, float, float]]]:
    """The drawn characters of ``text``, each with its colour, starting in ``color`` (``CG_DrawStringExt`` without
    ``forceColor``)."""
    out: list[tuple[str, tuple[float, float, float]]] = []
    i = 0
    while i < len(text):
        if is_color_string(text, i):
            color = COLOR_TABLE[color_index(text[i + 1])]
            i += 2
            continue
        out.append((text[i], color))
        i += 1
    return out
