"""Headless GL: the offscreen target, shader loading and PNG export (Mesa llvmpipe through EGL)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from viewer.export import ExportError, next_numbered_path, write_png
from viewer.render.context import OffscreenTarget, create_headless_context, release_headless_context
from viewer.render.programs import load_program


def test_blit_copies_a_texture_top_row_first(ctx) -> None:
    target = OffscreenTarget(ctx, (8, 4))
    image = np.zeros((4, 8, 4), np.uint8)
    image[..., 3] = 255
    image[0, :, 0] = 255  # texture row 0 is the bottom row in GL
    tex = ctx.texture((8, 4), 4, image.tobytes())
    prog = load_program(ctx, "blit")
    vao = ctx.vertex_array(prog, [])
    target.use()
    tex.use(0)
    vao.render(vertices=3)
    rgb = target.read_rgb()
    assert rgb.shape == (4, 8, 3)
    assert (rgb[-1, :, 0] == 255).all() and (rgb[0, :, 0] == 0).all()
    rgba = target.read_rgba()                      # the export's read: the same rows, with alpha, not copied
    assert rgba.shape == (4, 8, 4) and (rgba[..., :3] == rgb).all() and (rgba[..., 3] == 255).all()
    assert rgba.strides[0] < 0


def test_png_never_overwrites_without_force(tmp_path: Path) -> None:
    pixels = np.full((2, 3, 3), 200, np.uint8)
    out = write_png(tmp_path / "a.png", pixels)
    assert np.asarray(Image.open(out)).shape == (2, 3, 3)
    with pytest.raises(ExportError, match="already exists"):
        write_png(out, np.zeros((2, 3, 3), np.uint8))
    assert np.asarray(Image.open(out))[0, 0, 0] == 200
    write_png(out, np.zeros((2, 3, 3), np.uint8), force=True)
    assert np.asarray(Image.open(out))[0, 0, 0] == 0


def test_numbered_names_skip_existing(tmp_path: Path) -> None:
    (tmp_path / "qdv0000.png").write_bytes(b"")
    (tmp_path / "qdv0001.png").write_bytes(b"")
    assert next_numbered_path(tmp_path).name == "qdv0002.png"


def test_releasing_a_context_gives_the_current_one_back() -> None:
    """A renderer made and released while another context is in use (a test module's, another renderer's) leaves
    that one current: its objects are read from its own context, not from the released one's."""
    first = create_headless_context()
    try:
        data = np.arange(64, dtype=np.uint8).tobytes()
        texture = first.texture((4, 4), 4, data)
        second = create_headless_context()
        second.texture((4, 4), 4, bytes(64))             # the same texture name in the second context
        release_headless_context(second)
        assert texture.read() == data
    finally:
        release_headless_context(first)
