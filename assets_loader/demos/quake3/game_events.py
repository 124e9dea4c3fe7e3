"""Quake III entity events and server commands in the neutral event vocabulary (:mod:`assets_loader.demos.events`).

Obituaries carry the cgame's wording (:mod:`.obituaries`); a kill by the viewing client also makes the "You
fragged NAME" centerprint with its place and score at that snapshot.  Impacts carry their weapon (``extra``) and
surface normal (``direction``, ``ByteToDir``); rail trails their muzzle, end and shooter; shotgun blasts their aim
(``direction``) and pellet seed (``extra``).  Entity events fire like
``CG_CheckEvents``: a temporary event entity (``eType`` > ``ET_EVENTS``, event = ``eType - ET_EVENTS``; a player's
predictable event names its client in ``otherEntityNum``) fires when it appears; an ordinary entity's ``event``
fires when it changes (the two ``EV_EVENT_BITS`` toggle) or when the entity enters the view with one.  The
followed client's own events come from its playerState (``events[]`` / ``eventSequence``, ``externalEvent``)
and are skipped at a follow switch, like ``CG_TransitionPlayerState``.  Awards (``excellent``, ``impressive``, …)
are rises of the followed client's ``persistant`` counters (``CG_CheckLocalSounds``).  Server commands: ``chat`` /
``tchat`` (sender before ``\\x19:``; Quake Live puts the sender's client number first), ``print``, ``cp``
(centerprint), ``disconnect``.  Quake Live (protocols 73, 90, 91) uses its own numbers (:class:`.game.GameNumbers`)
and adds rounds (``CS_ROUND_TIME``) and the match end (``CS_INTERMISSION``).  Every Quake III entity event also goes
to the cgame's sound rules (:mod:`.sound_events`), which add the sounds it would play, with the game's own event
and item numbers; for Quake Live these are the entity events' sounds and the looping sounds only (the announcer's
local sounds read Quake III's configstrings and ``persistant`` slots).

References: ioquake3 ``code/cgame/cg_event.c`` (``CG_EntityEvent``, ``CG_Obituary``, ``CG_ItemPickup``),
``cg_playerstate.c`` (``CG_CheckPlayerstateEvents``, ``CG_CheckLocalSounds``), ``cg_servercmds.c``
(``CG_ServerCommand``), ``code/game/g_active.c`` (``SendPendingPredictableEvents``).
"""

from __future__ import annotations

import bisect
import re

import numpy as np

from ...models.anorms import ANORMS
from .. import events as ev
from . import game as g
from .obituaries import S_COLOR_WHITE, frag_centerprint, obituary_text
from .records import CS_SERVERINFO, Quake3Demo
from .sound_events import SoundRules, local_sounds, loop_sounds, match_sounds

__all__ = ["demo_events"]

_TEMP = {"BULLET_HIT_FLESH": "blood", "BULLET_HIT_WALL": "gunshot", "MISSILE_HIT": "missile_hit",
         "MISSILE_MISS": "missile_miss", "MISSILE_MISS_METAL": "missile_miss", "RAILTRAIL": "rail",
         "SHOTGUN": "shotgun", "PAIN": "pain", "DEATH1": "death", "DEATH2": "death", "DEATH3": "death",
         "GIB_PLAYER": "gib", "JUMP_PAD": "jumppad", "PLAYER_TELEPORT_IN": "teleport",
         "PLAYER_TELEPORT_OUT": "teleport_out"}
#: Impact events whose parameter is the surface direction (``ByteToDir``) and whose entity carries the weapon.
_IMPACT_NAMES = ("BULLET_HIT_WALL", "MISSILE_HIT", "MISSILE_MISS", "MISSILE_MISS_METAL")
_INTEGER = re.compile(r"-?[0-9]{1,10}")
#: Quake Live puts the sender's client number before a chat line (``chat "04 NAME\x19: text"``).
_QL_CHAT_CLIENT = re.compile(r"([0-9]{1,2}) ")


class _Collector:
    """Appends events with their frame's time and segment; knows the viewing client of each frame (its number,
    rank and score: ``viewer``), whether the game is a team game and the game's numbers (Quake III or Quake
    Live: event numbers, means of death, items)."""

    def __init__(self, times: np.ndarray, frame_segment: np.ndarray, player: np.ndarray | None = None,
                 team_game: bool = False, numbers: g.GameNumbers = g.QUAKE3_NUMBERS) -> None:
        self.times = times
        self.frame_segment = frame_segment
        self.player = player
        self.team_game = team_game
        self.numbers = numbers
        self.temp_names = {numbers.ev[k]: v for k, v in _TEMP.items()}
        self.impacts = frozenset(numbers.ev[k] for k in _IMPACT_NAMES)
        self.out: list[ev.Event] = []
        self.sounds: SoundRules | None = None

    def viewer(self, frame: int) -> tuple[int, int, int] | None:
        """``(clientNum, PERS_RANK, PERS_SCORE)`` of the playerState at ``frame`` (``None`` without one)."""
        if self.player is None or not 0 <= frame < len(self.player):
            return None
        ps = self.player[frame]
        return int(ps["clientNum"]), int(ps["persistant"][g.PERS_RANK]), int(ps["persistant"][g.PERS_SCORE])

    def add(self, cls: type, frame: int, *args: object) -> None:
        f = min(max(frame, 0), len(self.times) - 1)
        self.out.append(cls(float(self.times[f]), f, int(self.frame_segment[f]), *args))


