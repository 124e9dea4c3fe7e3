"""Time specifications as users type them: ``SS``, ``MM:SS(.s)``, ``H:MM:SS``, ``+/-`` relative, ``N%``.

Mirrors Q2PRO's demo timespec (``demo_seek``): plain seconds, colon-separated minutes and seconds, a leading
``+`` or ``-`` for a step from the current time, and a percentage of the demo's length.  In a range
(:func:`parse_range`, ``--from`` / ``--to``) the end's step counts from the range's start.
"""

from __future__ import annotations

import math


class TimespecError(ValueError):
    """A time specification that cannot be read."""


def parse_timespec(text: str, *, current: float = 0.0, duration: float | None = None) -> float:
    """Seconds from the start of the demo for ``text``.

    ``current`` is the time that ``+``/``-`` steps from; ``duration`` is needed for ``N%``. The result is not
    clamped: the caller knows the demo's bounds.
    """
    s = text.strip()
    if not s:
        raise TimespecError("empty time")
    if s.endswith("%"):
        if duration is None:
            raise TimespecError(f"{text!r}: a percentage needs the demo's duration")
        try:
            pct = float(s[:-1])
        except ValueError:
            raise TimespecError(f"{text!r}: expected N% with a number N") from None
        if not 0 <= pct <= 100:  # also false for nan
            raise TimespecError(f"{text!r}: a percentage must lie in 0..100")
        return duration * pct / 100.0
    sign = 0
    if s[0] in "+-":
        sign = 1 if s[0] == "+" else -1
        s = s[1:]
    parts = s.split(":")
    if len(parts) > 3 or not all(parts):
        raise TimespecError(f"{text!r}: expected SS, MM:SS(.s) or H:MM:SS(.s)")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise TimespecError(f"{text!r}: expected digits in SS, MM:SS(.s) or H:MM:SS(.s)") from None
    if not all(math.isfinite(v) for v in values):
        raise TimespecError(f"{text!r}: expected finite numbers")
    if any(v < 0 for v in values) or any(v >= 60 for v in values[1:]):
        raise TimespecError(f"{text!r}: minutes and seconds after a colon must lie in 0..59")
    seconds = 0.0
    for v in values:
        seconds = seconds * 60 + v
    return current + sign * seconds if sign else seconds


def parse_range(start: str, end: str, duration: float) -> tuple[float, float]:
    """``(first, last)`` seconds from the demo's start of a ``--from start --to end`` range: ``start``'s steps
    count from the demo's start, ``end``'s from ``first`` (``--from 1:00 --to +5`` is 60 .. 65 s)."""
    first = parse_timespec(start, duration=duration)
    return first, parse_timespec(end, current=first, duration=duration)
