"""GL tests of the Quake III world renderer on tiny synthetic maps: the default shader is texture × lightmap,
blend functions combine passes like GL, ``tcMod scroll`` moves with time, curved patches sharing an edge draw
without cracks, skies show their box and clouds, missing images draw the default grid."""

from __future__ import annotations

import moderngl
import numpy as np
import pytest

from assets_loader.bsp46 import load_bsp46
from assets_loader.q3shaders import default_shader, parse_shader_text
from viewer.render.q3.records import Quake3Segment
from viewer.render.context import OffscreenTarget
from viewer.render.frame import FrameRenderer
from viewer.render.q3.records import Quake3World
from viewer.render.refdef import Camera, SceneFrame
from viewer.render.view_math import view_projection
from viewer.games.quake3.assets import GREY_PALETTE

from .builders.bsp46 import Bsp46Spec, build_bsp46, patch_verts, quad_verts, surface, vert

SIZE = (64, 64)
#: Above the quad x 100..164, y 0..64 (z 0) of the builder's default map, looking straight down.
ABOVE_QUAD = Camera((132.0, 32.0, 40.0), (90.0, 0.0, 0.0))


def _world(bsp: bytes, scripts: str = "", images: dict[str, np.ndarray] | None = None) -> Quake3World:
    world = load_bsp46(bsp, "maps/test.bsp")
    scripted = parse_shader_text(scripts)
    shaders = tuple(scripted.get(world.shader_names[int(b["shader"])].lower())
                    or default_shader(world.shader_names[int(b["shader"])].lower(), int(b["lightmap"]))
                    for b in world.batches)
    fogs = tuple(scripted.get(fog.shader.lower()) for fog in world.fogs)
    return Quake3World(world, shaders, images or {}, (), fogs)


def _render(ctx, level: Quake3World, camera: Camera, t: float = 0.0, size=SIZE) -> np.ndarray:
    target = OffscreenTarget(ctx, size)
    renderer = FrameRenderer(ctx, Quake3Segment((), GREY_PALETTE, q3_world=level))
    try:
        renderer.draw(SceneFrame(t, 0, camera, (), np.ones(64, np.float32)), target)
        return target.read_rgb().astype(np.int32)
    finally:
        renderer.release()
        target.release()


def _solid(rgb, size: int = 8) -> np.ndarray:
    img = np.empty((size, size, 4), np.uint8)
    img[..., :3] = rgb
    img[..., 3] = 255
    return img


def test_a_surface_without_a_script_is_texture_times_lightmap(ctx) -> None:
    level = _world(build_bsp46(), images={"textures/test/floor": _solid((128, 200, 64))})
    assert not level.shaders[0].explicit
    pixels = _render(ctx, level, ABOVE_QUAD)
    atlas = level.world.lightmaps
    x, y = atlas.tiles[0]
    lightmap = atlas.pixels[int(y) + 64, int(x) + 64, :3].astype(np.int32)
    expected = lightmap * np.array([128, 200, 64]) // 255
    assert np.abs(pixels[32, 32] - expected).max() <= 3
    assert lightmap.max() > 0 and (pixels[32, 32] != lightmap).any()


@pytest.mark.parametrize("stage2, expected", [
    ("blendFunc GL_ONE GL_ONE", (255, 128, 128)),                       # add: 0.25+0.75, 0.5+0, 0.5+0
    ("blendFunc GL_DST_COLOR GL_ZERO", (48, 0, 0)),                     # filter: 0.25 × 0.75
    ("blendFunc GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA\n alphaGen const 0.5", (128, 64, 64)),  # blend half way
    ("blendFunc GL_ZERO GL_ONE_MINUS_SRC_COLOR", (16, 128, 128)),       # 0.25 × (1 − 0.75)
])
def test_blend_functions_combine_the_passes(ctx, stage2: str, expected) -> None:
    script = ("textures/test/floor\n{\n { map $whiteimage\n rgbGen const ( 0.25 0.5 0.5 ) }\n"
              f" {{ map textures/test/red\n {stage2} }}\n}}\n")
    level = _world(build_bsp46(), script, {"textures/test/red": _solid((191, 0, 0))})
    pixels = _render(ctx, level, ABOVE_QUAD)
    assert np.abs(pixels[32, 32] - np.array(expected)).max() <= 3, pixels[32, 32]


def _stripes() -> np.ndarray:
    img = np.zeros((64, 64, 4), np.uint8)
    img[..., 3] = 255
    img[:, ::16, :3] = 255
    img[:, 1::16, :3] = 255
    return img


