"""One packet-entities merge (a new entity set from an older one plus deltas) and the ring of recent sets.

A server sends the visible entities as a delta against a set the client acknowledged: entities absent from the
message are copied from the old set, removed ones dropped, updated ones read against their old state (or, if new, the
baseline).  Sets are lists of ``(number, state, row)`` sorted by number: ``state`` is the tuple a delta reads from,
``row`` its packed timeline row (kept so an unchanged entity is never repacked).  The protocol supplies the wire:
``read_header(data, p, end) -> (number, plan, p)`` with ``plan`` ``None`` for a removal, else the compiled delta reader
``plan(data, p, base, number) -> (state, row, p)`` (:mod:`.deltas`), and the zero word ending the list as number -1.
The merge costs a list copy plus the entities the message names: unchanged entities are the old set's items
themselves, and :func:`carry_forward` makes the set a later delta reads from by touching only those the message
named.

References: ezQuake ``cl_ents.c`` ``CL_ParsePacketEntities`` / ``FlushEntityPacket``; Q2PRO ``cl_parse.c``
``CL_ParsePacketEntities``; ioquake3 ``cl_parse.c`` ``CL_ParsePacketEntities`` and ``cl.parseEntities`` (the ring).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Generic, TypeVar
from collections.abc import Callable, Mapping

from .messages import Corrupt

__all__ = ["EntitySet", "merge_packet_entities", "carry_forward", "packed_rows", "FrameRing"]

EntitySet = list[tuple[int, Any, bytes]]
_END = 1 << 30
_ROW = itemgetter(2)
T = TypeVar("T")


def merge_packet_entities(data: bytes, p: int, end: int, old: EntitySet,
                          read_header: Callable[[bytes, int, int], tuple[int, Callable | None, int]],
                          baselines: Mapping[int, Any], null_state: Any, max_entities: int
                          ) -> tuple[EntitySet, list[int], int]:
    """The new entity set from ``old`` and the deltas at ``data[p:end]``, the positions in it of the entities the
    message updated or added, and the position after the list; a new entity starts from ``baselines[number]``, else
    ``null_state``."""
    new: EntitySet = []
    fresh: list[int] = []
    append = new.append
    last = -1                                    # the number of the last entity the message updated or added
    oi = 0
    nold = len(old)
    oldnum = old[0][0] if nold else _END
    while True:
        num, plan, p = read_header(data, p, end)
        if num < 0:
            break
        while oldnum < num:                      # unchanged: copied from the old set
            append(old[oi])
            oi += 1
            oldnum = old[oi][0] if oi < nold else _END
        if plan is None:                         # removed
            if oldnum == num:
                oi += 1
                oldnum = old[oi][0] if oi < nold else _END
            continue
        if oldnum == num:
            base = old[oi][1]
            oi += 1
            oldnum = old[oi][0] if oi < nold else _END
        else:
            base = baselines.get(num, null_state)
        state, row, p = plan(data, p, base, num)
        if len(new) >= max_entities:
            raise Corrupt(f"at most {max_entities} packet entities")
        if num <= last:                          # (copied entities lie between: the old set is in order)
            raise Corrupt("entity numbers in increasing order")
        last = num
        fresh.append(len(new))
        append((num, state, row))
    if p > end:
        raise Corrupt("the entity list inside the block")
    if oi < nold:
        new.extend(old[oi:])
    return new, fresh, p


def carry_forward(new: EntitySet, fresh: list[int],
                  carry: Callable[[tuple[int, Any, bytes]], tuple[int, Any, bytes]]) -> EntitySet:
    """``new`` as a later delta reads it: ``carry`` makes the state an entity the message did not name keeps from
    its old one (Quake II clears ``event`` and sets ``old_origin``: an update with no bits).  Only the ``fresh``
    entities change: the others were carried already when this set was merged (``carry`` repeated is the same)."""
    out = list(new)
    for i in fresh:
        out[i] = carry(new[i])
    return out


def packed_rows(entities: EntitySet) -> bytes:
    """The packed timeline rows of a set, in its order (one join, no Python loop)."""
    return b"".join(map(_ROW, entities))


class FrameRing(Generic[T]):
    """The last ``size`` (a power of two) received sets by sequence number (``cl.frames[seq & UPDATE_MASK]``)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._slots: list[tuple[int, T] | None] = [None] * size

    def store(self, sequence: int, value: T) -> None:
        self._slots[sequence & (self.size - 1)] = (sequence, value)

    def get(self, delta_from: int, current: int, from_mask: int = 0xFF) -> T | None:
        """The set stored for ``delta_from`` (its low ``from_mask`` bits), or ``None`` if it was overwritten or is too
        old to be valid (``current - sequence >= size - 1``)."""
        slot = self._slots[delta_from & (self.size - 1)]
        if slot is None or (slot[0] & from_mask) != delta_from or current - slot[0] >= self.size - 1:
            return None
        return slot[1]
