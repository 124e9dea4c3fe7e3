"""The ``alias.glsl`` programs and Quake's model lighting, shared by everything drawn with them: alias models
(Quake's ``.mdl``, Quake II's ``.md2``: :mod:`.bsp.alias`) and the boxes drawn for missing models in every game
(:mod:`.boxes`).

The ways of colouring (skin, translated skin, placeholder box, colour shell; each with and without fog) are
separate programs compiled from ``alias.glsl`` (:data:`VARIANTS`), never one program branching on a uniform: Mesa
specialises a program on the uniforms its branches test, and alternating such a uniform between draws (players,
then items) made llvmpipe wait for its rasterizer inside those draws, about half of the frame's wall time on
``lq_lqdm2_mvd.mvd`` (issue 20).

Lighting (:class:`AliasLight`) keeps Quake's two numbers in Quake's 0..255 light units:

    light = clamp((ambient + shade * (anorm_dot(n) - 1)) / 128 * light_colour, 0, light_max),
    colour = fog(min(texel * light, 1))

``anorm_dot`` approximates the ``anorm_dots`` table (``1 + d`` for ``d = n·shadevector ≥ 0``, ``1 + d·13/44``
behind), the shade vector comes from the entity yaw quantized to 16 steps (``R_SetupAliasLighting``). So 128 units
draw the skin as painted, 255 about twice as bright (clamped per channel to white; ``light_max`` 2 is
QuakeSpasm's overbright, 1 GLQuake's), and the dot term adds between −0.3 and +1 times ``shade``.
``light_colour`` is the ``.lit`` light's RGB over its mean (QuakeSpasm lights models with the coloured light); fog
is the world's exp2 fog on the eye depth (``Fog_SetupFrame``). :meth:`AliasLight.from_level` applies
GLQuake's/software Quake's clamps to a light level from ``R_LightPoint``.

Winding: Quake triangles are clockwise when seen from the front (GLQuake culls ``GL_FRONT`` with the default
counter-clockwise front face), so drawing sets ``front_face='cw'`` and culls back faces.

References: QuakeSpasm ``r_alias.c`` (``GL_DrawAliasFrame_GLSL``, ``R_SetupAliasLighting``), GLQuake
``gl_rmain.c`` (``R_DrawAliasModel``: minimum light for the view model and players, the ambient ≤ 128 and
ambient + shade ≤ 192 clamps, ``shadedots``; ``R_SetupGL``: culling), software Quake ``r_alias.c``
(``R_AliasSetupLighting``), Quake II ``ref_gl/gl_mesh.c`` (``R_DrawAliasModel``: shadelight, ``RF_MINLIGHT``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import moderngl
import numpy as np

from assets_loader.models.anorms import ANORMS, NUM_VERTEX_NORMALS

import shaders

from .gl_state import ALPHA_BLEND, GlState, use_state
from .program_members import uniforms as uniforms_of

#: Quake II's ``RF_MINLIGHT`` floor (0.1 of a full 255 level) for the view weapon.
REF_GL_MINLIGHT = 25.5
#: Quantization of the entity yaw for the light direction (``SHADEDOT_QUANT``).
SHADEDOT_QUANT = 16
#: Model passes: clockwise triangles culled from behind; translucent ones blended without writing depth.
_OPAQUE = GlState(cull="back", front_face="cw")
_TRANSLUCENT = GlState(cull="back", front_face="cw", depth_write=False, blend=ALPHA_BLEND)
_VERSION = "#version 330 core\n"
#: ``alias.glsl`` program variants by the ``#define`` s they compile with (each also with and without ``FOG``).
VARIANTS: dict[str, tuple[str, ...]] = {"skin": (), "translated": ("TRANSLATED",), "placeholder": ("PLACEHOLDER",),
                                         "shell": ("SHELL",)}
#: ``u_normals``: the normals a vertex names by a byte index, ``f4[169, 3]``: the 162 anorms, at
#: :data:`NO_NORMAL` (0, 0, 1) for an out-of-range index (:func:`~assets_loader.models.anorms.normal_vectors`'s),
#: from :data:`BOX_NORMALS` the placeholder box's +x, −x, +y, −y, +z, −z.
NO_NORMAL = NUM_VERTEX_NORMALS
BOX_NORMALS = NO_NORMAL + 1
NORMALS = np.concatenate([ANORMS, [(0, 0, 1)], [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]])
NORMALS = NORMALS.astype("<f4")
NORMALS.setflags(write=False)
#: Texture units of the samplers (a program variant has the ones it reads).
_SAMPLER_UNITS = {"u_skin": 0, "u_translation": 1, "u_palette": 2, "u_skin_rgba": 3}

def _unit(v: tuple[float, float, float]) -> tuple[float, float, float]:
    x, y, z = (np.array(v) / np.linalg.norm(v)).astype(np.float32).tolist()
    return (x, y, z)


def _shade_vector_of_step(q: int) -> tuple[float, float, float]:
    a = q / SHADEDOT_QUANT * 2.0 * math.pi
    return _unit((math.cos(-a), math.sin(-a), 1.0))


#: The light direction of each of the 16 yaw steps (made once: a model is drawn every frame).
SHADE_VECTORS = tuple(_shade_vector_of_step(q) for q in range(SHADEDOT_QUANT))
#: The placeholder box's light direction (every face a different shade).
PLACEHOLDER_LIGHT = _unit((0.5, -0.3, 0.8))


def shade_step(yaw: float) -> int:
    """Which of the 16 light directions an entity with ``yaw`` degrees gets (``SHADEDOT_QUANT`` steps)."""
    return int(yaw * (SHADEDOT_QUANT / 360.0)) & (SHADEDOT_QUANT - 1)


def shade_vector(yaw: float) -> np.ndarray:
    """``f4[3]``: the model-space light direction for an entity with ``yaw`` degrees (quantized to 16 steps)."""
    return np.array(SHADE_VECTORS[shade_step(yaw)], np.float32)


@dataclass(frozen=True, slots=True)
class AliasLight:
    """How an alias model is lit, in Quake light units (0..255; 128 = the skin as painted).

    ``ambient``: light on every vertex; ``shade``: the directional part, times ``anorm_dot(n) - 1`` (−0.3..1);
    ``yaw``: the entity yaw in degrees, which picks the light direction (:func:`shade_vector`);
    ``fullbright``: draw every texel at light 1.0 (``r_fullbright``, or models such as flames);
    ``color``: the colour of the light under the model (a ``.lit`` map's RGB light over its mean; white without)."""

    ambient: float = 128.0
    shade: float = 64.0
    yaw: float = 0.0
    fullbright: bool = False
    color: tuple[float, float, float] = (1.0, 1.0, 1.0)

    @classmethod
    def from_level(cls, level: float | np.ndarray, yaw: float = 0.0, *, view_model: bool = False,
                   player: bool = False, fullbright: bool = False, rule: str = "glquake") -> AliasLight:
        """The engine's rules (``rule``, :attr:`~.refdef.Look.model_light`) for a light ``level`` sampled under the
        entity (``R_LightPoint`` + dlights): a grey level, or RGB ``[3]`` whose mean is the level and whose ratios
        colour the light.

        ``"glquake"`` (ezQuake's too): the view model gets at least 24, players at least 8; ambient is clamped to
        128 and shade to ``192 - ambient``. ``"quakespasm"`` (``gl_overbright`` with ``gl_overbright_models``): the
        same minimums, the level clamped to 96 ("so it doesn't overbright as much"), and the light
        ``level / 200 × shadedot`` doubled, i.e. ``level × 1.28`` in 128-based units. ``"ref_gl"`` (Quake II
        ``R_DrawAliasModel``): the light is ``level / 255 × shadedot`` on a skin brightened by ``intensity`` 2, i.e.
        the level itself in 128-based units, with no ambient clamp (GL caps the colour at twice the skin); the view
        weapon (``RF_MINLIGHT``) gets at least 0.1 (25.5) when every channel is darker."""
        if np.ndim(level) == 0:
            r = g = b = max(float(level), 0.0)
        else:
            r, g, b = (max(v, 0.0) for v in np.asarray(level, np.float64).tolist())
        mean = (r + g + b) / 3.0
        color = (r / mean, g / mean, b / mean) if mean > 1e-6 else (1.0, 1.0, 1.0)
        if rule == "ref_gl":
            if view_model and max(r, g, b) <= REF_GL_MINLIGHT:
                mean, color = REF_GL_MINLIGHT, (1.0, 1.0, 1.0)
            return cls(mean, mean, yaw, fullbright, color)
        if rule == "quakespasm":
            if view_model:
                mean = max(mean, 24.0)
            if player:
                mean = max(mean, 8.0)
            light = min(mean, 96.0) * (128.0 / 100.0)
            return cls(light, light, yaw, fullbright, color)
        ambient = shade = mean
        if view_model and ambient < 24:
            ambient = shade = 24.0
        ambient = min(ambient, 128.0)
        shade = min(shade, 192.0 - ambient)
        if player and ambient < 8:
            ambient = shade = 8.0
        return cls(ambient, shade, yaw, fullbright, color)


class AliasPrograms:
    """The compiled ``alias.glsl`` variants of one context with the look (light cap, fog) written into each, and
    the GL state of a model draw (depth test on, back faces culled)."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self._programs: dict[tuple[str, bool], moderngl.Program] = {}
        self._uniforms: dict[int, dict[str, moderngl.Uniform]] = {}   # each program's uniforms (by GL name)
        self._look: tuple[float, tuple[float, float, float, float]] = (2.0, (0.0, 0.0, 0.0, 0.0))
        self._look_written: dict[int, tuple[float, tuple[float, float, float, float]]] = {}

    def program(self, variant: str, fog: bool = False) -> moderngl.Program:
        """The ``alias.glsl`` program of one :data:`VARIANTS` entry, with or without fog (compiled on first use)."""
        key = (variant, fog)
        program = self._programs.get(key)
        if program is None:
            header = _VERSION + "".join(f"#define {d}\n" for d in (*VARIANTS[variant], *(["FOG"] if fog else [])))
            src = shaders.source("alias")
            program = self._programs[key] = self.ctx.program(
                vertex_shader=header + "#define VERTEX_SHADER\n" + src,
                fragment_shader=header + "#define FRAGMENT_SHADER\n" + src)
            uniforms = self._uniforms[program.glo] = uniforms_of(program)
            uniforms["u_normals"].write(NORMALS.tobytes())
            for name, unit in _SAMPLER_UNITS.items():
                if name in uniforms:
                    uniforms[name].value = unit
        return program

    def set_look(self, light_max: float, fog: tuple[float, float, float, float]) -> None:
        """For the draws that follow: the largest light multiplier (``Look.light_max``) and the fog
        (r, g, b, density; density 0 = none), applied as the world's."""
        fog4 = (float(fog[0]), float(fog[1]), float(fog[2]), float(fog[3]))
        self._look = (float(light_max), fog4)

    def use(self, variant: str) -> tuple[moderngl.Program, dict[str, moderngl.Uniform]]:
        """The program for ``variant`` under the current look and its uniforms, with the look written into it if
        it changed."""
        light_max, fog = self._look
        program = self.program(variant, fog[3] > 0)
        uniforms = self._uniforms[program.glo]
        if self._look_written.get(program.glo) != self._look:
            if "u_light_max" in uniforms:   # not in the unlit shell
                uniforms["u_light_max"].value = light_max
            if fog[3] > 0:
                uniforms["u_fog"].value = fog
            self._look_written[program.glo] = self._look
        return program, uniforms

    @staticmethod
    def set_light(uniforms: dict[str, moderngl.Uniform], light: AliasLight,
                  shade_vector: tuple[float, float, float]) -> None:
        uniforms["u_light_color"].value = light.color
        uniforms["u_ambient"].value = float(light.ambient)
        uniforms["u_shade"].value = float(light.shade)
        uniforms["u_shadevector"].value = shade_vector

    def set_state(self, alpha: float) -> None:
        """Depth test and back-face culling of clockwise triangles; blended without depth writes below alpha 1."""
        use_state(self.ctx, _TRANSLUCENT if alpha < 1.0 else _OPAQUE)

    def release(self) -> None:
        for program in self._programs.values():
            program.release()
        self._programs.clear()
        self._uniforms.clear()
        self._look_written.clear()
