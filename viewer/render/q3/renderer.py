"""The Quake III backend (:class:`~viewer.render.backend.Backend`): a map drawn with its shader scripts, the MD3
models and effect polygons of a frame, its brush entities (movers), and the view through a portal surface first.

Every image of a segment's shaders is uploaded when it loads (``R_FindImageFile`` at registration), so no frame
waits for one; the decoded pixels are then given up when the segment is this backend's alone (the GPU holds
them). Each view is drawn in ioquake3's sort order: map batches up to opaque, the models' opaque surfaces (with the
boxes of models the data lacks), the brush entities, the models' blended surfaces and the effect polygons merged by
shader sort, then the blended map batches; the first-person weapon comes last, in front of everything
(``RF_DEPTHHACK``).

References: ioquake3 ``renderergl1/tr_main.c`` (``R_RenderView``, ``R_SortDrawSurfs``,
``R_MirrorViewBySurface``), ``tr_backend.c`` (``RB_BeginDrawingView``), ``cgame/cg_weapons.c``
(``CG_AddViewWeapon``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import moderngl

from assets_loader.q3shaders.records import SORT_OPAQUE

from ..backend import FrameView, SharedDrawing
from ..gl_state import rebind
from ..refdef import HudModel, SceneFrame
from ..shaded.dlights import kept_lights
from ..shaded.fog import fog_volumes
from ..shaded.hud_models import draw_hud_models
from ..shaded.md3 import Md3Renderer, model_matrix
from ..shaded.painter import Q3View, scissor_pixels, upload_images
from ..shaded.polys import PolyRenderer
from ..shaded.records import Md3Draw, Q3Poly, Quake3Models
from ..view_math import entity_matrix
from .records import Quake3Segment
from .world import Quake3WorldRenderer

#: Quake III draws without the world's fog of the Quake family (its fog is the map's fog volumes).
_NO_FOG = (0.0, 0.0, 0.0, 0.0)


class Quake3Backend:
    """GPU resources of one Quake III map segment and the drawing of its 3D view; ``drop_pixels``: give up the
    segment's decoded images once uploaded (no other renderer will draw these assets)."""

    def __init__(self, ctx: moderngl.Context, assets: Quake3Segment, shared: SharedDrawing,
                 drop_pixels: bool = False) -> None:
        self.ctx = ctx
        self.assets = assets
        self.shared = shared
        level = assets.q3_world
        picmip = assets.look.picmip
        self.world = Quake3WorldRenderer(ctx, level, picmip) if level is not None else None
        grid = level.world.light_grid if level is not None else None
        models = assets.md3 if assets.md3 is not None else Quake3Models()
        self.md3 = Md3Renderer(ctx, models, grid, fog_volumes(level) if level is not None else (), picmip)
        self.polys = PolyRenderer(ctx, self.md3.painter, models.library)
        if self.world is not None and level is not None:
            upload_images(self.world.painter, level.shaders)
        upload_images(self.md3.painter, self.md3.registered_shaders())
        if drop_pixels:
            if self.world is not None:
                self.world.painter.drop_pixels()
            self.md3.painter.drop_pixels()

    def release(self) -> None:
        if self.world is not None:
            self.world.release()
        self.polys.release()
        self.md3.release()

    def draw(self, frame: SceneFrame, frame_view: FrameView) -> None:
        ctx = self.ctx
        look = self.assets.look
        self.shared.programs.set_look(look.light_max if look.light_max is not None else 2.0, frame.fog or _NO_FOG)
        view = Q3View(frame_view.view_proj, frame.camera.origin, frame.time, frame.camera.angles,
                      lights=kept_lights(frame.lights, frame.camera.origin))
        brushes = [(ref.submodel, entity_matrix(draw.origin, draw.angles)) for draw in frame.models
                   if 0 <= draw.model < len(self.assets.models) and not draw.view_model
                   and (ref := self.assets.models[draw.model]).kind == "brush" and ref.submodel > 0]
        if self.world is not None:
            portal = self.world.portal_view(view)
            if portal is not None:  # R_MirrorViewBySurface: drawn first, then the depth is cleared
                ctx.scissor = scissor_pixels(portal.scissor, ctx.viewport)
                self._draw_scene(frame, portal, brushes)
                ctx.scissor = None
                _clear_depth(ctx)
        self._draw_scene(frame, view, brushes)
        weapon = tuple(d for d in frame.md3 if d.view_model)
        if weapon:
            self.md3.draw(weapon, view)

    def draw_hud_models(self, models: Sequence[HudModel], size: tuple[int, int], time: float) -> None:
        if models:
            draw_hud_models(self.ctx, self.md3, models, size, time)

    def _draw_scene(self, frame: SceneFrame, view: Q3View, brushes: list) -> None:
        """The map, models and brush entities as ``view`` sees them, in sort order (module docstring)."""
        if self.world is not None:
            self.world.draw(view, translucent=False)
        scene = tuple(d for d in frame.md3 if not d.view_model)
        if scene and len(scene) < len(frame.md3) and view.clip_plane is None:
            self.md3.place(frame.md3, view)     # with the weapon drawn last: placed and uploaded once
        if scene:
            loaded = self.md3.models.md3
            self.md3.draw(scene, view, sorts=lambda sort: sort <= SORT_OPAQUE)
            for draw in scene:
                if draw.placeholder is not None and draw.model not in loaded:
                    r, g, b, a = draw.shader_rgba
                    tint = None if draw.shader_rgba == (255, 255, 255, 255) else (r / 255, g / 255, b / 255, a / 255)
                    self.shared.boxes.draw_with_nose(view.view_proj, model_matrix(draw.origin, draw.axis),
                                                     draw.placeholder, tint)
        if self.world is not None and brushes:
            self.world.draw_submodels(view, brushes)
        self._draw_blended_entities(scene, frame.polys, view)
        if self.world is not None:
            self.world.draw(view, translucent=True)

    def _draw_blended_entities(self, scene: tuple[Md3Draw, ...], polys: tuple[Q3Poly, ...], view: Q3View) -> None:
        """The models' surfaces sorted past opaque and the polygons, merged by shader sort as ioquake3's sorted draw
        list has them (marks, ``SS_DECAL``, before additive explosions, ``SS_BLEND0``); at equal sorts models
        first."""
        low = -math.inf
        for sort in sorted(s for s in self.md3.surface_sorts(scene) if s > SORT_OPAQUE):
            self.polys.draw(polys, view, sorts=_between(low, sort))
            self.md3.draw(scene, view, sorts=_between(sort, sort, True))
            low = sort
        self.polys.draw(polys, view, sorts=_between(low, math.inf, True))


def _between(low: float, high: float, inclusive: bool = False) -> Callable[[float], bool]:
    """Whether a sort lies from ``low`` up to ``high`` (``high`` itself only when ``inclusive``)."""
    return lambda sort: low <= sort <= high if inclusive else low <= sort < high


def _clear_depth(ctx: moderngl.Context) -> None:
    """Clear only the depth of the bound framebuffer (``RB_BeginDrawingView`` between a portal view and the
    main one): the colour writes are masked off for the clear."""
    fbo = ctx.fbo
    mask = fbo.color_mask
    fbo.color_mask = (False, False, False, False)
    fbo.depth_mask = True
    fbo.clear(depth=1.0, viewport=ctx.viewport)
    fbo.color_mask = mask
    rebind(ctx)
