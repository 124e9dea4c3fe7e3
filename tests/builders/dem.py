"""Writer for tiny synthetic NetQuake demos: the CD-track line, blocks, and every server message.

Usage::

    w = DemWriter(protocol=15)
    w.block(w.serverinfo("maps/test.bsp", models=["progs/player.mdl"]), w.setview(1))
    w.block(w.time(1.0), w.update(1, origin=(0, 0, 24)), w.clientdata(health=100))
    data = w.build()

Each message method returns the encoded bytes (opcode included), so tests can also hand-craft broken input.
Coordinates and angles are encoded with the writer's protocol flags (as ``MSG_WriteCoord`` / ``MSG_WriteAngle``).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence

from assets_loader.demos.quake import protocol as P


def _s(text: str) -> bytes:
    return text.encode("latin-1") + b"\0"


class DemWriter:
    def __init__(self, protocol: int = P.PROTOCOL_NETQUAKE, flags: int = 0, cd_track: int | str = -1) -> None:
        self.protocol = protocol
        self.flags = flags
        self.header = f"{cd_track}\n".encode()
        self.blocks: list[bytes] = []

    # --- encodings ------------------------------------------------------------------------------------------------

    def coord(self, v: float) -> bytes:
        f = self.flags
        if f & P.PRFL_FLOATCOORD:
            return struct.pack("<f", v)
        if f & P.PRFL_INT32COORD:
            return struct.pack("<i", round(v * 16))
        if f & P.PRFL_24BITCOORD:
            whole = int(v // 1)
            return struct.pack("<hB", whole, round((v - whole) * 255))
        return struct.pack("<h", round(v * 8))

    def angle(self, v: float) -> bytes:
        f = self.flags
        if f & P.PRFL_FLOATANGLE:
            return struct.pack("<f", v)
        if f & P.PRFL_SHORTANGLE:
            return struct.pack("<H", round(v * 65536 / 360) & 0xFFFF)
        return struct.pack("<B", round(v * 256 / 360) & 0xFF)

    def coords(self, v: Sequence[float]) -> bytes:
        return b"".join(self.coord(x) for x in v)

    # --- file -----------------------------------------------------------------------------------------------------

    def block(self, *messages: bytes, angles: Sequence[float] = (0.0, 0.0, 0.0)) -> DemWriter:
        body = b"".join(messages)
        self.blocks.append(struct.pack("<i3f", len(body), *angles) + body)
        return self

    def build(self) -> bytes:
        return self.header + b"".join(self.blocks)

    # --- messages -------------------------------------------------------------------------------------------------

    def nop(self) -> bytes:
        return bytes([P.svc_nop])

    def disconnect(self) -> bytes:
        return bytes([P.svc_disconnect])

    def updatestat(self, index: int, value: int) -> bytes:
        return struct.pack("<BBi", P.svc_updatestat, index, value)

    def version(self, protocol: int) -> bytes:
        return struct.pack("<Bi", P.svc_version, protocol)

    def setview(self, entity: int) -> bytes:
        return struct.pack("<BH", P.svc_setview, entity)

    def sound(self, entity: int, channel: int, sound: int, origin: Sequence[float], volume: int | None = None,
              attenuation: float | None = None, large: bool = False) -> bytes:
        mask = (P.SND_VOLUME if volume is not None else 0) | (P.SND_ATTENUATION if attenuation is not None else 0)
        if large:
            mask |= P.SND_LARGEENTITY | P.SND_LARGESOUND
        out = bytes([P.svc_sound, mask])
        if volume is not None:
            out += bytes([volume])
        if attenuation is not None:
            out += bytes([round(attenuation * 64)])
        if large:
            out += struct.pack("<HBH", entity, channel, sound)
        else:
            out += struct.pack("<HB", (entity << 3) | channel, sound)
        return out + self.coords(origin)

    def time(self, t: float) -> bytes:
        return struct.pack("<Bf", P.svc_time, t)

    def print(self, text: str) -> bytes:
        return bytes([P.svc_print]) + _s(text)

    def stufftext(self, text: str) -> bytes:
        return bytes([P.svc_stufftext]) + _s(text)

    def setangle(self, angles: Sequence[float]) -> bytes:
        return bytes([P.svc_setangle]) + b"".join(self.angle(a) for a in angles)

    def serverinfo(self, world: str = "maps/test.bsp", models: Iterable[str] = (), sounds: Iterable[str] = (),
                   maxclients: int = 1, gametype: int = 0, level_name: str = "Test Level") -> bytes:
        out = struct.pack("<Bi", P.svc_serverinfo, self.protocol)
        if self.protocol == P.PROTOCOL_RMQ:
            out += struct.pack("<I", self.flags)
        out += bytes([maxclients, gametype]) + _s(level_name)
        out += b"".join(_s(m) for m in [world, *models]) + b"\0"
        out += b"".join(_s(s) for s in sounds) + b"\0"
        return out

    def lightstyle(self, style: int, pattern: str) -> bytes:
        return bytes([P.svc_lightstyle, style]) + _s(pattern)

    def updatename(self, slot: int, name: str) -> bytes:
        return bytes([P.svc_updatename, slot]) + _s(name)

    def updatefrags(self, slot: int, frags: int) -> bytes:
        return struct.pack("<BBh", P.svc_updatefrags, slot, frags)

    def updatecolors(self, slot: int, colors: int) -> bytes:
        return bytes([P.svc_updatecolors, slot, colors])

    def clientdata(self, health: int = 100, items: int = 0x1001, armor: int = 0, weapon: int = 0,
                   weaponframe: int = 0, ammo: int = 0, shells: int = 0, nails: int = 0, rockets: int = 0,
                   cells: int = 0, activeweapon: int = 1, viewheight: int | None = None,
                   idealpitch: int | None = None, punch: Sequence[int] = (0, 0, 0),
                   velocity: Sequence[int] = (0, 0, 0), onground: bool = False, inwater: bool = False,
                   weaponalpha: int | None = None) -> bytes:
        bits = P.SU_ITEMS
        body = b""
        if viewheight is not None:
            bits |= P.SU_VIEWHEIGHT
            body += struct.pack("<b", viewheight)
        if idealpitch is not None:
            bits |= P.SU_IDEALPITCH
            body += struct.pack("<b", idealpitch)
        for i in range(3):
            if punch[i]:
                bits |= P.SU_PUNCH1 << i
                body += struct.pack("<b", punch[i])
            if velocity[i]:
                bits |= P.SU_VELOCITY1 << i
                body += struct.pack("<b", velocity[i])
        body += struct.pack("<i", items)
        bits |= (P.SU_ONGROUND if onground else 0) | (P.SU_INWATER if inwater else 0)
        hi = []
        for bit, value, hibit in ((P.SU_WEAPONFRAME, weaponframe, P.SU_WEAPONFRAME2), (P.SU_ARMOR, armor, P.SU_ARMOR2),
                                  (P.SU_WEAPON, weapon, P.SU_WEAPON2)):
            if value:
                bits |= bit
                body += bytes([value & 0xFF])
                if value > 255:
                    bits |= hibit
        body += struct.pack("<hB", health, ammo & 0xFF) + bytes([shells & 0xFF, nails & 0xFF, rockets & 0xFF,
                                                                  cells & 0xFF, activeweapon])
        for bit, value, _stat_bit in ((P.SU_WEAPON2, weapon, 0), (P.SU_ARMOR2, armor, 0), (P.SU_AMMO2, ammo, 0),
                                     (P.SU_SHELLS2, shells, 0), (P.SU_NAILS2, nails, 0),
                                     (P.SU_ROCKETS2, rockets, 0), (P.SU_CELLS2, cells, 0),
                                     (P.SU_WEAPONFRAME2, weaponframe, 0)):
            if value > 255:
                bits |= bit
                hi.append(value >> 8)
        body += bytes(hi)
        if weaponalpha is not None:
            bits |= P.SU_WEAPONALPHA
            body += bytes([weaponalpha])
        if bits & 0xFF000000:
            bits |= P.SU_EXTEND2
        if bits & 0xFFFF0000:
            bits |= P.SU_EXTEND1
        head = struct.pack("<BH", P.svc_clientdata, bits & 0xFFFF)
        if bits & P.SU_EXTEND1:
            head += bytes([(bits >> 16) & 0xFF])
        if bits & P.SU_EXTEND2:
            head += bytes([(bits >> 24) & 0xFF])
        return head + body

    def stopsound(self, entity: int, channel: int) -> bytes:
        return struct.pack("<BH", P.svc_stopsound, (entity << 3) | channel)

    def particle(self, origin: Sequence[float], direction: Sequence[float], count: int, color: int) -> bytes:
        return (bytes([P.svc_particle]) + self.coords(origin)
                + struct.pack("<bbbBB", *(round(d * 16) for d in direction), count, color))

    def damage(self, armor: int, blood: int, origin: Sequence[float]) -> bytes:
        return bytes([P.svc_damage, armor, blood]) + self.coords(origin)

    def _baseline_body(self, model: int, frame: int, colormap: int, skin: int, origin: Sequence[float],
                       angles: Sequence[float], version: int, alpha: int | None = None) -> bytes:
        out = b""
        if version == 2:
            bits = (P.B_LARGEMODEL if model > 255 else 0) | (P.B_LARGEFRAME if frame > 255 else 0)
            bits |= P.B_ALPHA if alpha is not None else 0
            out += bytes([bits])
            out += struct.pack("<H", model) if model > 255 else bytes([model])
            out += struct.pack("<H", frame) if frame > 255 else bytes([frame])
        else:
            out += bytes([model, frame])
        out += bytes([colormap, skin])
        for i in range(3):
            out += self.coord(origin[i]) + self.angle(angles[i])
        if version == 2 and alpha is not None:
            out += bytes([alpha])
        return out

    def spawnbaseline(self, entity: int, model: int, frame: int = 0, colormap: int = 0, skin: int = 0,
                      origin: Sequence[float] = (0, 0, 0), angles: Sequence[float] = (0, 0, 0),
                      version: int = 1, alpha: int | None = None) -> bytes:
        op = P.svc_spawnbaseline2 if version == 2 else P.svc_spawnbaseline
        return struct.pack("<BH", op, entity) + self._baseline_body(model, frame, colormap, skin, origin, angles,
                                                                     version, alpha)

    def spawnstatic(self, model: int, frame: int = 0, colormap: int = 0, skin: int = 0,
                    origin: Sequence[float] = (0, 0, 0), angles: Sequence[float] = (0, 0, 0),
                    version: int = 1, alpha: int | None = None) -> bytes:
        op = P.svc_spawnstatic2 if version == 2 else P.svc_spawnstatic
        return bytes([op]) + self._baseline_body(model, frame, colormap, skin, origin, angles, version, alpha)

    def temp_entity(self, te: int, origin: Sequence[float], end: Sequence[float] | None = None,
                    entity: int = 0, color_start: int = 0, color_length: int = 0) -> bytes:
        out = bytes([P.svc_temp_entity, te])
        shape = P.TE_SHAPES[te]
        if shape == "beam":
            return out + struct.pack("<h", entity) + self.coords(origin) + self.coords(end or (0, 0, 0))
        out += self.coords(origin)
        if shape == "explosion2":
            out += bytes([color_start, color_length])
        return out

    def setpause(self, paused: bool) -> bytes:
        return bytes([P.svc_setpause, int(paused)])

    def signonnum(self, n: int) -> bytes:
        return bytes([P.svc_signonnum, n])

    def centerprint(self, text: str) -> bytes:
        return bytes([P.svc_centerprint]) + _s(text)

    def killedmonster(self) -> bytes:
        return bytes([P.svc_killedmonster])

    def foundsecret(self) -> bytes:
        return bytes([P.svc_foundsecret])

    def spawnstaticsound(self, origin: Sequence[float], sound: int, volume: int, attenuation: int,
                         version: int = 1) -> bytes:
        if version == 2:
            return (bytes([P.svc_spawnstaticsound2]) + self.coords(origin)
                    + struct.pack("<HBB", sound, volume, attenuation))
        return bytes([P.svc_spawnstaticsound]) + self.coords(origin) + bytes([sound, volume, attenuation])

    def intermission(self) -> bytes:
        return bytes([P.svc_intermission])

    def finale(self, text: str) -> bytes:
        return bytes([P.svc_finale]) + _s(text)

    def cdtrack(self, track: int, loop: int) -> bytes:
        return bytes([P.svc_cdtrack, track, loop])

    def sellscreen(self) -> bytes:
        return bytes([P.svc_sellscreen])

    def cutscene(self, text: str) -> bytes:
        return bytes([P.svc_cutscene]) + _s(text)

    def skybox(self, name: str) -> bytes:
        return bytes([P.svc_skybox]) + _s(name)

    def bf(self) -> bytes:
        return bytes([P.svc_bf])

    def fog(self, density: int, r: int, g: int, b: int, time_centis: int) -> bytes:
        return struct.pack("<BBBBBh", P.svc_fog, density, r, g, b, time_centis)

    def update(self, entity: int, model: int | None = None, frame: int | None = None,
               colormap: int | None = None, skin: int | None = None, effects: int | None = None,
               origin: Sequence[float | None] = (None, None, None),
               angles: Sequence[float | None] = (None, None, None), alpha: int | None = None,
               lerpfinish: int | None = None, step: bool = False, trans: Sequence[float] = ()) -> bytes:
        """A fast entity update sending exactly the given fields (others come from the baseline); ``trans``: the
        Nehahra transparency floats after the fields (protocol 15, ``U_TRANS``)."""
        bits = 0
        body = b""
        if model is not None:
            bits |= P.U_MODEL
            body += bytes([model & 0xFF])
        if frame is not None:
            bits |= P.U_FRAME
            body += bytes([frame & 0xFF])
        if colormap is not None:
            bits |= P.U_COLORMAP
            body += bytes([colormap])
        if skin is not None:
            bits |= P.U_SKIN
            body += bytes([skin])
        if effects is not None:
            bits |= P.U_EFFECTS
            body += bytes([effects])
        for i, (obit, abit) in enumerate(((P.U_ORIGIN1, P.U_ANGLE1), (P.U_ORIGIN2, P.U_ANGLE2),
                                          (P.U_ORIGIN3, P.U_ANGLE3))):
            if origin[i] is not None:
                bits |= obit
                body += self.coord(origin[i])
            if angles[i] is not None:
                bits |= abit
                body += self.angle(angles[i])
        if step:
            bits |= P.U_STEP
        if self.protocol != P.PROTOCOL_NETQUAKE:
            if alpha is not None:
                bits |= P.U_ALPHA
                body += bytes([alpha])
            if frame is not None and frame > 255:
                bits |= P.U_FRAME2
                body += bytes([frame >> 8])
            if model is not None and model > 255:
                bits |= P.U_MODEL2
                body += bytes([model >> 8])
            if lerpfinish is not None:
                bits |= P.U_LERPFINISH
                body += bytes([lerpfinish])
        if entity > 255:
            bits |= P.U_LONGENTITY
        if trans:
            bits |= P.U_TRANS
            body += struct.pack(f"<{len(trans)}f", *trans)
        if bits & 0xFF0000:
            bits |= P.U_EXTEND1
        if bits & 0xFF00:
            bits |= P.U_MOREBITS
        out = bytes([P.U_SIGNAL | (bits & 0x7F)])
        if bits & P.U_MOREBITS:
            out += bytes([(bits >> 8) & 0xFF])
        if bits & P.U_EXTEND1 and self.protocol != P.PROTOCOL_NETQUAKE:     # protocol 15: that bit is U_TRANS
            out += bytes([(bits >> 16) & 0xFF])
        out += struct.pack("<H", entity) if entity > 255 else bytes([entity])
        return out + body