def test_tcmod_scroll_moves_with_time(ctx) -> None:
    script = "textures/test/floor\n{\n { map textures/test/stripes\n tcMod scroll 0.25 0 }\n}\n"
    level = _world(build_bsp46(), script, {"textures/test/stripes": _stripes()})
    frames = [_render(ctx, level, ABOVE_QUAD, t) for t in (0.0, 0.5, 4.0)]
    assert np.abs(frames[0] - frames[1]).max() > 100      # moved an eighth of the texture
    assert np.abs(frames[0] - frames[2]).max() <= 2       # a whole turn later: the same picture


def test_patches_sharing_an_edge_draw_without_cracks(ctx) -> None:
    a = [[(0.0, 0.0, 0.0), (32.0, 0.0, 10.0), (64.0, 0.0, 0.0)],
         [(0.0, 32.0, 7.0), (32.0, 32.0, 30.0), (64.0, 33.0, 13.0)],
         [(0.0, 64.0, 0.0), (32.0, 64.0, 10.0), (64.0, 64.0, 3.0)]]
    edge = [row[2] for row in a]
    b = [[edge[2], edge[1], edge[0]],
         [(96.0, 64.0, 5.0), (96.0, 30.0, 20.0), (96.0, 0.0, 5.0)],
         [(128.0, 64.0, 0.0), (128.0, 32.0, 1.0), (128.0, 0.0, 0.0)]]
    spec = Bsp46Spec(verts=quad_verts(100, 164, 0, 64, 0) + patch_verts(a) + patch_verts(b),
                     surfaces=[surface(0, 1, 0, 4, 0, 6, lightmap=0), surface(1, 2, 4, 9, lightmap=0, patch=(3, 3)),
                               surface(1, 2, 13, 9, lightmap=0, patch=(3, 3))],
                     indexes=[0, 2, 1, 0, 3, 2], leaf_surfaces=[0, 1, 2, 2],
                     models=[((0, 0, 0), (128, 128, 128), 0, 3, 0, 1)])
    script = "textures/test/curve\n{\n { map $whiteimage }\n}\n"
    level = _world(build_bsp46(spec), script)
    camera = Camera((64.0, 32.0, 160.0), (90.0, 0.0, 0.0))
    size = (256, 256)
    pixels = _render(ctx, level, camera, size=size)
    # Project points inside both patches, including the shared edge x = 64, to pixels: all must be white.
    xs, ys = np.meshgrid(np.arange(6.0, 123.0, 2.0), np.arange(6.0, 59.0, 2.0))
    points = np.stack([xs.ravel(), ys.ravel(), np.full(xs.size, 8.0), np.ones(xs.size)], axis=1)
    clip = points @ view_projection(camera, 1.0).T
    ndc = clip[:, :2] / clip[:, 3:]
    px = ((ndc[:, 0] + 1) / 2 * size[0]).astype(int)
    py = ((1 - ndc[:, 1]) / 2 * size[1]).astype(int)
    assert (pixels[py, px].min(axis=1) >= 250).all()
    assert (pixels[2, 2] == 0).all()  # the background stays clear


def test_a_sky_shows_its_box_side_and_adds_its_cloud_layer(ctx) -> None:
    colours = {"rt": (255, 0, 0), "bk": (0, 255, 0), "lf": (0, 0, 255), "ft": (255, 255, 0), "up": (0, 255, 255),
               "dn": (120, 60, 30)}
    images = {f"env/test_{k}.tga": _solid(v) for k, v in colours.items()}
    images["textures/test/cloud"] = _solid((64, 64, 64))
    box = "textures/test/floor\n{\n surfaceparm sky\n skyParms env/test 512 -\n}\n"
    clouds = ("textures/test/floor\n{\n surfaceparm sky\n skyParms env/test 512 -\n"
              " { map textures/test/cloud\n blendFunc GL_ONE GL_ONE\n tcMod scroll 0.1 0 }\n}\n")
    looking_down = _render(ctx, _world(build_bsp46(), box, images), ABOVE_QUAD)
    assert np.abs(looking_down[32, 32] - np.array(colours["dn"])).max() <= 2
    with_clouds = _render(ctx, _world(build_bsp46(), clouds, images), ABOVE_QUAD)
    assert np.abs(with_clouds[32, 32] - np.array(colours["dn"]) - 64).max() <= 3


