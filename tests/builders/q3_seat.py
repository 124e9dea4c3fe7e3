"""A Quake III demo's match seen from another player's seat, built from the decoded demo (for the merge tests).

The corpus holds no two Quake III client demos of one match (the CPMA pair is two matches), so the second seat is
constructed: snapshot for snapshot, the other player's entity becomes the ``playerState`` (origin and view angles
as the recorder's timeline has them, velocity, weapon, animations; health 100, or 0 and ``PM_DEAD`` when dead;
``PM_SPECTATOR`` where the recorder did not see them), and the recorder's ``playerState`` becomes an entity
(``BG_PlayerStateToEntityState``, as the timeline builds it).  Server times, configstrings and commands are the
original's: the same match at the same server times, from the other seat.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from assets_loader.demos.quake3 import game as g
from assets_loader.demos.quake3.protocol import PLAYER_STATE
from assets_loader.demos.quake3.records import Quake3Demo
from assets_loader.demos.quake3.timeline import _player_entities, timeline_from_demo


def other_seat(demo: Quake3Demo, slot: int) -> Quake3Demo:
    """``demo`` recorded by client ``slot`` instead (module docstring)."""
    snaps = demo.snapshots
    mine = timeline_from_demo(demo).players
    a, b = int(mine.slot_start[slot]), int(mine.slot_start[slot + 1])
    seen_frame = mine.row_frame[a:b]
    n = len(snaps)
    player = np.zeros(n, PLAYER_STATE)
    player["clientNum"] = slot
    player["pm_type"] = g.PM_SPECTATOR
    player["origin"][seen_frame] = mine.row_origin[a:b]
    player["viewangles"][seen_frame] = mine.row_angles[a:b]

    rows = snaps.states[snaps.entity_index]
    frame_of_row = np.repeat(np.arange(n), np.diff(snaps.entity_offsets))
    theirs = np.flatnonzero((rows["number"] == slot) & (rows["eType"] == g.ET_PLAYER))
    at = frame_of_row[theirs]
    dead = (rows["eFlags"][theirs] & g.EF_DEAD) != 0
    player["pm_type"][at] = np.where(dead, g.PM_DEAD, 0)
    player["velocity"][at] = rows["pos_trDelta"][theirs]
    player["viewheight"][at] = np.where(dead, -16, 26)
    player["stats"][at, 0] = np.where(dead, 0, 100)
    for name in ("weapon", "legsAnim", "torsoAnim", "eFlags", "groundEntityNum"):
        player[name][at] = rows[name][theirs]

    recorder_rows, recorder_frames = _player_entities(snaps.player)
    states = np.concatenate([snaps.states, recorder_rows])
    index = np.concatenate([snaps.entity_index, len(snaps.states) + np.arange(len(recorder_rows))])
    frame = np.concatenate([frame_of_row, recorder_frames])
    keep = np.flatnonzero(states["number"][index] != slot)
    order = keep[np.lexsort((states["number"][index[keep]], frame[keep]))]
    offsets = np.searchsorted(frame[order], np.arange(n + 1)).astype(snaps.entity_offsets.dtype)
    seat = dataclasses.replace(snaps, player=player, states=states, entity_index=index[order].astype(np.int32),
                               entity_offsets=offsets)
    gamestates = tuple(dataclasses.replace(gs, client_num=slot) for gs in demo.gamestates)
    return dataclasses.replace(demo, path=demo.path.replace(".dm_68", f"_seat{slot}.dm_68"), snapshots=seat,
                               gamestates=gamestates)
