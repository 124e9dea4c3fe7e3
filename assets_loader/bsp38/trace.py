"""Line traces through a Quake II map's brushes (:mod:`assets_loader.bsp.brush_trace`) with Quake II's defaults:
``MASK_SOLID`` (solid and windows) stops the line, and a submodel is walked from its own head node.

References: Quake II ``qcommon/cmodel.c`` (``CM_BoxTrace``, ``CM_PointContents``) for a zero-size box.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..bsp.trace import Trace
from .dtypes import MASK_SOLID

if TYPE_CHECKING:  # the world's own trace method calls this module
    from .world import World38


def trace_line(world: World38, start, end, *, mask: int = MASK_SOLID, model: int = 0) -> Trace:
    """Trace a point-sized line from ``start`` to ``end`` (``[3]`` each) through ``model``'s brushes.

    Brushes whose contents share a bit with ``mask`` stop the line; ``hit_contents`` is the stopping brush's
    contents bits (0 if nothing stopped it). ``model`` is the submodel whose tree is walked (0 = the world), in
    that model's own coordinates.
    """
    return world.collision.trace_line(start, end, mask, int(world.submodels[model].headnode[0]))


def point_contents(world: World38, point, *, model: int = 0) -> int:
    """Contents bits of the leaf holding ``point`` (``CM_PointContents``: a point on a plane is in front of it)."""
    return world.collision.point_contents(point, int(world.submodels[model].headnode[0]))