def test_missing_images_draw_the_default_grid_with_one_warning_each(ctx, tmp_path) -> None:
    from viewer.games.quake3.view import Quake3View
    from viewer.session import game_filesystem

    (tmp_path / "baseoa" / "maps").mkdir(parents=True)
    (tmp_path / "baseoa" / "maps" / "test.bsp").write_bytes(build_bsp46())
    fs = game_filesystem(None, str(tmp_path), "baseoa")
    with pytest.warns(UserWarning) as caught:
        assets = Quake3View().load_map_assets(fs, "maps/test.bsp")
    floor = [str(w.message) for w in caught if "textures/test/floor" in str(w.message)]
    assert len(floor) == 1 and "default grid" in floor[0]
    assert "textures/test/floor" in assets.q3_world.missing
    pixels = _render(ctx, assets.q3_world, ABOVE_QUAD)
    # the 16×16 placeholder (grey 32 with a white border) repeats over the 64-unit quad: dark cells, bright lines
    centre = pixels[8:56, 8:56].sum(axis=2)
    assert centre.min() < 100 and centre.max() > 300


def test_a_brush_entity_draws_its_submodel_where_the_entity_stands(ctx) -> None:
    from viewer.render.refdef import EntityDraw, ModelRef

    spec = Bsp46Spec()
    spec.shaders[2] = ("textures/test/door", 0, 1)  # the builder's *1 quad, drawable instead of nodraw
    level = _world(build_bsp46(spec), "textures/test/door\n{\n { map $whiteimage }\n}\n")
    assets = Quake3Segment((ModelRef("", "none"), ModelRef("*1", "brush", submodel=1)), GREY_PALETTE, q3_world=level)
    target = OffscreenTarget(ctx, SIZE)
    renderer = FrameRenderer(ctx, assets)
    try:
        pictures = []
        for offset in ((0.0, 0.0, 0.0), (-84.0, 16.0, 1.0)):  # *1 spans x 200..232, y 0..32: moved under the camera
            door = EntityDraw(1, np.array(offset), np.zeros(3))
            renderer.draw(SceneFrame(0.0, 0, ABOVE_QUAD, (door,), np.ones(64, np.float32)), target)
            pictures.append(target.read_rgb().astype(np.int32))
    finally:
        renderer.release()
        target.release()
    assert pictures[0][32, 32].min() < 250 and pictures[1][32, 32].min() >= 250


@pytest.mark.parametrize("offset, seen", [
    ((-84.0, 16.0, 1.0), "whole"),     # under the camera
    ((0.0, 0.0, 0.0), ""),             # beyond the top edge of the view (+x)
    ((0.0, 0.0, 60.0), ""),            # behind (above) the camera
    ((-50.0, 16.0, 1.0), "part"),      # across the top edge
])
def test_a_brush_entity_wholly_off_screen_is_not_drawn(ctx, monkeypatch, offset, seen) -> None:
    """``R_CullLocalBox``: a brush model wholly beside or behind the view costs no draw call; one reaching into it
    draws."""
    from viewer.render.refdef import EntityDraw, ModelRef

    spec = Bsp46Spec()
    spec.shaders[2] = ("textures/test/door", 0, 1)  # the builder's *1 quad, x 200..232, y 0..32
    level = _world(build_bsp46(spec), "textures/test/door\n{\n { map $whiteimage }\n}\n")
    assets = Quake3Segment((ModelRef("", "none"), ModelRef("*1", "brush", submodel=1)), GREY_PALETTE, q3_world=level)
    target = OffscreenTarget(ctx, SIZE)
    renderer = FrameRenderer(ctx, assets)
    calls: list[str] = []
    painter = renderer.backend.world.painter
    draw = painter.draw
    monkeypatch.setattr(painter, "draw", lambda *args, **kwargs: calls.append(args[1].name) or draw(*args, **kwargs))
    try:
        pictures = []
        for doors in ((), (EntityDraw(1, np.array(offset), np.zeros(3)),)):
            renderer.draw(SceneFrame(0.0, 0, ABOVE_QUAD, doors, np.ones(64, np.float32)), target)
            pictures.append(target.read_rgb().astype(np.int32))
    finally:
        renderer.release()
        target.release()
    assert ("textures/test/door" in calls) == bool(seen)
    changed = np.abs(pictures[0] - pictures[1]).sum(axis=2) > 30
    assert changed.any() == bool(seen)
    if seen == "part":
        assert changed[0].any() and not changed[-1].any()         # cut by the top edge (+x)


def _engine_fog(distance: float, inside: float, opaque: float) -> float:
    """``R_FogFactor`` worked by hand: the distance along the view axis times the part of the ray inside the fog,
    over the opaque distance, square-rooted through the 256-entry table."""
    fraction = min(distance * inside / opaque, 1.0)
    return float(np.sqrt(np.floor(fraction * 255) / 255))


