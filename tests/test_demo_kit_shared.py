"""The decoder-kit pieces NetQuake, QuakeWorld and Quake II share: coordinate groups, the decode guard and the shared
svc handlers taking each protocol's own temp-entity layouts."""

from __future__ import annotations

import struct

import pytest

from assets_loader.demos.kit.coords import (ANGLE_BYTE, ANGLE_FLOAT, ANGLE_SHORT, COORD_24BIT, COORD_FLOAT,
                                            COORD_INT32, COORD_SHORT, group_reader)
from assets_loader.demos.kit.messages import Corrupt, decode_guarded
from assets_loader.demos.kit.svc_common import SharedSvc
from assets_loader.demos.quake import protocol as NQ
from assets_loader.demos.quake.parse import DemParser
from assets_loader.demos.quakeworld import protocol as QW
from assets_loader.demos.quakeworld.framing import MvdParser
from assets_loader.errors import BadIndexError, FormatError


@pytest.mark.parametrize("coord, angle, wire", [
    (COORD_SHORT, ANGLE_BYTE, struct.pack("<hbhbhb", 80, -64, -8, 32, 4, 0)),
    (COORD_INT32, ANGLE_SHORT, struct.pack("<ihihih", 160, -16384, -16, 8192, 8, 0)),
    (COORD_24BIT, ANGLE_BYTE, struct.pack("<hBbhBbhBb", 10, 0, -64, -2, 255, 32, 0, 0, 0)),
    (COORD_FLOAT, ANGLE_FLOAT, struct.pack("<6f", 10.0, -90.0, -1.0, 45.0, 0.0, 0.0)),
])
def test_a_group_reads_its_coordinates_and_angles_in_one_go(coord, angle, wire) -> None:
    read = group_reader("cacaca", coord, angle)
    values, end = read(b"\x01" + wire + b"\x02", 1)
    assert end == 1 + len(wire)
    ox, ax, oy, ay, oz, az = values
    assert (ox, oy, ax, ay, az) == (10.0, -1.0, -90.0, 45.0, 0.0)
    assert oz == (0.0 if coord is COORD_24BIT or coord is COORD_FLOAT else 0.5)


def test_the_decode_guard_names_the_file_for_a_slip_outside_the_message_blocks() -> None:
    def slips(data: bytes, path: str) -> None:
        raise IndexError("index out of range")

    with pytest.raises(FormatError) as raised:
        decode_guarded(slips, bytearray(b"x"), "d.dem", "DEM", "a decodable NetQuake demo")
    err = raised.value
    assert (err.path, err.fmt, err.offset, err.expected) == ("d.dem", "DEM", None, "a decodable NetQuake demo")
    assert err.found == "IndexError: index out of range" and isinstance(err.__cause__, IndexError)

    def refuses(data: bytes, path: str) -> None:
        assert isinstance(data, bytes)
        raise BadIndexError(path, "DM2", 4, "a block length", "-5")

    with pytest.raises(BadIndexError, match="offset 4"):
        decode_guarded(refuses, memoryview(b"abc"), "d.dm2", "DM2", "a decodable Quake II demo")


def _temp_entity(parser: SharedSvc, wire: bytes) -> tuple:
    events = parser.b.events
    assert parser.parse_svc_temp_entity(wire, 0, len(wire)) == len(wire)
    return events[-1][3]


def test_the_shared_temp_entity_handler_reads_each_protocols_own_layout() -> None:
    """TE_GUNSHOT is a position in NetQuake and a count, then the position, in QuakeWorld; kind 12 is NetQuake's
    TE_EXPLOSION2 (colours after) and QuakeWorld's TE_BLOOD (a count first) (``CL_ParseTEnt``)."""
    nq, qw = DemParser("nq", b""), MvdParser(b"", "qw")
    position = struct.pack("<3h", 8, 16, -24)
    assert _temp_entity(nq, bytes([NQ.TE_GUNSHOT]) + position) == ("gunshot", (1.0, 2.0, -3.0))
    assert _temp_entity(qw, bytes([QW.TE_GUNSHOT, 5]) + position) == (
        "gunshot", (1.0, 2.0, -3.0), None, None, None, None, 5)
    assert _temp_entity(nq, bytes([NQ.TE_EXPLOSION2]) + position + b"\x07\x08") == (
        "explosion2", (1.0, 2.0, -3.0), None, None, 7, 8)
    assert QW.TE_BLOOD == NQ.TE_EXPLOSION2
    assert _temp_entity(qw, bytes([QW.TE_BLOOD, 3]) + position) == (
        "blood", (1.0, 2.0, -3.0), None, None, None, None, 3)
    for parser in (nq, qw):
        with pytest.raises(Corrupt, match="temp entity kind 0..13, found 14"):
            _temp_entity(parser, bytes([14]) + position)
