"""The ``svc_*`` handlers NetQuake and QuakeWorld share: one method per message both engines lay out alike, mixed into
:class:`~..quake.parse.DemParser` and :class:`~..quakeworld.parse.QuakeWorldParser`.

What differs between the two is passed in by the parser, never guessed here:

* ``read_text``: ``MSG_ReadString`` (QuakeWorld's drops 0xFF bytes);
* ``rd_c3``: three coordinates in the segment's encoding (:mod:`.coords`: NetQuake protocols 15 / 666 / 999 and
  the RMQ flags, QuakeWorld's FTE float coordinates), set again whenever the encoding changes;
* class attributes: the temp-entity layouts and names (``TE_GUNSHOT`` carries a count in QuakeWorld,
  ``TE_EXPLOSION2`` colours in NetQuake), the lightstyle limit and the stat columns;
* hooks with a default here: the stat row a message changes (an ``.mvd`` has one per player), the scoreboard slot
  (QuakeWorld may send scores before ``svc_serverdata``), the intermission state and the console commands the parser
  itself takes from stuffed text (QuakeWorld's ``fullserverinfo``).

Messages whose layouts really differ (``svc_sound``, ``svc_print``, ``svc_updatestat``, ``svc_setangle``,
``svc_intermission``, ``svc_cdtrack``, baselines, server info) stay with their protocol.

References: QuakeSpasm ``cl_parse.c`` ``CL_ParseServerMessage``, ``CL_ParseStaticSound``; ezQuake ``cl_parse.c``
``CL_ParseServerMessage``, ``CL_ParseStaticSound``; ``cl_tent.c`` ``CL_ParseTEnt`` (both engines).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from .. import events as ev
from ..timeline import StaticSound
from .builder import TimelineBuilder
from .coords import GroupReader
from .messages import Corrupt
from .stufftext import visual_events

__all__ = ["SharedSvc"]

_S16 = struct.Struct("<h")
_U16 = struct.Struct("<H")


class SharedSvc:
    """The shared handlers; the parser provides the state and the differences named in the module docstring."""

    te_shapes: ClassVar[Mapping[int, str]]    # temp entity → "point", "beam", "count" (QW) or "explosion2" (NQ)
    te_names: ClassVar[Mapping[int, str]]
    max_lightstyles: ClassVar[int]
    stat_secrets: ClassVar[int]
    stat_monsters: ClassVar[int]
    stat_intermission: ClassVar[int]

    b: TimelineBuilder
    _emit: Callable[..., None]
    read_text: Callable[[bytes, int, int], tuple[str, int]]
    rd_c3: GroupReader
    stats: list[int]
    static_sounds: list[StaticSound]
    sound_names: Sequence[str]
    ended: bool

    # --- hooks ----------------------------------------------------------------------------------------------------

    def _stats_for_message(self) -> list[int]:
        """The stat row a stat message changes."""
        return self.stats

    def _set_intermission(self, value: int) -> None:
        """1 intermission, 2 finale, 3 cutscene (``cl.intermission``)."""
        self.stats[self.stat_intermission] = value

    def _slot(self, slot: int, what: str) -> dict[str, Any]:
        """Scoreboard slot ``slot`` for message ``what``."""
        return self.b.score(slot, what)

    def console_commands(self, text: str) -> None:
        """What the parser itself takes from stuffed console text: nothing here."""

    def _sound_name(self, index: int) -> str:
        return self.sound_names[index] if 0 <= index < len(self.sound_names) else ""

    def _set_score(self, slot: int, what: str, key: str, value: object) -> None:
        self._slot(slot, what)[key] = value
        self.b.score_changed(slot)

    def _obituary(self, text: str) -> bool:
        """Emit the obituary ``text`` is, if it is one."""
        obit = ev.parse_obituary(text)
        if obit is None:
            return False
        self._emit(ev.ObituaryEvent, obit.victim, obit.killer, obit.weapon, obit.suicide, text)
        return True

    # --- messages -------------------------------------------------------------------------------------------------

    def parse_svc_nop(self, data: bytes, p: int, end: int) -> int:
        return p

    def parse_svc_disconnect(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.DisconnectEvent)
        self.ended = True
        return end

    def parse_svc_centerprint(self, data: bytes, p: int, end: int) -> int:
        text, p = self.read_text(data, p, end)
        self._emit(ev.CenterPrintEvent, text)
        return p

    def parse_svc_stufftext(self, data: bytes, p: int, end: int) -> int:
        text, p = self.read_text(data, p, end)
        self._emit(ev.StuffTextEvent, text)
        for cls, fields in visual_events(text):
            self._emit(cls, *fields)
        self.console_commands(text)
        return p

    def parse_svc_damage(self, data: bytes, p: int, end: int) -> int:
        armor, blood = data[p], data[p + 1]
        origin, p = self.rd_c3(data, p + 2)
        self._emit(ev.DamageEvent, armor, blood, origin)
        return p

    def parse_svc_stopsound(self, data: bytes, p: int, end: int) -> int:
        v, = _U16.unpack_from(data, p)
        self._emit(ev.StopSoundEvent, v >> 3, v & 7)
        return p + 2

    def parse_svc_lightstyle(self, data: bytes, p: int, end: int) -> int:
        style = data[p]
        if style >= self.max_lightstyles:
            raise Corrupt(f"a lightstyle below {self.max_lightstyles}, found {style}")
        pattern, p = self.read_text(data, p + 1, end)
        self.b.lightstyle(style, pattern)
        self._emit(ev.LightStyleEvent, style, pattern)
        return p

    def parse_svc_updatefrags(self, data: bytes, p: int, end: int) -> int:
        slot = data[p]
        frags, = _S16.unpack_from(data, p + 1)
        self._set_score(slot, "svc_updatefrags", "frags", frags)
        return p + 3

    def parse_svc_temp_entity(self, data: bytes, p: int, end: int) -> int:
        te = data[p]
        p += 1
        shape = self.te_shapes.get(te)
        if shape is None:
            raise Corrupt(f"a temp entity kind 0..13, found {te}")
        name = self.te_names[te]
        if shape == "beam":
            ent, = _S16.unpack_from(data, p)
            start, p = self.rd_c3(data, p + 2)
            stop, p = self.rd_c3(data, p)
            self._emit(ev.TempEntityEvent, name, start, stop, ent)
        elif shape == "count":
            count = data[p]
            origin, p = self.rd_c3(data, p + 1)
            self._emit(ev.TempEntityEvent, name, origin, None, None, None, None, count)
        elif shape == "explosion2":
            origin, p = self.rd_c3(data, p)
            self._emit(ev.TempEntityEvent, name, origin, None, None, data[p], data[p + 1])
            p += 2
        else:
            origin, p = self.rd_c3(data, p)
            self._emit(ev.TempEntityEvent, name, origin)
        return p

    def parse_svc_setpause(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.PauseEvent, bool(data[p]))
        return p + 1

    def parse_svc_killedmonster(self, data: bytes, p: int, end: int) -> int:
        st = self._stats_for_message()
        st[self.stat_monsters] += 1
        self._emit(ev.KilledMonsterEvent, st[self.stat_monsters])
        return p

    def parse_svc_foundsecret(self, data: bytes, p: int, end: int) -> int:
        st = self._stats_for_message()
        st[self.stat_secrets] += 1
        self._emit(ev.FoundSecretEvent, st[self.stat_secrets])
        return p

    def parse_svc_spawnstaticsound(self, data: bytes, p: int, end: int, large: bool = False) -> int:
        """``large``: FitzQuake's ``svc_spawnstaticsound2``, a 16-bit sound index."""
        (x, y, z), p = self.rd_c3(data, p)
        if large:
            snd, = _U16.unpack_from(data, p)
            p += 2
        else:
            snd = data[p]
            p += 1
        self.static_sounds.append(StaticSound((x, y, z), snd, self._sound_name(snd), data[p] / 255.0,
                                              data[p + 1] / 64.0))
        return p + 2

    def parse_svc_finale(self, data: bytes, p: int, end: int) -> int:
        text, p = self.read_text(data, p, end)
        self._set_intermission(2)
        self._emit(ev.FinaleEvent, text)
        return p

    def parse_svc_sellscreen(self, data: bytes, p: int, end: int) -> int:
        self._emit(ev.SellScreenEvent)
        return p
