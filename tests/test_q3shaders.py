"""Quake III shader scripts: tokens, every keyword the brief lists, engine defaults and sort, the default shader,
the library's override order, and every script of the real pk3."""

from __future__ import annotations

import warnings

import pytest

from assets_loader.bsp46 import LIGHTMAP_BY_VERTEX, LIGHTMAP_NONE
from assets_loader.q3shaders import (
    ShaderSyntaxError,
    default_shader,
    load_shader_library,
    parse_shader_text,
    shader_key,
)
from assets_loader.q3shaders.records import (
    SORT_BLEND0,
    SORT_ENVIRONMENT,
    SORT_FOG,
    SORT_OPAQUE,
    SORT_SEE_THROUGH,
    Deform,
    FogParms,
    SkyParms,
    Wave,
)
from assets_loader.q3shaders.tokens import tokenize
from assets_loader.vfs import VirtualFS
from tests.builders.q3text import build_pk3, shader_script


def test_tokens_like_com_parse_ext() -> None:
    toks = tokenize('a // comment { }\n"quoted word" /* block\n comment */ b{ }\n')
    assert [(t.text, t.line) for t in toks] == [("a", 1), ("quoted word", 2), ("b{", 3), ("}", 3)]


WALL = shader_script({
    "textures/test/Wall.tga": (
        ["qer_editorimage textures/test/wall_ed.tga", "q3map_surfacelight 100", "surfaceparm nolightmap",
         "surfaceparm trans", "cull twosided", "deformVertexes wave 64 sin 0 2 0 0.5", "deformVertexes autosprite2",
         "deformVertexes move 0 0 4 square 0 1 0 0.25", "sort banner", "nopicmip", "polygonOffset"],
        [["map $lightmap", "rgbGen identity"],
         ["clampMap textures/test/wall.tga", "blendFunc GL_DST_COLOR GL_ZERO", "rgbGen wave triangle 0.5 0.5 0 1",
          "tcMod scroll 0.5 -1", "tcMod scale 2 2", "tcMod rotate 30", "tcMod turb 0 0.1 0 0.2",
          "tcMod stretch sin 1 0.1 0 1", "tcMod transform 1 0 0 1 0.5 0", "alphaFunc GE128", "depthFunc equal"],
         ["animMap 10 a.tga b.tga c.tga", "blendfunc add", "alphaGen wave sin 0 1 0 1", "tcGen environment"],
         ["map $whiteimage", "blendfunc blend", "rgbGen const ( 0.5 0.25 1 )", "alphaGen const 0.5", "depthWrite"]]),
})


def test_every_keyword_of_a_stage() -> None:
    (shader,) = parse_shader_text(WALL, "test.shader").values()
    assert shader.name == "textures/test/wall" and shader.explicit and shader.warnings == ()
    assert shader.surface_parms == {"nolightmap", "trans"} and shader.cull == "none"
    assert shader.no_picmip and shader.polygon_offset and shader.sort == 6.0
    wave, sprite, move = shader.deforms
    assert wave == Deform("wave", (64.0,), Wave("sin", 0.0, 2.0, 0.0, 0.5))
    assert sprite == Deform("autosprite2")
    assert move == Deform("move", (0.0, 0.0, 4.0), Wave("square", 0.0, 1.0, 0.0, 0.25))
    lm, tex, anim, white = shader.stages
    assert lm.is_lightmap and lm.tc_gen == "lightmap" and lm.rgb_gen == "identity" and lm.blend is None
    assert tex.images == ("textures/test/wall.tga",) and tex.clamp
    assert tex.blend == ("GL_DST_COLOR", "GL_ZERO") and not tex.depth_write
    assert tex.rgb_gen == "wave" and tex.rgb_wave == Wave("triangle", 0.5, 0.5, 0.0, 1.0)
    assert [(m.kind, m.params) for m in tex.tc_mods] == [
        ("scroll", (0.5, -1.0)), ("scale", (2.0, 2.0)), ("rotate", (30.0,)), ("turb", (0.0, 0.1, 0.0, 0.2)),
        ("stretch", ()), ("transform", (1.0, 0.0, 0.0, 1.0, 0.5, 0.0))]
    assert tex.tc_mods[4].wave == Wave("sin", 1.0, 0.1, 0.0, 1.0)
    assert (tex.alpha_func, tex.depth_func) == ("GE128", "equal")
    assert anim.images == ("a.tga", "b.tga", "c.tga") and anim.anim_frequency == 10.0
    assert anim.blend == ("GL_ONE", "GL_ONE") and anim.tc_gen == "environment" and anim.alpha_gen == "wave"
    assert anim.rgb_gen == "identitylighting"  # default for an additive stage
    assert white.images == ("$whiteimage",) and white.rgb_const == (0.5, 0.25, 1.0) and white.alpha_const == 0.5
    assert white.blend == ("GL_SRC_ALPHA", "GL_ONE_MINUS_SRC_ALPHA") and white.depth_write  # explicit depthWrite
    assert shader.image_names() == ("textures/test/wall.tga", "a.tga", "b.tga", "c.tga")