def _names_at(demo: Quake3Demo, snapshot: int) -> dict[int, str]:
    strings = demo.configstrings_at(snapshot)
    first = g.game_numbers(demo.protocol).cs_players
    return {slot: dict(g.info_pairs(strings.get(first + slot, ""))).get("n", "")
            for slot in range(g.MAX_CLIENTS) if first + slot in strings}


def _direction(parm: int) -> tuple[float, float, float] | None:
    """``ByteToDir``: the event parameter as one of the 162 unit normals (``None`` when out of range)."""
    if 0 <= parm < len(ANORMS):
        return tuple(float(v) for v in ANORMS[parm])  # type: ignore[return-value]
    return None


def _entity_event(out: _Collector, frame: int, event: int, entity: int, parm: int, origin: tuple[float, ...],
                  other: int, other2: int, names: dict[int, str], weapon: int = 0,
                  origin2: tuple[float, ...] | None = None, client: int = -1, powerups: int = 0,
                  playerstate: bool = False) -> None:
    if out.sounds is not None:
        out.sounds.entity_event(frame, event, entity, parm, origin, weapon, powerups, playerstate)
    numbers = out.numbers
    if event == numbers.ev["OBITUARY"]:
        means = numbers.means_of_death
        mod = means[parm] if 0 <= parm < len(means) else f"mod {parm}"
        victim = names.get(other)
        killer = names.get(other2) if 0 <= other2 < g.MAX_CLIENTS else None
        suicide = killer is None or other2 == other
        text = obituary_text(victim or "noname", killer, mod)
        out.add(ev.ObituaryEvent, frame, victim, None if suicide else killer, mod, suicide, text)
        viewer = out.viewer(frame)
        if not suicide and viewer is not None and other2 == viewer[0]:
            out.add(ev.CenterPrintEvent, frame, frag_centerprint(victim or "noname", viewer[1], viewer[2],
                                                                 out.team_game))
    elif event in (numbers.ev["ITEM_PICKUP"], numbers.ev["GLOBAL_ITEM_PICKUP"]):
        item = numbers.items[parm] if 0 <= parm < len(numbers.items) else f"item {parm}"
        out.add(ev.ItemPickupEvent, frame, entity, item, f"{names.get(entity, entity)} got {item}")
    elif event == numbers.ev["FIRE_WEAPON"]:
        out.add(ev.MuzzleFlashEvent, frame, entity)
    elif event == numbers.ev["RAILTRAIL"] and origin2 is not None:
        # the trail runs from the shooter's muzzle (origin2) to the hit (origin); extra: the shooter's client
        out.add(ev.TempEntityEvent, frame, "rail", tuple(float(v) for v in origin2),
                tuple(float(v) for v in origin), entity, None, None, None, None, None, (float(client),))
    elif event == numbers.ev["SHOTGUN"] and origin2 is not None:
        # the pellets fly from origin along origin2 (the aim), spread by the seed in eventParm (CG_ShotgunPattern)
        aim = np.asarray(origin2, np.float64)
        norm = float(np.linalg.norm(aim))
        direction = tuple(float(v) for v in aim / norm) if norm > 0 else None
        out.add(ev.TempEntityEvent, frame, "shotgun", tuple(float(v) for v in origin), None, entity, None, None,
                None, direction, None, (float(parm),))
    elif event in out.impacts:
        # extra: the weapon (CG_MissileHitWall picks the explosion and mark by it); direction: the surface normal
        out.add(ev.TempEntityEvent, frame, out.temp_names[event], tuple(float(v) for v in origin), None, entity,
                None, None, None, _direction(parm), None, (float(weapon),))
    elif (name := out.temp_names.get(event)) is not None:
        out.add(ev.TempEntityEvent, frame, name, tuple(float(v) for v in origin), None, entity)


