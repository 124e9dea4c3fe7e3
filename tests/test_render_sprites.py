"""Sprite rendering on Mesa llvmpipe: orientation types, the transparent index, picture orientation, frame groups,
alpha, and the real explosion sprite."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.models import (SPR_FACING_UPRIGHT, SPR_ORIENTED, SPR_VP_PARALLEL, SPR_VP_PARALLEL_ORIENTED,
                                  SPR_VP_PARALLEL_UPRIGHT, load_spr)
from assets_loader.palette import Palette, load_palette
from tests.builders.models import build_spr
from viewer.render.view_math import angle_vectors, view_projection
from viewer.render.refdef import Camera
from viewer.render.context import OffscreenTarget
from viewer.render.bsp.sprites import SpriteRenderer, sprite_axes

SIZE = 64
TOLERANCE = 3
PALETTE = Palette(np.stack([np.arange(256) % 200 + 40, (np.arange(256) * 3) % 200 + 40,
                            (np.arange(256) * 7 + 90) % 200 + 40], axis=1).astype(np.uint8))


@pytest.fixture(scope="module")
def renderer(ctx):
    r = SpriteRenderer(ctx)
    yield r
    r.release()


@pytest.fixture()
def target(ctx):
    t = OffscreenTarget(ctx, (SIZE, SIZE))
    yield t
    t.release()


def _camera_at(angles, distance: float = 64.0, look_at=(0.0, 0.0, 0.0)) -> Camera:
    forward, _, _ = angle_vectors(angles)
    return Camera(tuple(np.asarray(look_at) - distance * forward), tuple(angles))


def _sprite(pixels: np.ndarray, sprtype: int = SPR_VP_PARALLEL, frames=None):
    h, w = pixels.shape
    return load_spr(build_spr(frames or [(pixels, (-w // 2, h // 2))], sprtype=sprtype), name="test.spr")


def _render(ctx, target, renderer, sprite, camera: Camera, palette=PALETTE, **kw) -> np.ndarray:
    handle = renderer.upload(sprite, palette)
    target.use()
    ctx.clear(0, 0, 0, 1, depth=1.0)
    forward, right, up = angle_vectors(camera.angles)
    renderer.draw(handle, view_projection(camera, target.size[0] / target.size[1]), camera_origin=camera.origin,
                  camera_forward=forward, camera_right=right, camera_up=up, origin=kw.pop("origin", (0, 0, 0)), **kw)
    pixels = target.read_rgb().astype(int)
    handle.release()
    return pixels


def _drawn(px: np.ndarray) -> np.ndarray:
    return px.sum(axis=-1) > 3 * TOLERANCE


def _bbox(px: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(_drawn(px))
    return int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max())


def _close(pixel, colour) -> bool:
    return bool(np.all(np.abs(np.asarray(pixel, int) - np.asarray(colour, int)) <= TOLERANCE))


@pytest.mark.parametrize("angles", [(0, 0, 0), (40, 130, 0), (-30, 250, 0)])
def test_vp_parallel_faces_the_camera(ctx, target, renderer, angles) -> None:
    sprite = _sprite(np.full((32, 32), 5, np.uint8))
    x0, x1, y0, y1 = _bbox(_render(ctx, target, renderer, sprite, _camera_at(angles)))
    assert x1 - x0 + 1 == pytest.approx(16, abs=1) and y1 - y0 + 1 == pytest.approx(16, abs=1)
    assert (x0 + x1) / 2 == pytest.approx(31.5, abs=1) and (y0 + y1) / 2 == pytest.approx(31.5, abs=1)


def test_vp_parallel_upright_stays_vertical(ctx, target, renderer) -> None:
    sprite = _sprite(np.full((32, 32), 5, np.uint8), SPR_VP_PARALLEL_UPRIGHT)
    x0, x1, y0, y1 = _bbox(_render(ctx, target, renderer, sprite, _camera_at((50, 20, 0))))
    width, height = x1 - x0 + 1, y1 - y0 + 1
    assert 14 <= width <= 22   # the top edge is nearer the camera, so a little wider
    assert height < 13 and height < width - 4   # seen from above, an upright picture is foreshortened


def test_transparent_index_leaves_the_background(ctx, target, renderer) -> None:
    pixels = np.full((32, 32), 5, np.uint8)
    pixels[:, :16] = 255
    px = _render(ctx, target, renderer, _sprite(pixels), _camera_at((0, 0, 0)))
    x0, x1, _, _ = _bbox(px)
    assert x0 >= 31 and x1 == pytest.approx(39, abs=1)
    assert _close(px[32, 28], (0, 0, 0)) and _close(px[32, 36], PALETTE.rgb[5])


def test_top_row_is_drawn_at_the_top(ctx, target, renderer) -> None:
    pixels = np.full((32, 32), 100, np.uint8)
    pixels[:16] = 20
    px = _render(ctx, target, renderer, _sprite(pixels), _camera_at((0, 0, 0)))
    assert _close(px[27, 32], PALETTE.rgb[20]) and _close(px[36, 32], PALETTE.rgb[100])


def test_oriented_sprite_ignores_the_camera(ctx, target, renderer) -> None:
    sprite = _sprite(np.full((32, 32), 5, np.uint8), SPR_ORIENTED)
    face_on = _render(ctx, target, renderer, sprite, _camera_at((0, 0, 0)), angles=(0, 0, 0))
    edge_on = _render(ctx, target, renderer, sprite, _camera_at((0, 90, 0)), angles=(0, 0, 0))
    behind = _render(ctx, target, renderer, sprite, _camera_at((0, 180, 0)), angles=(0, 0, 0))
    assert _drawn(face_on).sum() > 200 and _drawn(behind).sum() > 200   # both sides are drawn
    assert _drawn(edge_on).sum() < 20


def test_vp_parallel_oriented_obeys_roll(ctx, target, renderer) -> None:
    sprite = _sprite(np.full((32, 8), 5, np.uint8), SPR_VP_PARALLEL_ORIENTED)   # tall and thin
    x0, x1, y0, y1 = _bbox(_render(ctx, target, renderer, sprite, _camera_at((20, 30, 0)), angles=(0, 0, 90)))
    assert x1 - x0 > 3 * (y1 - y0)   # rolled onto its side


def test_axes_per_type() -> None:
    cam_o = np.array([-64.0, 0.0, 0.0])
    f, r, u = angle_vectors((30, 0, 0))
    up, right = sprite_axes(SPR_VP_PARALLEL, cam_o, f, r, u, (0, 0, 0), (0, 0, 0))
    assert np.allclose(up, u) and np.allclose(right, r)
    up, right = sprite_axes(SPR_VP_PARALLEL_UPRIGHT, cam_o, f, r, u, (0, 0, 0), (0, 0, 0))
    assert np.allclose(up, [0, 0, 1]) and np.allclose(right, [0, -1, 0])
    up, right = sprite_axes(SPR_FACING_UPRIGHT, (0, -50, 99), f, r, u, (0, 0, 0), (0, 0, 0))
    assert np.allclose(up, [0, 0, 1]) and np.allclose(right, [1, 0, 0])   # camera south of the sprite
    up, right = sprite_axes(SPR_ORIENTED, cam_o, f, r, u, (0, 0, 0), (0, 90, 0))
    assert np.allclose(up, [0, 0, 1]) and np.allclose(right, [1, 0, 0], atol=1e-9)
    up, right = sprite_axes(SPR_VP_PARALLEL_ORIENTED, cam_o, f, r, u, (0, 0, 0), (0, 0, 90))
    assert np.allclose(up, -r) and np.allclose(right, u)


def test_frame_group_picture_follows_time(ctx, target, renderer) -> None:
    a, b = np.full((32, 32), 5, np.uint8), np.full((32, 32), 60, np.uint8)
    sprite = _sprite(a, frames=[(a, (-16, 16)), ([0.1, 0.2], [(a, (-16, 16)), (b, (-16, 16))])])
    cam = _camera_at((0, 0, 0))
    assert _close(_render(ctx, target, renderer, sprite, cam, frame=1, time=0.05)[32, 32], PALETTE.rgb[5])
    assert _close(_render(ctx, target, renderer, sprite, cam, frame=1, time=0.15)[32, 32], PALETTE.rgb[60])
    assert _close(_render(ctx, target, renderer, sprite, cam, frame=1, time=0.25)[32, 32], PALETTE.rgb[5])


def test_alpha_blends(ctx, target, renderer) -> None:
    px = _render(ctx, target, renderer, _sprite(np.full((32, 32), 5, np.uint8)), _camera_at((0, 0, 0)), alpha=0.5)
    assert _close(px[32, 32], PALETTE.rgb[5] * 0.5)


def test_explosion_sprite_renders(ctx, renderer, lq1_pak) -> None:
    palette = load_palette(lq1_pak.read("gfx/palette.lmp"))
    sprite = load_spr(lq1_pak.read("progs/s_explod.spr"), "progs/s_explod.spr")
    target = OffscreenTarget(ctx, (128, 128))
    try:
        for frame in range(sprite.num_frames):
            px = _render(ctx, target, renderer, sprite, _camera_at((10, 45, 0), distance=60), palette=palette,
                         frame=frame)
            opaque = (sprite.frames[frame].images[0].indices != 255).sum()
            # LibreQuake's last frame is fully transparent: nothing may be drawn for it
            assert (_drawn(px).sum() > 30) if opaque > 100 else (_drawn(px).sum() == 0), frame
        first = _render(ctx, target, renderer, sprite, _camera_at((10, 45, 0), distance=60), palette=palette)
        assert len({tuple(p) for p in first[_drawn(first)]}) > 10
    finally:
        target.release()
