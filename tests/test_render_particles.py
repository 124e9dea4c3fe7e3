"""Headless particle drawing: coloured discs at the projected location, depth-tested, no depth writes."""

from __future__ import annotations

import numpy as np
import pytest

from viewer.render.view_math import angle_vectors, view_projection
from viewer.render.refdef import Camera
from viewer.games.quake.fx import Particles, build_emitters, particles_at
from viewer.render.context import OffscreenTarget
from viewer.render.particles import ParticleRenderer

SIZE = (64, 64)


def palette() -> np.ndarray:
    rgb = np.zeros((256, 3), np.uint8)
    rgb[251] = (255, 0, 0)
    rgb[208] = (0, 255, 0)
    rgb[0x6F] = (255, 255, 0)
    rgb[0x6D] = (255, 255, 0)
    for i in (0x61, 0x63, 0x65, 0x67, 0x69, 0x6B, 0x6E, 0x6C, 0x6A, 0x68, 0x66):
        rgb[i] = (255, 200, 0)
    return rgb


def project(vp: np.ndarray, p) -> tuple[int, int]:
    c = vp @ np.array([*p, 1.0])
    ndc = c[:3] / c[3]
    x = int((ndc[0] * 0.5 + 0.5) * SIZE[0])
    y = int((1 - (ndc[1] * 0.5 + 0.5)) * SIZE[1])
    return y, x


def render(ctx, particles: Particles, camera: Camera, *, clear_depth: float = 1.0, min_pixels: float = 3.0,
           style: str = "quakespasm"):
    target = OffscreenTarget(ctx, SIZE)
    target.use()
    ctx.clear(0.0, 0.0, 0.0, 1.0, depth=clear_depth)
    renderer = ParticleRenderer(ctx, palette(), min_pixels=min_pixels, initial_capacity=4)
    vp = view_projection(camera, SIZE[0] / SIZE[1])
    _, right, up = angle_vectors(camera.angles)
    renderer.draw(particles, vp, right, up, style=style)
    rgb = target.read_rgb()
    depth = np.frombuffer(target.fbo.read(components=1, attachment=-1, dtype="f4"), np.float32)
    renderer.release()
    target.release()
    return rgb, depth, vp


def one(pos, color, size=1.0) -> Particles:
    n = len(pos)
    return Particles(np.asarray(pos, np.float32).reshape(n, 3), np.asarray(color, np.uint8),
                     np.full(n, size, np.float32), np.zeros(n))


def test_particles_appear_at_their_projected_pixels(ctx) -> None:
    cam = Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))       # looking down +x, z up, +y to the left
    parts = one([(100.0, 0.0, 0.0), (100.0, 40.0, 30.0)], [251, 208])
    rgb, depth, vp = render(ctx, parts, cam)
    y, x = project(vp, (100.0, 0.0, 0.0))
    assert abs(y - 32) <= 1 and abs(x - 32) <= 1
    red = rgb[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3)
    assert red[:, 0].max() > 200 and red[:, 1].max() < 40
    y2, x2 = project(vp, (100.0, 40.0, 30.0))
    assert y2 < 32 and x2 < 32                               # up and to the left
    green = rgb[y2 - 1:y2 + 2, x2 - 1:x2 + 2].reshape(-1, 3)
    assert green[:, 1].max() > 200 and green[:, 0].max() < 40
    lit = (rgb.max(axis=2) > 40)
    assert lit.sum() < 40                                    # small discs, not the whole target
    assert np.all(depth == 1.0)                              # no depth writes


def test_particles_are_hidden_behind_nearer_depth(ctx) -> None:
    cam = Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    rgb, _, _ = render(ctx, one([(100.0, 0.0, 0.0)], [251]), cam, clear_depth=0.01)
    assert rgb.max() < 10


def test_particle_size_grows_with_distance_like_glquake(ctx) -> None:
    cam = Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    # with no pixel minimum, a size-10 particle 30 units away is a disc ~ 10 * 0.95 * 1.12 units across
    rgb, _, _ = render(ctx, one([(30.0, 0.0, 0.0)], [251], size=10.0), cam, min_pixels=0.0)
    lit_cols = np.flatnonzero((rgb[:, :, 0] > 100).any(axis=0))
    width_px = len(lit_cols)
    units_per_px = 2 * 30.0 / SIZE[0]                        # 90 degree fov
    assert width_px * units_per_px == pytest.approx(10 * 0.952 * (1 + 30 * 0.004), rel=0.25)


def test_quake2_particles_are_q2pro_soft_spots_at_their_own_alpha(ctx) -> None:
    """Q2PRO's GL_DrawParticles: (1 + 0.004·depth)·gl_partscale 2 sized, the gl_partshape 0 texture's alpha falling
    linearly to 0 at 7.5 of its 8 texels' half width (half the side is scale / (2 (1 + sqrt(1/2))))."""
    cam = Camera((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    spot = one([(30.0, 0.0, 0.0)], [251], size=10.0)
    rgb, _, _ = render(ctx, spot, cam, min_pixels=0.0, style="q2pro")
    red = rgb[:, :, 0].astype(int)
    units_per_px = 2 * 30.0 / SIZE[0]
    radius = 7.5 / 8 * 10 * 2 * (1 + 30 * 0.004) / (2 * (1 + np.sqrt(0.5)))
    assert len(np.flatnonzero((red > 8).any(axis=0))) * units_per_px == pytest.approx(2 * radius, rel=0.25)
    assert red[32, 32] > 200 and red[32, 32 + int(radius / units_per_px * 0.5)] == pytest.approx(128, abs=40)
    half = Particles(spot.positions, spot.colors, spot.sizes, spot.spawn, np.array([0.5], np.float32))
    faded, _, _ = render(ctx, half, cam, min_pixels=0.0, style="q2pro")
    assert int(faded[32, 32, 0]) == pytest.approx(red[32, 32] / 2, abs=12)
    disc, _, _ = render(ctx, spot, cam, min_pixels=0.0)            # Quake's look: a nearly opaque disc, as before
    assert (disc[:, :, 0] > 200).sum() > 4 * (red > 200).sum()


def test_an_explosion_renders_and_the_buffer_grows(ctx) -> None:
    em = build_emitters([_explosion()])
    parts = particles_at(em, 0.1)
    cam = Camera((-300.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    rgb, _, _ = render(ctx, parts, cam)
    assert (rgb[..., 0] > 150).sum() > 50 and rgb[32, 32, 0] > 150
    assert rgb[..., 2].max() < 40


def _explosion():
    from assets_loader.demos.events import TempEntityEvent
    return TempEntityEvent(0.0, 0, 0, "explosion", (0.0, 0.0, 0.0))
