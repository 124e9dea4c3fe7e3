"""Models with empty parts draw what they have: an MD3 surface with no triangles (OpenArena's
``models/misc/telep.md3`` has one, "Tube") is kept by the loader and skipped by the renderer, which used to stop
with ``moderngl.Error: the buffer cannot be empty``; a Quake III map without draw surfaces uploads too.  The
other model kinds refuse an empty mesh when loading (a typed error, then a placeholder)."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.bsp46 import load_bsp46
from assets_loader.errors import FormatError
from assets_loader.models.md2 import load_md2
from assets_loader.models.md3 import load_md3
from assets_loader.models.mdl import load_mdl
from assets_loader.q3shaders import ShaderLibrary, parse_shader_text
from viewer.render.q3.records import Quake3Segment
from viewer.games.quake3 import assets as q3assets
from viewer.render.context import OffscreenTarget
from viewer.render.frame import FrameRenderer
from viewer.render.shaded.records import Md3Draw, Quake3Models
from viewer.render.q3.records import Quake3World
from viewer.render.refdef import SceneFrame, SegmentAssets

from .builders.bsp46 import Bsp46Spec, build_bsp46
from .builders.md3 import Md3Spec, Md3SurfaceSpec, build_md3, triangle_surface
from .builders.models import build_mdl, default_spec
from .builders.quake2_models import build_md2, default_md2
from .test_render_q3models import CAMERA
from .test_render_q3world import ABOVE_QUAD, SIZE, _world

TELEPORTER = "models/misc/telep.md3"
IN_FRONT = np.array([193.6, 1209.4, -119.9], np.float32)   # 90 units ahead of CAMERA, on oa_dm1's floor


def _render(ctx, assets: SegmentAssets, draws: tuple[Md3Draw, ...], camera=CAMERA, size=(160, 90)) -> np.ndarray:
    target = OffscreenTarget(ctx, size)
    renderer = FrameRenderer(ctx, assets)
    try:
        renderer.draw(SceneFrame(0.0, 0, camera, (), np.ones(64, np.float32), md3=draws), target)
        return target.read_rgb().astype(np.int32)
    finally:
        renderer.release()
        target.release()


def test_openarenas_teleporter_keeps_its_empty_surface_and_draws_the_rest(ctx, q3_fs) -> None:
    assets = q3assets.load_segment_assets(q3_fs, "maps/oa_dm1.bsp", ("", "maps/oa_dm1.bsp", TELEPORTER))
    model = assets.md3.md3[TELEPORTER]
    sizes = {s.name: s.triangles.shape for s in model.surfaces}
    assert sizes["Tube"] == (0, 3) and sizes["Circle"][0] > 0          # the loader keeps the empty part as it is
    draw = Md3Draw(TELEPORTER, IN_FRONT, np.eye(3, dtype=np.float32))
    empty, drawn = _render(ctx, assets, ()), _render(ctx, assets, (draw,))
    assert (np.abs(drawn - empty).sum(axis=2) > 30).mean() > 0.005     # the ring shows; no error on the tube


def test_a_model_of_nothing_but_empty_surfaces_draws_nothing_and_does_not_fail(ctx) -> None:
    hollow = Md3SurfaceSpec("hollow", np.zeros((2, 0, 3), np.float32), np.zeros((2, 0), np.uint16),
                            np.zeros((0, 2), np.float32), np.zeros((0, 3), np.int32))
    script = "models/test/skin\n{\n cull none\n { map $whiteimage }\n}\n"
    library = ShaderLibrary(parse_shader_text(script), (), ())
    models = Quake3Models({"models/hollow.md3": load_md3(build_md3(Md3Spec(surfaces=[hollow])), "models/hollow.md3"),
                           "models/mixed.md3": load_md3(build_md3(Md3Spec(surfaces=[hollow, triangle_surface()])),
                                                        "models/mixed.md3")}, library)
    level = _world(build_bsp46(), "textures/test/floor\n{\n surfaceparm nodraw\n}\n")
    assets = Quake3Segment((), q3assets.GREY_PALETTE, md3=models, q3_world=level)
    at = np.array([126.0, 26.0, -10.0], np.float32)
    base = _render(ctx, assets, (), ABOVE_QUAD, SIZE)
    hollow_only = _render(ctx, assets, (Md3Draw("models/hollow.md3", at, np.eye(3, dtype=np.float32)),),
                          ABOVE_QUAD, SIZE)
    mixed = _render(ctx, assets, (Md3Draw("models/mixed.md3", at, np.eye(3, dtype=np.float32)),), ABOVE_QUAD, SIZE)
    assert np.array_equal(hollow_only, base)
    assert (mixed[32, 32] > base[32, 32] + 50).all()                    # the triangle beside the empty part


def test_a_quake3_map_without_draw_surfaces_uploads(ctx) -> None:
    spec = Bsp46Spec(verts=[], indexes=[], surfaces=[], leaf_surfaces=[], leafs=[(0, 0, 0, 0, 0), (1, 0, 0, 0, 0)],
                     models=[((0, 0, 0), (128, 128, 128), 0, 0, 0, 1)])
    world = load_bsp46(build_bsp46(spec), "maps/empty.bsp")
    assert len(world.vertices) == 0
    picture = _render(ctx, Quake3Segment((), q3assets.GREY_PALETTE, q3_world=Quake3World(world, (), {}, (), ())), (),
                      ABOVE_QUAD, SIZE)
    assert picture.max() == 0


@pytest.mark.parametrize("load", [
    lambda: load_mdl(build_mdl(default_spec(triangles=[])), "empty.mdl"),
    lambda: load_md2(build_md2(default_md2(triangles=[])), name="empty.md2"),
])
def test_alias_models_without_triangles_are_refused_when_loading(load) -> None:
    """MDL and MD2 need a triangle (``Mod_LoadAliasModel``: "no triangles"): the game shows a placeholder."""
    with pytest.raises(FormatError, match="triangle count"):
        load()
