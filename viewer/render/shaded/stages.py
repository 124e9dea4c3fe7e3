"""What a Quake III shader stage means at one moment: wave values, the texture-coordinate modifier chain as
matrices, the stage colour, the GL blend factors, the animMap frame, and which two-pass stages collapse into one.

Pure functions of a :class:`~assets_loader.q3shaders.Stage` and the time; :mod:`.painter` turns them into
uniforms. ``tcMod``s apply in script order: every modifier but ``turb`` is an affine map of ``(s, t)``, so a
chain is one 3×3 matrix before the (single) ``turb`` and one after it; ``turb`` depends on the vertex position
and runs in the vertex shader.

References: ioquake3 ``renderergl1/tr_shade_calc.c`` (``EvalWaveForm``, ``RB_CalcScrollTexCoords``,
``RB_CalcScaleTexCoords``, ``RB_CalcRotateTexCoords``, ``RB_CalcStretchTexCoords``, ``RB_CalcTransformTexCoords``,
``RB_CalcTurbulentTexCoords``, ``RB_CalcDeformVertexes``, ``RB_CalcMoveVertexes``), ``tr_shade.c``
(``ComputeColors``, ``ComputeTexCoords``, ``R_BindAnimatedImage``), ``tr_shader.c`` (``CollapseMultitexture``),
``tr_init.c`` (``R_InitFuncTables``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from assets_loader.q3shaders import Stage, TexMod, Wave

#: GL blend factor enums by the names the shader scripts use.
BLEND_FACTORS = {
    "GL_ZERO": 0, "GL_ONE": 1, "GL_SRC_COLOR": 0x300, "GL_ONE_MINUS_SRC_COLOR": 0x301, "GL_SRC_ALPHA": 0x302,
    "GL_ONE_MINUS_SRC_ALPHA": 0x303, "GL_DST_ALPHA": 0x304, "GL_ONE_MINUS_DST_ALPHA": 0x305,
    "GL_DST_COLOR": 0x306, "GL_ONE_MINUS_DST_COLOR": 0x307, "GL_SRC_ALPHA_SATURATE": 0x308,
}
#: Wave function numbers shared with ``q3stage.glsl``.
WAVE_FUNCS = {"sin": 0, "triangle": 1, "square": 2, "sawtooth": 3, "inversesawtooth": 4, "noise": 0}
#: ``alphaFunc`` numbers shared with ``q3stage.glsl`` (0 = no test).
ALPHA_FUNCS = {None: 0, "GT0": 1, "LT128": 2, "GE128": 3}
#: ``identityLight``: 1 / 2^overbrightBits. The reference frames come from a window without gamma ramps, where
#: ioquake3 sets ``overbrightBits`` to 0 and shifts the whole map overbright into the lightmaps instead.
IDENTITY_LIGHT = 1.0
#: The 3×3 identity a ``tcMod`` chain without matrices before or after its turbulence holds (read-only, shared).
IDENTITY3 = np.eye(3)
IDENTITY3.flags.writeable = False


def wave_table(func: str, x: float) -> float:
    """One period of ``func`` at ``x`` (periodic in 1): ``R_InitFuncTables``' sin, triangle, square, sawtooth
    and inverse sawtooth (noise is drawn as sin)."""
    f = x - math.floor(x)
    if func == "triangle":
        return 4 * f - 1 if f < 0.5 else 3 - 4 * f
    if func == "square":
        return 1.0 if f < 0.5 else -1.0
    if func == "sawtooth":
        return f
    if func == "inversesawtooth":
        return 1.0 - f
    return math.sin(2 * math.pi * f)


def eval_wave(wave: Wave, time: float) -> float:
    """``EvalWaveForm``: ``base + table(phase + time × frequency) × amplitude``."""
    return wave.base + wave_table(wave.func, wave.phase + time * wave.frequency) * wave.amplitude


def affine_rows(mod: TexMod, time: float) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """The first two rows of the 3×3 matrix of one affine ``tcMod`` acting on the column ``(s, t, 1)`` (the last
    is ``0 0 1``); the identity's for a modifier that is not affine."""
    p = mod.params
    if mod.kind == "scroll":
        return ((1.0, 0.0, (p[0] * time) % 1.0 if len(p) > 0 else 0.0),
                (0.0, 1.0, (p[1] * time) % 1.0 if len(p) > 1 else 0.0))
    if mod.kind == "scale":
        sx, sy = (p + (1.0, 1.0))[:2]
        return ((sx, 0.0, 0.0), (0.0, sy, 0.0))
    if mod.kind == "rotate":
        degrees = -(p[0] if p else 0.0) * time
        c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
        return ((c, -s, 0.5 - 0.5 * c + 0.5 * s), (s, c, 0.5 - 0.5 * s - 0.5 * c))
    if mod.kind == "stretch" and mod.wave is not None:
        value = eval_wave(mod.wave, time)
        scale = 1.0 / value if value != 0 else 1.0
        return ((scale, 0.0, 0.5 - 0.5 * scale), (0.0, scale, 0.5 - 0.5 * scale))
    if mod.kind == "transform" and len(p) >= 6:
        return ((p[0], p[2], p[4]), (p[1], p[3], p[5]))
    return ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0))