FOG_SCRIPT = "textures/test/fog\n{\n fogparms ( 1 0 0 ) 64\n surfaceparm fog\n}\n"


def test_a_surface_in_a_fog_volume_is_fogged_like_the_engine_fog_table(ctx) -> None:
    """The floor quad (z = 0) in the builder's fog (visible side z = 32), seen from z = 40 straight down: 40
    units along the view axis, 32 of the 40 inside the fog, opaque at 64 → ``R_FogFactor`` ≈ 0.706 (not the
    linear 0.5)."""
    spec = Bsp46Spec()
    spec.surfaces[0] = surface(0, 1, 0, 4, 0, 6, lightmap=0, fog=0)
    script = "textures/test/floor\n{\n { map $whiteimage }\n}\n" + FOG_SCRIPT
    level = _world(build_bsp46(spec), script)
    assert level.fog_shaders[0] is not None and level.fog_shaders[0].fog is not None
    pixels = _render(ctx, level, ABOVE_QUAD)
    f = _engine_fog(40.0, 32.0 / 40.0, 64.0)
    expected = 255 * np.array([1.0, 1.0 - f, 1.0 - f])
    assert np.abs(pixels[32, 32] - expected).max() <= 4, (pixels[32, 32], expected)
    clear = _render(ctx, _world(build_bsp46(), script), ABOVE_QUAD)
    assert clear[32, 32].min() >= 250


def test_an_additive_stage_in_fog_fades_with_the_fog(ctx) -> None:
    """``adjustColorsForFog``: the added white is scaled by one minus the fog factor before the fog pass."""
    spec = Bsp46Spec()
    spec.surfaces[0] = surface(0, 1, 0, 4, 0, 6, lightmap=0, fog=0)
    script = ("textures/test/floor\n{\n { map $whiteimage\n rgbGen const ( 0 0 0 ) }\n"
              " { map $whiteimage\n blendFunc GL_ONE GL_ONE }\n}\n" + FOG_SCRIPT)
    pixels = _render(ctx, _world(build_bsp46(spec), script), ABOVE_QUAD)
    f = _engine_fog(40.0, 32.0 / 40.0, 64.0)
    keep = 1.0 - f
    expected = 255 * np.array([f + keep * keep, keep * keep, keep * keep])
    assert np.abs(pixels[32, 32] - expected).max() <= 5, (pixels[32, 32], expected)


def test_a_detail_stage_doubles_its_texture_times_the_lit_surface(ctx) -> None:
    script = ("textures/test/floor\n{\n { map textures/test/grey\n rgbGen identity }\n"
              " { map $lightmap\n blendFunc GL_DST_COLOR GL_ZERO\n rgbGen identity }\n"
              " { map textures/test/detail\n blendFunc GL_DST_COLOR GL_SRC_COLOR\n tcMod scale 4 4 }\n}\n")
    level = _world(build_bsp46(), script, {"textures/test/grey": _solid((128, 128, 128)),
                                           "textures/test/detail": _solid((160, 96, 128))})
    pixels = _render(ctx, level, ABOVE_QUAD)
    atlas = level.world.lightmaps
    x, y = atlas.tiles[0]
    lit = atlas.pixels[int(y) + 64, int(x) + 64, :3] / 255 * 128 / 255
    expected = np.minimum(2 * lit * np.array([160, 96, 128]) / 255, 1) * 255
    assert np.abs(pixels[32, 32] - expected).max() <= 3, (pixels[32, 32], expected)


@pytest.mark.parametrize("alpha_gen, expected", [("vertex", 64), ("oneMinusVertex", 191)])
def test_vertex_alpha_stages_blend_by_the_vertex_alpha(ctx, alpha_gen: str, expected: int) -> None:
    """A white blend stage over black with ``alphaGen vertex``/``oneMinusVertex`` on vertices of alpha 64; the
    world entity's zeroed ``shaderRGBA`` makes ``rgbGen entity`` black."""
    verts = [vert(v[:3], v[3:5], color=(255, 255, 255, 64)) for v in
             ((100, 0, 0, 0, 0), (164, 0, 0, 1, 0), (164, 64, 0, 1, 1), (100, 64, 0, 0, 1))]
    spec = Bsp46Spec()
    spec.verts = verts + spec.verts[4:]
    script = ("textures/test/floor\n{\n { map $whiteimage\n rgbGen const ( 0 0 0 ) }\n"
              f" {{ map $whiteimage\n blendFunc blend\n alphaGen {alpha_gen} }}\n}}\n")
    pixels = _render(ctx, _world(build_bsp46(spec), script), ABOVE_QUAD)
    assert np.abs(pixels[32, 32] - expected).max() <= 3, pixels[32, 32]
    entity = "textures/test/floor\n{\n { map $whiteimage\n rgbGen entity }\n}\n"
    assert _render(ctx, _world(build_bsp46(spec), entity), ABOVE_QUAD)[32, 32].max() <= 2


