"""Which entities of a sampled Quake III :class:`~assets_loader.demos.SceneState` are drawn, and as what: players
as posed MD3 triples with their weapon, items spinning and bobbing, missiles along their flight.

Players: the model of the client's ``CS_PLAYERS`` string (``model``, ``model/skin``); legs turned to the yaw,
the torso pitched by three quarters of the view pitch, the head by the whole (``CG_PlayerAngles`` without the
legs' swing); legs and torso animations from ``legsAnim`` / ``torsoAnim`` (toggle bit cleared) timed from when the
value changed.  The followed player is not drawn from its own eyes.  Items (``CG_Item``): the world model of the
item ``modelindex`` names, turning once every 4.096 s (``cg.autoAngles``) and bobbing 4 units.  Missiles
(``CG_Missile``): the weapon's missile model facing along its velocity.

References: ioquake3 ``code/cgame/cg_players.c`` (``CG_Player``, ``CG_PlayerAngles``), ``cg_ents.c``
(``CG_Item``, ``CG_Missile``, ``CG_AddCEntity``), ``cg_view.c`` (``cg.autoAngles``).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from assets_loader.demos import SceneState
from assets_loader.demos.quake3.game import EF_NODRAW, ET_ITEM, ET_MISSILE, ET_MOVER, ET_PLAYER
from assets_loader.models.q3player import animation_number

from ...render.placeholders import MISSILE_BOX, OBJECT_BOX
from ...render.view_math import angles_axis
from .players import PlayerDraw
from ...render.shaded.records import Md3Draw
from ...render.refdef import EntityDraw
from .items import ITEM_MODELS, MISSILE_MODELS, WEAPON_MODELS

__all__ = ["MAX_MODELS", "brush_slot", "entity_draws", "md3_draws", "player_draw", "player_model"]

#: ``MAX_MODELS``: the model configstrings a segment registers before its brush models.
MAX_MODELS = 256


def player_model(state: SceneState, client: int) -> str:
    """``model[/skin]`` of ``client`` from its configstring (lower case; ``""`` when unknown)."""
    if 0 <= client < len(state.scoreboard):
        return dict(state.scoreboard[client].userinfo).get("model", "").lower()
    return ""


def player_draw(state: SceneState, i: int) -> PlayerDraw | None:
    """Entity row ``i`` of ``state`` (a player) posed as the cgame does; ``None`` when its model is not known."""
    ents, fields = state.entities, state.entity_fields
    client = int(fields["clientNum"][i])
    name = player_model(state, client)
    if not name:
        return None
    if "/" not in name:
        name = f"{name}/default"
    pitch, yaw = float(ents.angles[i][0]), float(ents.angles[i][1])
    pitch = pitch - 360.0 if pitch > 180.0 else pitch
    weapon = WEAPON_MODELS.get(int(fields["weapon"][i]), "")
    return PlayerDraw(name, np.asarray(ents.origin[i], np.float32), (0.0, yaw, 0.0), (pitch * 0.75, yaw, 0.0),
                      (pitch, yaw, 0.0), animation_number(int(fields["legsAnim"][i])),
                      (state.time - float(fields["legsAnimTime"][i])) * 1000.0,
                      animation_number(int(fields["torsoAnim"][i])),
                      (state.time - float(fields["torsoAnimTime"][i])) * 1000.0, weapon,
                      entity=int(state.entities.number[i]))


def _item(state: SceneState, i: int, model: str) -> Md3Draw:
    ms = state.time * 1000.0
    origin = np.asarray(state.entities.origin[i], np.float32).copy()
    origin[2] += 4.0 + math.cos((ms + 1000.0) * 2.0 * math.pi / 4000.0) * 4.0
    return Md3Draw(model, origin, _item_axis(int(ms) & 4095), placeholder=OBJECT_BOX)


@functools.lru_cache(maxsize=4096)
def _item_axis(turn: int) -> np.ndarray:
    """The axis of items turned ``turn`` 4096ths of a full turn (every item shares it in a frame), read-only."""
    axis = angles_axis((0.0, turn * 360.0 / 4096.0, 0.0))
    axis.flags.writeable = False
    return axis


def _missile(state: SceneState, i: int, model: str) -> Md3Draw:
    delta = np.asarray(state.entity_fields["pos_trDelta"][i], np.float64)
    speed = float(np.linalg.norm(delta))
    if speed > 1e-3:
        forward = delta / speed
        yaw = math.degrees(math.atan2(forward[1], forward[0]))
        pitch = -math.degrees(math.asin(max(-1.0, min(1.0, forward[2]))))
        axis = angles_axis((pitch, yaw, 0.0))
    else:
        axis = angles_axis(tuple(float(v) for v in state.entities.angles[i]))
    return Md3Draw(model, np.asarray(state.entities.origin[i], np.float32), axis, placeholder=MISSILE_BOX)


def md3_draws(state: SceneState, first_person: bool) -> tuple[tuple[Md3Draw, ...], tuple[PlayerDraw, ...]]:
    """The models and players of ``state`` (rules: module docstring)."""
    fields = state.entity_fields
    if not fields or not len(state.entities):
        return (), ()
    models: list[Md3Draw] = []
    players: list[PlayerDraw] = []
    etype, eflags = fields["eType"], fields["eFlags"]
    for i, number in enumerate(state.entities.number.tolist()):
        if eflags[i] & EF_NODRAW:
            continue
        kind = int(etype[i])
        if kind == ET_PLAYER:
            if first_person and number == state.view_entity:
                continue
            if (player := player_draw(state, i)) is not None:
                players.append(player)
        elif kind == ET_ITEM and (item := ITEM_MODELS.get(int(state.entities.model[i]))):
            models.append(_item(state, i, item))
        elif kind == ET_MISSILE and (missile := MISSILE_MODELS.get(int(fields["weapon"][i]))):
            models.append(_missile(state, i, missile))
    return tuple(models), tuple(players)


def brush_slot(submodel: int) -> int:
    """The segment model index of brush model ``*submodel``."""
    return MAX_MODELS + submodel


def entity_draws(state: SceneState) -> list[EntityDraw]:
    """The movers of ``state`` as brush model draws (rules: module docstring)."""
    fields = state.entity_fields
    if not fields or not len(state.entities):
        return []
    ents = state.entities
    rows = np.flatnonzero((fields["eType"] == ET_MOVER) & ((fields["eFlags"] & EF_NODRAW) == 0)
                          & (ents.model > 0) & (ents.model < MAX_MODELS))
    return [EntityDraw(brush_slot(int(ents.model[i])), np.asarray(ents.origin[i], np.float32),
                       np.asarray(ents.angles[i], np.float32), entity=int(ents.number[i])) for i in rows.tolist()]
