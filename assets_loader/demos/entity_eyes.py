"""Every player's eye where the demo has no player state for them (NetQuake, Quake II client demos): a
:class:`~.timeline.PlayerFrames` built from the players' entities, so ``sample(t, pov=slot)`` gives any player's
view as it does for QuakeWorld (``svc_playerinfo``) and Quake III (the ``ET_PLAYER`` entities).

A player's entity carries its origin (the eye is the game's :attr:`~.schema.GameSchema.view_height` above it) and
its angles as the server set them from the view angles: Quake's ``SV_ClientThink`` sends ``-pitch / 3``, Quake II's
``ClientEndServerFrame`` ``pitch / 3`` (both with a movement roll), so the view pitch is the entity's times
:attr:`~.schema.GameSchema.entity_pitch_scale` and the roll is dropped.  The angles travel as bytes (1.4°, the
pitch then 4.2°), so each is averaged with the player's rows of the :data:`SMOOTH_SECONDS` around it (NetQuake's
frames come at up to 72 Hz; Quake II's 10 Hz frames are left as they are, a window would only lag them).  No stats:
the demo does not know another player's health.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .schema import GameSchema

if TYPE_CHECKING:
    from .timeline import DemoTimeline, PlayerFrames, SceneState

#: Seconds each side of a row whose rows a derived view's angles are averaged with (at most :data:`SMOOTH_ROWS`).
SMOOTH_SECONDS = 0.05
SMOOTH_ROWS = 4


def entity_players(schema: GameSchema, times: np.ndarray, offsets: np.ndarray, number: np.ndarray, model: np.ndarray,
                   frame: np.ndarray, skin: np.ndarray, effects: np.ndarray, origin: np.ndarray,
                   angles: np.ndarray, num_slots: int, stat_count: int, recorder: int) -> PlayerFrames | None:
    """The players' rows of every frame's entities (frame times ``times``, ``offsets`` i8 [F + 1] into the row
    columns): client slot ``s`` is entity ``s + schema.client_entity_offset`` for ``s < num_slots``; ``None`` when
    no player entity is in the demo.  ``recorder`` is the recording client's slot (-1 unknown)."""
    from .timeline import PlayerFrames

    nframes = len(offsets) - 1
    slot = number.astype(np.int64) - schema.client_entity_offset
    keep = np.flatnonzero((slot >= 0) & (slot < num_slots) & (model > 0))
    if not len(keep):
        return None
    row_frame = np.repeat(np.arange(nframes, dtype=np.int32), np.diff(offsets).astype(np.int64))[keep]
    slot = slot[keep]
    order = np.lexsort((row_frame, slot))
    keep, slot, row_frame = keep[order], slot[order], row_frame[order]
    view = np.array(angles[keep], np.float64)
    view[:, 0] *= schema.entity_pitch_scale
    view[:, 2] = 0.0
    view = _smoothed(view, slot, np.asarray(times, np.float64)[row_frame])
    ints = np.stack([model[keep], frame[keep], skin[keep], effects[keep], np.zeros(len(keep)),
                     np.zeros(len(keep))], axis=1).astype(np.int32)
    return PlayerFrames(
        num_frames=nframes, slot_start=np.searchsorted(slot, np.arange(num_slots + 1)).astype(np.int64),
        row_frame=row_frame, row_origin=np.asarray(origin[keep], np.float32), row_angles=view.astype(np.float32),
        row_ints=ints, stat_start=np.zeros(num_slots + 1, np.int64), stat_frame=np.zeros(0, np.int32),
        stat_values=np.zeros((0, stat_count), np.int32), has_stats=np.zeros(num_slots, bool), recorder=recorder,
        from_entities=True)


def _smoothed(view: np.ndarray, slot: np.ndarray, row_time: np.ndarray) -> np.ndarray:
    """``view`` [R, 3] (rows by slot, then frame) with pitch and yaw averaged over the rows of the same slot within
    :data:`SMOOTH_SECONDS`, on the shortest arc."""
    out = view.copy()
    total = np.zeros_like(view)
    count = np.zeros(len(view))
    for shift in range(-SMOOTH_ROWS, SMOOTH_ROWS + 1):
        index = np.arange(len(view)) + shift
        src = np.clip(index, 0, len(view) - 1)
        near = (index == src) & (slot[src] == slot) & (np.abs(row_time[src] - row_time) <= SMOOTH_SECONDS)
        delta = (view[src] - view + 180.0) % 360.0 - 180.0
        total[near] += delta[near]
        count[near] += 1
    out[:, :2] += total[:, :2] / count[:, None]
    return out


def exact_recorder(timeline: DemoTimeline) -> int:
    """The recorder's slot when the players' rows are derived from their entities: the demo's own view of it is
    exact, so ``--pov`` naming the recorder shows that; -1 otherwise."""
    players = timeline.players
    return players.recorder if players is not None and players.from_entities else -1


def derived_eye(timeline: DemoTimeline, state: SceneState) -> bool:
    """Whether ``state`` is seen through a player's eye derived from an entity, without that player's stats (its
    ``stats`` are then the recorder's, not theirs: no HUD numbers, no view weapon, no lens from them)."""
    players = timeline.players
    return state.pov >= 0 and players is not None and not bool(players.has_stats[state.pov])
