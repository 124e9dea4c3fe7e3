"""QuakeWorld chat markup as ezQuake shows it: ``{white text}`` in bronze chat and ``&cRGB`` / ``&r`` colours.

A chat print (``svc_print`` level 3, ``PRINT_CHAT``) is drawn in the alternate (bronze, code | 128) half of the
font, except newlines, carriage returns and a leading ``\\x01``/``\\x02`` marker.  With ``cl_parseWhiteText`` (on
by default) text between ``{`` and ``}`` — from ``offset`` on, the end of the sender's name, so names are never
parsed — is copied without the braces in the normal (white) half (:func:`white_text`).  In the normal half,
``&c`` followed by three hex digits sets the colour (red, green, blue, 0..f each) of the following characters and
``&r`` resets it (:func:`colour_codes`).  KTX and the ezQuake team-message macros write e.g.
``took {&cf00ra&cfff}``: "took" bronze, "ra" red.

Pure functions: the HUD (:mod:`viewer.games.quake.hud`) wraps the resulting characters into notify lines and
draws runs of one colour (:func:`colour_runs`).

References: ezQuake ``teamplay.c`` (``TP_ParseWhiteText``), ``cl_parse.c`` (``CL_ParsePrint``: ``PRINT_CHAT``,
``cl_parseWhiteText``), ``console.c`` (``&c`` / ``&r`` colour codes); QuakeWorld ``cl_parse.c`` (``con_ormask``).
"""

from __future__ import annotations

from dataclasses import dataclass

#: A character's colour multiplier (red, green, blue 0..1); ``None`` leaves the glyph's own colours.
Colour = tuple[float, float, float] | None

_HEX = "0123456789abcdef"


@dataclass(frozen=True, slots=True)
class ColouredText:
    """Quake text (codes 0..255 as ``chr``) and one :data:`Colour` per character."""

    text: str
    colours: tuple[Colour, ...]

    @classmethod
    def plain(cls, text: str) -> ColouredText:
        return cls(text, (None,) * len(text))


def _keeps_normal_set(text: str, i: int) -> bool:
    """Newlines, carriage returns and a leading 1/2 marker stay out of the bronze half."""
    c = text[i]
    return c in "\n\r" or (i == 0 and c in "\x01\x02")


def white_text(text: str, offset: int = 0) -> str:
    """``TP_ParseWhiteText``: every character | 128 (bronze) except line breaks and a leading marker; ``{…}``
    starting at or after ``offset`` is copied without its braces in the normal half.  An unclosed ``{`` is plain
    text."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] == "{" and i >= offset:
            close = text.find("}", i + 1)
            if close >= 0:
                out.append(text[i + 1:close])
                i = close + 1
                continue
        out.append(text[i] if _keeps_normal_set(text, i) else chr(ord(text[i]) | 128))
        i += 1
    return "".join(out)


def colour_codes(text: str) -> ColouredText:
    """Remove ``&cRGB`` (three hex digits, either case) and ``&r`` codes, giving each remaining character the
    colour in force where it stands (``&r`` and ``&cfff`` mean white, i.e. the glyph's own colours)."""
    chars: list[str] = []
    colours: list[Colour] = []
    colour: Colour = None
    i, n = 0, len(text)
    while i < n:
        if text[i] == "&" and i + 1 < n:
            tag = text[i + 1]
            digits = text[i + 2:i + 5].lower()
            if tag == "c" and len(digits) == 3 and all(d in _HEX for d in digits):
                rgb = tuple(_HEX.index(d) / 15.0 for d in digits)
                colour = None if rgb == (1.0, 1.0, 1.0) else (rgb[0], rgb[1], rgb[2])
                i += 5
                continue
            if tag == "r":
                colour = None
                i += 2
                continue
        chars.append(text[i])
        colours.append(colour)
        i += 1
    return ColouredText("".join(chars), tuple(colours))


def name_offset(text: str) -> int:
    """Where a chat print's message starts: after the first ``": "`` (the sender's name ends there), else 0."""
    found = text.find(": ")
    return found + 2 if found >= 0 else 0


def chat_text(text: str) -> ColouredText:
    """A whole chat print as ezQuake draws it: :func:`white_text` from the end of the name, then
    :func:`colour_codes`."""
    return colour_codes(white_text(text, name_offset(text)))


def colour_runs(line: ColouredText) -> tuple[tuple[int, str, Colour], ...]:
    """``(first column, text, colour)`` for each stretch of ``line`` with one colour, in order."""
    runs: list[tuple[int, str, Colour]] = []
    start = 0
    for i in range(1, len(line.text) + 1):
        if i == len(line.text) or line.colours[i] != line.colours[start]:
            runs.append((start, line.text[start:i], line.colours[start]))
            start = i
    return tuple(runs)
