"""Quake III game assets a map or demo segment needs: the map with every batch's shader and image, and the MD3
models of the segment's model list with the images their shaders use.

A missing image becomes the engine's default grid with one warning per name (:class:`~assets_loader.q3images.
ImageLoader`); a missing or broken model is skipped with a warning (the renderer draws a placeholder box); a missing
map is an error naming the file.  A player model the game data lacks is drawn as another (``CG_LoadClientInfo``'s
fallbacks, :func:`player_fallbacks`): the same model's ``default`` skin, then ``DEFAULT_MODEL`` (``sarge``, which
OpenArena ships too) with the player's skin in team games, then ``sarge/default``, then the first player model the
game dirs hold; with none at all, the renderer draws the player as a placeholder box.
Quake III has no palette: the grey ramp :data:`GREY_PALETTE` stands in where the generic viewer wants one (its
particles and UI text).

References: ioquake3 ``renderergl1/tr_bsp.c`` (``RE_LoadWorldMap``), ``tr_model.c`` (``RE_RegisterModel``),
``tr_shader.c`` (``ScanAndLoadShaderFiles``); ``cgame/cg_main.c`` (``CG_RegisterGraphics``: the model
configstrings); ``cgame/cg_players.c`` (``CG_LoadClientInfo``, ``CG_RegisterClientModelname``), ``cg_local.h``
(``DEFAULT_MODEL``, ``DEFAULT_TEAM_MODEL``).
"""

from __future__ import annotations

import warnings

import numpy as np

from assets_loader.bsp46 import LIGHTMAP_NONE, load_bsp46
from assets_loader.bsp46.materials import load_world_materials
from assets_loader.demos.quake3.game import DEFAULT_MODEL, GT_TEAM
from assets_loader.errors import FormatError, NotFoundError
from assets_loader.models.md3 import Md3Model, load_md3
from assets_loader.models.q3player import PLAYER_PARTS, PlayerModel, load_player, split_model_name
from assets_loader.palette import Palette
from assets_loader.q3images import ImageLoader
from assets_loader.q3shaders import ShaderLibrary, load_shader_library, parse_shader_text
from assets_loader.vfs import VirtualFS

from ...render.shaded.lod import MAX_LODS
from ...render.shaded.records import Quake3Models
from ...render.q3.records import Quake3Segment, Quake3World
from ...render.refdef import Look, ModelRef, SegmentAssets
from .players import GHOST_SHADER, GHOST_SHADER_TEXT, part_path

#: How ioquake3 draws: the fov spans the picture's width (``CG_CalcFov``); shader images halved once unless
#: ``nopicmip`` (``r_picmip 1``, its default: the reference frames' textures are that soft).
QUAKE3_LOOK = Look(fov_across_width=True, picmip=1)
#: Grey ramp ``[256, 3]`` for the viewer's palette-coloured pieces (Quake III images are truecolour).
GREY_PALETTE = Palette(np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, axis=1))


def load_world(fs: VirtualFS, map_path: str, library: ShaderLibrary, images: ImageLoader) -> Quake3World:
    """The map at ``map_path`` with the shader of each batch and every image they name."""
    world = load_bsp46(fs.read(map_path), name=map_path)
    materials = load_world_materials(world, library, images)
    fog_shaders = tuple(library.get(fog.shader) for fog in world.fogs)
    return Quake3World(world, materials.shaders, materials.images, materials.missing, fog_shaders)


def player_fallbacks(fs: VirtualFS, name: str, team_game: bool = False) -> tuple[str, ...]:
    """The ``model/skin`` names to try, in order, for player model ``name`` (:func:`~assets_loader.models.q3player.
    load_player` itself falls back to the model's ``default`` skin): ``name``; in team games ``DEFAULT_TEAM_MODEL``
    with the same skin; ``DEFAULT_MODEL/default``; then every player model the game dirs hold (by name), so a player
    is drawn as some model whenever the data has one."""
    model, skin = split_model_name(name)
    order = [f"{model}/{skin}"]
    if team_game:
        order.append(f"{DEFAULT_MODEL}/{skin}")
    order.append(f"{DEFAULT_MODEL}/default")
    order += [f"{path.split('/')[2]}/default" for path in fs.list("models/players/*/animation.cfg")]
    return tuple(dict.fromkeys(order))


def _player_or_fallback(fs: VirtualFS, name: str, team_game: bool,
                        tried: dict[str, PlayerModel | FormatError]) -> PlayerModel | None:
    """The first of :func:`player_fallbacks` that loads (``tried`` keeps every attempt), with a warning when it is
    not ``name`` itself; ``None`` with a warning when none does."""
    first: FormatError | None = None
    for candidate in player_fallbacks(fs, name, team_game):
        if candidate not in tried:
            try:
                tried[candidate] = load_player(fs, candidate)
            except FormatError as exc:  # NotFoundError included
                tried[candidate] = exc
        found = tried[candidate]
        if isinstance(found, PlayerModel):
            if first is not None:
                warnings.warn(f"{first}; drawing player model {name!r} as {found.model}/{found.skin} in its place "
                              "(a placeholder)", stacklevel=3)
            return found
        first = first or found
    warnings.warn(f"{first}; no player model in the game data: drawing player model {name!r} as a placeholder "
                  "box", stacklevel=3)
    return None