def _affine(mod: TexMod, time: float) -> np.ndarray:
    """The 3×3 matrix of one affine ``tcMod`` acting on the column ``(s, t, 1)``."""
    first, second = affine_rows(mod, time)
    return np.array([first, second, (0.0, 0.0, 1.0)], np.float64)


@dataclass(frozen=True, slots=True)
class TexCoordChain:
    """A stage's ``tcMod`` chain at one time: ``pre`` (3×3, applied first), ``turb`` (amplitude, phase +
    time × frequency; amplitude 0 = none), ``post`` (3×3, after the turbulence)."""

    pre: np.ndarray
    turb: tuple[float, float]
    post: np.ndarray


def tc_chain(mods: tuple[TexMod, ...], time: float) -> TexCoordChain:
    """Fold ``mods`` into :class:`TexCoordChain` (a second ``turb`` is folded as if it were the first)."""
    pre: np.ndarray | None = None      # None: the identity (the first matrix needs no product with it)
    post: np.ndarray | None = None
    turb = (0.0, 0.0)
    for mod in mods:
        if mod.kind == "turb":
            p = mod.params + (0.0,) * 4
            turb = (p[1], p[2] + time * p[3])
            continue
        if mod.kind == "entitytranslate":
            continue
        if turb[0] == 0.0:
            pre = _affine(mod, time) if pre is None else _affine(mod, time) @ pre
        else:
            post = _affine(mod, time) if post is None else _affine(mod, time) @ post
    return TexCoordChain(IDENTITY3 if pre is None else pre, turb, IDENTITY3 if post is None else post)


def stage_color(stage: Stage, time: float) -> tuple[float, float, float, float]:
    """The constant part of a stage's colour (``ComputeColors``): rgb from identity, identityLighting, wave, const
    or entity (white: no entity colour yet), alpha from identity, const or wave; vertex and lighting colours are
    multiplied on in the shader."""
    if stage.rgb_gen == "wave" and stage.rgb_wave is not None:
        v = min(max(eval_wave(stage.rgb_wave, time), 0.0), 1.0) * IDENTITY_LIGHT
        rgb = (v, v, v)
    elif stage.rgb_gen == "const" and stage.rgb_const is not None:
        rgb = stage.rgb_const
    elif stage.rgb_gen in ("identitylighting", "vertex", "lightingdiffuse", "oneminusvertex"):
        rgb = (IDENTITY_LIGHT,) * 3
    else:
        rgb = (1.0, 1.0, 1.0)
    if stage.alpha_gen == "wave" and stage.alpha_wave is not None:
        alpha = min(max(eval_wave(stage.alpha_wave, time), 0.0), 1.0)
    elif stage.alpha_gen == "const" and stage.alpha_const is not None:
        alpha = stage.alpha_const
    else:
        alpha = 1.0
    return (float(rgb[0]), float(rgb[1]), float(rgb[2]), float(alpha))


def vertex_color_mode(stage: Stage) -> int:
    """How the stage's colour uses the vertex or entity colour (``q3stage.glsl`` ``u_rgb_vertex``): 1 vertex
    colour multiplied in (``rgbGen vertex/exactVertex``), 2 diffuse light instead (``lightingDiffuse``), 3 one
    minus the vertex colour (``oneMinusVertex``), 4 the entity's ``shaderRGBA`` (``entity``), 5 one minus it
    (``oneMinusEntity``), 0 none of them."""
    return {"vertex": 1, "exactvertex": 1, "lightingdiffuse": 2, "oneminusvertex": 3, "entity": 4,
            "oneminusentity": 5}.get(stage.rgb_gen, 0)


def alpha_mode(stage: Stage) -> int:
    """Where the stage's alpha comes from beyond :func:`stage_color` (``q3stage.glsl`` ``u_alpha_mode``): 1 the
    vertex alpha (``alphaGen vertex``, and ``rgbGen vertex`` left at ``alphaGen identity``, which keeps the
    copied vertex alpha while ``identityLight`` is 1), 2 one minus it (``oneMinusVertex``), 3 the distance
    over the portal range (``portal``), 4 ``lightingSpecular``, 5 the entity's alpha (``entity``), 6 one minus
    it (``oneMinusEntity``), 0 none (``ComputeColors``)."""
    if stage.alpha_gen == "identity" and stage.rgb_gen == "vertex" and IDENTITY_LIGHT == 1.0:
        return 1
    return {"vertex": 1, "oneminusvertex": 2, "portal": 3, "lightingspecular": 4, "entity": 5,
            "oneminusentity": 6}.get(stage.alpha_gen, 0)


