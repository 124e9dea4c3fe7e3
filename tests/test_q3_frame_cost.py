"""Issue 38 (Quake III as fast as its engine, and its memory): what a frame works out once instead of each time, and
what a loaded segment no longer keeps — each drawing the same picture as before.

* a shader's passes keep their fixed uniforms, GL states and programs (:mod:`viewer.render.shaded.passes`); a
  program re-sends a pass's fixed uniforms only after another pass changed them; a pass's program leaves out the
  vertex work its stage does not use (deforms, computed texture coordinates, turbulence, view-dependent alpha, fog
  fading; the diffuse light too where the stage is not lit);
* a segment the session owns gives up its decoded images once uploaded; a clamp mode asked for later comes from the
  GPU's copy;
* MD3 surfaces keep the file's packed vertices, and any frame decodes to what decoding them all gives;
* a partial playback of oa_dm1_follow_p68 stays within the issue's peak memory (a child process).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from assets_loader.models.md3 import lerp_vertices, load_md3
from assets_loader.q3shaders import TexMod, Wave, parse_shader_text
from tests.conftest import QUAKE3
from tests.fuzz.measure import run_python
from viewer.games.quake3 import assets as q3assets
from viewer.render.context import OffscreenTarget
from viewer.render.frame import FrameRenderer
from viewer.render.refdef import Camera, SceneFrame
from viewer.render.shaded.painter import ShaderPainter, stage_program
from viewer.render.shaded.passes import ALL_FEATURES, _matrix, _tc_uniforms
from viewer.render.shaded.stages import tc_chain

CAMERA = Camera((193.6, 1119.4, -93.9), (0.0, 90.0, 0.0), 74.0)
SCRIPT = """
textures/t/scroll
{
    { map $whiteimage
      tcMod scroll 0.5 0
      rgbGen wave sin 0.5 0.5 0 1 }
    { map $whiteimage
      blendFunc GL_ONE GL_ONE
      alphaGen const 0.25 }
}
"""


def test_a_shaders_passes_are_worked_out_once_and_their_changing_part_once_per_time(ctx) -> None:
    shader = parse_shader_text(SCRIPT)["textures/t/scroll"]
    painter = ShaderPainter(ctx, {}, None)
    try:
        plan = painter.passes(shader)
        assert painter.passes(shader) is plan and len(plan.passes) == 2
        first, second = plan.passes
        fixed = dict(first.statics)
        assert "u_tc_pre" not in fixed and "u_color" not in fixed      # scroll and wave change with the time
        assert dict(second.statics)["u_color"] == (1.0, 1.0, 1.0, 0.25)
        assert first.states["cw"].blend is None and second.states["cw"].blend == (1, 1)
        dynamic, textures = first.at(0.25, (), painter.texture)
        assert first.at(0.25, (), painter.texture)[0] is dynamic           # the same time: not worked out again
        assert dict(dynamic)["u_color"] == pytest.approx((1.0, 1.0, 1.0, 1.0)) and len(textures) == 1
        assert dict(first.at(0.75, (), painter.texture)[0])["u_color"] == pytest.approx((0.0, 0.0, 0.0, 1.0))
    finally:
        painter.release()


def test_a_program_sends_a_passes_fixed_uniforms_again_once_something_changed_them(ctx) -> None:
    program = stage_program(ctx)
    fixed = (("u_rgb_vertex", 1), ("u_alpha_mode", 0))
    other = (("u_rgb_vertex", 4),)
    program.apply(fixed)
    assert program.group is fixed and program.program["u_rgb_vertex"].value == 1
    program.apply(other)
    assert program.program["u_rgb_vertex"].value == 4
    program.apply(fixed)
    assert program.group is fixed and program.program["u_rgb_vertex"].value == 1
    program.set("u_rgb_vertex", 2)          # any other change drops the record of what is in place
    assert program.group is None
    program.apply(fixed)
    assert program.program["u_rgb_vertex"].value == 1


WORK = """
textures/t/work
{
    deformVertexes wave 100 sin 0 2 0 1
    { map $whiteimage
      tcGen environment }
    { map $whiteimage
      tcMod turb 0 0.1 0 1
      rgbGen lightingDiffuse
      alphaGen portal 128 }
}
textures/t/plain
{
    { map $whiteimage
      rgbGen vertex
      alphaGen vertex }
}
textures/t/lit
{
    { map $whiteimage
      rgbGen lightingDiffuse }
}
"""


def test_a_passes_program_leaves_out_the_vertex_work_its_stage_does_not_use(ctx) -> None:
    shaders = parse_shader_text(WORK)
    painter = ShaderPainter(ctx, {}, None)
    try:
        work, plain = painter.passes(shaders["textures/t/work"]), painter.passes(shaders["textures/t/plain"])
        lit = painter.passes(shaders["textures/t/lit"])
        assert [step.features for step in work.passes] == [ALL_FEATURES, ALL_FEATURES]
        assert lit.passes[0].features == ("LIGHTING",) and lit.deformed == ()
        assert work.deformed == ALL_FEATURES and plain.deformed == () and plain.passes[0].features == ()
        lean = painter._pass_program(plain.passes[0], (False, False)).program
        full = painter._pass_program(work.passes[1], (False, True)).program
        diffuse = painter._pass_program(lit.passes[0], (False, False)).program
        used = {"u_deform", "u_turb", "u_ambient", "u_portal_range", "u_fog_adjust"}
        assert used <= set(full) and not used & set(lean) and "u_rgb_vertex" in lean
        assert "u_ambient" in diffuse and not {"u_deform", "u_turb", "u_fog_adjust"} & set(diffuse)
    finally:
        painter.release()


@pytest.mark.parametrize("mod", [TexMod("scroll", (0.37, -1.3)), TexMod("scale", (2.5, 0.3)),
                                 TexMod("rotate", (-47.0,)), TexMod("stretch", (), Wave("sin", 1.0, 0.4, 0.1, 0.7)),
                                 TexMod("transform", (1.0, 0.5, -0.25, 1.0, 0.1, 1e39))])
def test_one_tcmod_gives_the_uniforms_of_its_chain_without_arrays(mod) -> None:
    stage = SimpleNamespace(tc_mods=(mod,))
    for time in (0.0, 0.3, 1234.567):
        chain = tc_chain((mod,), time)
        expected = (("u_tc_pre", _matrix(chain.pre)), ("u_turb", chain.turb), ("u_tc_post", _matrix(chain.post)))
        got = _tc_uniforms(stage, time)
        assert [np.array(v, np.float32).tobytes() for _, v in got] == \
            [np.array(v, np.float32).tobytes() for _, v in expected]


def _picture(ctx, assets, owns: bool) -> tuple[np.ndarray, FrameRenderer]:
    target = OffscreenTarget(ctx, (96, 54))
    renderer = FrameRenderer(ctx, assets, owns_assets=owns)
    renderer.draw(SceneFrame(0.0, 0, CAMERA, (), np.ones(64, np.float32)), target)
    pixels = target.read_rgb()
    target.release()
    return pixels, renderer


def test_a_segment_it_owns_gives_up_its_decoded_images_and_draws_the_same(ctx, q3_fs) -> None:
    kept = q3assets.load_segment_assets(q3_fs, "maps/oa_dm1.bsp", ("", "maps/oa_dm1.bsp"), ("sarge",))
    given = q3assets.load_segment_assets(q3_fs, "maps/oa_dm1.bsp", ("", "maps/oa_dm1.bsp"), ("sarge",))
    expected, keeper = _picture(ctx, kept, owns=False)
    pixels, owner = _picture(ctx, given, owns=True)
    try:
        assert np.array_equal(pixels, expected)
        map_images, model_images = len(kept.q3_world.images), len(kept.md3.images)   # a shared segment keeps them
        assert map_images > 10 and model_images >= 1
        assert len(given.q3_world.images) < map_images // 4 and len(given.md3.images) < model_images
        painter = owner.backend.world.painter
        (name, clamp, picmip, mipmap), uploaded = next(iter(painter._textures.items()))
        assert name not in painter.images
        flags = SimpleNamespace(no_picmip=picmip == 0, no_mipmaps=not mipmap)   # the shader flags it was uploaded by
        other = painter.texture(name, not clamp, flags)    # made from the GPU's copy of the pixels
        assert other.size == uploaded.size and other.read() == uploaded.read()
        assert other.repeat_x == clamp
    finally:
        owner.release()
        keeper.release()


def test_md3_surfaces_keep_the_packed_vertices_and_decode_any_frame_alike(q3_fs) -> None:
    model = load_md3(q3_fs.read("models/players/sarge/upper.md3"), "upper.md3")
    surface = max(model.surfaces, key=lambda s: len(s.st))
    frames, verts = surface.xyz.shape[:2]
    assert surface.xyz.dtype == np.int16 and surface.packed_normals.shape == (frames, verts)
    assert surface.xyz.nbytes + surface.packed_normals.nbytes <= (surface.positions.nbytes
                                                                    + surface.normals.nbytes) // 3
    positions, normals = surface.positions, surface.normals
    for index in (0, frames // 2, frames - 1):
        one = surface.frame(index)
        assert np.array_equal(one[0], positions[index]) and np.array_equal(one[1], normals[index])
    pos, nrm = lerp_vertices(surface, 3, 4, 0.25)
    assert np.array_equal(pos, (0.75 * positions[3] + 0.25 * positions[4]).astype(np.float32))


def test_a_playback_of_the_follow_demo_stays_within_the_issues_peak_memory() -> None:
    code = (
        "import sys, warnings\n"
        "warnings.simplefilter('ignore')\n"
        "from assets_loader.demos import load_demo\n"
        "from viewer.headless import DemoRenderer\n"
        "from viewer.session import game_filesystem\n"
        "timeline = load_demo(sys.argv[1])\n"
        "renderer = DemoRenderer(timeline, game_filesystem(None, sys.argv[2], 'baseoa'), (320, 180))\n"
        "for t in timeline.times[::15]:\n"
        "    renderer.render(renderer.scene(float(t)))\n"
        "renderer.release()\n"
    )
    run = run_python(code, str(QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"), str(QUAKE3), timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.peak_mb <= 275, run.summary()    # issue 38: within 1.5x ioquake3's 184 MB (was 339 MB)
