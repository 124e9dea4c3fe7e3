"""Item respawn timers: when each item of the map was picked up, and how long until it is back.

An item spot is an item entity (:mod:`.respawn` names its kind) that stays where it is: the items the map placed
(a dropped weapon or backpack is not one; Quake III's dropped items also carry entity flags). A pickup is an item
spot's entity leaving the demo's frames while a player touches it: the game removes a picked-up item from what it
sends (Quake's ``items.qc`` empties its ``model``, Quake II's ``SetRespawn`` and Quake III's ``Touch_Item`` set
``SVF_NOCLIENT``, so the entity is no longer in the packets) — the moment ``ItemPickupEvent`` reports (the
taker's "You got" print). An item leaving a client's view (out of its PVS) has no player at it and is no pickup.
Quake III says more: its ``EV_ITEM_PICKUP`` names the item and the taker's entity, and comes with the taker even
when the item itself is out of the recorder's view, so there the pickups are these events at a spot of that item
the taker touches. "Unknown" is the state of a spot before its first pickup in the demo: the
viewer cannot know when it was taken before the recording or out of view.

Touching: the player's box (-16..16, z -24..32 around its origin) meets the item's (Quake's -16..16, z 0..56;
Quake III's ``ITEM_RADIUS`` 15), with the slack of a frame's movement: :data:`TOUCH_XY`, :data:`TOUCH_Z`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline, MapSegment
from assets_loader.demos.quake3.game import ET_ITEM, game_numbers

from .respawn import GAME_ITEMS, ItemRule, quake_item_key

#: Largest horizontal distance (units, on each axis) between a touching player's origin and an item's.
TOUCH_XY = 56.0
#: Range of the player's height over the item's origin when touching.
TOUCH_Z = (-72.0, 104.0)
#: An item spot's entity moves less than this over the demo (units).
STILL = 2.0


@dataclass(frozen=True, slots=True)
class ItemSpot:
    """An item placed in map segment ``segment``: entity ``entity``, kind ``key`` (:mod:`.respawn`), its ``rule``,
    ``origin`` ``(x, y, z)``; ``pickups`` ``f8 [K]``: the times it was picked up, ``returns`` ``f8 [K]``: when the
    demo showed it again after each (``nan``: not before the next pickup or the segment's end), ``takers``
    ``i4 [K]``: the slot of the player who took it."""

    segment: int
    entity: int
    key: str
    rule: ItemRule
    origin: tuple[float, float, float]
    pickups: np.ndarray
    returns: np.ndarray
    takers: np.ndarray

    def seconds_left(self, t: float) -> float | None:
        """Seconds until the item is back at ``t`` (0: it is there), ``None`` before its first pickup."""
        i = int(np.searchsorted(self.pickups, t, side="right")) - 1
        if i < 0:
            return None
        if self.returns[i] <= t:
            return 0.0
        return max(float(self.pickups[i] + self.rule.respawn - t), 0.0)


def _item_kinds(timeline: DemoTimeline, segment: MapSegment, model: np.ndarray, skin: np.ndarray, extra,
                rules) -> tuple[np.ndarray, list[str]]:
    """Each entity row's kind: an index into the returned keys of the items ``rules`` knows, -1 for what is no
    placed item (``i8 [N]``)."""
    kind = np.full(len(model), -1, np.int64)
    if timeline.game == "quake3":
        items = game_numbers(segment.protocol).items
        keys = [k for k in items if k in rules]
        table = np.array([keys.index(k) if k in rules else -1 for k in items], np.int64)
        placed = (np.asarray(extra["eType"]) == ET_ITEM) & (np.asarray(extra["eFlags"]) == 0) & \
            (model >= 0) & (model < len(items))
        kind[placed] = table[model[placed]]
        return kind, keys
    names = segment.model_precache
    pairs, inverse = np.unique(model.astype(np.int64) << 32 | (skin.astype(np.int64) & 0xFFFFFFFF),
                               return_inverse=True)
    keys = []
    table = np.full(len(pairs), -1, np.int64)
    for i, pair in enumerate(pairs):
        m, s = int(pair >> 32), int(pair & 0xFFFFFFFF)
        key = quake_item_key(names[m], s) if 0 < m < len(names) else ""
        if key in rules:
            if key not in keys:
                keys.append(key)
            table[i] = keys.index(key)
    kind[:] = table[inverse.reshape(-1)]
    return kind, keys


def segment_spots(timeline: DemoTimeline, index: int) -> list[ItemSpot]:
    """The item spots of map segment ``index`` with their pickups."""
    segment = timeline.segments[index]
    rules = GAME_ITEMS.get(timeline.game, {})
    first, last = segment.start_frame, segment.end_frame - 1
    if last < first or not rules:
        return []
    frame_of_row, ents = timeline.frames_entities(first, last)
    kind, keys = _item_kinds(timeline, segment, np.asarray(ents.model), np.asarray(ents.skin), ents.extra, rules)
    rows = np.flatnonzero(kind >= 0)
    groups, group_of = np.unique(np.asarray(ents.number, np.int64)[rows] * len(keys) + kind[rows],
                                 return_inverse=True)
    order = np.argsort(group_of, kind="stable")
    bounds = np.searchsorted(group_of[order], np.arange(len(groups) + 1))
    times = np.asarray(timeline.times)
    players = timeline.players
    present = players.present if players is not None else np.zeros((len(times), 0), bool)
    origins = players.origin if players is not None else np.zeros((len(times), 0, 3))
    spots = []
    for group, a, b in zip(groups, bounds[:-1], bounds[1:]):
        number, k = divmod(int(group), len(keys))
        mine = rows[order[a:b]]
        where = np.asarray(ents.origin[mine], np.float64)
        if np.ptp(where, axis=0).max() >= STILL:
            continue
        key = keys[k]
        frames = np.unique(frame_of_row[mine])
        touched = _event_pickups(timeline, segment, key, where[0], present, origins) \
            if timeline.game == "quake3" else None
        spots.append(_spot(index, number, key, rules[key], where[0], frames, last, times, present, origins,
                           touched))
    return spots


def _event_pickups(timeline: DemoTimeline, segment: MapSegment, key: str, origin: np.ndarray, present: np.ndarray,
                   origins: np.ndarray) -> list[tuple[int, int]]:
    """``(frame, taker slot)`` of the ``ItemPickupEvent`` s of item ``key`` in ``segment`` whose taker (entity =
    slot in Quake III) touches the spot at ``origin`` at the event's frame."""
    out = []
    for event in timeline.events_of_kind("pickup"):
        item = getattr(event, "item", "")
        slot = int(getattr(event, "player", -1))
        if item != key or not segment.start_frame <= event.frame < segment.end_frame or \
                not 0 <= slot < present.shape[1]:
            continue
        f = int(event.frame)
        if _toucher(origin, present[f:f + 1, slot:slot + 1], origins[f:f + 1, slot:slot + 1]) == 0:
            out.append((f, slot))
    return out


def _spot(segment: int, number: int, key: str, rule: ItemRule, origin: np.ndarray, frames: np.ndarray, last: int,
          times: np.ndarray, present: np.ndarray, origins: np.ndarray,
          touched: list[tuple[int, int]] | None = None) -> ItemSpot:
    """An item spot seen in ``frames`` (sorted) of a segment ending at frame ``last``: its pickups are ``touched``
    (``(frame, taker slot)``) when given, else the frames after which it is gone while a player touches it."""
    if touched is None:
        gone = frames[np.r_[np.diff(frames) > 1, frames[-1] < last]] + 1
        touched = [(int(f), _toucher(origin, present[f - 1:f + 1], origins[f - 1:f + 1])) for f in gone]
    pickups, returns, takers = [], [], []
    for f, taker in touched:
        if taker < 0:
            continue
        back = frames[frames > f]
        pickups.append(float(times[f]))
        returns.append(float(times[back[0]]) if len(back) else np.nan)
        takers.append(taker)
    returns_arr = np.asarray(returns, np.float64)
    pickups_arr = np.asarray(pickups, np.float64)
    # a return seen only after the next pickup belongs to that one's wait: not this one's
    if len(pickups_arr) > 1:
        later = returns_arr[:-1] > pickups_arr[1:]
        returns_arr[:-1][later] = np.nan
    return ItemSpot(segment, number, key, rule, (float(origin[0]), float(origin[1]), float(origin[2])),
                    pickups_arr, returns_arr, np.asarray(takers, np.int32))


def _toucher(origin: np.ndarray, present: np.ndarray, origins: np.ndarray) -> int:
    """The slot of a player touching an item at ``origin`` in either of two frames (``present`` ``[2, P]``,
    ``origins`` ``[2, P, 3]``), -1 for none."""
    d = origins - origin
    near = present & (np.abs(d[..., 0]) <= TOUCH_XY) & (np.abs(d[..., 1]) <= TOUCH_XY) & \
        (d[..., 2] >= TOUCH_Z[0]) & (d[..., 2] <= TOUCH_Z[1])
    slots = np.flatnonzero(near.any(axis=0))
    if not len(slots):
        return -1
    distance = np.where(near, np.linalg.norm(d, axis=-1), np.inf).min(axis=0)
    return int(slots[np.argmin(distance[slots])])


class ItemTimers:
    """Every segment's item spots of a timeline, found once (on first use of a segment)."""

    def __init__(self, timeline: DemoTimeline) -> None:
        self.timeline = timeline
        self._spots: dict[int, list[ItemSpot]] = {}

    def spots(self, segment: int) -> list[ItemSpot]:
        """The item spots of map segment ``segment``."""
        if segment not in self._spots:
            self._spots[segment] = segment_spots(self.timeline, segment) if 0 <= segment < len(
                self.timeline.segments) else []
        return self._spots[segment]
