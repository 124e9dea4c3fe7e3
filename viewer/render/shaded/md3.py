"""Draw Quake III MD3 models: each surface with its shader (or the skin's), frames blended on the CPU, lit from
the map's light grid.

Per call (and view): every surface's vertices are lerped (``LerpMeshVertexes``; poses of one frame are kept) and written
with their triangles into fresh storage of one shared vertex and one index buffer (orphaned, so no write waits for the
draws before it; written once, not once per surface), in the map's vertex layout; each surface is then one draw of its
range of the indices. The light grid sample at the light origin (once per origin, kept between frames) becomes the
ambient and directed light of ``rgbGen lightingDiffuse`` with the light direction turned into the model's own axes. View
models draw with their depth squeezed to the front (``RF_DEPTHHACK``). The entity's ``shaderRGBA`` feeds
``rgbGen``/``alphaGen entity``; a model reaching into a fog volume is fogged like the map (``R_ComputeFogNum``); a
custom shader replaces every surface's (``customShader``) and the shader's clock starts at the draw's ``shader_time``. A
scene without a world (``RDF_NOWORLDMODEL``: the HUD's 3D icons) lights its models with the renderer's fixed light from
the default sun direction and fogs nothing.

References: ioquake3 ``renderergl1/tr_mesh.c`` (``R_AddMD3Surfaces``: skins, shaders per surface),
``tr_surface.c`` (``RB_SurfaceMesh``, ``LerpMeshVertexes``), ``tr_light.c`` (``R_SetupEntityLighting``,
``R_SetupEntityLightingGrid``), ``tr_shade_calc.c`` (``RB_CalcDiffuseColor``, ``RB_CalcColorFromEntity``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import moderngl
import numpy as np

from assets_loader.bsp46 import DRAW_VERTEX, LIGHTMAP_NONE, LightGrid
from assets_loader.bsp46.lighting import LightSample, vec3
from assets_loader.models.md3 import MD3_XYZ_SCALE, Md3Model, Md3Surface, lerp_frames
from assets_loader.q3shaders import Shader, ShaderLibrary, default_shader
from assets_loader.q3shaders.records import SORT_OPAQUE

from .dlights import model_dlights
from .fog import FogVectors, FogVolume, fog_vectors, model_fog
from .lod import lod_level
from .records import Md3Draw, Quake3Models
from .stages import IDENTITY_LIGHT
from .painter import Q3View, ShaderPainter, StageLight, cached_vao
from ..refdef import Lights

#: Light for models without a light grid (``R_SetupEntityLighting``'s fallback: ambient and directed 0.5).
_NO_GRID = StageLight()
_NO_GRID_SAMPLE = LightSample(vec3(np.asarray(_NO_GRID.ambient) * 255.0), vec3(np.asarray(_NO_GRID.directed) * 255.0),
                              _NO_GRID.direction)
#: ``R_SetupEntityLighting`` adds ``identityLight * 32`` to every model's ambient light (0‥255 scale).
MINIMUM_AMBIENT = 32.0
_VIEW_MODEL_DEPTH = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0.3, -0.7], [0, 0, 0, 1]], np.float32)
#: ``R_SetupEntityLighting`` without a world: ambient 150 plus the minimum 32, directed 150 (of 255, at
#: ``identityLight`` 1), from ``tr.sunDirection`` as ``RE_LoadWorldMap`` presets it.
_NO_WORLD_AMBIENT = (150 + MINIMUM_AMBIENT) / 255.0
_NO_WORLD_DIRECTED = 150 / 255.0
#: The view's planes as ``((a, b, c, d), length of (a, b, c))``: a world point lies past one by ``a x + b y + c z +
#: d`` (clip space's ``x - w``, ``-x - w``, ``y - w``, ``-y - w``, ``-z - w``), and last ``w`` itself.
_Planes = list[tuple[tuple[float, float, float, float], float]]
#: Decoded surface frames kept (:meth:`Md3Renderer._frame`), at most this many.
_MAX_FRAMES = 512
#: Surface shader lists kept by model, skin and custom shader (:meth:`Md3Renderer._surface_shaders`), at most this
#: many.
_MAX_SKINS = 512
#: Light grid samples kept by light origin (items do not move: sampled once, not once a frame), at most this many.
_MAX_SAMPLES = 4096
_SUN_DIRECTION = np.array([0.45, 0.3, 0.9]) / np.linalg.norm([0.45, 0.3, 0.9])


def model_matrix(origin, axis) -> np.ndarray:
    """``[4, 4]`` column-vector matrix of a model at ``origin`` with ``axis`` rows forward, left, up."""
    m = np.zeros((4, 4), np.float32)
    m[:3, :3] = np.asarray(axis).T
    m[:3, 3] = origin
    m[3, 3] = 1.0
    return m


def _view_planes(view_proj: np.ndarray) -> _Planes:
    """The right, left, top, bottom and near planes of ``view_proj`` (column vectors) in the world, then ``w``."""
    x, y, z, w = np.asarray(view_proj, np.float64).tolist()
    out = [tuple(a - b for a, b in zip(x, w)), tuple(-a - b for a, b in zip(x, w)), tuple(a - b for a, b in zip(y, w)),
           tuple(-a - b for a, b in zip(y, w)), tuple(-a - b for a, b in zip(z, w)), tuple(w)]
    return [((a, b, c, d), math.sqrt(a * a + b * b + c * c)) for a, b, c, d in out]


def grid_light(grid: LightGrid | None, point, axis) -> StageLight:
    """The light grid at ``point`` as :class:`~.painter.StageLight` (0‥1 colours), its direction in the model's
    ``axis``."""
    if grid is None:
        return _NO_GRID
    return _stage_light(grid.sample(point), axis)


def no_world_light(axis) -> StageLight:
    """The light of a model in a scene without a world (``RDF_NOWORLDMODEL``), its direction in the model's
    ``axis``."""
    local = np.asarray(axis, np.float64) @ _SUN_DIRECTION
    return StageLight(vec3(np.full(3, _NO_WORLD_AMBIENT)), vec3(np.full(3, _NO_WORLD_DIRECTED)), vec3(local))


def _stage_light(sample: LightSample, axis, point=None, dlights: Lights | None = None) -> StageLight:
    """``sample`` as the diffuse light of a model with ``axis`` (:func:`_world_light` turned into its axes)."""
    ambient, directed, direction = _world_light(sample, point, dlights)
    return StageLight(ambient, directed, vec3(np.asarray(axis, np.float64) @ direction))


def _world_light(sample: LightSample, point=None, dlights: Lights | None = None) \
        -> tuple[tuple[float, float, float], tuple[float, float, float], np.ndarray]:
    """``sample`` as ambient and directed light (0‥1) and the world direction of the latter: every model gets the
    minimum ambient add of 32 (``R_SetupEntityLighting``'s "fixed minimum add", before the ambient is clamped);
    ``dlights`` reaching ``point`` add to its directed light and turn its direction
    (:func:`~.dlights.model_dlights`)."""
    ambient = tuple(min((v + MINIMUM_AMBIENT) / 255.0, 1.0) for v in sample.ambient)
    directed: tuple | np.ndarray = tuple(min(v / 255.0, 1.0) for v in sample.directed)
    direction = np.asarray(sample.direction, np.float64)
    if dlights is not None and len(dlights) and point is not None:
        directed, direction = model_dlights(dlights, point, np.asarray(directed), direction)
    return vec3(ambient), vec3(directed), direction


def _level_name(name: str, level: int) -> str:
    """The name the poses and shaders of level of detail ``level`` (1, 2) of the MD3 ``name`` are kept under
    (``NAME#1``, ``NAME#2``; level 0 is ``name`` itself)."""
    return f"{name}#{level}"


@dataclass(frozen=True, slots=True)
class _Placed:
    """One MD3 draw as a view sees it: its surfaces' shaders and their sorts, model matrix, the camera in model
    space, light, the view its passes use (depth hack, shader clock), fog and entity colour."""

    model: Md3Model
    draw: Md3Draw
    shaders: list[Shader]
    sorts: set[float]
    firsts: list[int]
    matrix: np.ndarray
    camera_local: np.ndarray
    light: StageLight
    view: Q3View
    fog: FogVectors | None
    color: tuple[float, float, float, float]


class Md3Renderer:
    """GPU resources for a segment's MD3 models and their drawing."""

    def __init__(self, ctx: moderngl.Context, models: Quake3Models, grid: LightGrid | None,
                 fogs: tuple[FogVolume, ...] = (), picmip: int = 0) -> None:
        self.ctx = ctx
        self.models = models
        self.grid = grid
        self.fogs = fogs
        self.painter = ShaderPainter(ctx, models.images, None, picmip)
        self._library = models.library
        self._capacity = (0, 0)             # vertices, indices
        self._vbo: moderngl.Buffer | None = None
        self._ibo: moderngl.Buffer | None = None
        self._vaos: dict[int, moderngl.VertexArray] = {}
        self._shaders: dict[str, Shader] = {}
        self._skins: dict[tuple[str, str, int], tuple[object, list[Shader], set[float], bool]] = {}
        self._static: dict[tuple[str, int, int], np.ndarray] = {}
        self._frames: dict[tuple[str, int, int], tuple[np.ndarray, np.ndarray]] = {}
        self._spheres: dict[tuple[str, int, int], tuple[float, float, float, float] | None] = {}
        self._samples: dict[tuple[float, ...], LightSample] = {}
        self._lit: tuple[Lights | None, dict[tuple[float, ...], tuple]] = (None, {})
        self._last_placed: tuple | None = None
        self._placed_by_draw: dict[int, _Placed | None] = {}     # of the last placed draws (None: not drawn)

    def registered_shaders(self) -> list[Shader]:
        """Every shader the segment's models, skins and effects name (to upload their images up front)."""
        models = self.models
        names = {n for m in models.md3.values() for s in m.surfaces for n in s.shaders[:1]}
        names.update(n for skins in (p.skins.values() for p in models.players.values()) for skin in skins
                     for n in skin.values())
        names.update(models.shaders)
        return [self._shader(n) for n in sorted(names)]

    def release(self) -> None:
        self._drop_buffers()
        self.painter.release()

    def _drop_buffers(self) -> None:
        for vao in self._vaos.values():
            vao.release()
        self._vaos.clear()
        for buffer in (self._vbo, self._ibo):
            if buffer is not None:
                buffer.release()
        self._vbo = self._ibo = None

    def _upload(self, vertices: list[np.ndarray], indices: list[np.ndarray], bases: list[int]) -> None:
        """Write the surfaces' ``vertices`` and their triangles (``indices``, each moved by its ``bases`` entry) into
        the shared buffers, in fresh storage (no wait for the draws still reading the old one)."""
        verts = np.concatenate([v.view(np.uint8) for v in vertices])     # as bytes: no field-by-field copy
        count = len(verts) // DRAW_VERTEX.itemsize
        idx = np.concatenate(indices).astype(np.uint32) + np.repeat(np.asarray(bases, np.uint32),
                                                                     [len(i) for i in indices])
        if self._vbo is None or count > self._capacity[0] or len(idx) > self._capacity[1]:
            self._drop_buffers()
            self._capacity = (max(count, 2 * self._capacity[0], 4096),
                              max(len(idx), 2 * self._capacity[1], 16384))
            self._vbo = self.ctx.buffer(reserve=self._capacity[0] * DRAW_VERTEX.itemsize, dynamic=True)
            self._ibo = self.ctx.buffer(reserve=self._capacity[1] * 4, dynamic=True)
        assert self._vbo is not None and self._ibo is not None
        for buffer, data in ((self._vbo, verts), (self._ibo, idx)):
            buffer.orphan()
            buffer.write(data)

    def _shader(self, name: str) -> Shader:
        shader = self._shaders.get(name)
        if shader is None:
            library: ShaderLibrary | None = self._library
            shader = library.find(name, LIGHTMAP_NONE) if library is not None else default_shader(name, LIGHTMAP_NONE)
            self._shaders[name] = shader
        return shader

    def _vertices(self, name: str, model: Md3Model, index: int, draw: Md3Draw) -> np.ndarray:
        """The surface's vertices at the draw's pose (kept by model ``name`` for poses that do not blend two
        frames)."""
        surface = model.surfaces[index]
        still = draw.frac == 0.0 or draw.old_frame == draw.frame
        key = (name, index, draw.old_frame if draw.frac == 0.0 else draw.frame)
        if still and key in self._static:
            return self._static[key]
        positions, normals = lerp_frames(self._frame(name, index, surface, surface.clamped(draw.old_frame)),
                                         self._frame(name, index, surface, surface.clamped(draw.frame)),
                                         draw.frac)
        verts = np.zeros(len(positions), DRAW_VERTEX)
        verts["position"] = positions
        verts["st"] = surface.st
        verts["normal"] = normals
        verts["color"] = 255
        if still:
            self._static[key] = verts
        return verts

    def _frame(self, model: str, index: int, surface: Md3Surface, frame: int) -> tuple[np.ndarray, np.ndarray]:
        """Surface ``index`` of ``model``'s positions and normals at ``frame`` (decoded once for the frames drawn
        lately: a pose is drawn for several frames, and blended from and to)."""
        key = (model, index, frame)
        found = self._frames.get(key)
        if found is None:
            if len(self._frames) >= _MAX_FRAMES:
                self._frames.clear()
            found = self._frames[key] = surface.frame(frame)
        return found

    def _vao(self, program: moderngl.Program) -> moderngl.VertexArray:
        assert self._vbo is not None and self._ibo is not None
        return cached_vao(self._vaos, program, self._vbo, self._ibo)

    def draw(self, draws: tuple[Md3Draw, ...], view: Q3View, light: StageLight | None = None, *,
             world: bool = True, sorts: Callable[[float], bool] | None = None) -> None:
        """Draw ``draws`` (unknown model names are skipped: the game warned when it failed to load them); ``light``:
        the light of every draw instead of the light grid's (Quake II lights its models from the lightmap below); a
        view through a portal leaves out the first-person weapon (``RF_FIRST_PERSON``); ``world`` False: a scene
        without the map (:func:`no_world_light`, no fog); ``sorts``: only the surfaces whose shader's sort it
        accepts (all without it)."""
        for placed in self._placed(draws, view, light, world):
            if sorts is None or any(sorts(sort) for sort in placed.sorts):
                self._draw_one(placed, sorts)

    def place(self, draws: tuple[Md3Draw, ...], view: Q3View) -> None:
        """Work out the placement of ``draws`` in ``view`` (with the light grid, in the map) ahead of drawing them or
        any part of them (:meth:`_placed`): the frame's scene models and its first-person weapon, drawn apart,
        are then placed and uploaded once."""
        self._placed(draws, view, None, True)

    def surface_sorts(self, draws: tuple[Md3Draw, ...]) -> set[float]:
        """The shader sorts of every surface of ``draws`` at any level of detail (to interleave them with other
        surfaces by sort)."""
        sorts: set[float] = set()
        for draw in draws:
            model = self.models.md3.get(draw.model)
            if model is not None:
                for name, shown in self._levels(draw.model, model):
                    sorts |= self._surface_shaders(name, shown, draw)[1]
        return sorts

    def _surface_shaders(self, name: str, model: Md3Model, draw: Md3Draw) -> tuple[list[Shader], set[float], bool]:
        """The shader of each surface of ``model`` (kept as ``name``: a level of detail has its own surfaces) as
        ``draw`` shows it (custom shader, skin, the model's own), their sorts and whether one deforms the vertices;
        worked out once per model, skin and custom shader (the entry holds the skin, so an id found is the same
        mapping; an empty one names no shader)."""
        custom, skin = draw.custom_shader, draw.shaders
        key = (name, custom, id(skin) if skin else 0)
        found = self._skins.get(key)
        if found is None or (skin and found[0] is not skin):
            if len(self._skins) >= _MAX_SKINS:
                self._skins.clear()
            shaders = [self._shader(custom or skin.get(surface.name.lower()) or
                                    (surface.shaders[0] if surface.shaders else "")) for surface in model.surfaces]
            found = self._skins[key] = (skin, shaders, {shader.sort for shader in shaders},
                                        any(shader.deforms for shader in shaders))
        return found[1], found[2], found[3]

    def _placed(self, draws: tuple[Md3Draw, ...], view: Q3View, light: StageLight | None,
                world: bool) -> list[_Placed]:
        """What :meth:`_draw_one` needs of each drawable of ``draws`` in ``view``, worked out once for the calls of
        one view with the same draws (the opaque pass and each blended sort's), or with some of the draws last
        placed (:meth:`place`)."""
        last = self._last_placed
        if last is not None and last[1] is view and last[2] is light and last[3] == world:
            if last[0] is draws:
                return last[4]
            known = self._placed_by_draw        # (the last draws are held: an id found is the same living draw)
            if all(id(draw) in known for draw in draws):
                return [found for draw in draws if (found := known[id(draw)]) is not None]
        each = self._place_all(draws, [view] * len(draws), light, world)
        placed = [found for found in each if found is not None]
        self._last_placed = (draws, view, light, world, placed)
        self._placed_by_draw = {id(draw): found for draw, found in zip(draws, each)}
        return placed

    def draw_apart(self, draws: Sequence[Md3Draw], views: Sequence[Q3View], before: Callable[[int], None]) -> None:
        """Draw each of ``draws`` without the map as its own view of ``views`` sees it (the HUD's icons, each a
        scene of its own), their vertices uploaded together; ``before(i)`` is called ahead of the ``i``-th (to
        bind its box)."""
        each = self._place_all(draws, views, None, False)
        self._last_placed, self._placed_by_draw = None, {}     # (the buffers now hold these draws alone)
        for i, placed in enumerate(each):
            if placed is not None:
                before(i)
                self._draw_one(placed)

    def _place_all(self, draws: Sequence[Md3Draw], views: Sequence[Q3View], light: StageLight | None,
                   world: bool) -> list[_Placed | None]:
        """Each draw's placement in its view (``None``: not drawn: its model is not loaded, it is off screen, or
        it is the first-person weapon in a view through a portal), their vertices uploaded."""
        samples = self._samples
        if len(samples) > _MAX_SAMPLES:
            samples.clear()
            self._lit = (None, {})
        vertices: list[np.ndarray] = []
        indices: list[np.ndarray] = []
        bases: list[int] = []
        base = first = 0
        planes_of: dict[int, _Planes] = {}
        each: list[_Placed | None] = []
        for draw, view in zip(draws, views):
            each.append(None)
            model = self.models.md3.get(draw.model)
            if model is None or (draw.view_model and view.clip_plane is not None):
                continue
            name, model = self._detail(draw, model, view)
            shaders, sorts, deformed = self._surface_shaders(name, model, draw)
            if world and not draw.view_model and not deformed:
                planes = planes_of.get(id(view))
                if planes is None:
                    planes = planes_of[id(view)] = _view_planes(view.view_proj)
                if self._off_screen(name, model, draw, planes):
                    continue
            matrix = model_matrix(draw.origin, draw.axis)
            firsts = []
            for index, surface in enumerate(model.surfaces):
                firsts.append(first)
                if not surface.triangles.size:  # an empty part (telep.md3's "Tube"): nothing to draw
                    continue
                verts = self._vertices(name, model, index, draw)
                vertices.append(verts)
                indices.append(surface.triangles.ravel())
                bases.append(base)
                base += len(verts)
                first += surface.triangles.size
            each[-1] = self._place(model, draw, shaders, sorts, matrix, view, light, samples, world, firsts)
        if indices:
            self._upload(vertices, indices, bases)
        return each

    def _levels(self, name: str, model: Md3Model) -> list[tuple[str, Md3Model]]:
        """``model`` (registered as ``name``) and its lower levels of detail, each with the name its poses and
        shaders are kept under (:func:`_level_name`)."""
        return [(name, model), *((_level_name(name, level), lower)
                                 for level, lower in enumerate(self.models.lods.get(name, ()), start=1))]

    def _detail(self, draw: Md3Draw, model: Md3Model, view: Q3View) -> tuple[str, Md3Model]:
        """The level of detail of ``model`` that ``draw`` shows in ``view`` (:func:`.lod.lod_level`; ioquake3 draws,
        culls and lights that level) with its name (:func:`_level_name`)."""
        levels = self.models.lods.get(draw.model)
        if not levels:
            return draw.model, model
        level = lod_level(model, 1 + len(levels), draw.frame, draw.origin, view.view_proj)
        return (draw.model, model) if level == 0 else (_level_name(draw.model, level), levels[level - 1])

    def _off_screen(self, name: str, model: Md3Model, draw: Md3Draw, planes: _Planes) -> bool:
        """Whether every vertex of the draw's pose lies beyond one side of the view (left, right, top, bottom or
        near; ``R_CullModel``): the sphere around the box of both frames' vertices, in the world, wholly past one
        of ``planes`` (:func:`_view_planes`) with a margin, so no pixel the GL would have drawn is lost."""
        sphere = self._pose_sphere(name, model, draw.old_frame, draw.frame)
        if sphere is None:
            return False
        cx, cy, cz, radius = sphere
        (ax, ay, az), (bx, by, bz), (ux, uy, uz) = np.asarray(draw.axis, np.float64).tolist()
        ox, oy, oz = np.asarray(draw.origin, np.float64).tolist()[:3]
        x, y, z = ox + cx * ax + cy * bx + cz * ux, oy + cx * ay + cy * by + cz * uy, oz + cx * az + cy * bz + cz * uz
        rows = ((ax, ay, az), (bx, by, bz), (ux, uy, uz))
        lengths = [math.sqrt(a * a + b * b + c * c) for a, b, c in rows]
        square = abs(ax * bx + ay * by + az * bz) < 1e-6 and abs(ax * ux + ay * uy + az * uz) < 1e-6 \
            and abs(bx * ux + by * uy + bz * uz) < 1e-6
        # the axes stretch the sphere at most by their longest row when square to each other, else by all three
        radius *= max(lengths) if square else math.sqrt(sum(v * v for v in lengths))
        (wa, wb, wc, wd), w_length = planes[-1]
        margin = 1e-3 * (1.0 + abs(wa * x + wb * y + wc * z + wd) + radius * w_length)
        return any(a * x + b * y + c * z + d - radius * length > margin for (a, b, c, d), length in planes[:-1])

    def _pose_sphere(self, name: str, model: Md3Model, old_frame: int, frame: int) \
            -> tuple[float, float, float, float] | None:
        """Centre and radius (model space) of the sphere around the box of the vertices of every drawn surface of
        ``model`` at both frames (each surface's frames clamped: :meth:`Md3Surface.clamped`), from the
        vertices themselves, kept per frame pair."""
        key = (name, old_frame, frame)
        if key in self._spheres:
            return self._spheres[key]
        lows, highs = [], []
        for surface in model.surfaces:
            if not surface.triangles.size or not len(surface.xyz):
                continue
            for f in (old_frame, frame):
                xyz = surface.xyz[surface.clamped(f)]
                lows.append(xyz.min(axis=0))
                highs.append(xyz.max(axis=0))
        found = None
        if lows:
            lo = (np.min(lows, axis=0) * MD3_XYZ_SCALE).tolist()
            hi = (np.max(highs, axis=0) * MD3_XYZ_SCALE).tolist()
            half = [(b - a) / 2 for a, b in zip(lo, hi)]
            found = ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2,
                     math.sqrt(sum(v * v for v in half)) * (1 + 1e-6) + 1e-3)
        if len(self._spheres) >= _MAX_FRAMES:
            self._spheres.clear()
        self._spheres[key] = found
        return found

    def _place(self, model: Md3Model, draw: Md3Draw, shaders: list[Shader], sorts: set[float], matrix: np.ndarray,
               view: Q3View, light: StageLight | None, samples: dict[tuple[float, ...], LightSample], world: bool,
               firsts: list[int]) -> _Placed:
        axis = np.asarray(draw.axis, np.float64)
        camera_local = axis @ (np.asarray(view.camera, np.float64) - np.asarray(draw.origin, np.float64))
        if not world:
            light = no_world_light(axis)
        elif light is None:
            light_at = draw.light_origin if draw.light_origin is not None else draw.origin
            light = self._light(samples, light_at, axis, view.lights)
        pass_view = view
        if draw.view_model:
            pass_view = replace(view, view_proj=_VIEW_MODEL_DEPTH @ view.view_proj)
        if draw.shader_time:
            pass_view = replace(pass_view, time=view.time - draw.shader_time)
        frame = model.frames[min(max(draw.frame, 0), len(model.frames) - 1)] if model.frames else None
        volume = None if frame is None or not world else model_fog(
            self.fogs, np.asarray(draw.origin, np.float64) + np.asarray(frame.local_origin), frame.radius)
        fog = None if volume is None else fog_vectors(volume.parms, volume.plane, view.camera, view.forward,
                                                      IDENTITY_LIGHT)
        r, g, b, a = draw.shader_rgba
        return _Placed(model, draw, shaders, sorts, firsts, matrix, camera_local, light, pass_view, fog,
                       (r / 255.0, g / 255.0, b / 255.0, a / 255.0))

    def _draw_one(self, placed: _Placed, sorts: Callable[[float], bool] | None = None) -> None:
        matrix, pass_view, fog = placed.matrix, placed.view, placed.fog
        for surface, shader, first in zip(placed.model.surfaces, placed.shaders, placed.firsts):
            count = surface.triangles.size
            if not count or (sorts is not None and not sorts(shader.sort)):
                continue
            self.painter.draw(self._vao, shader, pass_view, matrix, placed.camera_local, count, first, placed.light,
                              fog, placed.color)
            if fog is not None and shader.sort <= SORT_OPAQUE and not shader.is_sky:
                self.painter.draw_fog(self._vao, shader, pass_view, count, first, fog, model=matrix)

    def _light(self, cache: dict[tuple[float, ...], LightSample], point, axis: np.ndarray,
               dlights: Lights | None = None) -> StageLight:
        """:func:`grid_light` with the grid sampled once per light origin, plus ``dlights``."""
        if self.grid is None and (dlights is None or not len(dlights)):
            return _NO_GRID
        key = tuple(np.asarray(point).ravel()[:3].tolist())
        if self.grid is None:
            sample = _NO_GRID_SAMPLE
        else:
            found = cache.get(key)
            if found is None:
                found = cache[key] = self.grid.sample(point)
            sample = found
        if self._lit[0] is not dlights:     # the parts of a player share a light origin: lit once per frame
            self._lit = (dlights, {})
        lit = self._lit[1].get(key)
        if lit is None:
            lit = self._lit[1][key] = _world_light(sample, point, dlights)
        ambient, directed, direction = lit
        return StageLight(ambient, directed, vec3(axis @ direction))
