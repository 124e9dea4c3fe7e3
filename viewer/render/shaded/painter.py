"""Paint shader-script surfaces: each stage of a Quake III shader as a GL pass over vertices in the draw-vertex layout.

The painter owns the stage programs, the images (uploaded once per name and mode, as ``R_FindImageFile`` and
``Upload32`` make them: clamped or repeated; halved ``picmip`` times unless the shader says ``nopicmip``; mipmapped
and minified linearly between levels unless it says ``nomipmaps``, then plain linear) and the GL state a stage
asks for (blend function, depth write and test, cull, alpha test, ``tcGen``/``tcMod``, deforms, colours of the
moment: :mod:`.stages`); a pass may add the fog of its fog volume (:mod:`.fog`) and the dynamic lights that reach
it (:mod:`.dlights`). Quake III's map (:mod:`viewer.render.q3.world`), MD3 models of every game (:mod:`.md3`) and
effect polygons (:mod:`.polys`) are all drawn through it.

References: ioquake3 ``renderergl1/tr_shade.c`` (``RB_StageIteratorGeneric``, ``GL_State``, ``GL_Cull``),
``tr_sky.c`` (``RB_StageIteratorSky``), ``tr_shade_calc.c`` (``RB_CalcDeformVertexes``), ``tr_image.c``
(``Upload32``: picmip, ``R_MipMap``'s 2×2 average; mipmapped or ``GL_LINEAR``), ``tr_shader.c`` (``ParseStage``:
image flags from ``nomipmaps`` / ``nopicmip``).
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, replace

import moderngl
import numpy as np

import shaders
from assets_loader.q3shaders import Shader, Stage

from ..gl_state import ALPHA_BLEND, GlState, use_state
from ..program_members import uniform
from ..refdef import Lights
from ..mipmaps import upload_mipmaps
from ..view_math import angle_vectors, gl_bytes
from .dlights import dlight_image, light_corners
from .fog import FogVectors, fog_image
from .passes import ALL_FEATURES, Pass, ShaderPasses, Uniforms, deform_uniforms
from .stages import blend_factors

_VERSION = "#version 330 core\n"
VERTEX_LAYOUT = "3f 2f 2f 3f 4f1"
VERTEX_ATTRIBUTES = ("in_position", "in_st", "in_lm", "in_normal", "in_color")


def cached_vao(vaos: dict[int, moderngl.VertexArray], program: moderngl.Program, vbo: moderngl.Buffer,
               ibo: moderngl.Buffer) -> moderngl.VertexArray:
    """The vertex array of ``program`` over draw vertices (``DRAW_VERTEX``) in ``vbo`` and 32-bit indices in ``ibo``,
    made once per program and kept in ``vaos``."""
    vao = vaos.get(program.glo)
    if vao is None:
        vao = vaos[program.glo] = program.ctx.vertex_array(
            program, [(vbo, VERTEX_LAYOUT, *VERTEX_ATTRIBUTES)], index_buffer=ibo, index_element_size=4,
            skip_errors=True)
    return vao


IDENTITY = np.eye(4, dtype=np.float32)
_IDENTITY_BYTES = gl_bytes(IDENTITY)
#: A clip plane every point is in front of (no clipping).
_NO_CLIP = (0.0, 0.0, 0.0, -1.0)
#: What no uniform holds yet (``None`` may be a value).
_UNSET = object()
#: The passes' uniform groups a program keeps looked up, at most this many.
_MAX_GROUPS = 4096
#: Compiled stage programs per context.
_PROGRAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class StageProgram:
    """A compiled ``q3stage.glsl`` variant with its uniforms and the value each was last set to, so a pass only
    sends the uniforms that changed (a program keeps its uniform values between draws; the map's and the models'
    painters share the programs and this record). ``group``: the fixed uniforms of the pass that last applied
    them (:meth:`apply`), still all in place; from one group in place to another only the uniforms they set
    differently, or the other's own, are looked at (worked out once per pair). ``shared``: the uniforms of a draw
    last put with :meth:`put_shared`, still all in place."""

    __slots__ = ("program", "_uniforms", "_last", "group", "_groups", "_steps", "shared")

    def __init__(self, program: moderngl.Program) -> None:
        self.program = program
        self._uniforms = {name: uniform(program, name) for name in program
                          if isinstance(program[name], moderngl.Uniform)}
        self._last: dict[str, object] = {}
        self.group: Uniforms | None = None
        self._groups: dict[int, tuple[Uniforms, tuple[tuple[str, moderngl.Uniform, object], ...]]] = {}
        self._steps: dict[tuple[int, int], tuple[Uniforms, Uniforms, tuple, tuple]] = {}
        self.shared: Uniforms | None = None

    def set(self, name: str, value) -> None:
        """Set uniform ``name`` (ignored when the variant does not use it) unless it already holds ``value``."""
        if self._last.get(name, _UNSET) != value:
            member = self._uniforms.get(name)
            if member is not None:
                member.value = value
            self._last[name] = value
            self.group = self.shared = None

    def put(self, name: str, value) -> None:
        """:meth:`set` for a uniform that neither the group in place (:meth:`apply`) nor the shared uniforms in place
        (:meth:`put_shared`) hold: it leaves both in place."""
        if self._last.get(name, _UNSET) != value:
            member = self._uniforms.get(name)
            if member is not None:
                member.value = value
            self._last[name] = value

    def put_all(self, values: Iterable[tuple[str, object]]) -> None:
        """:meth:`put` of each ``(name, value)``."""
        last, uniforms = self._last, self._uniforms
        for name, value in values:
            if last.get(name, _UNSET) != value:
                member = uniforms.get(name)
                if member is not None:
                    member.value = value
                last[name] = value

    def put_shared(self, values: Uniforms) -> None:
        """:meth:`put_all` of a draw's uniforms (camera, time, clip plane, fog, entity colour), unless they are
        still the ones last put."""
        if self.shared is not values:
            self.put_all(values)
            self.shared = values

    def apply(self, group: Uniforms) -> None:
        """Set every uniform of ``group`` (a pass's fixed ones), unless it is still the group last applied (the
        group's uniforms this variant uses are looked up once per group)."""
        previous = self.group
        if previous is group:
            return
        last = self._last
        if previous is not None:
            step = self._steps.get((id(previous), id(group)))
            if step is None or step[0] is not previous or step[1] is not group:
                step = self._step(previous, group)
            for name, member, value in step[2]:     # held by ``previous`` at another value
                member.value = value
                last[name] = value
            members = step[3]                       # not held by ``previous``: as they were left
        else:
            members = self._members(group)
        for name, member, value in members:
            if last.get(name, _UNSET) != value:
                member.value = value
                last[name] = value
        self.group = group

    def _members(self, group: Uniforms) -> tuple[tuple[str, moderngl.Uniform, object], ...]:
        """``(name, uniform, value)`` of each uniform of ``group`` this variant uses (looked up once per group)."""
        found = self._groups.get(id(group))
        if found is None or found[0] is not group:
            if len(self._groups) > _MAX_GROUPS:
                self._groups.clear()
            uniforms = self._uniforms
            found = self._groups[id(group)] = (group, tuple((name, uniforms[name], value) for name, value in group
                                                            if name in uniforms))
        return found[1]

    def _step(self, previous: Uniforms, group: Uniforms) -> tuple[Uniforms, Uniforms, tuple, tuple]:
        """What :meth:`apply` sets going from ``previous`` in place to ``group``: the uniforms ``previous`` holds
        at another value, and those it does not hold."""
        held = {name: value for name, _, value in self._members(previous)}
        changed, others = [], []
        for entry in self._members(group):
            name, _, value = entry
            if name not in held:
                others.append(entry)
            elif held[name] != value:
                changed.append(entry)
        if len(self._steps) > _MAX_GROUPS:
            self._steps.clear()
        step = self._steps[(id(previous), id(group))] = (previous, group, tuple(changed), tuple(others))
        return step

    def write(self, name: str, data: bytes) -> None:
        """Write raw bytes (matrices) to uniform ``name`` unless it already holds them."""
        if self._last.get(name) != data:
            member = self._uniforms.get(name)
            if member is not None:
                member.write(data)
            self._last[name] = data


def stage_program(ctx: moderngl.Context, collapsed: bool = False, alpha_func: int = 0, skybox: bool = False,
                  fog: bool = False, detail: bool = False, clip: bool = False,
                  depth_only: bool = False, dlight: bool = False, features: tuple[str, ...] = ()) -> StageProgram:
    """The ``q3stage.glsl`` variant for a pass (one, two or three textures, alpha test, the sky box, a fog
    volume, clipped at a portal's plane, depth only, the dynamic lights' pass) with the vertex work ``features``
    names compiled in (``DEFORM``, ``TCGEN``, ``TURB``, ``LIGHTING``, ``ALPHA_VIEW``, ``FOG_FADE``: the
    shader's header)."""
    cache = _PROGRAMS.setdefault(ctx, {})
    key = (collapsed, alpha_func, skybox, fog, detail, clip, depth_only, dlight, features)
    if key not in cache:
        flags = {"COLLAPSED": collapsed, "SKYBOX": skybox, "FOG": fog, "DETAIL": detail, "CLIP": clip,
                 "DEPTH_ONLY": depth_only, "DLIGHT": dlight, **dict.fromkeys(features, True)}
        header = _VERSION + f"#define ALPHA_FUNC {alpha_func}\n" + "".join(f"#define {name}\n"
                                                                         for name, on in flags.items() if on)
        src = shaders.source("q3stage")
        cache[key] = StageProgram(ctx.program(vertex_shader=header + "#define VERTEX_SHADER\n" + src,
                                              fragment_shader=header + "#define FRAGMENT_SHADER\n" + src))
    return cache[key]


@dataclass(frozen=True, slots=True)
class Q3View:
    """Per-frame inputs: ``view_proj [4, 4]``, camera origin, time in seconds and the camera angles; for the
    view through a mirror or portal (``viewParms_t.isPortal``) also ``axis`` (rows forward, left, up, which the
    angles cannot express once mirrored), ``clip_plane`` (world ``(normal, dist)``: what lies behind it is not
    drawn), ``mirror`` (winding reversed), ``pvs_origin`` (where visibility is taken from) and ``scissor``
    (``x0, y0, x1, y1`` in normalised device coordinates: the portal surface's extent on screen, outside which
    the main view draws over everything); ``lights``: the frame's dynamic lights (``None`` or empty: none)."""

    view_proj: np.ndarray
    camera: tuple[float, float, float]
    time: float
    angles: tuple[float, float, float] = (0.0, 0.0, 0.0)
    axis: np.ndarray | None = None
    clip_plane: tuple[float, float, float, float] | None = None
    mirror: bool = False
    pvs_origin: tuple[float, float, float] | None = None
    scissor: tuple[float, float, float, float] | None = None
    lights: Lights | None = None

    @property
    def forward(self) -> np.ndarray:
        """The view axis (``viewParms.or.axis[0]``)."""
        return np.asarray(self.axis[0]) if self.axis is not None else angle_vectors(self.angles)[0]

    @property
    def front_face(self) -> str:
        """The GL winding of a visible Quake III triangle in this view (clockwise, reversed in a mirror)."""
        return "ccw" if self.mirror else "cw"


@dataclass(frozen=True, slots=True)
class StageLight:
    """Light for ``rgbGen lightingDiffuse``: ambient and directed RGB (0‥1) and the direction it comes from."""

    ambient: tuple[float, float, float] = (0.5, 0.5, 0.5)
    directed: tuple[float, float, float] = (0.5, 0.5, 0.5)
    direction: tuple[float, float, float] = (0.57735, 0.57735, 0.57735)


_DEFAULT_LIGHT = StageLight()


class ShaderPainter:
    """Draws vertex arrays with a shader's stages: images on first use, pass state, uniforms. Shared by the map
    and the models of a segment."""

    def __init__(self, ctx: moderngl.Context, images, lightmap: moderngl.Texture | None, picmip: int = 0) -> None:
        self.ctx = ctx
        self.images = images
        self.lightmap = lightmap
        self.picmip = picmip
        self._textures: dict[tuple[str, bool, int, bool], moderngl.Texture] = {}
        self._white = ctx.texture((1, 1), 4, b"\xff\xff\xff\xff")
        self._matrix_cache: tuple[object, bytes] = (None, b"")
        self._model_cache: tuple[object, bytes] = (None, b"")
        self._camera_cache: tuple[object, tuple[float, ...]] = (None, ())
        self._shared_key: tuple = (None, None, None, None, ())
        self._warned: set[str] = set()
        self._fog_image: moderngl.Texture | None = None
        self._dlight_image: moderngl.Texture | None = None
        self._passes: dict[int, ShaderPasses] = {}

    def release(self) -> None:
        for tex in self._textures.values():
            tex.release()
        self._textures.clear()
        self._white.release()
        if self._fog_image is not None:
            self._fog_image.release()
        if self._dlight_image is not None:
            self._dlight_image.release()

    def texture(self, name: str, clamp: bool = False, shader: Shader | None = None) -> moderngl.Texture:
        """The GL texture of image ``name`` (``$lightmap``, ``$whiteimage`` or a path) as ``shader`` uploads it
        (``None``: mipmapped, no picmip); an image the loader did not decode draws white with one warning per
        name."""
        lower = name.lower()
        if lower == "$lightmap":
            return self.lightmap if self.lightmap is not None else self._white
        if lower in ("$whiteimage", "*white"):
            return self._white
        picmip = self.picmip if shader is not None and not shader.no_picmip else 0
        mipmap = shader is None or not shader.no_mipmaps
        key = (lower, clamp, picmip, mipmap)
        tex = self._textures.get(key)
        if tex is None:
            pixels = self.images.get(lower)
            uploaded = self._textures.get((lower, not clamp, picmip, mipmap))
            if pixels is not None:
                for _ in range(picmip):
                    pixels = half_size(pixels)
            elif uploaded is not None:      # its pixels were given up (drop_pixels): the GPU's copy of them
                (w, h), data = uploaded.size, uploaded.read()
                pixels = np.frombuffer(data, np.uint8).reshape(h, w, 4)
            else:
                if lower not in self._warned:
                    self._warned.add(lower)
                    warnings.warn(f"image {name!r} was not loaded; drawing white", stacklevel=2)
                return self._white
            pixels = np.ascontiguousarray(pixels)
            tex = self.ctx.texture((pixels.shape[1], pixels.shape[0]), 4, pixels.tobytes())
            tex.repeat_x = tex.repeat_y = not clamp
            if mipmap:
                upload_mipmaps(tex, pixels)
                tex.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
            else:
                tex.filter = (moderngl.LINEAR, moderngl.LINEAR)
            self._textures[key] = tex
        return tex

    def drop_pixels(self) -> None:
        """Give up the decoded pixels of every image already uploaded (from ``images``, the segment's table: only
        when no other painter will read it): the GPU keeps them, as ``R_FindImageFile`` keeps only the GL image; a
        clamp mode asked for later is made from the uploaded texture."""
        for lower, *_ in self._textures:
            self.images.pop(lower, None)

    def _program(self, view: Q3View, collapsed: bool, alpha_func: int, skybox: bool = False, fog: bool = False,
                 detail: bool = False, dlight: bool = False, features: tuple[str, ...] = ()) -> StageProgram:
        return stage_program(self.ctx, collapsed, alpha_func, skybox, fog, detail, view.clip_plane is not None,
                             dlight=dlight, features=features)

    @staticmethod
    def _set(p: StageProgram, name: str, value) -> None:
        p.set(name, value)

    def _clamped_texture(self, image: np.ndarray) -> moderngl.Texture:
        """An RGBA ``[H, W, 4]`` lookup image (the fog table, the dlight falloff) as a clamped, linear texture."""
        texture = self.ctx.texture((image.shape[1], image.shape[0]), 4, image.tobytes())
        texture.repeat_x = texture.repeat_y = False
        texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
        return texture

    def _view_proj_bytes(self, view: Q3View) -> bytes:
        """``view.view_proj`` as uniform bytes, converted once per view."""
        source, data = self._matrix_cache
        if source is not view.view_proj:
            data = gl_bytes(view.view_proj)
            self._matrix_cache = (view.view_proj, data)
        return data

    def _model_bytes(self, model: np.ndarray) -> bytes:
        """``model`` as uniform bytes (the surfaces of one model, and the whole map, share a matrix)."""
        if model is not self._model_cache[0]:
            data = _IDENTITY_BYTES if model is IDENTITY else gl_bytes(np.asarray(model, np.float32))
            self._model_cache = (model, data)
        return self._model_cache[1]

    def _view_values(self, view: Q3View, camera_local) -> Uniforms:
        """The camera (in the model's space), time and clip plane uniforms of a draw."""
        if camera_local is not self._camera_cache[0]:
            self._camera_cache = (camera_local, tuple(float(c) for c in camera_local))
        return (("u_camera", self._camera_cache[1]), ("u_time", float(view.time)),
                ("u_clip_plane", view.clip_plane or _NO_CLIP))

    def _shared(self, view: Q3View, camera_local, fog: FogVectors | None,
                entity_color: tuple[float, float, float, float] | None) -> Uniforms:
        """The uniforms of a draw, the same for each of its passes: camera, time, clip plane, fog and entity colour
        (made once for the draws with the same view, camera, fog and colour: a view's map batches)."""
        key = self._shared_key
        if key[0] is view and key[1] is camera_local and key[2] is fog and key[3] is entity_color:
            return key[4]
        shared = list(self._view_values(view, camera_local))
        if fog is None:
            shared += [("u_fog_eye_t", 1.0), ("u_fog_adjust", 0)]
        else:
            shared += [("u_fog_distance", fog.distance), ("u_fog_depth", fog.depth), ("u_fog_eye_t", fog.eye_t)]
        shared.append(("u_entity_from_vertex", int(entity_color is None)))
        if entity_color is not None:
            shared.append(("u_entity_color", entity_color))
        values = tuple(shared)
        self._shared_key = (view, camera_local, fog, entity_color, values)
        return values

    def _common(self, p: StageProgram, view: Q3View, model: np.ndarray, camera_local) -> None:
        p.write("u_view_proj", self._view_proj_bytes(view))
        p.write("u_model", self._model_bytes(model))
        p.put_shared(self._view_values(view, camera_local))    # (not put_all: a draw's shared uniforms no longer hold)

    def _fog_uniforms(self, p: StageProgram, fog: FogVectors | None) -> None:
        if fog is None:
            self._set(p, "u_fog_eye_t", 1.0)
            self._set(p, "u_fog_adjust", 0)
            return
        self._set(p, "u_fog_distance", fog.distance)
        self._set(p, "u_fog_depth", fog.depth)
        self._set(p, "u_fog_eye_t", fog.eye_t)

    def _deforms(self, p: StageProgram, shader: Shader, time: float) -> None:
        plan = self.passes(shader)
        for name, value in (*deform_uniforms(shader), *plan.move(time)):
            p.set(name, value)
        if not plan.move(time):
            p.set("u_move", (0.0, 0.0, 0.0))

    def _state(self, shader: Shader, stage: Stage, view: Q3View) -> None:
        use_state(self.ctx, stage_state(shader, stage, view))

    def passes(self, shader: Shader) -> ShaderPasses:
        """What of ``shader``'s passes is fixed (:mod:`.passes`), worked out on its first draw."""
        found = self._passes.get(id(shader))
        if found is None or found.shader is not shader:
            found = self._passes[id(shader)] = ShaderPasses(shader, shader_cull(shader), shader_offset(shader),
                                                            portal_range(shader))
        return found

    def _pass_program(self, step: Pass, key: tuple[bool, bool]) -> StageProgram:
        """The program of ``step`` clipped at a portal's plane or not and fading with a fog or not (``key``)."""
        clip, fade = key
        program = step.programs[key] = stage_program(self.ctx, step.second is not None, step.alpha_func,
                                                     detail=step.detail is not None, clip=clip,
                                                     features=ALL_FEATURES if fade else step.features)
        return program

    def draw(self, vao_for, shader: Shader, view: Q3View, model: np.ndarray, camera_local, count: int,
             first: int = 0, light: StageLight | None = None, fog: FogVectors | None = None,
             entity_color: tuple[float, float, float, float] | None = None) -> None:
        """Draw ``count`` indices from ``first`` with every pass of ``shader``; ``vao_for(program)`` gives the
        vertex array to use with a program. ``fog``: the fog volume the surfaces are in (blended stages fade
        with it); ``entity_color``: the entity's ``shaderRGBA`` (0‥1) for ``rgbGen``/``alphaGen entity``, ``None``
        when the vertex colours carry it (sprites and polygons, as ``RB_SurfaceSprite`` writes them)."""
        if count <= 0:
            return
        if shader.sky is not None and shader.sky.outer_box:
            self._draw_skybox(vao_for, shader, view, model, camera_local, count, first)
        plan = self.passes(shader)
        time = view.time
        move = plan.move(time)
        clip = view.clip_plane is not None
        face = view.front_face
        view_proj, model_bytes = self._view_proj_bytes(view), self._model_bytes(model)
        shared = self._shared(view, camera_local, fog, entity_color)
        lit = light or _DEFAULT_LIGHT
        lighting = (("u_ambient", lit.ambient), ("u_directed", lit.directed), ("u_light_dir", lit.direction))
        for step in plan.passes:
            key = (clip, fog is not None and step.fog_adjust != 0)
            p = step.programs.get(key) or self._pass_program(step, key)
            p.write("u_view_proj", view_proj)
            p.write("u_model", model_bytes)
            p.apply(step.statics)
            dynamic, textures = step.at(time, move, self.texture)
            p.put_all(dynamic)
            p.put_shared(shared)
            if fog is not None:     # (not one of the fogged draw's shared uniforms)
                p.put("u_fog_adjust", step.fog_adjust)
            if step.lighting:
                p.put_all(lighting)
            for unit, texture in enumerate(textures):
                texture.use(unit)
            use_state(self.ctx, step.states[face])
            vao_for(p.program).render(moderngl.TRIANGLES, vertices=count, first=first)

    def draw_depth(self, vao_for, shader: Shader, view: Q3View, count: int, first: int) -> None:
        """Only the depth of an opaque batch (colour writes masked off by the caller), computed exactly as its
        stages compute positions, so they pass the depth test once per pixel."""
        p = stage_program(self.ctx, clip=view.clip_plane is not None, depth_only=True)
        self._common(p, view, IDENTITY, view.camera)
        self._set(p, "u_deform", 0)
        self._set(p, "u_move", (0.0, 0.0, 0.0))
        self._state(shader, shader.stages[0], view)
        vao_for(p.program).render(moderngl.TRIANGLES, vertices=count, first=first)

    def draw_fog(self, vao_for, shader: Shader, view: Q3View, count: int, first: int, fog: FogVectors,
                 equal: bool = True, model: np.ndarray = IDENTITY) -> None:
        """The fog pass over surfaces just drawn inside a fog volume (``RB_FogPass``): the fog colour blended by
        the fog image's alpha at each vertex's fog coordinates, on the drawn depth only (``equal``, opaque
        shaders) or over it (the fog volume's own translucent surface)."""
        p = self._program(view, False, 0, fog=True)
        self._common(p, view, model, view.camera)
        self._set(p, "u_deform", 0)
        self._set(p, "u_move", (0.0, 0.0, 0.0))
        self._fog_uniforms(p, fog)
        self._set(p, "u_fog_adjust", 0)
        self._set(p, "u_fog_color", fog.color)
        if self._fog_image is None:
            self._fog_image = self._clamped_texture(fog_image())
        self._fog_image.use(0)
        self._set(p, "u_fog_image", 0)
        use_state(self.ctx, GlState(depth_write=False, depth_func="==" if equal else "<=", cull=shader_cull(shader),
                                    front_face=view.front_face, blend=ALPHA_BLEND,
                                    polygon_offset=shader_offset(shader)))
        vao_for(p.program).render(moderngl.TRIANGLES, vertices=count, first=first)

    def dlight_scissors(self, view: Q3View) -> list[tuple[int, int, int, int] | None]:
        """Per light of ``view``, the pixels it can reach: the screen box of its cube within the bound scissor
        (``None``: no pixel)."""
        if view.lights is None:
            return []
        viewport = self.ctx.viewport
        bound = self.ctx.scissor or viewport
        out: list[tuple[int, int, int, int] | None] = []
        for origin, radius in zip(view.lights.origins, view.lights.radius.tolist()):
            box = scissor_pixels(screen_extent(light_corners(origin, radius), view.view_proj), viewport)
            reach = _intersect(bound, box) if box is not None else bound
            out.append(reach if reach[2] > 0 and reach[3] > 0 else None)
        return out

    def draw_dlights(self, vao_for, shader: Shader, view: Q3View, model: np.ndarray, camera_local, count: int,
                     first: int, which: list[int], scissors: list[tuple[int, int, int, int] | None],
                     local: Lights | None = None) -> None:
        """The projected pass of each light ``which`` names over surfaces of ``shader`` just drawn
        (``ProjectDlightTexture``): their positions computed as the stages computed them (deforms), the lights
        in the model's space ``local`` (:func:`~.dlights.in_model_space`; ``None``: the world's, ``view.lights``),
        each added on the drawn depth only with ``GL_DST_COLOR, GL_ONE`` within its scissor
        (:meth:`dlight_scissors`; ``None``: skipped)."""
        lights = view.lights
        which = [i for i in which if scissors[i] is not None]
        if count <= 0 or lights is None or not which:
            return
        local = lights if local is None else local
        p = self._program(view, False, 0, dlight=True, features=self.passes(shader).deformed)
        self._common(p, view, model, camera_local)
        self._deforms(p, shader, view.time)
        if self._dlight_image is None:
            self._dlight_image = self._clamped_texture(dlight_image())
        self._dlight_image.use(0)
        p.set("u_dlight_image", 0)
        use_state(self.ctx, replace(stage_state(shader, shader.stages[0], view), depth_write=False, depth_func="==",
                                    blend=(moderngl.DST_COLOR, moderngl.ONE)))
        ctx = self.ctx
        bound = ctx.scissor
        for i in which:
            x, y, z = (float(v) for v in local.origins[i])
            p.set("u_dlight", (x, y, z, float(local.radius[i])))
            r, g, b = (float(v) for v in local.colors[i])
            p.set("u_dlight_color", (r, g, b))
            ctx.scissor = scissors[i]
            vao_for(p.program).render(moderngl.TRIANGLES, vertices=count, first=first)
        ctx.scissor = None if bound == (0, 0, *ctx.fbo.size) else bound

    def _draw_skybox(self, vao_for, shader: Shader, view: Q3View, model: np.ndarray, camera_local, count: int,
                     first: int) -> None:
        """The outer box behind the cloud layers (``RB_StageIteratorSky``'s ``DrawSkyBox``)."""
        assert shader.sky is not None
        p = self._program(view, False, 0, skybox=True)
        self._common(p, view, model, camera_local)
        self._set(p, "u_deform", 0)
        self._set(p, "u_move", (0.0, 0.0, 0.0))
        names = shader.sky.box_images(shader.sky.outer_box)
        for i, name in enumerate(names):
            self.texture(name, True, shader).use(2 + i)
        self._set(p, "u_sides", tuple(range(2, 8)))
        use_state(self.ctx, GlState(depth_func="<=", cull="back" if shader.cull == "front" else None,
                                    front_face=view.front_face))
        vao_for(p.program).render(moderngl.TRIANGLES, vertices=count, first=first)



def portal_range(shader: Shader) -> float:
    """``shader.portalRange``: the ``alphaGen portal`` distance (256 when the stage gives none), 0 for a shader
    without one, which leaves a camera portal never in range (``SurfIsOffscreen``)."""
    for stage in shader.stages:
        if stage.alpha_gen == "portal":
            return float(stage.alpha_const) if stage.alpha_const is not None else 256.0
    return 0.0



def screen_extent(points: np.ndarray, view_proj: np.ndarray) -> tuple[float, float, float, float] | None:
    """The box ``(x0, y0, x1, y1)`` in normalised device coordinates that ``points`` cover on screen, clamped
    to the screen; ``None`` (the whole screen) when a point lies behind the eye."""
    clip = np.c_[points, np.ones(len(points))] @ np.asarray(view_proj, np.float64).T
    if (clip[:, 3] <= 1e-6).any():
        return None
    ndc = np.clip(clip[:, :2] / clip[:, 3:], -1.0, 1.0)
    lo, hi = ndc.min(axis=0), ndc.max(axis=0)
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))


