"""Writers for tiny synthetic QuakeWorld demos (``.qwd`` client recordings and ``.mvd`` server demos) and every
server message the decoder reads.

Usage::

    m = QWMessages()                                   # protocol 28, 16-bit coords
    w = QWDWriter()
    w.packet(1.0, m.serverdata(level_name="Test"), m.modellist(["maps/test.bsp", "progs/player.mdl"]))
    w.cmd(1.01, viewangles=(10, 90, 0))
    w.packet(1.02, m.playerinfo_qwd(0, origin=(0, 0, 24)), m.packetentities([m.entity(40, model=2)]))
    data = w.build()

    v = MVDWriter()
    v.block(0, m.serverdata(mvd=True))                 # dem_all
    v.block(13, m.playerinfo_mvd(0, origin=(1, 2, 3)), to=("single", 0))

Each message method returns the encoded bytes (opcode included), so tests can also hand-craft broken input.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence

from assets_loader.demos.quakeworld import protocol as P


def _s(text: str) -> bytes:
    return text.encode("latin-1") + b"\0"


def _angle8(v: float) -> bytes:
    return struct.pack("<B", round(v * 256 / 360) & 0xFF)


def _angle16(v: float) -> bytes:
    return struct.pack("<H", round(v * 65536 / 360) & 0xFFFF)


class QWMessages:
    """Encoders for QuakeWorld server messages (``MSG_Write*`` of the engines)."""

    def __init__(self, protocol: int = P.PROTOCOL_VERSION, float_coords: bool = False) -> None:
        self.protocol = protocol
        self.float_coords = float_coords

    def coord(self, v: float) -> bytes:
        return struct.pack("<f", v) if self.float_coords else struct.pack("<h", round(v * 8))

    def coords(self, v: Sequence[float]) -> bytes:
        return b"".join(self.coord(x) for x in v)

    def angle(self, v: float) -> bytes:
        return _angle16(v) if self.float_coords else _angle8(v)

    # --- connection / level -------------------------------------------------------------------------------------

    def serverdata(self, level_name: str = "Test Level", gamedir: str = "qw", playernum: int = 0,
                   spectator: bool = False, servercount: int = 1, mvd: bool = False, demotime: float = 0.0,
                   extensions: Iterable[tuple[int, int]] = (), movevars: Sequence[float] | None = None) -> bytes:
        out = bytes([P.svc_serverdata])
        for magic, bits in extensions:
            out += struct.pack("<II", magic, bits)
        out += struct.pack("<ii", self.protocol, servercount) + _s(gamedir)
        if mvd:
            out += struct.pack("<f", demotime)
        else:
            out += bytes([playernum | (128 if spectator else 0)])
        out += _s(level_name)
        if self.protocol >= 25:
            mv = movevars or (800.0, 100.0, 320.0, 500.0, 10.0, 10.0, 10.0, 4.0, 4.0, 1.0)
            out += struct.pack("<10f", *mv)
        return out

    def modellist(self, names: Sequence[str], start: int = 0, next_: int = 0, short: bool = False) -> bytes:
        if short:
            out = struct.pack("<BH", P.svc_fte_modellistshort, start)
        else:
            out = bytes([P.svc_modellist, start])
        return out + b"".join(_s(n) for n in names) + b"\0" + bytes([next_])

    def soundlist(self, names: Sequence[str], start: int = 0, next_: int = 0) -> bytes:
        return bytes([P.svc_soundlist, start]) + b"".join(_s(n) for n in names) + b"\0" + bytes([next_])

    def _baseline_body(self, model: int, frame: int, colormap: int, skin: int, origin: Sequence[float],
                       angles: Sequence[float]) -> bytes:
        out = bytes([model, frame, colormap, skin])
        for o, a in zip(origin, angles):
            out += self.coord(o) + self.angle(a)
        return out

    def spawnbaseline(self, num: int, model: int = 0, frame: int = 0, colormap: int = 0, skin: int = 0,
                      origin: Sequence[float] = (0, 0, 0), angles: Sequence[float] = (0, 0, 0)) -> bytes:
        return struct.pack("<BH", P.svc_spawnbaseline, num) + self._baseline_body(model, frame, colormap, skin,
                                                                                  origin, angles)

    def spawnstatic(self, model: int = 0, frame: int = 0, colormap: int = 0, skin: int = 0,
                    origin: Sequence[float] = (0, 0, 0), angles: Sequence[float] = (0, 0, 0)) -> bytes:
        return bytes([P.svc_spawnstatic]) + self._baseline_body(model, frame, colormap, skin, origin, angles)

    def spawnstaticsound(self, origin: Sequence[float], sound: int, volume: int = 255, attenuation: int = 64) -> bytes:
        return bytes([P.svc_spawnstaticsound]) + self.coords(origin) + bytes([sound, volume, attenuation])

    # --- entities -----------------------------------------------------------------------------------------------

    def entity(self, num: int, *, model: int | None = None, frame: int | None = None, colormap: int | None = None,
               skin: int | None = None, effects: int | None = None,
               origin: Sequence[float | None] = (None, None, None),
               angles: Sequence[float | None] = (None, None, None), remove: bool = False) -> bytes:
        """One packet-entities update: only the fields given are sent (``CL_ParseDelta`` order)."""
        if remove:
            return struct.pack("<H", (num & 511) | P.U_REMOVE)
        word = num & 511
        more = 0
        if model is not None:
            more |= P.U_MODEL
        if frame is not None:
            word |= P.U_FRAME
        if colormap is not None:
            more |= P.U_COLORMAP
        if skin is not None:
            more |= P.U_SKIN
        if effects is not None:
            more |= P.U_EFFECTS
        for i, bit in enumerate((P.U_ORIGIN1, P.U_ORIGIN2, P.U_ORIGIN3)):
            if origin[i] is not None:
                word |= bit
        if angles[0] is not None:
            more |= P.U_ANGLE1
        if angles[1] is not None:
            word |= P.U_ANGLE2
        if angles[2] is not None:
            more |= P.U_ANGLE3
        if more:
            word |= P.U_MOREBITS
        out = struct.pack("<H", word) + (bytes([more]) if more else b"")
        for value in (model, frame, colormap, skin, effects):
            if value is not None:
                out += bytes([value])
        for i in range(3):
            if origin[i] is not None:
                out += self.coord(origin[i])
            if angles[i] is not None:
                out += self.angle(angles[i])
        return out

    def packetentities(self, updates: Iterable[bytes], delta_from: int | None = None) -> bytes:
        """``svc_packetentities`` (``delta_from`` None) or ``svc_deltapacketentities`` from sequence byte."""
        if delta_from is None:
            out = bytes([P.svc_packetentities])
        else:
            out = bytes([P.svc_deltapacketentities, delta_from & 0xFF])
        return out + b"".join(updates) + b"\0\0"

    # --- players ------------------------------------------------------------------------------------------------

    def usercmd(self, angles: Sequence[float] | None = None, buttons: int | None = None, impulse: int | None = None,
                msec: int = 13, moves: Sequence[int] | None = None) -> bytes:
        bits = 0
        body = b""
        if angles is not None:
            bits |= P.CM_ANGLE1 | P.CM_ANGLE2 | P.CM_ANGLE3
            body += b"".join(_angle16(a) for a in angles)
        if moves is not None:
            bits |= P.CM_FORWARD | P.CM_SIDE | P.CM_UP
            body += struct.pack("<3h", *moves)
        if buttons is not None:
            bits |= P.CM_BUTTONS
            body += bytes([buttons])
        if impulse is not None:
            bits |= P.CM_IMPULSE
            body += bytes([impulse])
        return bytes([bits]) + body + bytes([msec])

    def playerinfo_qwd(self, num: int, origin: Sequence[float] = (0, 0, 0), frame: int = 0, *,
                       msec: int | None = None, command: bytes | None = None,
                       velocity: Sequence[int] | None = None, model: int | None = None, skin: int | None = None,
                       effects: int | None = None, weaponframe: int | None = None, dead: bool = False,
                       gib: bool = False) -> bytes:
        flags = ((P.PF_MSEC if msec is not None else 0) | (P.PF_COMMAND if command is not None else 0)
                 | (P.PF_VELOCITY1 | P.PF_VELOCITY2 | P.PF_VELOCITY3 if velocity is not None else 0)
                 | (P.PF_MODEL if model is not None else 0) | (P.PF_SKINNUM if skin is not None else 0)
                 | (P.PF_EFFECTS if effects is not None else 0)
                 | (P.PF_WEAPONFRAME if weaponframe is not None else 0)
                 | (P.PF_DEAD if dead else 0) | (P.PF_GIB if gib else 0))
        out = struct.pack("<BBH", P.svc_playerinfo, num, flags) + self.coords(origin) + bytes([frame])
        if msec is not None:
            out += bytes([msec])
        if command is not None:
            out += command
        if velocity is not None:
            out += struct.pack("<3h", *velocity)
        for v in (model, skin, effects, weaponframe):
            if v is not None:
                out += bytes([v])
        return out

    def playerinfo_mvd(self, num: int, frame: int = 0, *, origin: Sequence[float | None] = (None, None, None),
                       angles: Sequence[float | None] = (None, None, None), model: int | None = None,
                       skin: int | None = None, effects: int | None = None, weaponframe: int | None = None,
                       dead: bool = False, gib: bool = False) -> bytes:
        flags = 0
        body = b""
        for i in range(3):
            if origin[i] is not None:
                flags |= P.DF_ORIGIN << i
                body += self.coord(origin[i])
        for i in range(3):
            if angles[i] is not None:
                flags |= P.DF_ANGLES << i
                body += _angle16(angles[i])
        for value, bit in ((model, P.DF_MODEL), (skin, P.DF_SKINNUM), (effects, P.DF_EFFECTS),
                           (weaponframe, P.DF_WEAPONFRAME)):
            if value is not None:
                flags |= bit
                body += bytes([value])
        flags |= (P.DF_DEAD if dead else 0) | (P.DF_GIB if gib else 0)
        return struct.pack("<BBHB", P.svc_playerinfo, num, flags, frame) + body

    def updateuserinfo(self, slot: int, info: dict[str, str] | str, userid: int = 1) -> bytes:
        text = info if isinstance(info, str) else "".join(f"\\{k}\\{v}" for k, v in info.items())
        return struct.pack("<BBi", P.svc_updateuserinfo, slot, userid) + _s(text)

    def setinfo(self, slot: int, key: str, value: str) -> bytes:
        return bytes([P.svc_setinfo, slot]) + _s(key) + _s(value)

    def serverinfo(self, key: str, value: str) -> bytes:
        return bytes([P.svc_serverinfo]) + _s(key) + _s(value)

    def updatefrags(self, slot: int, frags: int) -> bytes:
        return struct.pack("<BBh", P.svc_updatefrags, slot, frags)

    def updateping(self, slot: int, ping: int) -> bytes:
        return struct.pack("<BBh", P.svc_updateping, slot, ping)

    def updatepl(self, slot: int, pl: int) -> bytes:
        return bytes([P.svc_updatepl, slot, pl])

    def updateentertime(self, slot: int, seconds: float) -> bytes:
        return struct.pack("<BBf", P.svc_updateentertime, slot, seconds)

    def updatestat(self, index: int, value: int) -> bytes:
        return bytes([P.svc_updatestat, index, value & 0xFF])

    def updatestatlong(self, index: int, value: int) -> bytes:
        return struct.pack("<BBi", P.svc_updatestatlong, index, value)

    # --- projectiles ----------------------------------------------------------------------------------------------

    @staticmethod
    def _nail_bits(origin: Sequence[float], pitch: float, yaw: float) -> bytes:
        x, y, z = (((int(v) + 4096 + 1) >> 1) & 4095 for v in origin)
        p = round(pitch * 16 / 360) & 15
        yw = round(yaw * 256 / 360) & 255
        return bytes([x & 255, (x >> 8) | ((y << 4) & 255), y >> 4, z & 255, (z >> 8) | (p << 4), yw])

    def nails(self, nails: Sequence[tuple[Sequence[float], float, float]]) -> bytes:
        """``svc_nails``: (origin, pitch, yaw) per nail (origins on even coordinates)."""
        return bytes([P.svc_nails, len(nails)]) + b"".join(self._nail_bits(o, p, y) for o, p, y in nails)

    def nails2(self, nails: Sequence[tuple[int, Sequence[float], float, float]]) -> bytes:
        """``svc_nails2`` (MVD): (id, origin, pitch, yaw) per nail."""
        return bytes([P.svc_nails2, len(nails)]) + b"".join(bytes([n]) + self._nail_bits(o, p, y)
                                                             for n, o, p, y in nails)

    # --- simple messages ------------------------------------------------------------------------------------------

    def nop(self) -> bytes:
        return bytes([P.svc_nop])

    def disconnect(self, text: str | None = None) -> bytes:
        return bytes([P.svc_disconnect]) + (_s(text) if text is not None else b"")

    def print(self, text: str, level: int = P.PRINT_HIGH) -> bytes:
        return bytes([P.svc_print, level]) + _s(text)

    def centerprint(self, text: str) -> bytes:
        return bytes([P.svc_centerprint]) + _s(text)

    def stufftext(self, text: str) -> bytes:
        return bytes([P.svc_stufftext]) + _s(text)

    def sound(self, entity: int, channel: int, sound: int, origin: Sequence[float], volume: int | None = None,
              attenuation: float | None = None) -> bytes:
        word = (entity << 3) | channel
        if volume is not None:
            word |= P.SND_VOLUME
        if attenuation is not None:
            word |= P.SND_ATTENUATION
        out = struct.pack("<BH", P.svc_sound, word)
        if volume is not None:
            out += bytes([volume])
        if attenuation is not None:
            out += bytes([round(attenuation * 64)])
        return out + bytes([sound]) + self.coords(origin)

    def stopsound(self, entity: int, channel: int) -> bytes:
        return struct.pack("<BH", P.svc_stopsound, (entity << 3) | channel)

    def temp_entity(self, te: int, origin: Sequence[float], *, count: int | None = None, entity: int | None = None,
                    end: Sequence[float] | None = None) -> bytes:
        out = bytes([P.svc_temp_entity, te])
        if entity is not None:
            return out + struct.pack("<h", entity) + self.coords(origin) + self.coords(end or origin)
        if count is not None:
            out += bytes([count])
        return out + self.coords(origin)

    def lightstyle(self, style: int, pattern: str) -> bytes:
        return bytes([P.svc_lightstyle, style]) + _s(pattern)

    def setangle(self, angles: Sequence[float], slot: int | None = None) -> bytes:
        return bytes([P.svc_setangle]) + (bytes([slot]) if slot is not None else b"") + b"".join(
            self.angle(a) for a in angles)

    def damage(self, armor: int, blood: int, origin: Sequence[float]) -> bytes:
        return bytes([P.svc_damage, armor, blood]) + self.coords(origin)

    def intermission(self, origin: Sequence[float], angles: Sequence[float]) -> bytes:
        return bytes([P.svc_intermission]) + self.coords(origin) + b"".join(self.angle(a) for a in angles)

    def finale(self, text: str) -> bytes:
        return bytes([P.svc_finale]) + _s(text)

    def cdtrack(self, track: int) -> bytes:
        return bytes([P.svc_cdtrack, track])

    def sellscreen(self) -> bytes:
        return bytes([P.svc_sellscreen])

    def smallkick(self) -> bytes:
        return bytes([P.svc_smallkick])

    def bigkick(self) -> bytes:
        return bytes([P.svc_bigkick])

    def muzzleflash(self, entity: int) -> bytes:
        return struct.pack("<BH", P.svc_muzzleflash, entity)

    def chokecount(self, count: int) -> bytes:
        return bytes([P.svc_chokecount, count])

    def download(self, payload: bytes, percent: int = 100, size: int | None = None) -> bytes:
        return struct.pack("<BhB", P.svc_download, len(payload) if size is None else size, percent) + payload

    def maxspeed(self, value: float) -> bytes:
        return struct.pack("<Bf", P.svc_maxspeed, value)

    def entgravity(self, value: float) -> bytes:
        return struct.pack("<Bf", P.svc_entgravity, value)

    def setpause(self, paused: bool) -> bytes:
        return bytes([P.svc_setpause, int(paused)])

    def killedmonster(self) -> bytes:
        return bytes([P.svc_killedmonster])

    def foundsecret(self) -> bytes:
        return bytes([P.svc_foundsecret])

    def qizmovoice(self) -> bytes:
        return bytes([P.svc_qizmovoice]) + bytes(34)


class QWDWriter:
    """``.qwd`` blocks: ``float time, byte type`` + usercmd / netchan packet / sequence numbers."""

    def __init__(self) -> None:
        self.blocks: list[bytes] = []
        self.seq = 0

    def packet(self, t: float, *messages: bytes, seq: int | None = None, ack: int | None = None,
               reliable: bool = False) -> QWDWriter:
        """A server packet; sequence numbers count up from 1 unless given."""
        if seq is None:
            seq = self.seq + 1
        self.seq = max(self.seq, seq)
        body = struct.pack("<II", seq | (1 << 31 if reliable else 0), seq if ack is None else ack)
        body += b"".join(messages)
        self.blocks.append(struct.pack("<fBi", t, P.dem_read, len(body)) + body)
        return self

    def connectionless(self, t: float, payload: bytes) -> QWDWriter:
        body = b"\xff\xff\xff\xff" + payload
        self.blocks.append(struct.pack("<fBi", t, P.dem_read, len(body)) + body)
        return self

    def cmd(self, t: float, viewangles: Sequence[float] = (0, 0, 0), angles: Sequence[float] | None = None,
            buttons: int = 0, impulse: int = 0, msec: int = 13) -> QWDWriter:
        a = angles if angles is not None else viewangles
        self.blocks.append(struct.pack("<fB", t, P.dem_cmd)
                           + struct.pack("<B3x3f3hBB3f", msec, *a, 0, 0, 0, buttons, impulse, *viewangles))
        return self

    def set(self, t: float, outgoing: int, incoming: int) -> QWDWriter:
        self.blocks.append(struct.pack("<fBII", t, P.dem_set, outgoing, incoming))
        self.seq = incoming
        return self

    def raw(self, data: bytes) -> QWDWriter:
        self.blocks.append(data)
        return self

    def build(self) -> bytes:
        return b"".join(self.blocks)


class MVDWriter:
    """``.mvd`` blocks: ``byte msec, byte type | slot << 3`` (+ mask) + ``int length`` + messages."""

    def __init__(self) -> None:
        self.blocks: list[bytes] = []

    def block(self, msec: int, *messages: bytes, to: str | tuple = "all") -> MVDWriter:
        """``to``: "all", ("single", slot), ("stats", slot) or ("multiple", mask)."""
        body = b"".join(messages)
        if to == "all":
            head = bytes([msec, P.dem_all])
        elif to[0] == "single":
            head = bytes([msec, P.dem_single | (to[1] << 3)])
        elif to[0] == "stats":
            head = bytes([msec, P.dem_stats | (to[1] << 3)])
        elif to[0] == "multiple":
            head = bytes([msec, P.dem_multiple]) + struct.pack("<I", to[1])
        else:
            raise ValueError(to)
        self.blocks.append(head + struct.pack("<i", len(body)) + body)
        return self

    def raw(self, data: bytes) -> MVDWriter:
        self.blocks.append(data)
        return self

    def build(self) -> bytes:
        return b"".join(self.blocks)


#: A minimal model list: the map, the player model and the spike (index 1, 2, 3).
MODELS = ["maps/test.bsp", P.PLAYER_MODEL, P.SPIKE_MODEL, "progs/armor.mdl"]
SOUNDS = ["weapons/r_exp3.wav", "items/armor1.wav"]


def qwd_signon(m: QWMessages, w: QWDWriter, t: float = 1.0, playernum: int = 0, names: Sequence[str] = ("Alice",),
               level_name: str = "Test Level") -> None:
    """serverdata, sound/model lists and userinfo for ``names`` (slots 0..)."""
    w.packet(t, m.serverdata(level_name=level_name, playernum=playernum), m.soundlist(SOUNDS),
             m.modellist(MODELS), *(m.updateuserinfo(i, {"name": n, "topcolor": "4", "bottomcolor": "12"})
                                    for i, n in enumerate(names)))


def mvd_signon(m: QWMessages, w: MVDWriter, names: Sequence[str] = ("Alice", "Bob"),
               level_name: str = "Test Level") -> None:
    w.block(0, m.serverdata(level_name=level_name, mvd=True, demotime=5.0), m.soundlist(SOUNDS),
            m.modellist(MODELS), *(m.updateuserinfo(i, {"name": n, "team": "red" if i % 2 else "blue",
                                                        "topcolor": str(i), "bottomcolor": str(i + 1)})
                                   for i, n in enumerate(names)))