def load_models(fs: VirtualFS, names: tuple[str, ...], library: ShaderLibrary, images: ImageLoader,
                players: tuple[str, ...] = (), shaders: tuple[str, ...] = (), team_game: bool = False) -> Quake3Models:
    """The ``.md3`` entries of ``names`` (others are brush models or not models), the player models ``players``
    (``model/skin`` names, each loaded or stood in for by a fallback (:func:`player_fallbacks`; ``team_game``:
    ``g_gametype`` is a team game); their parts join ``md3`` under their paths) and every image their shaders and
    the effect ``shaders`` use."""
    md3: dict[str, Md3Model] = {}
    loaded: dict[str, PlayerModel] = {}
    tried: dict[str, PlayerModel | FormatError] = {}   # every model/skin loaded or failed, once
    for name in players:
        player = _player_or_fallback(fs, name, team_game, tried)
        if player is None:
            continue
        loaded[name] = player
        for part, model in zip(PLAYER_PARTS, (player.lower, player.upper, player.head), strict=True):
            md3[part_path(player, part)] = model
    for name in names:
        if not name.lower().endswith(".md3") or name in md3:
            continue
        try:
            md3[name] = load_md3(fs.read(name), name)
        except FormatError as exc:  # NotFoundError included
            warnings.warn(f"{exc}; drawing model {name!r} as a placeholder", stacklevel=2)
    lods = {name: found for name in md3 if (found := lower_lods(fs, name))}
    skins: dict[str, list[dict[str, str]]] = {}   # part path → the skins of every player sharing that part
    for player in loaded.values():
        for part in PLAYER_PARTS:
            skins.setdefault(part_path(player, part), []).append(player.skins.get(part, {}))
    shader_names = [skin.get(surface.name.lower()) or name
                    for path, model in md3.items() for level in (model, *lods.get(path, ()))
                    for surface in level.surfaces for name in surface.shaders[:1] for skin in skins.get(path, [{}])]
    used: dict[str, None] = {}
    for shader_name in (*shader_names, *shaders):
        used.update(dict.fromkeys(library.find(shader_name, LIGHTMAP_NONE).image_names()))
    return Quake3Models(md3, library, {n.lower(): images.load(n) for n in used}, loaded, shaders, lods)


def lower_lods(fs: VirtualFS, name: str) -> tuple[Md3Model, ...]:
    """The lower levels of detail of the MD3 ``name`` (``NAME_1.md3``, ``NAME_2.md3``; ``R_RegisterMD3``): those
    the game dirs hold, in order, up to the first missing one (a file that fails to load ends them with a
    warning)."""
    stem, dot, extension = name.rpartition(".")
    found: list[Md3Model] = []
    for level in range(1, MAX_LODS):
        path = f"{stem}_{level}.{extension}" if dot else f"{name}_{level}"
        if not fs.exists(path):
            break
        try:
            found.append(load_md3(fs.read(path), path))
        except FormatError as exc:
            warnings.warn(f"{exc}; drawing {name!r} at full detail from there on", stacklevel=2)
            break
    return tuple(found)


def model_ref(name: str, models: Quake3Models) -> ModelRef:
    """What a model configstring names: a brush entity ``*N`` of the map, a loaded MD3, or nothing drawable."""
    if name.startswith("*") and name[1:].isdigit():
        return ModelRef(name, "brush", submodel=int(name[1:]))
    return ModelRef(name, "md3" if name in models.md3 else "none")


def load_segment_assets(fs: VirtualFS, map_path: str, model_names: tuple[str, ...],
                        players: tuple[str, ...] = (), shaders: tuple[str, ...] = (),
                        gametype: int = 0) -> SegmentAssets:
    """A demo segment: the map (``None`` when the game dirs lack it), its models, the player models ``players``
    (``model/skin`` from the players' configstrings; the ``g_gametype`` ``gametype`` picks their fallbacks) and the
    images of the effect ``shaders``."""
    library = load_shader_library(fs)
    library.define(parse_shader_text(GHOST_SHADER_TEXT, "qdv")[GHOST_SHADER])   # ghosts of other runs
    images = ImageLoader(fs)
    try:
        world = load_world(fs, map_path, library, images)
    except NotFoundError:  # the session says so once and draws a placeholder floor
        world = None
    models = load_models(fs, model_names, library, images, players, shaders, gametype >= GT_TEAM)
    refs = tuple(model_ref(n, models) for n in model_names)
    return Quake3Segment(refs, GREY_PALETTE, look=QUAKE3_LOOK, md3=models, q3_world=world)


def load_map_assets(fs: VirtualFS, map_path: str) -> SegmentAssets:
    """A map shown without a demo (``qdv map``): the map and no models."""
    library = load_shader_library(fs)
    world = load_world(fs, map_path, library, ImageLoader(fs))
    return Quake3Segment((), GREY_PALETTE, look=QUAKE3_LOOK, md3=Quake3Models(library=library), q3_world=world)