#: ``adjustColorsForFog`` by blend: modulate the colour (additive and ``GL_ZERO GL_ONE_MINUS_SRC_COLOR``), the
#: alpha (plain blend) or both (premultiplied alpha); numbers shared with ``q3stage.glsl`` ``u_fog_adjust``.
_FOG_ADJUST = {("GL_ONE", "GL_ONE"): 1, ("GL_ZERO", "GL_ONE_MINUS_SRC_COLOR"): 1,
               ("GL_SRC_ALPHA", "GL_ONE_MINUS_SRC_ALPHA"): 2, ("GL_ONE", "GL_ONE_MINUS_SRC_ALPHA"): 3}


def fog_adjust(stage: Stage) -> int:
    """How a blended stage of a fogged surface fades with the fog (``FinishShader``'s ``adjustColorsForFog``):
    1 colour, 2 alpha, 3 both, 0 not at all (opaque stages and blends it cannot fade correctly)."""
    return _FOG_ADJUST.get(stage.blend, 0) if stage.blend is not None else 0


def anim_frame(stage: Stage, time: float) -> str:
    """The image a stage shows at ``time`` (``R_BindAnimatedImage``: ``animMap`` frames at ``anim_frequency``)."""
    if len(stage.images) > 1 and stage.anim_frequency > 0:
        return stage.images[int(time * stage.anim_frequency) % len(stage.images)]
    return stage.images[0] if stage.images else "$whiteimage"


def blend_factors(stage: Stage) -> tuple[int, int] | None:
    """The stage's ``(src, dst)`` GL enums, or ``None`` for an opaque stage (``GL_ONE GL_ZERO`` too)."""
    if stage.blend is None:
        return None
    src, dst = BLEND_FACTORS.get(stage.blend[0], 1), BLEND_FACTORS.get(stage.blend[1], 0)
    return None if (src, dst) == (1, 0) else (src, dst)


def _plain(stage: Stage) -> bool:
    return (not stage.tc_mods and stage.rgb_gen in ("identity", "identitylighting") and stage.alpha_gen == "identity"
            and stage.alpha_func is None and len(stage.images) == 1 and stage.tc_gen in ("texture", "lightmap"))


def _detail(stage: Stage) -> bool:
    """A detail stage (``blendFunc GL_DST_COLOR GL_SRC_COLOR``: twice the texture times what is drawn) with a plain
    colour and only affine ``tcMod``s, which can be multiplied on in the same pass."""
    return (stage.blend == ("GL_DST_COLOR", "GL_SRC_COLOR") and stage.rgb_gen in ("identity", "identitylighting")
            and stage.alpha_gen == "identity" and stage.alpha_func is None and len(stage.images) == 1
            and stage.tc_gen == "texture" and all(m.kind in ("scale", "scroll", "rotate", "transform", "stretch")
                                                  for m in stage.tc_mods))


def collapse(stages: tuple[Stage, ...]) -> tuple[tuple[Stage, Stage | None, Stage | None], ...]:
    """Stages as draw passes ``(stage, second, detail)``: an opaque stage followed by a plain ``GL_DST_COLOR
    GL_ZERO`` (or ``GL_ZERO GL_SRC_COLOR``) stage becomes one pass that multiplies the two textures, as
    ``CollapseMultitexture`` makes the texture × lightmap pair one multitextured pass; a detail stage right after
    such a pair is multiplied on in the same pass too (the same colours up to the rounding of the skipped
    framebuffer write)."""
    out: list[tuple[Stage, Stage | None, Stage | None]] = []
    i = 0
    while i < len(stages):
        first = stages[i]
        second = stages[i + 1] if i + 1 < len(stages) else None
        if (second is not None and blend_factors(first) is None and _plain(first) and _plain(second)
                and second.blend in (("GL_DST_COLOR", "GL_ZERO"), ("GL_ZERO", "GL_SRC_COLOR"))
                and (second.rgb_gen == "identity" or IDENTITY_LIGHT == 1.0)):
            third = stages[i + 2] if i + 2 < len(stages) else None
            if third is not None and _detail(third):
                out.append((first, second, third))
                i += 3
            else:
                out.append((first, second, None))
                i += 2
        else:
            out.append((first, None, None))
            i += 1
    return tuple(out)