@pytest.mark.parametrize("deform, visible", [
    ("deformVertexes wave 64 sin 0 100 0.25 0", False),        # frequency 0: every vertex 100 units up
    ("deformVertexes wave 1000000 sin 0 100 0.25 1", False),   # div 10^6: the phase hardly varies, all go up
    ("deformVertexes wave 64 sin 0 0 0 1", True),              # no amplitude: the quad stays
])
def test_deform_wave_moves_vertices_along_their_normals(ctx, deform: str, visible: bool) -> None:
    """``deformVertexes wave <div> …``: the phase grows by (x + y + z) / div along the surface; a wave of
    frequency 0 moves every vertex alike. Moved 100 units up, the floor is above the camera at z = 40."""
    script = f"textures/test/floor\n{{\n {deform}\n {{ map $whiteimage }}\n}}\n"
    pixels = _render(ctx, _world(build_bsp46(), script), ABOVE_QUAD)
    assert (pixels[32, 32].min() >= 250) == visible, pixels[32, 32]


def test_without_an_entity_colour_the_vertex_colours_carry_it(ctx) -> None:
    """Sprites and effect polygons carry their entity's ``shaderRGBA`` in their vertex colours: drawn without an
    ``entity_color``, ``rgbGen entity``/``alphaGen entity`` read the vertices (alpha 64 here)."""
    from viewer.render.shaded.painter import Q3View
    from viewer.render.q3.world import Quake3WorldRenderer

    verts = [vert(v[:3], v[3:5], color=(255, 128, 0, 64)) for v in
             ((100, 0, 0, 0, 0), (164, 0, 0, 1, 0), (164, 64, 0, 1, 1), (100, 64, 0, 0, 1))]
    spec = Bsp46Spec()
    spec.verts = verts + spec.verts[4:]
    script = "textures/test/floor\n{\n { map $whiteimage\n blendFunc blend\n rgbGen entity\n alphaGen entity }\n}\n"
    level = _world(build_bsp46(spec), script)
    target = OffscreenTarget(ctx, SIZE)
    renderer = Quake3WorldRenderer(ctx, level)
    try:
        target.use()
        ctx.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)
        view = Q3View(view_projection(ABOVE_QUAD, 1.0), ABOVE_QUAD.origin, 0.0, ABOVE_QUAD.angles)
        renderer.painter.draw(renderer._static_vao, level.shaders[0], view, np.eye(4, dtype=np.float32),
                              ABOVE_QUAD.origin, 6, 0)
        pixel = target.read_rgb().astype(np.int32)[32, 32]
    finally:
        renderer.release()
        target.release()
    assert np.abs(pixel - np.array([64, 32, 0])).max() <= 2, pixel


def test_shader_images_upload_as_ioquake3_makes_them(ctx) -> None:
    """Upload32: with r_picmip 1 an image is halved (R_MipMap's truncated 2×2 mean) unless its shader says nopicmip;
    nomipmaps (which implies nopicmip) uploads one level filtered GL_LINEAR, otherwise mipmaps minified linearly
    between levels."""
    from viewer.render.shaded.painter import ShaderPainter, half_size

    image = np.zeros((64, 32, 4), np.uint8)
    image[0::2, 0::2] = 255                                           # one lit texel in every 2×2 block
    scripts = parse_shader_text("a { { map img } }\nb { nopicmip { map img } }\nc { nomipmaps { map img } }\n")
    painter = ShaderPainter(ctx, {"img": image}, None, picmip=1)
    try:
        sizes = {name: painter.texture("img", False, scripts[name]).size for name in "abc"}
        assert sizes == {"a": (16, 32), "b": (32, 64), "c": (32, 64)}
        assert painter.texture("img", False, scripts["c"]).filter == (moderngl.LINEAR, moderngl.LINEAR)
        assert painter.texture("img", False, scripts["a"]).filter == (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
        assert painter.texture("img").size == (32, 64)                  # no shader: as the file is
    finally:
        painter.release()
    assert half_size(image).shape == (32, 16, 4) and int(half_size(image)[0, 0, 0]) == 255 // 4
    assert half_size(np.full((1, 3, 4), 9, np.uint8)).tolist() == [[[9] * 4]]
