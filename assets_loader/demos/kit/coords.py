"""Coordinates and angles as NetQuake and QuakeWorld servers write them, and readers of fixed groups of them.

An encoding is a tuple of ``(struct code, scale, op)`` parts (the form a :class:`~.deltas.Field` takes); most are one
part, FitzQuake's 24-bit coordinate is an int16 plus a fraction byte.  The protocol picks the encoding: NetQuake from
the RMQ protocol flags (protocol 999), QuakeWorld from the FTE ``FLOATCOORDS`` extension (float coordinates, 16-bit
angles).

References: QuakeSpasm ``common.c`` ``MSG_ReadCoord16``, ``MSG_ReadCoord24``, ``MSG_ReadCoord32f``,
``MSG_ReadAngle``, ``MSG_ReadAngle16``; ezQuake ``com_msg.c`` ``MSG_ReadCoord``, ``MSG_ReadAngle``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from .deltas import Op

__all__ = ["Encoding", "GroupReader", "COORD_SHORT", "COORD_INT32", "COORD_24BIT", "COORD_FLOAT", "ANGLE_BYTE",
           "ANGLE_SHORT", "ANGLE_FLOAT", "group_reader"]

Encoding = tuple[tuple[str, float, Op], ...]
#: ``read(data, pos) -> (values, pos after them)``.
GroupReader = Callable[[bytes, int], tuple[tuple[float, ...], int]]

COORD_SHORT: Encoding = (("h", 1.0 / 8.0, Op.SET),)                 # int16 / 8 (the original protocols)
COORD_INT32: Encoding = (("i", 1.0 / 16.0, Op.SET),)                # int32 / 16 (RMQ)
COORD_24BIT: Encoding = (("h", 1.0, Op.SET), ("B", 1.0 / 255.0, Op.ADD))   # int16 + uint8 / 255 (RMQ)
COORD_FLOAT: Encoding = (("f", 1.0, Op.SET),)                       # float32 (RMQ, FTE)
ANGLE_BYTE: Encoding = (("b", 360.0 / 256.0, Op.SET),)              # int8 * 360 / 256
ANGLE_SHORT: Encoding = (("h", 360.0 / 65536.0, Op.SET),)           # int16 * 360 / 65536 (RMQ, FTE)
ANGLE_FLOAT: Encoding = (("f", 1.0, Op.SET),)                       # float32 degrees (RMQ)


def group_reader(spec: str, coord: Encoding, angle: Encoding) -> GroupReader:
    """A reader of a fixed group of coordinates (``c``) and angles (``a``), e.g. ``"cacaca"`` for a baseline's
    origin and angles interleaved: one ``unpack_from`` for the whole group."""
    fmt = "<"
    outs: list[list[tuple[int, float]]] = []
    vi = 0
    for ch in spec:
        out = []
        for code, scale, _op in (coord if ch == "c" else angle):
            fmt += code
            out.append((vi, scale))
            vi += 1
        outs.append(out)
    st = struct.Struct(fmt)
    size = st.size
    unpack = st.unpack_from
    if all(len(o) == 1 for o in outs):
        scales = [o[0][1] for o in outs]
        if len(scales) == 3:                # a position or a set of angles: the common case, unrolled
            s0, s1, s2 = scales

            def read(data: bytes, pos: int) -> tuple[tuple[float, ...], int]:
                a, b, c = unpack(data, pos)
                return (a * s0, b * s1, c * s2), pos + size
        else:
            def read(data: bytes, pos: int) -> tuple[tuple[float, ...], int]:
                return tuple([v * s for v, s in zip(unpack(data, pos), scales)]), pos + size
    else:
        def read(data: bytes, pos: int) -> tuple[tuple[float, ...], int]:
            v = unpack(data, pos)
            return tuple(sum(v[i] * s for i, s in o) for o in outs), pos + size
    return read
