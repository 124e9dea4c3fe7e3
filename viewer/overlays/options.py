"""Which caster's overlays are drawn over a picture (``--overlay names,xray,timers,minimap``; F5–F8 in the window).

Each overlay is on or off on its own: ``names`` (players' names over their heads), ``xray`` (players' outlines
through walls; names are then shown through walls too), ``timers`` (item and powerup respawn countdowns) and
``minimap`` (the map from above in a corner, players as arrows with their trails).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

#: The overlays' names, in the order of the flag's help and the window's keys (F5, F6, F7, F8).
OVERLAY_NAMES = ("names", "xray", "timers", "minimap")


class OverlayNameError(ValueError):
    """An ``--overlay`` list naming an overlay qdv does not have."""


@dataclass(frozen=True, slots=True)
class OverlayOptions:
    """Which overlays are on (all off by default)."""

    names: bool = False
    xray: bool = False
    timers: bool = False
    minimap: bool = False

    @property
    def any(self) -> bool:
        """Whether any overlay is on."""
        return any(getattr(self, f.name) for f in fields(self))

    @property
    def enabled(self) -> tuple[str, ...]:
        """The names of the overlays that are on, in :data:`OVERLAY_NAMES` order."""
        return tuple(name for name in OVERLAY_NAMES if getattr(self, name))

    def toggled(self, name: str) -> OverlayOptions:
        """These options with overlay ``name`` switched."""
        return replace(self, **{name: not getattr(self, name)})


#: Every overlay off.
NO_OVERLAYS = OverlayOptions()


def parse_overlays(text: str) -> OverlayOptions:
    """``"names,xray"`` → the options with those overlays on (case and spaces ignored, empty items skipped);
    :class:`OverlayNameError` naming the unknown overlay and the known ones."""
    chosen: dict[str, bool] = {}
    for item in text.split(","):
        name = item.strip().lower()
        if not name:
            continue
        if name not in OVERLAY_NAMES:
            raise OverlayNameError(f"unknown overlay {item.strip()!r} (choose from {', '.join(OVERLAY_NAMES)})")
        chosen[name] = True
    return OverlayOptions(**chosen)
