"""What a game package gives the generic viewer: the :class:`GameView` seam.

The scene builder, the session and the window know only this interface; each game package
(``viewer/games/quake/`` for Quake and QuakeWorld, ``quake2/``, ``quake3/``) implements it with its own rules: which
entities are drawn and how (``CL_RelinkEntities``, ``CL_AddPacketEntities``, ``CG_Player``: poses and spins are
worked out here, not by the renderer), the particle and light effects of its temp entities, its status bar, and
which models are actors worth following. The game is picked by
``DemoTimeline.game`` in :mod:`viewer.games.registry`.

References: Quake III's ``cgame`` split (the engine draws a ``refdef_t``; game code decides what goes in it).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from assets_loader.demos import DemoTimeline, MapSegment, SceneState
from assets_loader.images import Image
from assets_loader.palette import Palette
from assets_loader.game_map import GameMap
from assets_loader.vfs import VirtualFS


from ..render.shaded.records import Md3Draw, Q3Poly
from ..render.refdef import Camera, EntityDraw, HudLayout, Lights, ModelRef, Particles, SegmentAssets

#: ``name → (width, height) | None`` of the HUD pictures, or a mapping of them.
PicSizes = Mapping[str, tuple[int, int]] | Callable[[str], tuple[int, int] | None]


@dataclass(frozen=True, slots=True)
class EffectModel:
    """A model an effect draws (a copy of a beam model, an explosion sprite or mesh): the model by its registered
    ``model`` name, ``origin`` ``[3]``, ``angles`` ``[3]``, ``frame`` blended from ``prev_frame`` (-1: the same
    frame) by ``blend``, its ``skin`` and ``alpha``; ``fullbright``: lit at the full level whatever the map's light
    (Quake II ``RF_FULLBRIGHT``)."""

    model: str
    origin: np.ndarray
    angles: np.ndarray
    frame: int = 0
    prev_frame: int = -1
    blend: float = 1.0
    skin: int = 0
    alpha: float = 1.0
    fullbright: bool = False


@dataclass(frozen=True, slots=True)
class GhostFigure:
    """A player of another demo to draw into this one's world (:mod:`viewer.ghosts`): where it stands ``origin``
    ``[3]``, its ``yaw`` (degrees), its tint ``color`` (RGB 0..1) and opacity ``alpha``; ``state``: its own demo's
    state at its time and ``row`` its entity's row there (its pose: frames, animations), ``None`` when not
    known."""

    origin: np.ndarray
    yaw: float
    color: tuple[float, float, float]
    alpha: float
    state: SceneState | None = None
    row: int | None = None


@dataclass(frozen=True, slots=True)
class PovLens:
    """How the recorder's eye sees (``refdef_t``'s ``fov_x`` and ``RDF_UNDERWATER``): ``fov`` the horizontal field of
    view (degrees, at 4:3 like :class:`~viewer.render.refdef.Camera`), ``warp`` the underwater wobble of the view
    frustum (0 = none; see :attr:`~viewer.render.refdef.SceneFrame.view_warp`); ``eye`` the ``(origin, angles)``
    the game moves the view to away from the player's eyes (Quake III's third-person view of a dead player: the
    player's body is then drawn and its view weapon not), ``None`` for the eyes."""

    fov: float
    warp: float = 0.0
    eye: tuple[tuple[float, float, float], tuple[float, float, float]] | None = None


@dataclass(frozen=True, slots=True)
class ShadedDraws:
    """What a game draws through shader scripts (:mod:`viewer.render.shaded`): MD3 models (Quake III's items,
    missiles, posed players, explosions and first-person weapon) and polygons (sprites, beams, marks)."""

    md3: tuple[Md3Draw, ...] = ()
    polys: tuple[Q3Poly, ...] = ()


class GameEffects(Protocol):
    """A timeline's effects, prepared once (:meth:`GameView.prepare_effects`) and sampled at any time."""

    def particles(self, timeline: DemoTimeline, t: float, model_flags: list[np.ndarray] | None) -> Particles:
        """Particles alive at ``t``; ``model_flags[segment]``: MDL flags by model index (trails)."""
        ...

    def lights(self, state: SceneState, t: float, model_flags: np.ndarray | None) -> Lights:
        """Dynamic lights at ``t``; ``model_flags``: this segment's MDL flags by model index."""
        ...

    def models(self, state: SceneState, t: float) -> list[EffectModel]:
        """Models the effects draw at ``t`` (beams, explosion sprites)."""
        ...

    def shaded(self, state: SceneState, t: float, camera: Camera, first_person: bool,
               assets: SegmentAssets | None = None) -> ShadedDraws:
        """What the game draws through shader scripts at ``t`` seen from ``camera`` (``first_person``: through the
        recorder's eyes); ``assets``: the segment's loaded assets (models to pose, the map that stops beams).
        Games without shaders draw nothing this way."""
        ...


