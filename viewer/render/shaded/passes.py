"""What of a shader's passes stays the same from frame to frame, worked out once per shader and segment.

A pass of :class:`~.painter.ShaderPainter` sets some thirty uniforms and a GL state; most of them follow from the
stage alone (``tcGen``, colour modes, the deform's wave, the texture units, the blend), the rest from the time
(``tcMod`` chains, wave colours, ``animMap`` frames, ``deformVertexes move``), the view (matrices, winding, clip
plane) or the draw (fog, entity colour, light). :class:`ShaderPasses` keeps the first group as one tuple per pass,
applied to a program only when another pass used it in between (:meth:`~.painter.StageProgram.apply`), and the
time-dependent values of the last time asked for, so a frame computes them once per shader whatever the number of
surfaces, models or polygons drawn with it (the batching of ``RB_StageIteratorGeneric``'s per-shader state).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import TYPE_CHECKING

import moderngl
import numpy as np

from assets_loader.q3shaders import Shader, Stage

from ..gl_state import GlState
from .stages import (ALPHA_FUNCS, IDENTITY3, WAVE_FUNCS, affine_rows, alpha_mode, anim_frame, blend_factors,
                     collapse, eval_wave, fog_adjust, stage_color, tc_chain, vertex_color_mode)

if TYPE_CHECKING:
    from .painter import StageProgram

_TCGEN = {"texture": 0, "lightmap": 1, "environment": 2, "vector": 3}
#: The vertex work a stage program may compile in (``q3stage.glsl``'s header). A pass's program has none of it,
#: the diffuse light alone (the models' usual stages) or all of it: each program the driver compiles costs it
#: close to a megabyte, so three variants of a kind, not one per combination.
ALL_FEATURES = ("DEFORM", "TCGEN", "TURB", "LIGHTING", "ALPHA_VIEW", "FOG_FADE")
_TCGEN_CLOUDS = 4

#: ``(name, value)`` pairs of uniforms.
Uniforms = tuple[tuple[str, object], ...]
#: The texture of an image name and clamp mode (:meth:`~.painter.ShaderPainter.texture`).
TextureOf = Callable[[str, bool, Shader], moderngl.Texture]


def _matrix(m: np.ndarray) -> tuple:
    """A 3×3 ``tcMod`` matrix as the column-major uniform values (the shared identity's made once)."""
    if m is IDENTITY3:
        return _IDENTITY_VALUES
    return tuple(m.astype(np.float32).T.ravel().tolist())


_IDENTITY_VALUES = tuple(IDENTITY3.astype(np.float32).T.ravel().tolist())
_COLUMNS = struct.Struct("9f")


def _tc_uniforms(stage: Stage, time: float) -> Uniforms:
    mods = stage.tc_mods
    if len(mods) == 1 and mods[0].kind not in ("turb", "entitytranslate"):     # one matrix: no product to take
        values = _float32_columns(affine_rows(mods[0], time))
        if values is not None:
            return (("u_tc_pre", values), ("u_turb", (0.0, 0.0)), ("u_tc_post", _IDENTITY_VALUES))
    chain = tc_chain(mods, time)
    return (("u_tc_pre", _matrix(chain.pre)), ("u_turb", chain.turb), ("u_tc_post", _matrix(chain.post)))


def _float32_columns(rows: tuple[tuple[float, float, float], tuple[float, float, float]]) -> tuple | None:
    """:func:`_matrix` of the matrix with these first two rows and ``0 0 1`` (the same rounding to 32 bits) without
    an array; ``None`` when a value does not fit 32 bits (then :func:`_matrix` makes it infinite)."""
    (a, b, c), (d, e, f) = rows
    try:
        return _COLUMNS.unpack(_COLUMNS.pack(a, d, 0.0, b, e, 0.0, c, f, 1.0))
    except (OverflowError, struct.error):
        return None


def _timed_color(stage: Stage) -> bool:
    return (stage.rgb_gen == "wave" and stage.rgb_wave is not None) or \
        (stage.alpha_gen == "wave" and stage.alpha_wave is not None)


class Pass:
    """One draw pass of a shader (``stage`` with the ``second`` texture and ``detail`` stage collapsed into it):
    its alpha test, fixed uniforms, fog fading, the vertex work its program compiles in (``features``: none, the
    diffuse light or :data:`ALL_FEATURES`), GL state per winding, its programs (by whether a portal's plane clips it
    and whether it fades with a fog; filled by the painter) and, per time, its varying uniforms and textures."""

    __slots__ = ("shader", "stage", "second", "detail", "alpha_func", "statics", "fog_adjust", "lighting", "features",
                 "states", "programs", "_timed", "_animated", "_time", "_dynamic", "_textures")

    def __init__(self, shader: Shader, stage: Stage, second: Stage | None, detail: Stage | None,
                 deform: Uniforms, portal_distance: float, cull: str | None,
                 polygon_offset: tuple[float, float]) -> None:
        self.shader, self.stage, self.second, self.detail = shader, stage, second, detail
        self.alpha_func = ALPHA_FUNCS.get(stage.alpha_func, 0)
        statics: list[tuple[str, object]] = list(deform)
        tcgen = _TCGEN_CLOUDS if shader.sky is not None else _TCGEN.get(stage.tc_gen, 0)
        statics.append(("u_tcgen", tcgen))
        if stage.tc_gen_vectors is not None:
            statics += [("u_tc_vec0", stage.tc_gen_vectors[0]), ("u_tc_vec1", stage.tc_gen_vectors[1])]
        if shader.sky is not None:
            statics.append(("u_cloud_height", float(shader.sky.cloud_height)))
        if not stage.tc_mods:
            statics += _tc_uniforms(stage, 0.0)
        if not _timed_color(stage):
            statics.append(("u_color", stage_color(stage, 0.0)))
        statics += [("u_rgb_vertex", vertex_color_mode(stage)), ("u_alpha_mode", alpha_mode(stage)),
                    ("u_portal_range", portal_distance), ("u_texture", 0)]
        if second is not None:
            statics += [("u_texture2", 1), ("u_tcgen2", int(second.tc_gen == "lightmap"))]
        if detail is not None:
            statics.append(("u_texture3", 2))
            if not detail.tc_mods:
                statics.append(("u_tc3", _matrix(tc_chain(detail.tc_mods, 0.0).pre)))
        self.statics: Uniforms = tuple(statics)
        self.fog_adjust = fog_adjust(stage)
        self.lighting = stage.rgb_gen == "lightingdiffuse"
        lit = vertex_color_mode(stage) == 2
        more = dict(deform)["u_deform"] != 0 or tcgen >= _TCGEN["environment"] or alpha_mode(stage) in (3, 4) \
            or any(mod.kind == "turb" for mod in stage.tc_mods)
        self.features = ALL_FEATURES if more else ("LIGHTING",) if lit else ()
        self.states = {face: GlState(depth_write=stage.depth_write,
                                     depth_func="==" if stage.depth_func == "equal" else "<=", cull=cull,
                                     front_face=face, blend=blend_factors(stage), polygon_offset=polygon_offset)
                       for face in ("cw", "ccw")}
        self.programs: dict[tuple[bool, bool], StageProgram] = {}
        self._animated = any(len(s.images) > 1 and s.anim_frequency > 0 for s in (stage, second, detail)
                             if s is not None)
        self._timed = bool(stage.tc_mods) or _timed_color(stage) or (detail is not None and bool(detail.tc_mods)) \
            or self._animated
        self._time: float | None = None
        self._dynamic: Uniforms = ()
        self._textures: tuple[moderngl.Texture, ...] = ()

    def at(self, time: float, move: Uniforms, texture: TextureOf) -> tuple[Uniforms, tuple[moderngl.Texture, ...]]:
        """The uniforms that vary with ``time`` (``move``: the shader's ``u_move`` at that time, if it varies) and
        the textures of units 0, 1, 2, computed once per time (once for good when nothing of them varies)."""
        if self._time != time and (self._time is None or self._timed or move):
            stage, detail = self.stage, self.detail
            dynamic: list[tuple[str, object]] = list(move)
            if stage.tc_mods:
                dynamic += _tc_uniforms(stage, time)
            if _timed_color(stage):
                dynamic.append(("u_color", stage_color(stage, time)))
            if detail is not None and detail.tc_mods:
                dynamic.append(("u_tc3", _matrix(tc_chain(detail.tc_mods, time).pre)))
            self._dynamic = tuple(dynamic)
            if self._time is None or self._animated:       # (the images of a stage without animMap stay)
                self._textures = tuple(texture(anim_frame(s, time), s.clamp, self.shader)
                                       for s in (stage, self.second, detail) if s is not None)
            self._time = time
        return self._dynamic, self._textures


class ShaderPasses:
    """A shader's passes (:func:`~.stages.collapse`) with what is fixed about them, its ``deformVertexes
    move`` offset of the moment and ``deformed``: the program features of a pass over its positions
    (:data:`ALL_FEATURES` when a wave or bulge moves its vertices, else none)."""

    __slots__ = ("shader", "passes", "deformed", "_moves", "_move_time", "_move")

    def __init__(self, shader: Shader, cull: str | None, polygon_offset: tuple[float, float],
                 portal_distance: float) -> None:
        self.shader = shader
        self._moves = tuple(d for d in shader.deforms
                            if d.kind == "move" and d.wave is not None and len(d.params) >= 3)
        deform = deform_uniforms(shader)
        self.deformed: tuple[str, ...] = ALL_FEATURES if dict(deform)["u_deform"] != 0 else ()
        if not self._moves:
            deform += (("u_move", (0.0, 0.0, 0.0)),)
        self.passes = tuple(Pass(shader, stage, second, detail, deform, portal_distance, cull, polygon_offset)
                            for stage, second, detail in collapse(shader.stages))
        self._move_time: float | None = None
        self._move: Uniforms = ()

    def move(self, time: float) -> Uniforms:
        """``u_move`` at ``time`` when the shader has ``deformVertexes move`` (else nothing: it is fixed)."""
        if not self._moves:
            return ()
        if self._move_time != time:
            offset = np.zeros(3)
            for d in self._moves:
                assert d.wave is not None
                offset += np.asarray(d.params[:3]) * eval_wave(d.wave, time)
            self._move = (("u_move", tuple(float(v) for v in offset)),)
            self._move_time = time
        return self._move


def deform_uniforms(shader: Shader) -> Uniforms:
    """The fixed deform uniforms of ``shader`` (``deformVertexes wave`` or ``bulge``; ``RB_CalcDeformVertexes``,
    ``RB_CalcBulgeVertexes``), ``u_move`` aside."""
    mode, func, wave, spread, bulge = 0, 0, (0.0, 0.0, 0.0, 0.0), 0.0, (0.0, 0.0, 0.0)
    for d in shader.deforms:
        if d.kind == "wave" and d.wave is not None:
            mode, func = 1, WAVE_FUNCS.get(d.wave.func, 0)
            wave = (d.wave.base, d.wave.amplitude, d.wave.phase, d.wave.frequency)
            spread = _deform_spread(d.params[0] if d.params else 0.0, d.wave.frequency)
        elif d.kind == "bulge" and len(d.params) >= 3:
            mode, bulge = 2, (d.params[0], d.params[1], d.params[2])
    return (("u_deform", mode), ("u_deform_func", func), ("u_deform_wave", wave),
            ("u_deform_spread", float(spread)), ("u_bulge", bulge))


def _deform_spread(div: float, frequency: float) -> float:
    """``deformationSpread`` of ``deformVertexes wave <div>``: ``1 / div`` (100 for a div of 0, as
    ``ParseDeform`` warns and uses); 0 for a wave of frequency 0, whose phase does not vary along the surface
    (``RB_CalcDeformVertexes``)."""
    if frequency == 0:
        return 0.0
    return 1.0 / div if div != 0 else 100.0