def scissor_pixels(box: tuple[float, float, float, float] | None, viewport: tuple[int, int, int, int]) \
        -> tuple[int, int, int, int] | None:
    """A box in normalised device coordinates as a GL scissor ``(x, y, width, height)`` in the pixels of the
    framebuffer whose ``viewport`` it is drawn in, a pixel wider on each side (``None``: the whole target)."""
    if box is None:
        return None
    left, bottom, w, h = viewport
    x0, y0 = int((box[0] + 1) / 2 * w) - 1, int((box[1] + 1) / 2 * h) - 1
    x1, y1 = int((box[2] + 1) / 2 * w) + 2, int((box[3] + 1) / 2 * h) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    return (left + x0, bottom + y0, max(min(x1, w) - x0, 0), max(min(y1, h) - y0, 0))


def _intersect(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The overlap of two ``(x, y, width, height)`` rectangles (width or height 0 when they do not meet)."""
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return (x0, y0, max(x1 - x0, 0), max(y1 - y0, 0))


def upload_images(painter: ShaderPainter, shaders: Iterable[Shader]) -> None:
    """Upload every loaded image ``shaders`` draw with (``animMap`` frames and sky boxes included) now, so no frame
    waits for one (``R_FindImageFile`` at registration); names the loader did not decode are left to the first draw
    that needs them (and its one warning)."""
    for shader in shaders:
        for stage in shader.stages:
            for name in stage.images:
                if name.lower() in painter.images:
                    painter.texture(name, stage.clamp, shader)
        if shader.sky is not None and shader.sky.outer_box:
            for name in shader.sky.box_images(shader.sky.outer_box):
                if name.lower() in painter.images:
                    painter.texture(name, True, shader)


def half_size(pixels: np.ndarray) -> np.ndarray:
    """``R_MipMap`` (``r_simpleMipMaps 1``): RGBA ``[H, W, 4]`` to half the size, each texel the truncated mean of
    a 2×2 block (a side of 1 stays 1, its pairs averaged along the other)."""
    p = pixels.astype(np.uint16)
    if p.shape[0] > 1:
        p = p[0:p.shape[0] // 2 * 2:2] + p[1:p.shape[0] // 2 * 2:2]
    else:
        p = p * 2
    if p.shape[1] > 1:
        p = p[:, 0:p.shape[1] // 2 * 2:2] + p[:, 1:p.shape[1] // 2 * 2:2]
    else:
        p = p * 2
    return (p >> 2).astype(np.uint8)


def shader_cull(shader: Shader) -> str | None:
    """The faces a shader's ``cull`` leaves out (``GL_Cull``: Quake III's front faces are GL's back faces)."""
    if shader.cull in ("none", "twosided", "disable"):
        return None
    return "front" if shader.cull == "back" else "back"


def shader_offset(shader: Shader) -> tuple[float, float]:
    """``polygonOffset``: the decal's depth pulled towards the eye (``r_offsetFactor``/``r_offsetUnits``)."""
    return (-1.0, -2.0) if shader.polygon_offset else (0.0, 0.0)


def stage_state(shader: Shader, stage: Stage, view: Q3View) -> GlState:
    """The GL state of one stage's pass (``GL_State`` from the stage's ``stateBits``, ``GL_Cull`` from the shader):
    its blend, depth function and depth write, the shader's cull and polygon offset, the view's winding."""
    return GlState(depth_write=stage.depth_write, depth_func="==" if stage.depth_func == "equal" else "<=",
                   cull=shader_cull(shader), front_face=view.front_face, blend=blend_factors(stage),
                   polygon_offset=shader_offset(shader))
