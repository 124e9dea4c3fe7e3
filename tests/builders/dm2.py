"""Writers for tiny synthetic Quake II ``.dm2`` demos and every server message the decoder reads.

Usage::

    m = DM2Messages()
    data = dm2([m.serverdata(), m.configstring(33, "maps/test.bsp")],
               [m.frame(1, -1), m.playerinfo(origin=(0, 0, 24)), m.packetentities([m.entity(5, model=2)])])

Each message method returns the encoded bytes (opcode included), so tests can also hand-craft broken input.
Blocks are ``int32 length`` + messages; :func:`dm2` appends the ``-1`` end block unless told not to.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence

from assets_loader.demos.quake2 import protocol as P


def _s(text: str) -> bytes:
    return text.encode("latin-1") + b"\0"


def pos(v: Sequence[float]) -> bytes:
    return struct.pack("<3h", *(round(x * 8) for x in v))


def dm2(*blocks: Iterable[bytes], end: bool = True) -> bytes:
    """A demo of ``blocks`` (each a list of encoded messages), with the ``-1`` end block."""
    out = bytearray()
    for block in blocks:
        body = b"".join(block)
        out += struct.pack("<i", len(body)) + body
    if end:
        out += struct.pack("<i", -1)
    return bytes(out)


class DM2Messages:
    """Encoders for Quake II server messages (``MSG_Write*`` / ``MSG_WriteDeltaEntity`` of the engine)."""

    def __init__(self, protocol: int = P.PROTOCOL_VERSION) -> None:
        self.protocol = protocol

    def serverdata(self, *, protocol: int | None = None, attractloop: int = 1, gamedir: str = "baseq2",
                   playernum: int = 0, level_name: str = "Test") -> bytes:
        return (bytes([P.svc_serverdata]) + struct.pack("<ii", self.protocol if protocol is None else protocol, 7)
                + bytes([attractloop]) + _s(gamedir) + struct.pack("<h", playernum) + _s(level_name))

    def configstring(self, index: int, text: str) -> bytes:
        return bytes([P.svc_configstring]) + struct.pack("<h", index) + _s(text)

    def entity_bits(self, number: int, bits: int) -> bytes:
        if number >= 256:
            bits |= P.U_NUMBER16
        if bits & 0xFF000000:
            bits |= P.U_MOREBITS3 | P.U_MOREBITS2 | P.U_MOREBITS1
        elif bits & 0x00FF0000:
            bits |= P.U_MOREBITS2 | P.U_MOREBITS1
        elif bits & 0x0000FF00:
            bits |= P.U_MOREBITS1
        out = bytes([bits & 0xFF])
        for shift, more in ((8, P.U_MOREBITS1), (16, P.U_MOREBITS2), (24, P.U_MOREBITS3)):
            if bits & more:
                out += bytes([(bits >> shift) & 0xFF])
        return out + (struct.pack("<H", number) if bits & P.U_NUMBER16 else bytes([number]))

    def entity(self, number: int, *, model: int | None = None, model2: int | None = None, frame: int | None = None,
               skin: int | None = None, effects: int | None = None, renderfx: int | None = None,
               origin: Sequence[float] | None = None, angles: Sequence[float] | None = None,
               old_origin: Sequence[float] | None = None, sound: int | None = None, event: int | None = None,
               solid: int | None = None, remove: bool = False) -> bytes:
        """One entity delta (``MSG_WriteDeltaEntity``): only the given fields are sent."""
        bits = 0
        body = b""
        if remove:
            return self.entity_bits(number, P.U_REMOVE)
        if model is not None:
            bits |= P.U_MODEL
            body += bytes([model])
        if model2 is not None:
            bits |= P.U_MODEL2
            body += bytes([model2])
        if frame is not None:
            if frame < 256:
                bits |= P.U_FRAME8
                body += bytes([frame])
            else:
                bits |= P.U_FRAME16
                body += struct.pack("<H", frame)
        for value, b8, b16 in ((skin, P.U_SKIN8, P.U_SKIN16), (effects, P.U_EFFECTS8, P.U_EFFECTS16),
                               (renderfx, P.U_RENDERFX8, P.U_RENDERFX16)):
            if value is None:
                continue
            if value >= 0x10000:
                bits |= b8 | b16
                body += struct.pack("<I", value & 0xFFFFFFFF)
            elif value >= 0x100:
                bits |= b16
                body += struct.pack("<H", value)
            else:
                bits |= b8
                body += bytes([value])
        if origin is not None:
            bits |= P.U_ORIGIN1 | P.U_ORIGIN2 | P.U_ORIGIN3
            body += b"".join(struct.pack("<h", round(v * 8)) for v in origin)
        if angles is not None:
            bits |= P.U_ANGLE1 | P.U_ANGLE2 | P.U_ANGLE3
            body += b"".join(struct.pack("<b", round(v * 256 / 360)) for v in angles)
        if old_origin is not None:
            bits |= P.U_OLDORIGIN
            body += pos(old_origin)
        if sound is not None:
            bits |= P.U_SOUND
            body += bytes([sound])
        if event is not None:
            bits |= P.U_EVENT
            body += bytes([event])
        if solid is not None:
            bits |= P.U_SOLID
            body += struct.pack("<H", solid)
        return self.entity_bits(number, bits) + body

    def spawnbaseline(self, number: int, **fields: object) -> bytes:
        return bytes([P.svc_spawnbaseline]) + self.entity(number, **fields)  # type: ignore[arg-type]

    def frame(self, serverframe: int, deltaframe: int, areabits: bytes = b"\xff") -> bytes:
        head = struct.pack("<ii", serverframe, deltaframe)
        if self.protocol != P.PROTOCOL_OLD:
            head += b"\0"
        return bytes([P.svc_frame]) + head + bytes([len(areabits)]) + areabits

    def playerinfo(self, *, origin: Sequence[float] | None = None, viewoffset: Sequence[float] | None = None,
                   viewangles: Sequence[float] | None = None, kick: Sequence[float] | None = None,
                   pm_type: int | None = None, gunindex: int | None = None, gunframe: int | None = None,
                   blend: Sequence[int] | None = None, fov: int | None = None, rdflags: int | None = None,
                   stats: dict[int, int] | None = None) -> bytes:
        flags = 0
        body = b""
        if pm_type is not None:
            flags |= P.PS_M_TYPE
            body += bytes([pm_type])
        if origin is not None:
            flags |= P.PS_M_ORIGIN
            body += pos(origin)
        if viewoffset is not None:
            flags |= P.PS_VIEWOFFSET
            body += struct.pack("<3b", *(round(v * 4) for v in viewoffset))
        if viewangles is not None:
            flags |= P.PS_VIEWANGLES
            body += struct.pack("<3h", *(round(v * 65536 / 360) for v in viewangles))
        if kick is not None:
            flags |= P.PS_KICKANGLES
            body += struct.pack("<3b", *(round(v * 4) for v in kick))
        if gunindex is not None:
            flags |= P.PS_WEAPONINDEX
            body += bytes([gunindex])
        if gunframe is not None:
            flags |= P.PS_WEAPONFRAME
            body += bytes([gunframe]) + bytes(6)
        if blend is not None:
            flags |= P.PS_BLEND
            body += bytes(blend)
        if fov is not None:
            flags |= P.PS_FOV
            body += bytes([fov])
        if rdflags is not None:
            flags |= P.PS_RDFLAGS
            body += bytes([rdflags])
        statbits = 0
        values = b""
        for i, v in sorted((stats or {}).items()):
            statbits |= 1 << i
            values += struct.pack("<h", v)
        return (bytes([P.svc_playerinfo]) + struct.pack("<H", flags) + body + struct.pack("<I", statbits)
                + values)

    def packetentities(self, entities: Iterable[bytes]) -> bytes:
        return bytes([P.svc_packetentities]) + b"".join(entities) + b"\0\0"

    def muzzleflash(self, entity: int, value: int, monster: bool = False) -> bytes:
        return bytes([P.svc_muzzleflash2 if monster else P.svc_muzzleflash]) + struct.pack("<hB", entity, value)

    def temp_entity(self, kind: int, payload: bytes) -> bytes:
        return bytes([P.svc_temp_entity, kind]) + payload

    def sound(self, index: int, *, volume: int | None = None, attenuation: int | None = None,
              entity: int | None = None, channel: int = 0, origin: Sequence[float] | None = None,
              offset: int | None = None) -> bytes:
        flags = 0
        body = b""
        if volume is not None:
            flags |= P.SND_VOLUME
            body += bytes([volume])
        if attenuation is not None:
            flags |= P.SND_ATTENUATION
            body += bytes([attenuation])
        if offset is not None:
            flags |= P.SND_OFFSET
            body += bytes([offset])
        if entity is not None:
            flags |= P.SND_ENT
            body += struct.pack("<H", entity << 3 | channel)
        if origin is not None:
            flags |= P.SND_POS
            body += pos(origin)
        return bytes([P.svc_sound, flags, index]) + body

    def print(self, level: int, text: str) -> bytes:
        return bytes([P.svc_print, level]) + _s(text)

    def text(self, cmd: int, text: str) -> bytes:
        """``svc_stufftext`` / ``svc_centerprint`` / ``svc_layout``."""
        return bytes([cmd]) + _s(text)

    def inventory(self, counts: dict[int, int]) -> bytes:
        return bytes([P.svc_inventory]) + struct.pack("<256h", *(counts.get(i, 0) for i in range(256)))

    def download(self, chunk: bytes, percent: int) -> bytes:
        return bytes([P.svc_download]) + struct.pack("<hB", len(chunk), percent) + chunk

    def simple(self, cmd: int) -> bytes:
        """``svc_nop`` / ``svc_disconnect`` / ``svc_reconnect``."""
        return bytes([cmd])
