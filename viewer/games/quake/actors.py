"""Which Quake models are actors (players and monsters) and which entities the orbit camera can follow or Tab can
cycle through.

References: id's ``progs/*.mdl`` names of the player and the monsters (QuakeC ``*.qc`` precaches).
"""

from __future__ import annotations

from collections.abc import Sequence

from assets_loader.demos import SceneState

#: Models that can be followed with the orbit camera: players and monsters (``progs/<name>.mdl``).
ACTOR_MODELS = frozenset({
    "player", "soldier", "dog", "ogre", "knight", "hknight", "wizard", "demon", "shambler", "zombie", "fish",
    "shalrath", "tarbaby", "enforcer", "oldone", "boss"})


def is_actor_model(name: str) -> bool:
    """``progs/soldier.mdl`` → True: a player or monster model (not a head, gib or weapon)."""
    low = name.lower()
    if not (low.startswith("progs/") and low.endswith(".mdl")):
        return False
    return low[6:-4] in ACTOR_MODELS


def follow_candidates(state: SceneState, model_precache: Sequence[str]) -> tuple[int, ...]:
    """Entity numbers the orbit camera can follow at this moment: the recorder's own entity first, then other
    players, then monsters, each group by entity number."""
    ents = state.entities
    out: list[tuple[int, int]] = []
    for i in range(len(ents)):
        model = int(ents.model[i])
        if not 0 < model < len(model_precache) or not is_actor_model(model_precache[model]):
            continue
        number = int(ents.number[i])
        player = model_precache[model].lower() == "progs/player.mdl"
        rank = 0 if number == state.view_entity else (1 if player else 2)
        out.append((rank, number))
    return tuple(n for _r, n in sorted(out))


def player_entities(state: SceneState, model_precache: Sequence[str]) -> tuple[int, ...]:
    """Entity numbers of the players present (``progs/player.mdl``), by number."""
    ents = state.entities
    return tuple(sorted(int(ents.number[i]) for i in range(len(ents))
                        if 0 < int(ents.model[i]) < len(model_precache)
                        and model_precache[int(ents.model[i])].lower() == "progs/player.mdl"))