def _entity_events(demo: Quake3Demo, out: _Collector, cols: dict[str, np.ndarray], offsets: np.ndarray,
                   column_row: np.ndarray) -> None:
    """``CG_CheckEvents`` over every snapshot: a row fires where its (``eType``, ``event``) differs from the last
    row its entity number had in the snapshot before (rules: module docstring), found for all rows at once so the
    work in Python is proportional to the events, not to the rows.  Row ``k`` of the frames is row
    ``column_row[k]`` of ``cols``."""
    nframes = len(offsets) - 1
    row_frame = np.repeat(np.arange(nframes, dtype=np.int64), np.diff(offsets))
    number = cols["number"][column_row]
    key = row_frame << 32 | (number.astype(np.int64) - np.iinfo(np.int32).min)    # increasing: frame, number
    del number
    before = np.searchsorted(key, key - (1 << 32), side="right") - 1      # the entity's last row a frame earlier
    seen = before >= 0
    seen[seen] = key[before[seen]] == key[seen] - (1 << 32)
    del key
    etype, event = cols["eType"][column_row], cols["event"][column_row]
    before_type = np.where(seen, etype[before], 0)
    before_event = np.where(seen, event[before], 0)
    del before
    temp = etype > g.ET_EVENTS
    fires = np.where(temp, ~seen | (before_type != etype),
                     ((event & ~g.EV_EVENT_BITS) != 0) & (~seen | (before_event != event)))
    names: dict[int, str] = {}
    names_version = -1
    changes = [c.snapshot for c in demo.configstring_changes]
    for k in np.flatnonzero(fires).tolist():
        frame, row = int(row_frame[k]), int(column_row[k])
        num, typ, evt = int(cols["number"][row]), int(etype[k]), int(event[k])
        if typ > g.ET_EVENTS:
            code = typ - g.ET_EVENTS
            entity = int(cols["otherEntityNum"][row]) if cols["eFlags"][row] & g.EF_PLAYER_EVENT else num
        else:
            code, entity = evt & ~g.EV_EVENT_BITS, num
        version = bisect.bisect_right(changes, frame)
        if version != names_version:
            names, names_version = _names_at(demo, frame), version
        _entity_event(out, frame, code, entity, int(cols["eventParm"][row]), tuple(cols["origin"][row].tolist()),
                      int(cols["otherEntityNum"][row]), int(cols["otherEntityNum2"][row]), names,
                      int(cols["weapon"][row]), tuple(cols["origin2"][row].tolist()), int(cols["clientNum"][row]),
                      int(cols["powerups"][row]))


def _player_events(demo: Quake3Demo, out: _Collector) -> None:
    """The followed client's events and award rises (rules: module docstring).  The snapshots where some can be
    are found for all at once and the fields read from whole columns (a record's own fields are slow to read), so
    the work in Python is proportional to the events."""
    ps = demo.snapshots.player
    if len(ps) < 2:
        return
    client_num, sequence, external = ps["clientNum"], ps["eventSequence"], ps["externalEvent"]
    pers, powerup_slots = ps["persistant"], ps["powerups"] != 0
    busy = (sequence[1:] > sequence[:-1]) | ((external[1:] != 0) & (external[1:] != external[:-1]))
    for _, slot in out.numbers.awards:
        busy |= pers[1:, slot] > pers[:-1, slot]
    names: dict[int, str] = {}
    for i in (np.flatnonzero(busy & (client_num[1:] == client_num[:-1])) + 1).tolist():
        client = int(client_num[i])
        fired: list[tuple[int, int]] = []
        for seq in range(max(int(sequence[i - 1]), int(sequence[i]) - 2), int(sequence[i])):
            fired.append((int(ps["events"][i, seq & 1]), int(ps["eventParms"][i, seq & 1])))
        if external[i] and external[i] != external[i - 1]:
            fired.append((int(external[i]), int(ps["externalEventParm"][i])))
        for name, slot in out.numbers.awards:
            if pers[i, slot] > pers[i - 1, slot]:
                out.add(ev.AchievementEvent, i, name)
        if not fired:
            continue
        if not names:
            names = _names_at(demo, i)
        origin = tuple(float(v) for v in ps["origin"][i])
        powerups = int(sum(1 << k for k in np.flatnonzero(powerup_slots[i]).tolist()))
        for code, parm in fired:
            _entity_event(out, i, code & ~g.EV_EVENT_BITS, client, parm, origin, client, -1, names,
                          int(ps["weapon"][i]), None, client, powerups, True)


def _command_events(demo: Quake3Demo, out: _Collector) -> None:
    for cmd in demo.commands:
        args = cmd.args
        text = args[1] if len(args) > 1 else ""
        if cmd.name in ("chat", "tchat"):
            client = _QL_CHAT_CLIENT.match(text) if demo.protocol in g.QL_PROTOCOLS else None
            if client is not None:
                text = text[client.end():]
            sender, sep, said = text.partition("\x19:")
            if not sep:
                sender, said = "", text
            sender = _chat_sender(sender, cmd.name == "tchat")
            names = _names_at(demo, cmd.snapshot)
            if client is not None and int(client.group(1)) in names:
                slot = int(client.group(1))
                sender = names[slot]
            else:
                slot = next((s for s, n in names.items() if n == sender), -1)
            out.add(ev.ChatEvent, cmd.snapshot, sender, slot, cmd.name == "tchat", said.strip())
        elif cmd.name == "print":
            out.add(ev.PrintEvent, cmd.snapshot, text)
        elif cmd.name == "cp":
            out.add(ev.CenterPrintEvent, cmd.snapshot, text)
        elif cmd.name == "disconnect":
            out.add(ev.DisconnectEvent, cmd.snapshot)
        elif cmd.name == "respawn":
            _respawn_time(demo, out, cmd.snapshot, text)


