"""The caster's overlays drawn over a picture (issue #33): names over heads, x-ray outlines, item timers, a
minimap. :class:`OverlayOptions` says which are on (``--overlay``, F5–F8), :class:`Overlays` draws them."""

from .options import NO_OVERLAYS, OVERLAY_NAMES, OverlayNameError, OverlayOptions, parse_overlays
from .painter import Overlays

__all__ = ["NO_OVERLAYS", "OVERLAY_NAMES", "OverlayNameError", "OverlayOptions", "Overlays", "parse_overlays"]