def test_sky_fog_and_derived_sorts() -> None:
    text = shader_script({
        "sky": (["surfaceparm sky", "skyParms env/space 512 -"], [["map clouds.tga", "blendfunc add"]]),
        "fog": (["surfaceparm fog", "fogparms ( 0.5 0.2 0.1 ) 300"], []),
        "grate": ([], [["map grate.tga", "blendfunc blend", "depthWrite"]]),
        "glass": ([], [["map glass.tga", "blendfunc GL_ONE GL_ONE"], ["map x.tga", "blendfunc filter"]]),
        "opaque_onezero": ([], [["map w.tga", "blendfunc GL_ONE GL_ZERO"]]),
    })
    s = parse_shader_text(text)
    assert s["sky"].sort == SORT_ENVIRONMENT and s["sky"].sky == SkyParms("env/space", 512.0, None)
    assert s["sky"].image_names()[1:] == tuple(f"env/space_{x}.tga" for x in ("rt", "bk", "lf", "ft", "up", "dn"))
    assert s["fog"].sort == SORT_FOG and s["fog"].fog == FogParms((0.5, 0.2, 0.1), 300.0)
    assert s["grate"].sort == SORT_SEE_THROUGH and s["glass"].sort == SORT_BLEND0
    one_zero = s["opaque_onezero"].stages[0]
    assert s["opaque_onezero"].sort == SORT_OPAQUE and one_zero.blend is None and one_zero.depth_write


def test_unknown_keywords_skip_their_line_and_warn_once_per_shader() -> None:
    text = shader_script({"odd": (["dpreflectcube foo", "q3map_bogus 1 2", "frobnicate 1"],
                                  [["map a.tga", "sparkle 5 6", "rgbGen vertex"]])})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        shader = parse_shader_text(text, "odd.shader")["odd"]
    assert len(caught) == 1 and "odd" in str(caught[0].message)
    assert len(shader.warnings) == 3  # dpreflectcube, frobnicate, sparkle (q3map_* is skipped silently)
    assert shader.stages[0].rgb_gen == "vertex" and shader.stages[0].images == ("a.tga",)


def test_unbalanced_braces_are_typed_errors() -> None:
    with pytest.raises(ShaderSyntaxError):
        parse_shader_text("a\n{\n{\nmap x\n}\n")
    with pytest.raises(ShaderSyntaxError, match="'\\{' after shader name"):
        parse_shader_text("a b\n")


def test_default_shaders_follow_the_lightmap_mode() -> None:
    lit = default_shader("textures/x/y", 3)
    assert [s.images for s in lit.stages] == [("$lightmap",), ("textures/x/y",)]
    assert lit.stages[1].blend == ("GL_DST_COLOR", "GL_ZERO") and not lit.explicit
    assert default_shader("t", LIGHTMAP_BY_VERTEX).stages[0].rgb_gen == "exactvertex"
    assert default_shader("t", LIGHTMAP_NONE).stages[0].rgb_gen == "lightingdiffuse"
    assert shader_key("Models/Players/X.TGA") == "models/players/x" and shader_key("a.b/c") == "a.b/c"


def test_library_later_file_overrides_and_bad_file_is_ignored(tmp_path) -> None:
    (tmp_path / "baseq3").mkdir()
    (tmp_path / "baseq3" / "pak0.pk3").write_bytes(build_pk3({
        "scripts/a.shader": shader_script({"s": ([], [["map from_a.tga"]]), "only_a": ([], [["map a.tga"]])}),
        "scripts/b.shader": shader_script({"s": ([], [["map from_b.tga"]])}),
        "scripts/c.shader": "broken\n{\n{\n",
    }))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lib = load_shader_library(VirtualFS(tmp_path, base="baseq3"))
    assert lib.rejected == ("scripts/c.shader",) and len(caught) == 1
    overridden = lib.get("S")
    assert overridden is not None and overridden.stages[0].images == ("from_b.tga",) and lib.get("only_a") is not None
    assert not lib.find("textures/none", 0).explicit


def test_every_real_script_parses(q3_fs) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lib = load_shader_library(q3_fs)
    assert len(lib.files) == 104 and lib.rejected == ()
    assert not caught  # indexing parses nothing yet
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        every = lib.all_shaders()
    assert len(every) == len(lib) > 1500
    # One shader in OpenArena's hotmenu.shader names a destination blend the engine does not know either.
    assert [w for s in every.values() for w in s.warnings] == ["unknown blend destination 'GL_ONE_MINUS_DST_COLOR'"]
    assert len(caught) == 1
    # each shader parsed from its block is the shader the whole script parses to
    for name in lib.files:
        for key, shader in parse_shader_text(q3_fs.read(name), name).items():
            assert every[key] == shader or lib.files.index(every[key].source) > lib.files.index(name)
    lava = lib.get("textures/liquids/lavahell")
    assert lava is not None and lava.fog is not None and lava.cull == "none" and lava.deforms[0].kind == "wave"
    assert {"fog", "lava", "trans"} <= lava.surface_parms
    sky = lib.get("textures/skies/moonsky")
    assert sky is not None and sky.sky is not None
    assert sky.sort == SORT_ENVIRONMENT and sky.sky.cloud_height == 800.0


def test_alpha_gen_portal_keeps_its_range_or_the_engine_default() -> None:
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        shaders = parse_shader_text("a\n{\n portal\n { map x.tga\n alphaGen portal 384 }\n}\n"
                                    "b\n{\n portal\n { map x.tga\n alphaGen portal\n }\n}\n")
    assert shaders["a"].stages[0].alpha_gen == "portal" and shaders["a"].stages[0].alpha_const == 384.0
    assert shaders["b"].stages[0].alpha_const == 256.0
    assert shaders["b"].warnings == ("missing range for alphaGen portal",)
