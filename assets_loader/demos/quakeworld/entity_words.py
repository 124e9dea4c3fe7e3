"""The word that opens each QuakeWorld entity update in ``svc_packetentities`` / ``svc_deltapacketentities``: the
entity number, the flag bits, and the bytes after it that FTE's extensions add (``U_FTE_EVENMORE`` / ``YETMORE``:
entity numbers above 511, doubled model indices, transparency, colour mod).

References: ezQuake ``cl_ents.c`` ``CL_ParsePacketEntities``, ``CL_ParseDelta``; FTE ``protocol.h`` (``U_EVENMORE``,
``U_ENTITYDBL``, ``U_ENTITYDBL2``, ``U_MODELDBL``, ``U_TRANS``, ``U_COLOURMOD``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..kit.messages import Corrupt
from . import protocol as P

__all__ = ["read_bits", "entity_header_reader"]

#: ``read(data, p, end) -> (number, delta reader or None for a removal, p)``; number -1 ends the list.
EntityHeader = Callable[[bytes, int, int], tuple[int, Callable | None, int]]


def read_bits(data: bytes, p: int, word: int, fte: int) -> tuple[int, int, int]:
    """Number and plan key of an update word (its MOREBITS byte and, with FTE extensions ``fte``, its EVENMORE
    bytes consumed).  The key is the word's flag bits | the MOREBITS byte | the FTE bits that change the layout << 16
    (the masks of :func:`~.parse.delta_fields`)."""
    num = word & P.U_ENTITY_MASK
    key = word & ~P.U_ENTITY_MASK & 0xFFFF
    if word & P.U_MOREBITS:
        more = data[p]
        p += 1
        key |= more
        if more & P.U_FTE_EVENMORE and fte:
            even = data[p]
            p += 1
            if even & P.U_FTE_YETMORE:
                even |= data[p] << 8
                p += 1
            if even & P.U_FTE_ENTITYDBL:
                num += 512
            if even & P.U_FTE_ENTITYDBL2:
                num += 1024
            key |= (even & (P.U_FTE_MODELDBL | P.U_FTE_TRANS | P.U_FTE_COLOURMOD)) << 16
    return num, key, p


def entity_header_reader(plans: Mapping[int, Callable], fte: int) -> EntityHeader:
    """The reader of one update word for the extensions ``fte``, looking up each update's delta reader in ``plans``
    by its key (a closure: one call per entity update)."""
    entity_dbl = bool(fte & (P.FTE_PEXT_ENTITYDBL | P.FTE_PEXT_ENTITYDBL2))

    def entity_header(data: bytes, p: int, end: int) -> tuple[int, Callable | None, int]:
        if p + 2 > end:
            raise Corrupt("a zero word ending the entity list inside the block")
        word = data[p] | data[p + 1] << 8
        p += 2
        if not word:
            return -1, None, p
        if word & P.U_REMOVE:
            num = word & P.U_ENTITY_MASK
            if word & P.U_MOREBITS and entity_dbl:
                more = data[p]
                p += 1
                if more & P.U_FTE_EVENMORE:
                    even = data[p]
                    p += 1
                    num += (512 if even & P.U_FTE_ENTITYDBL else 0) + (1024 if even & P.U_FTE_ENTITYDBL2 else 0)
            return num, None, p
        if word & P.U_MOREBITS:
            num, key, p = read_bits(data, p, word, fte)
            return num, plans[key], p
        return word & P.U_ENTITY_MASK, plans[word & 0xFE00], p

    return entity_header
