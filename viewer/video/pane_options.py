"""``--multiview N``, ``--layout split|inset`` and ``--panes A,B,C,D`` (``qdv screenshot``, ``qdv render``, ``qdv
play``) checked against the demo into a :class:`~viewer.multiview.panes.MultiShot`, with one-line messages
(:class:`~viewer.video.options.OptionError`, exit 2 in the CLI).

Each item of ``--panes`` names one pane's camera: ``NAME`` or ``SLOT`` (that player's eyes, as ``--pov``),
``chase:NAME``, ``orbit:NAME``, ``free:NAME`` (that camera on that player; ``pov:NAME`` is the eyes again), a mode
alone (``chase``) for the demo's own view, ``director`` for the automatic director's shots
(:mod:`viewer.director`), or nothing (``a,,c``) for the pane's default (:func:`~viewer.multiview.panes.default_shots`).
"""

from __future__ import annotations

from assets_loader.demos import DemoTimeline

from ..camera_pose import ShotCamera
from ..director import plan_director
from ..multiview.layout import LAYOUTS, MAX_PANES
from ..multiview.panes import ROUND_MODES, MultiShot, default_shots
from .options import OptionError, resolve_pov


def parse_pane(text: str, timeline: DemoTimeline, fov: float = 90.0) -> ShotCamera:
    """One item of ``--panes``: ``[MODE:]PLAYER`` or ``MODE`` alone (the demo's own view); a name with a colon
    that does not start with a mode (QuakeWorld's ``: Timber``) is a name; ``director`` the director's shots."""
    if text == "director":
        return ShotCamera("director", None, fov, director=plan_director(timeline))
    head, colon, tail = text.partition(":")
    if colon and head in ROUND_MODES:
        mode, who = head, tail
    elif text in ROUND_MODES:
        mode, who = text, ""
    else:
        mode, who = "pov", text
    return ShotCamera(mode, resolve_pov(timeline, who or None, option="--panes"), fov)


def parse_multiview(timeline: DemoTimeline, count: int | None, layout: str | None, panes: str | None,
                    fov: float = 90.0) -> MultiShot | None:
    """The panes ``--multiview``/``--layout``/``--panes`` ask for (``None``: a single view). Without ``--multiview``
    the panes are as many as ``--panes`` names; panes ``--panes`` leaves out (or empty) take their defaults."""
    if count is None and panes is None:
        if layout is not None:
            raise OptionError(f"--layout {layout}: give --multiview N (or --panes) too")
        return None
    if layout is not None and layout not in LAYOUTS:
        raise OptionError(f"--layout {layout!r}: expected one of {', '.join(LAYOUTS)}")
    items = panes.split(",") if panes is not None else []
    n = count if count is not None else len(items)
    if not 1 <= n <= MAX_PANES:
        raise OptionError(f"--multiview {n}: expected 1..{MAX_PANES} panes")
    if len(items) > n:
        raise OptionError(f"--panes {panes}: {len(items)} panes named for --multiview {n}")
    shots = list(default_shots(timeline, n, fov))
    for i, item in enumerate(items):
        if item.strip():
            shots[i] = parse_pane(item.strip(), timeline, fov)
    return MultiShot(tuple(shots), layout or "split")
