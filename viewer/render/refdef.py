"""The render contract: everything ``viewer.render`` is given, as plain frozen records.

In the spirit of Quake II's ``refdef_t`` / ``refexport_t``: a map segment's assets are registered once
(:class:`SegmentAssets`, each game's kind of it with the map its backend draws: :mod:`.bsp.records`,
:mod:`.q3.records`; model handles = indices into its model list), then each frame is one description
(:class:`SceneFrame`: camera, entity draws tagged by their model's kind, MD3 draws and polygons drawn with shader
scripts, particles, dynamic lights, light styles, fog) and the 2D layers are finished layouts (:class:`HudLayout`,
:class:`UiLayout`). Games and the scene builder produce these records, applying their game's rules (poses, spins,
view weapons); the renderer only draws them, so it never sees a demo or an event, and names no game.

Arrays are numpy with the shapes given per field. Nothing here reads files or touches OpenGL.

References: Quake II ``ref.h`` (``refdef_t``, ``entity_t``, ``particle_t``, ``dlight_t``, ``refexport_t``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assets_loader.bsp import WorldMesh
from assets_loader.bsp38 import World38
from assets_loader.game_map import GameMap
from assets_loader.models import AliasModel, SpriteModel
from assets_loader.palette import Colormap, Palette

from .shaded.records import Md3Draw, Q3Poly, Quake3Models

#: A map the world renderer draws: Quake's (BSP29/BSP2) or Quake II's (IBSP 38).
MapWorld = WorldMesh | World38

# --- registration ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ModelRef:
    """What model precache entry ``name`` is: ``kind`` is ``"brush"`` (``submodel`` = N of ``*N``, 0 = the map
    itself), ``"bsp"`` (a separate BSP used as a model, like the health boxes ``maps/b_bh25.bsp``), ``"alias"``,
    ``"sprite"``, ``"md3"`` (an MD3 model drawn for a Quake or Quake II entity; the model and its skins are in
    :attr:`SegmentAssets.md3` under ``name``), ``"missing"`` (drawn as a placeholder box), ``"null"`` (a missing
    model drawn as its engine's mark for one: Q2PRO's ``GL_DrawNullModel`` axis lines, for the Quake II temp-entity
    models qdv adds itself) or ``"none"`` (the empty entry 0)."""

    name: str
    kind: str
    submodel: int = 0
    alias: AliasModel | None = None
    sprite: SpriteModel | None = None
    bsp: MapWorld | None = None


@dataclass(frozen=True, slots=True)
class Look:
    """How the reference engine of a game draws light and sky (a per-game look profile).

    ``light_max``: the largest lightmap multiplier (``None``: the :class:`Lighting`'s lightmap scale, e.g.
    QuakeSpasm's overbright 2, a lightmap value of 255 draws the texture twice as bright; 1.0: GLQuake/ezQuake
    ``gl_lightmode 1``, the texture as painted at most);
    ``sky_fog``: how much of the fog colour covers the sky in fogged maps (QuakeSpasm ``r_skyfog``);
    ``model_light``: the engine whose rule lights models from the light level under them (``"quakespasm"``:
    ``gl_overbright_models``, ``"glquake"``, ``"ref_gl"``: Quake II's; :meth:`.alias_program.AliasLight.from_level`);
    ``fov_across_width``: the camera's fov spans the whole picture's width (Quake III's ``CG_CalcFov``), else a
    4:3 screen's, widened for wider pictures (QuakeSpasm, ezQuake);
    ``particles``: how particles look (``"quakespasm"``: GLQuake's size, a nearly opaque disc; ``"q2pro"``: Q2PRO's
    ``gl_partscale 2`` size, a soft round spot at the particle's own alpha; :mod:`.particles`);
    ``picmip``: how many times shader images are halved on upload unless their shader says ``nopicmip``
    (ioquake3's ``r_picmip``; :class:`~.shaded.painter.ShaderPainter`);
    ``dlights``: how dynamic lights fall off (``"quake"``: ``R_AddDynamicLights``, ``radius − distance`` down to 0;
    ``"q2pro"``: Q2PRO's ``gl_dlight_falloff 1`` on the world, nothing where less than ``DLIGHT_CUTOFF`` 64 is left
    and fading to 0 51.2 units sooner, and ``radius − 64 − distance`` on models, ``GL_AddLights``)."""

    light_max: float | None = None
    sky_fog: float = 0.5
    model_light: str = "quakespasm"
    fov_across_width: bool = False
    particles: str = "quakespasm"
    picmip: int = 0
    dlights: str = "quake"


@dataclass(frozen=True, slots=True)
class SegmentAssets:
    """What a map segment registers, as every backend sees it: the models indexed like the segment's model
    precache, the palette/colormap, the game's :class:`Look`, ``md3``: the MD3 models (and their shaders) the
    segment's entities and HUD draw through shader scripts (Quake III's, and Quake II entities whose model files are
    MD3s; ``None`` for none), ``floor``: the height of the placeholder grid floor drawn when the map is missing
    (:mod:`.grid_floor`), ``None`` for none.

    Each backend registers its own kind (:class:`~.bsp.records.BspSegment`, :class:`~.q3.records.Quake3Segment`)
    with its map; :attr:`game_map` is that map for everything that places cameras and sounds."""

    models: tuple[ModelRef, ...]
    palette: Palette
    colormap: Colormap | None = None
    look: Look = Look()
    floor: float | None = None
    md3: Quake3Models | None = None

    @property
    def game_map(self) -> GameMap | None:
        """The segment's map (``None`` when the game data lacks it: the entities are drawn in an empty world)."""
        return None

    def model_flags(self) -> np.ndarray:
        """MDL flags (rotate, trails) by model index, ``i4 [M]``; 0 for everything that is not an alias model."""
        return np.array([ref.alias.flags if ref.alias is not None else 0 for ref in self.models], np.int32)


# --- one frame ---------------------------------------------------------------------------------------------------


#: Largest coordinate or angle a camera takes (maps reach ±131072 at most, Quake III's ``MAX_WORLD_COORD``); past
#: it the view matrices overflow float32 and mean nothing.
CAMERA_LIMIT = 1e6


@dataclass(frozen=True, slots=True)
class Camera:
    """Where the picture is taken from: origin ``[3]``, angles ``[3]`` (pitch, yaw, roll), horizontal fov at 4:3."""

    origin: tuple[float, float, float]
    angles: tuple[float, float, float]
    fov: float = 90.0


@dataclass(frozen=True, slots=True)
class EntityDraw:
    """One model to draw (``entity_t``): ``model`` indexes the segment's :attr:`SegmentAssets.models`;
    ``frame``/``prev_frame``/``blend`` pose alias models (sprites show ``frame``, brush models use frame 1 for
    their alternate textures); ``colors`` (top, bottom) translate the skin's shirt and pants ranges when the entity
    wears a player's colours; ``view_model`` is the first-person weapon (drawn last, squeezed in depth);
    ``fullbright`` (Quake II ``RF_FULLBRIGHT``) lights the model at the full level (255) instead of the light under
    it; ``shell`` (Quake II ``RF_SHELL_*``) draws the model as a colour shell of that RGB (0..1) instead: untextured,
    unlit, standing out along its normals, at ``alpha``."""

    model: int
    origin: np.ndarray
    angles: np.ndarray
    frame: int = 0
    prev_frame: int = 0
    blend: float = 1.0
    skin: int = 0
    colors: tuple[int, int] | None = None
    alpha: float = 1.0
    effects: int = 0
    entity: int = -1
    view_model: bool = False
    fullbright: bool = False
    shell: tuple[float, float, float] | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Particles:
    """Particles to draw, N rows: ``positions`` f4 [N, 3], ``colors`` u1 [N] palette indices, ``sizes`` f4 [N]
    (multiplier of the engine's distance-scaled size; 1 for every Quake particle), ``spawn`` f8 [N] spawn times
    (what the pool cap keeps: the oldest), ``alphas`` f4 [N] opacity 0..1 (Quake II's fading ``alpha``; ``None``:
    every particle opaque, as Quake's)."""

    positions: np.ndarray
    colors: np.ndarray
    sizes: np.ndarray
    spawn: np.ndarray
    alphas: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.colors)

    @staticmethod
    def empty() -> Particles:
        return Particles(np.zeros((0, 3), np.float32), np.zeros(0, np.uint8), np.zeros(0, np.float32),
                         np.zeros(0, np.float64))

    @staticmethod
    def concat(parts: Sequence[Particles]) -> Particles:
        parts = [p for p in parts if len(p)]
        if not parts:
            return Particles.empty()
        if len(parts) == 1:
            return parts[0]
        alphas = None if all(p.alphas is None for p in parts) else np.concatenate([p.opacity() for p in parts])
        return Particles(np.concatenate([p.positions for p in parts]), np.concatenate([p.colors for p in parts]),
                         np.concatenate([p.sizes for p in parts]), np.concatenate([p.spawn for p in parts]), alphas)

    def opacity(self) -> np.ndarray:
        """``alphas``, or ones when every particle is opaque."""
        return np.ones(len(self), np.float32) if self.alphas is None else self.alphas

    def limited(self, max_particles: int) -> Particles:
        """At most ``max_particles``: the oldest-spawned kept (a full engine pool refuses new spawns)."""
        if len(self) <= max_particles:
            return self
        keep = np.sort(np.argsort(self.spawn, kind="stable")[:max(0, max_particles)])
        return Particles(self.positions[keep], self.colors[keep], self.sizes[keep], self.spawn[keep],
                         None if self.alphas is None else self.alphas[keep])


@dataclass(frozen=True, slots=True, eq=False)
class Lights:
    """Dynamic lights at one time (``dlight_t``): ``origins`` f4 [N, 3], ``radius`` f4 [N] (world units),
    ``colors`` f4 [N, 3] (1 = white, QuakeSpasm's default colour)."""

    origins: np.ndarray
    radius: np.ndarray
    colors: np.ndarray

    def __len__(self) -> int:
        return len(self.radius)

    @staticmethod
    def empty() -> Lights:
        return Lights(np.zeros((0, 3), np.float32), np.zeros(0, np.float32), np.zeros((0, 3), np.float32))

    def packed(self, max_lights: int = 32, camera_origin: Any = None) -> tuple[np.ndarray, np.ndarray, int]:
        """``(f4[max_lights, 4] origin+radius, f4[max_lights, 3] colour, count)`` for a uniform array.

        With more lights than room, keeps those whose sphere comes nearest to ``camera_origin`` (distance − radius,
        ties to the larger radius), or the largest without a camera.  Unused rows are zero.
        """
        n = len(self)
        if n > max_lights:
            if camera_origin is not None:
                d = np.linalg.norm(self.origins - np.asarray(camera_origin, np.float32), axis=1) - self.radius
                order = np.lexsort((-self.radius, d))
            else:
                order = np.argsort(-self.radius, kind="stable")
            pick = order[:max_lights]
        else:
            pick = np.arange(n)
        count = len(pick)
        a = np.zeros((max_lights, 4), np.float32)
        c = np.zeros((max_lights, 3), np.float32)
        a[:count, :3] = self.origins[pick]
        a[:count, 3] = self.radius[pick]
        c[:count] = self.colors[pick]
        return a, c, count


@dataclass(frozen=True, slots=True, eq=False)
class Lines:
    """Line segments drawn into the 3D view (the routes of :mod:`viewer.ghosts`' trails): ``points`` f4 [2M, 3],
    each pair one segment, and their ``colors`` f4 [2M, 4] (RGBA 0..1). One object is one vertex buffer: a caller
    that gives the same object frame after frame has it uploaded once."""

    points: np.ndarray
    colors: np.ndarray

    def __len__(self) -> int:
        return len(self.points) // 2


@dataclass(frozen=True, slots=True)
class SceneFrame:
    """A frame description for the renderer (``refdef_t``): ``time`` (for animated textures, skies, spinning
    items), ``segment`` (which registered assets), ``camera``, ``models``, light style values ``f4[64]``
    (1.0 = 'm'), ``fog`` (r, g, b, density) or ``None`` for the map's own, ``particles`` and ``lights``;
    ``areabits``: the frame's area bit field (Quake II ``refdef_t.areabits``: bit ``a`` set = area ``a`` may be
    seen), ``None`` to draw every area; ``md3``: MD3 models drawn through shader scripts (posed parts, items,
    effects; those marked ``view_model`` with the first-person weapon: :class:`~.shaded.records.Md3Draw`),
    ``polys``: polygons drawn with shaders (effects, :class:`~.shaded.records.Q3Poly`); ``water_alpha``: opacity
    of liquids, ``None`` for the map's own (worldspawn ``wateralpha``); ``blend``: the screen blend (r, g, b, a in 0..1,
    ``V_CalcBlend``) drawn over the 3D view, ``None`` for none; ``view_warp``: the underwater wobble of the view
    frustum (Quake II ``RDF_UNDERWATER``: its half-width grows by this share and its half-height shrinks by it;
    0 = none); ``lines``: line segments drawn over the world (trails), ``None`` for none."""

    time: float
    segment: int
    camera: Camera
    models: tuple[EntityDraw, ...]
    styles: np.ndarray
    fog: tuple[float, float, float, float] | None = None
    particles: Particles | None = None
    lights: Lights | None = None
    areabits: bytes | None = None
    md3: tuple[Md3Draw, ...] = ()
    water_alpha: float | None = None
    polys: tuple[Q3Poly, ...] = ()
    blend: tuple[float, float, float, float] | None = None
    view_warp: float = 0.0
    lines: Lines | None = None


# --- 2D layers ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HudQuad:
    """One screen rectangle of a game's HUD, in pixels from the top-left corner.

    ``kind``: ``"pic"`` (``ref`` a picture name such as ``"sbar"``/``"num_1"`` or ``"gfx/….lmp"``, stretched
    over ``w``×``h``), ``"char"`` (``ref`` a ``conchars`` code 0..255, ≥ 128 the bronze half), ``"fill"``
    (``ref`` a palette index: a solid rectangle, ``Draw_Fill``) or ``"tile"`` (``ref`` a picture name repeated from
    the screen origin at ``scale`` screen pixels per texel, ``Draw_TileClear``). ``tint`` multiplies a picture's or
    character's colours (ezQuake's ``&cRGB`` chat colours).
    """

    kind: str
    ref: str | int
    x: int
    y: int
    w: int
    h: int
    alpha: float = 1.0
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)


@dataclass(frozen=True, slots=True, eq=False)
class HudModel:
    """A model drawn in a box of the HUD as its own little scene (Quake III's ``CG_Draw3DModel``: a ``refdef_t``
    with ``RDF_NOWORLDMODEL``): the box ``x, y, w, h`` in pixels from the top-left corner, the camera at the origin
    looking down +X (left +Y, up +Z) with ``fov_x`` × ``fov_y`` degrees over the box, and ``model`` placed in front
    of it (no map: no light grid, no fog)."""

    x: int
    y: int
    w: int
    h: int
    model: Md3Draw
    fov_x: float = 30.0
    fov_y: float = 30.0


@dataclass(frozen=True, slots=True)
class HudLayout:
    """A finished HUD: ``quads`` in drawing order; ``sbar_lines`` is how many screen rows at the bottom the
    status bar covers (0 during intermissions), i.e. what the 3D view may leave out (``sb_lines``); ``models``
    are drawn first, each in its box (:class:`HudModel`), then the quads over them."""

    screen_size: tuple[int, int]
    scale: int
    quads: tuple[HudQuad, ...]
    sbar_lines: int = 0
    models: tuple[HudModel, ...] = ()

    def pic_names(self) -> tuple[str, ...]:
        """Names of the pictures used (``pic`` and ``tile`` quads), in first-use order."""
        seen: dict[str, None] = {}
        for q in self.quads:
            if q.kind in ("pic", "tile"):
                seen.setdefault(str(q.ref), None)
        return tuple(seen)

    def chars(self) -> tuple[int, ...]:
        """The character codes drawn, in drawing order."""
        return tuple(int(q.ref) for q in self.quads if q.kind == "char")


@dataclass(frozen=True, slots=True)
class Rect:
    """A filled rectangle of the viewer's UI: top-left ``x, y``, size ``w, h`` (pixels), ``color`` RGBA 0..1."""

    x: float
    y: float
    w: float
    h: float
    color: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Text:
    """A line of Quake text (``conchars`` codes 0..255 as ``chr``) at top-left ``x, y``, glyphs ``size`` px square."""

    x: float
    y: float
    text: str
    size: float
    color: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0)


@dataclass(frozen=True, slots=True)
class UiLayout:
    """The viewer's own 2D interface (timeline bar, help, messages), drawn in order: ``rects`` first, then
    ``texts``."""

    rects: tuple[Rect, ...] = ()
    texts: tuple[Text, ...] = ()

    def __add__(self, other: UiLayout) -> UiLayout:
        return UiLayout(self.rects + other.rects, self.texts + other.texts)
