"""Shader stage evaluation without GL: waves, tcMod chains, colours, blend factors, animMap frames and the
texture × lightmap collapse."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.q3shaders import Stage, TexMod, Wave, default_shader, parse_shader_text
from viewer.render.shaded.stages import (anim_frame, blend_factors, collapse, eval_wave, stage_color, tc_chain,
                                         vertex_color_mode)


def _apply(chain, s: float, t: float) -> tuple[float, float]:
    st = chain.post @ chain.pre @ np.array([s, t, 1.0])
    return float(st[0]), float(st[1])


@pytest.mark.parametrize("func, x, expected", [
    ("sin", 0.25, 1.0), ("triangle", 0.25, 0.0), ("triangle", 0.5, 1.0), ("square", 0.75, -1.0),
    ("sawtooth", 0.25, 0.25), ("inversesawtooth", 0.25, 0.75),
])
def test_waves_follow_the_engine_tables(func: str, x: float, expected: float) -> None:
    wave = Wave(func, 1.0, 2.0, 0.0, 1.0)
    assert eval_wave(wave, x) == pytest.approx(1.0 + 2.0 * expected, abs=1e-9)


def test_tcmods_apply_in_script_order() -> None:
    scroll_then_scale = tc_chain((TexMod("scroll", (0.5, 0.0)), TexMod("scale", (2.0, 2.0))), 0.5)
    assert _apply(scroll_then_scale, 0.0, 0.0) == pytest.approx((0.5, 0.0))        # (0 + 0.25) × 2
    scale_then_scroll = tc_chain((TexMod("scale", (2.0, 2.0)), TexMod("scroll", (0.5, 0.0))), 0.5)
    assert _apply(scale_then_scroll, 0.0, 0.0) == pytest.approx((0.25, 0.0))
    rotate = tc_chain((TexMod("rotate", (90.0,)),), 1.0)                            # about the middle (0.5, 0.5)
    assert _apply(rotate, 0.5, 0.5) == pytest.approx((0.5, 0.5))
    assert _apply(rotate, 1.0, 0.5) == pytest.approx((0.5, 0.0))
    transform = tc_chain((TexMod("transform", (1.0, 0.0, 0.0, 1.0, 0.25, 0.5)),), 0.0)
    assert _apply(transform, 0.0, 0.0) == pytest.approx((0.25, 0.5))
    stretch = tc_chain((TexMod("stretch", (), Wave("sin", 2.0, 0.0, 0.0, 1.0)),), 0.0)
    assert _apply(stretch, 1.0, 1.0) == pytest.approx((0.75, 0.75))


def test_turb_splits_the_chain() -> None:
    chain = tc_chain((TexMod("scale", (2.0, 2.0)), TexMod("turb", (0.0, 0.1, 0.25, 2.0)),
                      TexMod("scroll", (1.0, 0.0))), 0.25)
    assert chain.pre[0, 0] == 2.0 and chain.post[0, 2] == pytest.approx(0.25)
    assert chain.turb == pytest.approx((0.1, 0.25 + 0.25 * 2.0))


def test_stage_colours_blends_and_frames() -> None:
    wave_stage = Stage(("x",), rgb_gen="wave", rgb_wave=Wave("sin", 0.5, 0.5, 0.0, 1.0), alpha_gen="const",
                       alpha_const=0.25)
    assert stage_color(wave_stage, 0.25) == pytest.approx((1.0, 1.0, 1.0, 0.25))
    assert stage_color(Stage(("x",), rgb_gen="const", rgb_const=(0.1, 0.2, 0.3)), 0.0)[:3] == (0.1, 0.2, 0.3)
    assert blend_factors(Stage(("x",), blend=("GL_ONE", "GL_ZERO"))) is None
    assert blend_factors(Stage(("x",), blend=("GL_DST_COLOR", "GL_ZERO"))) == (0x306, 0)
    anim = Stage(("a", "b", "c"), anim_frequency=2.0)
    assert [anim_frame(anim, t) for t in (0.0, 0.6, 1.1, 1.6)] == ["a", "b", "c", "a"]


def test_texture_times_lightmap_is_one_pass_but_scripted_extras_stay_passes() -> None:
    passes = collapse(default_shader("textures/x/wall", 0).stages)
    assert len(passes) == 1 and passes[0][0].is_lightmap and passes[0][1] is not None
    script = parse_shader_text("s\n{\n { map $lightmap\n rgbGen identity }\n { map t\n blendFunc filter }\n"
                               " { map glow\n blendFunc add\n tcMod scroll 1 0 }\n}\n")["s"]
    passes = collapse(script.stages)
    assert [(p[1] is not None, p[2] is not None) for p in passes] == [(True, False), (False, False)]
    detailed = parse_shader_text("d\n{\n { map t }\n { map $lightmap\n blendFunc filter }\n"
                                 " { map detail\n blendFunc GL_DST_COLOR GL_SRC_COLOR\n tcMod scale 9 9 }\n}\n")["d"]
    (only,) = collapse(detailed.stages)
    assert only[1] is not None and only[1].is_lightmap and only[2] is not None and only[2].images == ("detail",)


def test_vertex_colour_modes_follow_rgbgen() -> None:
    modes = {gen: vertex_color_mode(Stage(("x",), rgb_gen=gen))
             for gen in ("identity", "vertex", "exactvertex", "lightingdiffuse", "oneminusvertex", "wave")}
    assert modes == {"identity": 0, "vertex": 1, "exactvertex": 1, "lightingdiffuse": 2, "oneminusvertex": 3,
                     "wave": 0}
