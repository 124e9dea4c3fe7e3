"""The backend of Quake, QuakeWorld and Quake II (:class:`~viewer.render.backend.Backend`): the world, brush
entities, alias models, sprites, translucent liquids, particles, the world's translucent surfaces (Quake II), then
the view weapon. A Quake II entity whose model is an MD3 is drawn through the shared MD3 renderer, lit like an
alias model.

It uploads a segment's assets once (the Q2 ``refexport_t`` idea: register by model index, draw a frame
description); per frame it only picks poses, samples light under each model and issues draw calls.

References: QuakeSpasm ``gl_rmain.c`` ``R_RenderView`` (draw order), ``R_DrawEntitiesOnList``, ``r_alias.c``
``R_SetupAliasFrame``/``R_SetupAliasLighting``, ``view.c`` (view model depth range), ``gl_fog.c``, ``r_world.c``
(``map_wateralpha`` from worldspawn); Quake II ``ref_gl/gl_rmain.c`` ``R_RenderView``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import moderngl
import numpy as np

from assets_loader.bsp.lightpoint import LightSample, LightTracer
from assets_loader.bsp46.lighting import vec3
from assets_loader.palette import translation_table

from ..alias_program import AliasLight, shade_vector
from ..backend import VIEW_MODEL_DEPTH, FrameView, SharedDrawing
from ..placeholders import OBJECT_BOX, QUAKE_PLAYER_BOX
from ..refdef import EntityDraw, HudModel, Lights, MapWorld, ModelRef, SceneFrame
from ..shaded.hud_models import draw_hud_models
from ..shaded.md3 import Md3Renderer
from ..shaded.painter import Q3View, StageLight, upload_images
from ..shaded.records import Md3Draw
from ..view_math import angle_vectors, entity_matrix
from .alias import SHELL_PUSH, AliasHandle, AliasRenderer
from .records import BspSegment
from .sprites import SpriteRenderer
from .visibility import frustum_planes
from .world import BrushDraw, WorldRenderer, WorldView, placed_sphere

_LIGHT_CACHE_SIZE = 8192
#: Q2PRO's ``DLIGHT_CUTOFF``: what a dynamic light's radius loses on models (:attr:`.refdef.Look.dlights`).
DLIGHT_CUTOFF = 64.0
#: Light level for models when the map is missing, so they stay visible in the empty world.
_NO_MAP_LIGHT = 128.0
#: ``RF_FULLBRIGHT``: ref_gl's shadelight 1.0 in every channel, the full light level.
_FULL_LIGHT = 255.0


def _fog_from_worldspawn(worldspawn: dict[str, str]) -> tuple[float, float, float, float]:
    """The worldspawn ``fog`` key ("density r g b" or "density") as (r, g, b, density); no fog → density 0
    (a key that is not numbers is reported with a warning and ignored, as the engine's ``sscanf`` would)."""
    text = worldspawn.get("fog", "")
    try:
        values = [float(v) for v in text.split()]
    except ValueError:
        warnings.warn(f"worldspawn fog {text!r} is not numbers; drawing without fog", stacklevel=2)
        return (0.0, 0.0, 0.0, 0.0)
    if len(values) == 4:
        return (values[1], values[2], values[3], values[0])
    if len(values) == 1:
        return (0.3, 0.3, 0.3, values[0])
    return (0.0, 0.0, 0.0, 0.0)


def water_alpha_from_worldspawn(worldspawn: dict[str, str]) -> float:
    """The worldspawn ``wateralpha`` (or ``_wateralpha``, the underscore being the mapper's "not for the game" mark
    the engine strips) clamped to 0..1; 1 (opaque, ``r_wateralpha``'s default) when absent or not a number."""
    text = worldspawn.get("wateralpha", worldspawn.get("_wateralpha", ""))
    try:
        value = float(text.split()[0]) if text.split() else 1.0
    except ValueError:
        warnings.warn(f"worldspawn wateralpha {text!r} is not a number; drawing opaque water", stacklevel=2)
        return 1.0
    return min(max(value, 0.0), 1.0) if value == value else 1.0


class BspBackend:
    """GPU resources of one Quake, QuakeWorld or Quake II map segment and the drawing of its 3D view."""

    def __init__(self, ctx: moderngl.Context, assets: BspSegment, shared: SharedDrawing) -> None:
        self.ctx = ctx
        self.assets = assets
        self.shared = shared
        self.world = WorldRenderer(ctx, assets.world, assets.palette, assets.lighting, assets.sky_box) \
            if assets.world is not None else None
        #: The segment's MD3 models (Quake II entities whose model files are MD3s), ``None`` without any.
        self.md3 = Md3Renderer(ctx, assets.md3, None, ()) if assets.md3 is not None else None
        if self.md3 is not None:
            upload_images(self.md3.painter, self.md3.registered_shaders())
        self.alias = AliasRenderer(ctx, shared.programs)
        self.sprites = SpriteRenderer(ctx)
        self._handles: list = []
        #: Each alias model's reach from its origin over every pose (model index → radius), for frustum culling.
        self._radii: dict[int, float] = {}
        uploaded: dict[int, tuple[AliasHandle, float]] = {}   # by the model's identity: the list repeats models
        for ref in assets.models:
            if ref.kind == "alias" and ref.alias is not None:
                found = uploaded.get(id(ref.alias))
                if found is None:
                    found = uploaded[id(ref.alias)] = (
                        self.alias.upload(ref.alias, assets.palette, assets.lighting.fullbrights,
                                          assets.lighting.texture_mode),
                        float(np.linalg.norm(ref.alias.positions, axis=-1).max(initial=0.0)))
                self._radii[len(self._handles)] = found[1]
                self._handles.append(found[0])
            elif ref.kind == "sprite" and ref.sprite is not None:
                self._handles.append(self.sprites.upload(ref.sprite, assets.palette))
            elif ref.kind == "bsp" and ref.bsp is not None:
                self._handles.append(WorldRenderer(ctx, ref.bsp, assets.palette, assets.lighting))
            else:
                self._handles.append(None)
        worldspawn = assets.world.worldspawn if assets.world is not None else {}
        self._world_fog = _fog_from_worldspawn(worldspawn)
        self._world_water_alpha = water_alpha_from_worldspawn(worldspawn)
        self._light_cache: dict[tuple[int, int, int], LightSample | None] = {}
        self._tracer = LightTracer(assets.world) if assets.world is not None else None
        self._lights: Lights | None = None
        #: This frame's frustum planes (a, b, c, d), normalised, as floats: tested per entity (empty: cull nothing).
        self._planes: tuple[tuple[float, ...], ...] = ()

    def release(self) -> None:
        for handle in {id(handle): handle for handle in self._handles if handle is not None}.values():
            handle.release()
        if self.world is not None:
            self.world.release()
        if self.md3 is not None:
            self.md3.release()
        self.alias.release()
        self.sprites.release()

    def draw(self, frame: SceneFrame, frame_view: FrameView) -> None:
        view_proj = frame_view.view_proj
        fog = frame.fog or self._world_fog
        look = self.assets.look
        water_alpha = self._world_water_alpha if frame.water_alpha is None else frame.water_alpha
        view = WorldView(view_proj, frame.camera.origin, frame.time, frame.styles, fog,
                         liquid_alpha=water_alpha, lights=frame.lights, areabits=frame.areabits, look=look)
        self.shared.programs.set_look(look.light_max if look.light_max is not None else 2.0, fog)
        planes = frustum_planes(view_proj)
        self._planes = tuple(map(tuple, (planes / np.sqrt((planes[:, :3] ** 2).sum(axis=1, keepdims=True))).tolist()))
        forward, right, up = angle_vectors(frame.camera.angles)
        self._lights = frame.lights
        weapon_proj = VIEW_MODEL_DEPTH @ view_proj
        brushes, others = [], []
        weapons_first: list[EntityDraw] = []     # opaque view weapons, drawn before the map
        view_models: list[EntityDraw] = []       # the others, drawn last
        items: dict[int, list[BrushDraw]] = {}   # whole-BSP models (Quake's b_*.bsp boxes) by model, each in one batch
        for draw in frame.models:
            ref = self.assets.models[draw.model] if 0 <= draw.model < len(self.assets.models) else None
            if ref is None:
                continue
            if draw.view_model:
                (weapons_first if _opaque_alias(draw, ref) else view_models).append(draw)
            elif ref.kind == "brush" and ref.submodel > 0:
                matrix = entity_matrix(draw.origin, draw.angles)
                if self._brush_in_view(self.assets.world, ref.submodel, matrix):
                    brushes.append(BrushDraw(ref.submodel, matrix, draw.frame != 0, draw.alpha))
            elif ref.kind == "bsp":
                handle = self._handles[draw.model]
                matrix = entity_matrix(draw.origin, draw.angles)
                if handle is not None and draw.shell is None and self._brush_in_view(handle.world, 0, matrix):
                    items.setdefault(draw.model, []).append(BrushDraw(0, matrix, False, draw.alpha))
            else:
                others.append(draw)
        for draw in weapons_first:   # the map behind them is then never shaded
            self._draw_model(draw, view, weapon_proj, (forward, right, up))
        if self.world is not None:
            self.world.draw_world(view)
            self.world.draw_brushes(view, brushes)
        for model, draws in items.items():
            self._handles[model].draw_brushes(view, draws)
        for draw in others:
            self._draw_model(draw, view, view_proj, (forward, right, up))
        if self.world is not None:
            self.world.draw_liquids(view)
        if frame.particles is not None and len(frame.particles):
            self.shared.particles.draw(frame.particles, view_proj, right, up, fog=fog,
                                       style=self.assets.look.particles)
        if self.world is not None:
            self.world.draw_translucent(view)
        for draw in view_models:
            self._draw_model(draw, view, weapon_proj, (forward, right, up))

    def draw_hud_models(self, models: Sequence[HudModel], size: tuple[int, int], time: float) -> None:
        if models and self.md3 is not None:
            draw_hud_models(self.ctx, self.md3, models, size, time)

    def _draw_model(self, draw: EntityDraw, view: WorldView, view_proj: np.ndarray, axes) -> None:
        ref = self.assets.models[draw.model]
        handle = self._handles[draw.model]
        if draw.shell is not None and ref.kind != "alias":    # colour shells are drawn on alias meshes only
            return
        if ref.kind == "bsp":
            handle.draw_brushes(view, [BrushDraw(0, entity_matrix(draw.origin, draw.angles), False, draw.alpha)])
        elif ref.kind == "alias":
            self._draw_alias(draw, handle, view, view_proj)
        elif ref.kind == "md3" and self.md3 is not None:
            self._draw_md3(draw, ref.name, view, view_proj)
        elif ref.kind == "sprite":
            forward, right, up = axes
            self.sprites.draw(handle, view_proj, camera_origin=view.camera, camera_forward=forward,
                              camera_right=right, camera_up=up, origin=draw.origin, angles=draw.angles,
                              frame=draw.frame, time=view.time, alpha=draw.alpha, fog=view.fog)
        elif ref.kind == "null":
            self.shared.boxes.draw_axes(view_proj, entity_matrix(draw.origin, draw.angles))
        elif ref.kind == "missing":    # the loader that made it said so once, naming the file
            player = draw.colors is not None or ref.name.lower().startswith("players/")
            self.shared.boxes.draw_with_nose(view_proj, entity_matrix(draw.origin, draw.angles),
                                             QUAKE_PLAYER_BOX if player else OBJECT_BOX)

    def _in_view(self, centre, radius: float) -> bool:
        """Whether a sphere may show in this frame's view frustum (``R_CullBox``/``R_CullModelForEntity``: the
        engines skip entities outside the view, so their vertices are never processed)."""
        x, y, z = float(centre[0]), float(centre[1]), float(centre[2])
        return all(a * x + b * y + c * z + d >= -radius for a, b, c, d in self._planes)

    def _brush_in_view(self, world: MapWorld | None, submodel: int, matrix: np.ndarray) -> bool:
        """Whether submodel ``submodel`` of ``world`` placed by ``matrix`` may show (its box's bounding sphere)."""
        if world is None or not 0 <= submodel < len(world.submodels):
            return True   # a Quake III map draws its own submodels; a bad index is skipped when drawn
        return self._in_view(*placed_sphere(world.submodels[submodel], matrix))

    def _draw_alias(self, draw: EntityDraw, handle, view: WorldView, view_proj: np.ndarray) -> None:
        radius = self._radii.get(draw.model)
        reach = radius + (SHELL_PUSH if draw.shell is not None else 0.0) if radius is not None else None
        if reach is not None and not draw.view_model and not self._in_view(draw.origin, reach):
            return
        model = handle.model
        angles = draw.angles
        light = self._model_light(draw, view.styles)
        alias_light = AliasLight.from_level(light, float(angles[1]), view_model=draw.view_model,
                                            player=draw.colors is not None, rule=self.assets.look.model_light)
        translation = translation_table(*draw.colors) if draw.colors is not None else None
        pose_a = model.pose_at(draw.prev_frame, view.time) if 0 <= draw.prev_frame < model.num_frames else 0
        pose_b = model.pose_at(draw.frame, view.time) if 0 <= draw.frame < model.num_frames else 0
        self.alias.draw(handle, view_proj, entity_matrix(draw.origin, angles), pose_a, pose_b, draw.blend,
                        skin=draw.skin, time=view.time, translation=translation, light=alias_light, alpha=draw.alpha,
                        shell=draw.shell)

    def _draw_md3(self, draw: EntityDraw, name: str, view: WorldView, view_proj: np.ndarray) -> None:
        """An MD3 model on a Quake II entity (Q2PRO draws MD2 and MD3 alike): posed like an alias model
        (``prev_frame`` → ``frame`` by ``blend``), lit like one by the light under it (:func:`md3_light`)."""
        assert self.md3 is not None
        matrix = entity_matrix(draw.origin, draw.angles)
        light = AliasLight.from_level(self._model_light(draw, view.styles), float(draw.angles[1]),
                                      view_model=draw.view_model, rule=self.assets.look.model_light)
        md3 = Md3Draw(name, np.asarray(draw.origin, np.float32), np.ascontiguousarray(matrix[:3, :3].T),
                      frame=draw.frame, old_frame=draw.prev_frame, frac=draw.blend)
        q3_view = Q3View(view_proj, view.camera, view.time, (0.0, 0.0, 0.0))
        self.md3.draw((md3,), q3_view, md3_light(light))

    def _model_light(self, draw: EntityDraw, styles: np.ndarray) -> np.ndarray:
        """The light level a model is drawn at: the full level for ``RF_FULLBRIGHT`` (ref_gl ``R_DrawAliasModel``
        sets shadelight to 1 and reads no light under it), else the light under its origin."""
        if draw.fullbright:
            return np.full(3, _FULL_LIGHT)
        return self._light_level(draw.origin, styles)

    def _light_level(self, origin, styles: np.ndarray) -> np.ndarray:
        """``R_LightPoint`` at ``origin``: the lightmap under it weighted by the style values, RGB ``[3]`` (grey
        for maps without a ``.lit``) plus the dynamic lights.

        The lightmap sample under a spot never changes, so it is cached per 4-unit cell; only the style
        weighting is redone each frame."""
        if self._tracer is None:
            return np.full(3, _NO_MAP_LIGHT)
        key = (int(origin[0]) >> 2, int(origin[1]) >> 2, int(origin[2]) >> 2)
        if key not in self._light_cache:
            if len(self._light_cache) >= _LIGHT_CACHE_SIZE:
                self._light_cache.clear()
            self._light_cache[key] = self._tracer.sample(origin)
        hit = self._light_cache[key]
        level = np.zeros(3) if hit is None else np.asarray(hit.value(styles), np.float64)
        cutoff = DLIGHT_CUTOFF if self.assets.look.dlights == "q2pro" else 0.0
        return level + _dynamic_light_at(self._lights, origin, cutoff)


def _opaque_alias(draw: EntityDraw, ref: ModelRef) -> bool:
    """Whether ``draw`` of model ``ref`` is an alias model drawn opaque (no alpha, no colour shell): as a view weapon
    it may be drawn before the map, whose fragments behind it then fail the early depth test (the picture is the
    same: the depth test keeps the nearer surface in either order; the engines draw it last, ``R_DrawViewModel``)."""
    return ref.kind == "alias" and draw.alpha >= 1.0 and draw.shell is None


def md3_light(light: AliasLight) -> StageLight:
    """An alias model's light as the MD3 path's diffuse light (0‥1): the ambient and the shade part over 128 (the
    skin as painted), in the light's colour, from the alias shade vector. The alias rule ``ambient + shade·d``
    toward the light becomes ``ambient + shade·max(d, 0)``: the same in front, a little brighter behind."""
    color = np.asarray(light.color, np.float64)
    return StageLight(vec3(color * light.ambient / 128.0), vec3(color * light.shade / 128.0),
                      vec3(shade_vector(light.yaw)))


def _dynamic_light_at(lights: Lights | None, origin, cutoff: float = 0.0) -> np.ndarray:
    """Light the dynamic lights add at ``origin``, RGB ``[3]``: ``radius − cutoff − distance`` of each light that
    reaches it times its colour (``R_LightPoint``'s dlight term; Q2PRO's ``GL_AddLights`` takes ``DLIGHT_CUTOFF``
    off)."""
    if lights is None or len(lights) == 0:
        return np.zeros(3)
    dist = np.linalg.norm(lights.origins - np.asarray(origin, np.float32), axis=1)
    add = np.clip(lights.radius - cutoff - dist, 0, None)
    return (add[:, None] * lights.colors).sum(axis=0).astype(np.float64)
