"""The in and out points of the window's export range (keys I / O), as a pure value.

``I`` marks the in point at the current time, ``O`` the out point; the same key again at the same moment clears that
point, Shift+I (or Shift+O) clears both. A mark set on the wrong side of the other one replaces it (an in point after
the out point drops the out point, and the other way round), so the range is never empty or reversed. An unset in
point means the demo's start, an unset out point its end: with no marks, Ctrl+E exports the whole demo. Times are
timeline seconds, as the clock and the bar use them.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Two marks closer than this (seconds) are at the same moment: pressing I or O there again clears the mark.
SAME_MOMENT = 1e-3


@dataclass(frozen=True, slots=True)
class RangeMarks:
    """``start`` / ``end``: the in and out points (``None``: not set)."""

    start: float | None = None
    end: float | None = None

    @property
    def any(self) -> bool:
        return self.start is not None or self.end is not None

    def mark_in(self, t: float) -> RangeMarks:
        """The in point at ``t`` (cleared when it is already there); an out point at or before ``t`` is dropped."""
        if self.start is not None and abs(self.start - t) < SAME_MOMENT:
            return RangeMarks(None, self.end)
        end = self.end if self.end is not None and self.end > t + SAME_MOMENT else None
        return RangeMarks(t, end)

    def mark_out(self, t: float) -> RangeMarks:
        """The out point at ``t`` (cleared when it is already there); an in point at or after ``t`` is dropped."""
        if self.end is not None and abs(self.end - t) < SAME_MOMENT:
            return RangeMarks(self.start, None)
        start = self.start if self.start is not None and self.start < t - SAME_MOMENT else None
        return RangeMarks(start, t)

    def span(self, first: float, last: float) -> tuple[float, float]:
        """The marked range within a demo playing ``first .. last``: unset marks take the demo's ends."""
        start = first if self.start is None else min(max(self.start, first), last)
        end = last if self.end is None else min(max(self.end, first), last)
        return start, end