class GameView(Protocol):
    """How one game's demos look (see the module docstring)."""

    def load_segment_assets(self, fs: VirtualFS, segment: MapSegment) -> SegmentAssets:
        """Everything a map segment of a demo draws: its map and the models of its precache list (missing ones as
        placeholders with a warning; a missing map leaves the entities in an empty world)."""
        ...

    def load_map_assets(self, fs: VirtualFS, map_path: str) -> SegmentAssets:
        """A map shown without a demo (``qdv map``, ``qdv screenshot --map``)."""
        ...

    def load_palette(self, fs: VirtualFS) -> Palette:
        """The palette that turns the game's 8-bit pictures (HUD, font) into colours."""
        ...

    def entity_draws(self, state: SceneState, first_person: bool,
                     model_flags: np.ndarray | None = None) -> list[EntityDraw]:
        """The entities of ``state`` to draw; ``first_person``: seen through the recorder's eyes (hide its own
        body, add the view weapon); ``model_flags``: the loaded segment's MDL flags by model index (spinning
        items)."""
        ...

    def prepare_effects(self, timeline: DemoTimeline) -> GameEffects:
        """The particle, light and model effects of ``timeline``, prepared once."""
        ...

    def load_hud_pics(self, fs: VirtualFS) -> Mapping[str, Image | np.ndarray]:
        """The pictures the HUD draws (lower-case name → indexed image or RGBA ``u1 [H, W, 4]``; ``"conchars"``, an
        indexed image, is also the UI font)."""
        ...

    def hud_layout(self, state: SceneState, timeline: DemoTimeline, screen_size: tuple[int, int], scale: int, *,
                   show_scores: bool = False, pic_sizes: PicSizes | None = None,
                   assets: SegmentAssets | None = None) -> HudLayout:
        """The HUD at ``state.time`` for a ``screen_size`` screen of virtual pixels ``scale`` wide; ``assets``: the
        loaded segment's, for a HUD that draws models (Quake III's 3D icons, :attr:`HudLayout.models`)."""
        ...

    def watching_layout(self, name: str, screen_size: tuple[int, int], scale: int,
                        pic_sizes: PicSizes | None = None) -> HudLayout:
        """The HUD of a view derived from a player's entity (the demo has no stats for them): only their ``name``,
        as the game names whom it follows."""
        ...

    def name_tag(self, name: str, x: float, y: float, screen_size: tuple[int, int], scale: int) -> HudLayout:
        """A player's ``name`` as the game writes it (its colours), centred on pixel ``x`` with its bottom at pixel
        ``y`` of a ``screen_size`` picture whose 2D layers are ``scale`` wide (the caster's names over heads)."""
        ...

    def screen_blend(self, state: SceneState, timeline: DemoTimeline, t: float,
                     map_: GameMap | None) -> tuple[float, float, float, float] | None:
        """The colour (r, g, b, a in 0..1) blended over the recorder's view at ``t`` (damage, pickups, the liquid
        the eye is in, powerups), ``None`` for none; ``map_``: the segment's map, when loaded."""
        ...

    def pov_lens(self, state: SceneState, t: float, fov: float, map_: GameMap | None = None) -> PovLens:
        """The recorder's field of view, underwater warp and eye at ``t``, ``fov`` being the viewer's own setting
        (the games whose player state carries a field of view scale it; the others keep it); ``map_``: the
        segment's map, when loaded (Quake III's third-person eye stops at its walls)."""
        ...

    def ghost_draws(self, figures: Sequence[GhostFigure], assets: SegmentAssets | None
                    ) -> tuple[list[EntityDraw], tuple[Md3Draw, ...]]:
        """How the game draws ``figures`` in a segment with ``assets``: as its player model, tinted and translucent,
        or its player box; ``([], ())`` when it cannot."""
        ...

    def follow_candidates(self, state: SceneState, model_precache: Sequence[str]) -> tuple[int, ...]:
        """Entity numbers an orbit camera can follow: the recorder first, then players, then monsters."""
        ...

    def player_entities(self, state: SceneState, model_precache: Sequence[str]) -> tuple[int, ...]:
        """Entity numbers of the players present, by number."""
        ...


def precache_ref(name: str) -> ModelRef | None:
    """The model precache entries every game names the same way: ``""`` (the unused entry 0) and ``*N`` (brush
    submodel N of the map; a malformed number is a placeholder with a warning); ``None`` for a model file."""
    if not name:
        return ModelRef(name, "none")
    if not name.startswith("*"):
        return None
    try:
        return ModelRef(name, "brush", submodel=int(name[1:]))
    except ValueError:
        warnings.warn(f"model {name!r}: not a valid brush model name; drawing a placeholder", stacklevel=3)
        return ModelRef(name, "missing")


def player_model_ghosts(figures: Sequence[GhostFigure], assets: SegmentAssets | None,
                        player_models: Sequence[str]) -> list[EntityDraw]:
    """``figures`` as the first of ``player_models`` the segment registers, translucent, wearing a colour shell of
    their tint where it is an alias model (Quake II's ``RF_SHELL`` look), in the frames their own entity shows
    (running, jumping, shooting; frame 0 when not known); none when it registers none."""
    names = [ref.name.lower() for ref in assets.models] if assets is not None else []
    index = next((names.index(n) for n in player_models if n in names), None)
    if index is None or assets is None:
        return []
    alias = assets.models[index].kind == "alias"
    draws = []
    for f in figures:
        frame, prev, blend = 0, 0, 1.0
        if f.state is not None and f.row is not None:
            ents = f.state.entities
            frame, prev, blend = int(ents.frame[f.row]), int(ents.prev_frame[f.row]), float(ents.frame_blend[f.row])
            prev = frame if prev < 0 else prev
        draws.append(EntityDraw(index, np.asarray(f.origin, np.float32), np.array((0.0, f.yaw, 0.0), np.float32),
                                frame, prev, blend, alpha=f.alpha, shell=f.color if alias else None))
    return draws
