"""Shared check of multiview panes: a pane drawn into its place of the frame is its camera's picture drawn alone at
the pane's size, but for the rasterizer's rounding at another place of the framebuffer (``viewer/multiview/draw.py``;
pane origins keep llvmpipe's 2×2 quads aligned, ``viewer/multiview/layout.py``)."""

from __future__ import annotations

import numpy as np


def assert_same_but_rounding(pane: np.ndarray, alone: np.ndarray) -> None:
    """No value of ``pane`` off from ``alone`` by more than 1, fewer than 1 in 1000 off at all."""
    off = np.abs(pane.astype(np.int16) - alone.astype(np.int16))
    assert off.max() <= 1 and (off > 0).mean() < 0.001, (off.max(), (off > 0).mean())
