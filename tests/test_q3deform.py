"""``deformVertexes autosprite``/``autosprite2``: quads turned to the viewer, on the CPU and through the renderer."""

from __future__ import annotations

import numpy as np

from viewer.render.shaded.deform import autosprite, autosprite2
from viewer.render.refdef import Camera

from .builders.bsp46 import build_bsp46
from .test_render_q3world import _render, _world

BEAM = np.array([(0, 0, 0), (100, 0, 0), (100, 10, 0), (0, 10, 0)], np.float32)


def test_autosprite2_turns_a_beam_about_its_long_axis() -> None:
    flat = autosprite2(BEAM, np.array([0.0, 0.0, -1.0]))      # seen from above: already facing the viewer
    assert np.allclose(flat, BEAM)
    turned = autosprite2(BEAM, np.array([0.0, 1.0, 0.0]))     # seen along +y: stands up
    assert np.allclose(turned[:, 1], 5.0) and np.allclose(sorted(turned[:, 2]), [-5, -5, 5, 5])
    assert np.allclose(turned[:, 0], BEAM[:, 0])


def test_autosprite_makes_a_square_in_the_view_plane() -> None:
    positions, st = autosprite(BEAM, np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0]))
    mid = BEAM.mean(axis=0)
    assert np.allclose(positions.mean(axis=0), mid)
    assert np.allclose(positions[:, 0], mid[0])               # all in the plane facing +x
    side = np.linalg.norm(BEAM[0] - mid) * np.sqrt(0.5)
    assert np.allclose(np.abs(positions[:, 1:] - mid[1:]), side)
    assert st.tolist() == [[0, 0], [1, 0], [1, 1], [0, 1]]


def test_an_autosprite_floor_quad_faces_a_level_camera(ctx) -> None:
    """The builder's floor quad (z = 0) is edge-on to a level camera; as an autosprite it is a square facing it."""
    camera = Camera((70.0, 32.0, 0.0), (0.0, 0.0, 0.0))
    plain = _world(build_bsp46(), "textures/test/floor\n{\n { map $whiteimage }\n}\n")
    sprite = _world(build_bsp46(), "textures/test/floor\n{\n deformVertexes autosprite\n { map $whiteimage }\n}\n")
    assert _render(ctx, plain, camera)[32, 32].max() == 0
    assert _render(ctx, sprite, camera)[32, 32].min() >= 250
