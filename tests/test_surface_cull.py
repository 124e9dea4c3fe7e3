"""Issue 38: a Quake III view leaves out of its frame's index list the visible surfaces the GL would drop anyway
(``R_CullSurface``): planar faces turned away from the camera by more than 8 units, and surfaces wholly off screen.
The same pictures, with far fewer indices for the driver to transform."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.bsp46 import MST_PLANAR, load_bsp46
from assets_loader.demos import load_demo
from assets_loader.q3shaders import default_shader, parse_shader_text
from tests.conftest import OA_FOLLOW, QUAKE3
from viewer.headless import DemoRenderer
from viewer.render.refdef import Camera
from viewer.render.q3.surface_cull import FACE_EPSILON, ListedSurfaces, SurfaceCulling
from viewer.render.shaded.dlights import SurfaceBounds
from viewer.render.view_math import view_projection
from viewer.session import game_filesystem

from .builders.bsp46 import build_bsp46

#: The default synthetic map's surface 0: a quad at x 100..164, y 0..64, z 0, drawn from above (+z).
QUAD = 0


def _culling(bsp: bytes, script: str = "") -> SurfaceCulling:
    world = load_bsp46(bsp, "maps/test.bsp")
    scripted = parse_shader_text(script)
    shaders = [scripted.get(world.shader_names[int(b["shader"])].lower())
               or default_shader(world.shader_names[int(b["shader"])].lower(), int(b["lightmap"]))
               for b in world.batches]
    return SurfaceCulling.of(world, SurfaceBounds.of(world), shaders, [True] * len(shaders))


def _kept(culling: SurfaceCulling, origin, angles, faces: bool = True) -> bool:
    listed = culling.listed(np.array([QUAD]))
    view_proj = view_projection(Camera(origin, angles), 1.0)
    return bool(listed.kept(view_proj, origin, faces)[0])


@pytest.mark.parametrize("height, kept", [(40.0, True), (-40.0, False), (-FACE_EPSILON + 0.5, True)])
def test_a_face_turned_away_by_more_than_8_units_is_left_out(height: float, kept: bool) -> None:
    culling = _culling(build_bsp46())
    assert culling.side[QUAD] == 1
    looking_at_it = (90.0, 0.0, 0.0) if height > 0 else (-90.0, 0.0, 0.0)
    assert _kept(culling, (132.0, 32.0, height), looking_at_it) == kept


def test_a_two_sided_face_or_a_portal_view_keeps_its_back() -> None:
    two_sided = _culling(build_bsp46(), "textures/test/floor\n{\n cull none\n { map $whiteimage }\n}\n")
    assert two_sided.side[QUAD] == 0
    assert _kept(two_sided, (132.0, 32.0, -40.0), (-90.0, 0.0, 0.0))
    assert _kept(_culling(build_bsp46()), (132.0, 32.0, -40.0), (-90.0, 0.0, 0.0), faces=False)


def test_a_face_off_screen_is_left_out_unless_its_batch_is_never_culled() -> None:
    culling = _culling(build_bsp46())
    assert not _kept(culling, (132.0, 32.0, 40.0), (-90.0, 0.0, 0.0))        # looking up, away from it
    listed = culling.listed(np.array([QUAD]))
    never = ListedSurfaces(listed.centres, listed.half, listed.normal, listed.dist, listed.front, listed.behind,
                           np.array([False]))
    assert never.kept(view_projection(Camera((132.0, 32.0, 40.0), (-90.0, 0.0, 0.0)), 1.0), (132.0, 32.0, 40.0))[0]


def test_a_face_whose_triangles_leave_its_plane_is_not_face_tested(q3_fs) -> None:
    world = load_bsp46(q3_fs.read("maps/oa_dm1.bsp"), "maps/oa_dm1.bsp")
    bounds = SurfaceBounds.of(world)
    shaders = [default_shader("x", 0)] * len(world.batches)
    culling = SurfaceCulling.of(world, bounds, shaders, [True] * len(shaders))
    planar = (world.surfaces["kind"] == MST_PLANAR) & (world.surfaces["num_indices"] > 0)
    assert planar.sum() > 500 and (culling.side[planar] == 1).all()    # every face of the real map qualifies
    face = int(np.flatnonzero(planar)[0])
    vertex = int(world.indices[int(world.surfaces["first_index"][face])])
    world.vertices["position"][vertex] += bounds.normal[face] * 2.0      # one corner lifted 2 units off the plane
    assert SurfaceCulling.of(world, bounds, shaders, [True] * len(shaders)).side[face] == 0


def test_the_follow_demo_draws_the_same_pictures_from_far_fewer_indices(monkeypatch) -> None:
    timeline = load_demo(OA_FOLLOW)
    renderer = DemoRenderer(timeline, game_filesystem(None, str(QUAKE3), "baseoa"), (160, 90))
    times = [float(t) for t in timeline.times[100::400]]
    try:
        culled, drawn, listed = [], 0, 0
        for t in times:
            culled.append(renderer.pixels(t))
            visible = renderer.session.renderer.backend.world._main
            drawn, listed = drawn + len(visible.drawn), listed + len(visible.indices)
        monkeypatch.setattr(ListedSurfaces, "kept", lambda self, *args: np.ones(len(self.boxed), bool))
        for t, expected in zip(times, culled):
            assert np.array_equal(renderer.pixels(t), expected), t
        assert len(times) == 6 and drawn < 0.6 * listed
    finally:
        renderer.release()
