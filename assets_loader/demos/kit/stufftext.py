"""Stuffed console text read for its harmless visual commands, never executed.

A server stuffs commands into the client's console (``svc_stufftext``). The decoders record the text as it is
(``StuffTextEvent``) and, from a short whitelist, also as neutral events: ``bf`` (the item-pickup flash,
``V_BonusFlash_f``) and ``v_cshift r g b percent`` (QuakeWorld's tint in the open, ``V_cShift_f``). Anything else is
left alone.

References: QuakeSpasm ``view.c`` (``V_BonusFlash_f``); QuakeWorld ``client/view.c`` (``V_cShift_f``);
``cmd.c`` ``Cbuf_Execute`` (commands split on ``;`` and new lines, quotes keep a ``;``).
"""

from __future__ import annotations

import math

from ..events import BonusFlashEvent, ColorShiftEvent, Event


def _commands(text: str) -> list[list[str]]:
    """The commands of ``text``: split on new lines and on ``;`` outside quotes, then into words."""
    out: list[list[str]] = []
    current: list[str] = []
    quoted = False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if ch == "\n" or (ch == ";" and not quoted):
            out.append("".join(current).split())
            current = []
        else:
            current.append(ch)
    out.append("".join(current).split())
    return [words for words in out if words]


def _byte(word: str) -> int | None:
    """A colour or percent 0..255; ``None`` for a word that is no number. ``inf`` and ``nan`` are 0, as the
    engine's ``atoi`` reads them (they stopped the whole demo with an ``OverflowError``)."""
    try:
        value = float(word)
    except ValueError:
        return None
    return min(max(int(value), 0), 255) if math.isfinite(value) else 0


def visual_events(text: str) -> list[tuple[type[Event], tuple]]:
    """``(event class, fields)`` for each whitelisted visual command in ``text``, in order."""
    found: list[tuple[type[Event], tuple]] = []
    for words in _commands(text):
        name = words[0].lower()
        if name == "bf" and len(words) == 1:
            found.append((BonusFlashEvent, ()))
        elif name == "v_cshift" and len(words) == 5:
            values = [_byte(w) for w in words[1:]]
            if all(v is not None for v in values):
                r, g, b, percent = (int(v) for v in values if v is not None)
                found.append((ColorShiftEvent, ((r, g, b), percent)))
    return found