def _respawn_time(demo: Quake3Demo, out: _Collector, snapshot: int, text: str) -> None:
    """OpenArena's ``respawn <serverTime ms>`` (``CG_ParseRespawnTime``; 0 clears it) as seconds after the snapshot
    that delivers it."""
    try:
        ms = int(text)
    except ValueError:
        return
    f = min(max(snapshot, 0), len(demo.snapshots.server_time) - 1)
    now = int(demo.snapshots.server_time[f]) if f >= 0 else 0
    out.add(ev.RespawnTimeEvent, snapshot, (ms - now) / 1000.0 if ms else None)


def _chat_sender(head: str, team: bool) -> str:
    """The sender's name as its userinfo has it, from the part before ``\\x19:`` (``G_Say`` writes ``NAME^7``
    or, for team chat, ``\\x19(NAME^7\\x19)`` and maybe a location); the message after it keeps its colour
    (``^2`` chat, ``^5`` team chat)."""
    head = head.replace("\x19", "").strip()
    if team:
        head = head.strip("()").split(")")[0]
    return head[:-2] if head.endswith(S_COLOR_WHITE) else head


def _round_events(demo: Quake3Demo, out: _Collector) -> None:
    """Rounds as Quake Live's cgame sees them: ``CS_ROUND_TIME`` turning positive starts a round, -1 ends it, and
    the intermission ends the last one; the round's number is ``CS_ROUND_STATUS``'s ``round`` (WolfcamQL
    ``CG_ConfigStringModified``)."""
    numbers = out.numbers
    started = False
    number = 0
    for change in demo.configstring_changes:
        value = change.value.strip()
        if change.index == numbers.cs_round_status:
            key = dict(g.info_pairs(change.value)).get("round", "")
            number = int(key) if _INTEGER.fullmatch(key) else number
            continue
        if change.index not in (numbers.cs_round_time, numbers.cs_intermission):
            continue
        time = int(value) if _INTEGER.fullmatch(value) else 0
        if change.index == numbers.cs_round_time and time > 0 and not started:
            started = True
            out.add(ev.RoundEvent, change.snapshot, True, number)
        elif started and (time < 0 if change.index == numbers.cs_round_time else time != 0):
            started = False
            out.add(ev.RoundEvent, change.snapshot, False, number)


def _intermission_events(demo: Quake3Demo, out: _Collector) -> None:
    """The match end: ``CS_INTERMISSION`` set to a non-zero number after the gamestate (Quake Live)."""
    index = out.numbers.cs_intermission
    for change in demo.configstring_changes:
        value = change.value.strip()
        if change.index == index and _INTEGER.fullmatch(value) and int(value):
            out.add(ev.IntermissionEvent, change.snapshot)


def demo_events(demo: Quake3Demo, times: np.ndarray, frame_segment: np.ndarray, cols: dict[str, np.ndarray],
                offsets: np.ndarray, column_row: np.ndarray) -> list[ev.Event]:
    """Every event of the demo in time order (rules: module docstring); row ``k`` of the frames (``offsets``) is
    row ``column_row[k]`` of the entity columns ``cols``."""
    serverinfo = dict(g.info_pairs(demo.configstrings_at(0).get(CS_SERVERINFO, ""))) if len(times) else {}
    try:
        gametype = int(serverinfo.get("g_gametype", "0"))
    except ValueError:
        gametype = 0
    numbers = g.game_numbers(demo.protocol)
    out = _Collector(times, frame_segment, demo.snapshots.player, gametype >= g.GT_TEAM, numbers)
    out.sounds = SoundRules(demo, out.add, times, out.viewer)
    _entity_events(demo, out, cols, offsets, column_row)
    _player_events(demo, out)
    if numbers is g.QUAKE3_NUMBERS:         # their configstrings and persistant slots are Quake III's
        local_sounds(demo, out.sounds)
        match_sounds(demo, out.sounds)
    loop_sounds(out.sounds, cols, column_row, offsets, frame_segment)
    _command_events(demo, out)
    if gametype in numbers.round_game_types:
        _round_events(demo, out)
    if demo.protocol in g.QL_PROTOCOLS:
        _intermission_events(demo, out)
    out.out.sort(key=lambda e: e.frame)
    return out.out
