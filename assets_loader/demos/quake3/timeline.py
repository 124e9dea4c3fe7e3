"""A decoded Quake III demo (:class:`~.records.Quake3Demo`) as a :class:`~assets_loader.demos.timeline.DemoTimeline`.

Frames are snapshots (``times`` = serverTime / 1000, a later gamestate's clock shifted to follow on).  Every entity
of a snapshot is a row, plus the followed / recording client built from its ``playerState_t`` like
``BG_PlayerStateToEntityState`` (``ET_PLAYER`` at ``origin`` with the view angles; left out while it is a free
spectator, in intermission or gibbed, health at ``GIB_HEALTH`` or below).  The common columns hold ``model`` =
``modelindex``, ``effects`` = ``eFlags``, ``colormap`` = client + 1 for players, and ``origin`` / ``angles`` = the
``pos`` / ``apos`` trajectories evaluated at the snapshot time; the schema's
:data:`~assets_loader.demos.schema.QUAKE3_ENTITY_FIELDS` keep the rest, so ``sample`` evaluates moving trajectories
at any time.  A row that repeats its entity's previous one (an entity copied forward unchanged) is stored once
(``entity_rows``), so a timeline costs per change, not per snapshot and entity.  The view is the playerState
(``clientNum`` changes when a spectator's followed player changes); ``players`` holds every client seen as
``ET_PLAYER`` so Tab / orbit reach them (stats only for the slots the view followed).  Scores come from
``CS_PLAYERS`` and ``scores`` commands; model names from ``CS_MODELS``; the map from the serverinfo ``mapname``.

References: ioquake3 ``code/game/bg_misc.c`` (``BG_PlayerStateToEntityState``), ``code/cgame/cg_snapshot.c``,
``code/cgame/cg_ents.c`` (``CG_CalcEntityLerpPositions``), ``code/cgame/cg_servercmds.c`` (``CG_ParseScores``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from ...errors import FormatError
from ..events import Event
from ..kit.rows import POSE_RESET_GAP, pose_history
from ..schema import PLAYER_DEAD, QUAKE3
from ..timeline import DemoTimeline, EntityStates, MapSegment, PlayerFrames, ScoreChange
from ..trajectory import evaluate_trajectory, moves_by_itself
from . import game as g
from .game_events import demo_events
from .parse import parse_demo
from .ql_scores import parse_ql_scores
from .protocol import ENTITY_STATE
from .records import CS_SERVERINFO, CS_SYSTEMINFO, Quake3Demo

__all__ = ["decode_quake3", "timeline_from_demo"]

_PERS = ("score", "hits", "rank", "team", "spawn_count", "playerevents", "attacker", "attackee_armor", "killed",
         "impressive_count", "excellent_count", "defend_count", "assist_count", "gauntlet_frag_count", "captures")


def decode_quake3(data: bytes, name: str) -> DemoTimeline:
    """Decode a ``.dm_66/67/68/71`` (Quake III) or ``.dm_73/90/91`` (Quake Live) file into a timeline
    (``load_demo``'s Quake III branch)."""
    return timeline_from_demo(parse_demo(data, name))


def _player_entities(player: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows, snapshot indices): the playerState as ``entityState_t`` where it is a visible player: not a free
    spectator (a following one shows the client it follows: Quake Live keeps ``PM_SPECTATOR`` with ``PMF_FOLLOW``),
    not in the intermission, not gibbed."""
    following = (player["pm_flags"] & g.PMF_FOLLOW) != 0
    shown = ((player["pm_type"] != g.PM_SPECTATOR) | following) & (player["pm_type"] != g.PM_INTERMISSION) \
        & (player["stats"][:, 0] > g.GIB_HEALTH)
    ps = player[shown]
    out = np.zeros(len(ps), ENTITY_STATE)
    out["number"] = ps["clientNum"]
    out["clientNum"] = ps["clientNum"]
    out["eType"] = g.ET_PLAYER
    out["pos_trType"] = out["apos_trType"] = 1       # TR_INTERPOLATE
    out["pos_trBase"] = ps["origin"]
    out["pos_trDelta"] = ps["velocity"]
    out["origin"] = ps["origin"]
    out["apos_trBase"] = ps["viewangles"]
    out["angles"] = ps["viewangles"]
    out["angles2"][:, 1] = ps["movementDir"]
    eflags = ps["eFlags"] & ~g.EF_DEAD
    out["eFlags"] = np.where(ps["stats"][:, 0] <= 0, eflags | g.EF_DEAD, eflags)
    for name in ("legsAnim", "torsoAnim", "weapon", "groundEntityNum", "loopSound", "generic1"):
        out[name] = ps[name]
    out["powerups"] = ((ps["powerups"] != 0) * (1 << np.arange(16))).sum(axis=1)
    return out, np.flatnonzero(shown)


def _configstring_numbers(demo: Quake3Demo, indices: Sequence[int], missing: int) -> np.ndarray:
    """``i4 [F, len(indices)]``: the number each configstring of ``indices`` holds at each snapshot (``missing``
    when unset or not a number)."""
    n = len(demo.snapshots)
    out = np.full((n, len(indices)), missing, np.int32)
    starts = [gs.first_snapshot for gs in demo.gamestates] + [n]
    for k, gs in enumerate(demo.gamestates):
        lo, hi = max(starts[k], 0), starts[k + 1]
        for col, index in enumerate(indices):
            out[lo:hi, col] = _number(gs.configstrings.get(index), missing)
            for change in demo.configstring_changes:
                if change.index == index and change.message > gs.message and change.snapshot < hi:
                    out[max(change.snapshot, lo):hi, col] = _number(change.value, missing)
    return out


def _number(text: str | None, missing: int) -> int:
    """The configstring's number, clamped to 32 bits as the cgame's ``atoi`` keeps it (``missing``: none); of an
    info string (Quake Live's ``CS_WARMUP``, ``\\time\\N``), its ``time`` key (WolfcamQL ``CG_ParseWarmup``)."""
    if text is not None and text.startswith("\\"):
        text = dict(g.info_pairs(text)).get("time")
    try:
        value = int(text) if text is not None else missing
    except ValueError:
        return missing
    return min(max(value, -2**31), 2**31 - 1)


def _leader_scores(demo: Quake3Demo) -> np.ndarray:
    """``i4 [F, 2]``: ``CS_SCORES1`` and ``CS_SCORES2`` in force at each snapshot (``SCORE_NOT_PRESENT`` when
    unset or not a number)."""
    return _configstring_numbers(demo, (g.CS_SCORES1, g.CS_SCORES2), g.SCORE_NOT_PRESENT)


def _warmup(demo: Quake3Demo) -> np.ndarray:
    """``i4 [F]``: the warm-up at each snapshot as the cgame shows it (``CG_DrawWarmup``): the number of "Starts in:
    N" (the whole seconds to ``CS_WARMUP``'s end time from the snapshot's server time, truncated as C divides, plus
    one), -1 while waiting for players (a negative end), 0 without a warm-up or a second after its end."""
    end = _configstring_numbers(demo, (g.CS_WARMUP,), 0)[:, 0].astype(np.int64)
    seconds = np.trunc((end - demo.snapshots.server_time.astype(np.int64)) / 1000.0)
    counting = (end > 0) & (seconds >= 0)
    return np.where(end < 0, -1, np.where(counting, seconds + 1, 0)).astype(np.int32)   # end: 32 bits at most


def _snapshot_drops(demo: Quake3Demo) -> np.ndarray:
    """``i4 [F]``: how many message numbers went by without a valid snapshot just before each snapshot (what the
    cgame counts as dropped snapshots, ``CG_ReadNextSnapshot``), counted from the gamestate's message for the first
    snapshot after it (the cgame starts from that number, ``CG_Init``)."""
    sequence = demo.snapshots.sequence.astype(np.int64)
    previous = np.empty(len(sequence), np.int64)
    previous[1:] = sequence[:-1]
    for gs in demo.gamestates:
        if 0 <= gs.first_snapshot < len(sequence):
            previous[gs.first_snapshot] = gs.sequence
    return np.maximum(sequence - previous - 1, 0).astype(np.int32)


def _stat_rows(demo: Quake3Demo, leaders: np.ndarray, warmup: np.ndarray) -> np.ndarray:
    player = demo.snapshots.player
    stats = player["stats"][:, :8]
    pers = player["persistant"][:, :len(_PERS)]
    if demo.protocol in g.QL_PROTOCOLS:
        pers = player["persistant"][:, list(g.QL_PERSISTANT_AS_QUAKE3)]      # named in Quake III's order
    weapon = player["weapon"]
    ammo = np.take_along_axis(player["ammo"], np.clip(weapon, 0, 15)[:, None], axis=1)[:, 0]
    powerups = ((player["powerups"] != 0) * (1 << np.arange(16))).sum(axis=1)
    extra = np.stack([ammo, weapon, powerups, player["viewheight"], player["pm_type"], player["pm_flags"],
                      player["clientNum"], player["bobCycle"]], axis=1)
    damage = np.stack([player["damageEvent"], player["damageYaw"], player["damagePitch"], player["damageCount"]],
                      axis=1)
    snapshot = np.stack([demo.snapshots.flags, _snapshot_drops(demo)], axis=1)
    weapon_timing = np.stack([player["weaponstate"], player["weaponTime"]], axis=1)
    return np.concatenate([stats, pers, extra, leaders, damage, snapshot, warmup[:, None], weapon_timing],
                          axis=1).astype(np.int32)


def _frame_times(demo: Quake3Demo) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(times s, segment per frame, time offset per segment): later gamestates continue the clock."""
    server = demo.snapshots.server_time.astype(np.float64) / 1000.0
    starts = [gs.first_snapshot for gs in demo.gamestates]
    segment = np.searchsorted(np.asarray(starts), np.arange(len(server)), side="right") - 1
    segment = np.maximum(segment, 0).astype(np.int32)
    offsets = np.zeros(max(len(starts), 1))
    for k in range(1, len(starts)):
        first = starts[k]
        if 0 < first < len(server) and server[first] < server[first - 1] + offsets[k - 1]:
            offsets[k] = server[first - 1] + offsets[k - 1] - server[first]
        else:
            offsets[k] = offsets[k - 1]
    times = np.maximum.accumulate(server + offsets[segment]) if len(server) else server
    return times, segment, offsets


def _entity_columns(demo: Quake3Demo, times: np.ndarray, frame_segment: np.ndarray
                    ) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """(offsets i8 [F + 1], columns, frame of each row i4, column row of each row i4) of every snapshot's entities
    plus the player entity.

    Rows are sorted by frame then number.  A row that repeats its entity's previous row (the same state, seen
    again within :data:`~..kit.rows.POSE_RESET_GAP` in the same segment, on a trajectory that does not move by
    itself) has every column value of that row, so the columns hold it once: copy-forward snapshots cost an index
    per entity, not a row."""
    snaps = demo.snapshots
    nframes = len(snaps)
    ps_rows, ps_frame = _player_entities(snaps.player)
    table = np.concatenate([snaps.states, ps_rows])
    state = np.concatenate([snaps.entity_index, np.arange(len(snaps.states), len(table), dtype=np.int32)])
    frame_of_row = np.concatenate([np.repeat(np.arange(nframes, dtype=np.int32), np.diff(snaps.entity_offsets)),
                                   ps_frame.astype(np.int32)])
    number = table["number"][state]
    key = frame_of_row.astype(np.int64) << 32 | (number.astype(np.int64) - np.iinfo(np.int32).min)
    order = np.argsort(key, kind="stable")      # by frame then number; nearly sorted already, so fast
    del key
    state, frame_of_row, number = state[order], frame_of_row[order], number[order]
    del order
    offsets = np.searchsorted(frame_of_row, np.arange(nframes + 1)).astype(np.int64)
    rep, column_row, since = _repeated_rows(table, state, number, frame_of_row, times, frame_segment)
    del number
    rows = table[state[rep]]
    rows_frame = frame_of_row[rep]
    at_ms = snaps.server_time[rows_frame].astype(np.float64)
    n = len(rows)
    number = rows["number"].astype(np.int32)
    model = rows["modelindex"].astype(np.int32)
    frame = rows["frame"].astype(np.int32)
    is_player = rows["eType"] == g.ET_PLAYER
    cols: dict[str, np.ndarray] = {
        "number": number, "model": model, "frame": frame,
        "skin": np.zeros(n, np.int32),
        "colormap": np.where(is_player, rows["clientNum"] + 1, 0).astype(np.int32),
        "effects": rows["eFlags"].astype(np.int32),
        "origin": evaluate_trajectory(rows["pos_trType"], rows["pos_trTime"], rows["pos_trDuration"],
                                      rows["pos_trBase"], rows["pos_trDelta"], at_ms),
        "angles": evaluate_trajectory(rows["apos_trType"], rows["apos_trTime"], rows["apos_trDuration"],
                                      rows["apos_trBase"], rows["apos_trDelta"], at_ms),
        "alpha": np.ones(n, np.float32), "scale": np.ones(n, np.float32),
        "frame_interval": np.full(n, QUAKE3.pose_interval, np.float32),
    }
    cols["prev_frame"], cols["frame_time"] = pose_history(number, model, frame, rows_frame, times, frame_segment,
                                                          since)
    for anim in ("legsAnim", "torsoAnim"):
        _, cols[f"{anim}Time"] = pose_history(number, model, rows[anim], rows_frame, times, frame_segment, since)
    for name in QUAKE3.entity_fields:
        if name in cols:
            continue
        source = {"state_origin": "origin", "state_angles": "angles"}.get(name, name)
        cols[name] = np.ascontiguousarray(rows[source])
    return offsets, cols, frame_of_row, column_row


def _repeated_rows(table: np.ndarray, state: np.ndarray, number: np.ndarray, frame_of_row: np.ndarray,
                   times: np.ndarray, frame_segment: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows kept i8 [R], column row of each row i4 [N], when each kept row's entity was seen before it f8 [R]):
    a row is kept unless it repeats the row its entity had before (rules: :func:`_entity_columns`), in which case
    it reads that row's column row."""
    small = number.min(initial=0) >= 0 and number.max(initial=0) < 1 << 16          # a radix sort then
    group = np.argsort(number.astype(np.uint16) if small else number, kind="stable")   # by entity, frame order
    g_state, g_frame = state[group], frame_of_row[group]
    g_time = times[g_frame]
    still = ~(moves_by_itself(table["pos_trType"]) | moves_by_itself(table["apos_trType"]))
    repeats = np.zeros(len(group), bool)
    repeats[1:] = ((g_state[1:] == g_state[:-1]) & still[g_state[1:]]
                   & (frame_segment[g_frame[1:]] == frame_segment[g_frame[:-1]])
                   & (g_time[1:] - g_time[:-1] <= POSE_RESET_GAP))
    starts = np.flatnonzero(~repeats)                                 # the kept rows, in entity order
    since = g_time[np.maximum(starts - 1, 0)]
    del g_state, g_frame, g_time
    kept = group[starts]
    by_row = np.argsort(kept)
    rank = np.empty(len(kept), np.int32)
    rank[by_row] = np.arange(len(kept), dtype=np.int32)
    column_row = np.empty(len(group), np.int32)
    column_row[group] = rank[np.cumsum(~repeats, dtype=np.int32) - 1]
    return kept[by_row], column_row, since[by_row]


def _players(cols: dict[str, np.ndarray], column_row: np.ndarray, frame_of_row: np.ndarray, stat_rows: np.ndarray,
             followed: np.ndarray, nframes: int, recorder: int) -> PlayerFrames:
    """Every client seen as an ``ET_PLAYER`` row; stats recorded for the followed client at each frame."""
    player = (cols["eType"] == g.ET_PLAYER) & (cols["number"] >= 0) & (cols["number"] < g.MAX_CLIENTS)
    keep = np.flatnonzero(player[column_row])
    slot = cols["number"][column_row[keep]]
    order = np.lexsort((frame_of_row[keep], slot))
    keep, slot = keep[order], slot[order]
    row = column_row[keep]
    nslots = int(max(slot.max(initial=-1), followed.max(initial=-1))) + 1
    flags = np.where(cols["effects"][row] & g.EF_DEAD, PLAYER_DEAD, 0)
    ints = np.stack([cols["model"][row], cols["legsAnim"][row], cols["skin"][row], cols["effects"][row],
                     cols["weapon"][row], flags], axis=1).astype(np.int32)
    valid = (followed >= 0) & (followed < nslots)
    frames = np.flatnonzero(valid)
    stat_order = np.lexsort((frames, followed[frames]))
    frames = frames[stat_order]
    stat_slot = followed[frames]
    has_stats = np.zeros(nslots, bool)
    has_stats[stat_slot] = True
    return PlayerFrames(
        num_frames=nframes,
        slot_start=np.searchsorted(slot, np.arange(nslots + 1)).astype(np.int64),
        row_frame=frame_of_row[keep].astype(np.int32), row_origin=cols["origin"][row],
        row_angles=cols["angles"][row], row_ints=ints,
        stat_start=np.searchsorted(stat_slot, np.arange(nslots + 1)).astype(np.int64),
        stat_frame=frames.astype(np.int32), stat_values=stat_rows[frames], has_stats=has_stats,
        recorder=recorder)


def _scoreboard(demo: Quake3Demo, times: np.ndarray, frame_segment: np.ndarray, maxclients: int
                ) -> list[ScoreChange]:
    """Slot states over time from ``CS_PLAYERS`` (name, team, model…) and ``scores`` (frags, ping, minutes;
    Quake Live's per-game-type commands: :mod:`.ql_scores`)."""
    numbers = g.game_numbers(demo.protocol)
    n = len(times)
    state: dict[int, dict[str, Any]] = {}
    changes: list[ScoreChange] = []

    def emit(frame: int, slot: int) -> None:
        f = min(max(frame, 0), n - 1)
        s = state[slot]
        changes.append(ScoreChange(float(times[f]), f, int(frame_segment[f]), slot, str(s["name"]),
                                   int(s["frags"]), 0, str(s["team"]), bool(s["spectator"]), slot,
                                   int(s["ping"]), 0, s["userinfo"], int(s["minutes"])))

    def set_player(frame: int, slot: int, info: str) -> None:
        if not 0 <= slot < maxclients:
            return
        pairs = g.info_pairs(info)
        d = dict(pairs)
        s = state.setdefault(slot, {"frags": 0, "ping": 0, "minutes": 0})
        if not info:                        # the client left: its slot is empty again
            s.update(frags=0, ping=0, minutes=0)
        s.update(name=d.get("n", ""), team=d.get("t", ""), spectator=d.get("t") == "3", userinfo=pairs)
        emit(frame, slot)

    def set_scores(cmd: Any) -> None:
        if demo.protocol in g.QL_PROTOCOLS:
            rows = parse_ql_scores(cmd.args, demo.protocol)
        else:
            rows = _parse_scores(cmd.args) if cmd.name == "scores" else []
        for slot, frags, ping, minutes in rows:
            if slot in state and (state[slot]["frags"], state[slot]["ping"], state[slot]["minutes"]) != (
                    frags, ping, minutes):
                state[slot].update(frags=frags, ping=ping, minutes=minutes)
                emit(cmd.snapshot, slot)

    # In message order, so that a score is told with the name its slot has then (a slot renamed or emptied later
    # keeps its name until then).
    steps: list[tuple[int, int, Callable[[], None]]] = []
    for k, gs in enumerate(demo.gamestates):
        for slot in range(maxclients):
            if (info := gs.configstrings.get(numbers.cs_players + slot)):
                steps.append((gs.message, 0, partial(set_player, gs.first_snapshot, slot, info)))
        end = demo.gamestates[k + 1].message if k + 1 < len(demo.gamestates) else 1 << 62
        for change in demo.configstring_changes:
            if gs.message < change.message < end and 0 <= change.index - numbers.cs_players < maxclients:
                steps.append((change.message, 1, partial(set_player, change.snapshot,
                                                         change.index - numbers.cs_players, change.value)))
    for cmd in demo.commands:
        steps.append((cmd.message, 2, partial(set_scores, cmd)))
    for _message, _order, step in sorted(steps, key=lambda s: s[:2]):
        step()
    changes.sort(key=lambda c: c.frame)
    return changes


def _parse_scores(args: Sequence[str]) -> list[tuple[int, int, int, int]]:
    """``scores N red blue [extra] (client score ping time …)×N`` → (client, score, ping, minutes); the per-client
    stride is 14 in baseq3, 15 after one more header value in OpenArena (``CG_ParseScores``)."""
    try:
        count = int(args[1])
        values = [int(a) for a in args[2:]]
    except (IndexError, ValueError):
        return []
    if count <= 0:
        return []
    for head, stride in ((2, 14), (3, 15)):
        if len(values) == head + count * stride:
            rows = [values[head + i * stride:head + i * stride + 4] for i in range(count)]
            return [(client, score, ping, minutes) for client, score, ping, minutes in rows]
    return []


def _player_models(demo: Quake3Demo, gamestate: int) -> tuple[str, ...]:
    """The ``model`` values of every ``CS_PLAYERS`` string of one gamestate and its later changes."""
    cs_players = g.game_numbers(demo.protocol).cs_players
    gs = demo.gamestates[gamestate]
    end = demo.gamestates[gamestate + 1].message if gamestate + 1 < len(demo.gamestates) else 1 << 62
    infos = [v for k, v in gs.configstrings.items() if 0 <= k - cs_players < g.MAX_CLIENTS]
    infos += [c.value for c in demo.configstring_changes
              if gs.message < c.message < end and 0 <= c.index - cs_players < g.MAX_CLIENTS]
    models = (dict(g.info_pairs(info)).get("model", "") for info in infos)
    return tuple(sorted({m.lower() for m in models if m}))


def _segments(demo: Quake3Demo, times: np.ndarray, offsets: np.ndarray) -> list[MapSegment]:
    out = []
    nframes = len(times)
    numbers = g.game_numbers(demo.protocol)
    for k, gs in enumerate(demo.gamestates):
        info = dict(g.info_pairs(gs.configstrings.get(CS_SERVERINFO, "")))
        mapname = info.get("mapname", "")
        start = min(gs.first_snapshot, nframes)
        stop = demo.gamestates[k + 1].first_snapshot if k + 1 < len(demo.gamestates) else nframes
        stop = max(min(stop, nframes), start)
        models = ("",) + tuple(gs.configstrings.get(numbers.cs_models + i, "") for i in range(1, 256))
        sounds = ("",) + tuple(gs.configstrings.get(numbers.cs_sounds + i, "") for i in range(1, 256))
        try:
            maxclients = int(info.get("sv_maxclients", g.MAX_CLIENTS))
        except ValueError:
            maxclients = g.MAX_CLIENTS
        try:
            gametype = int(info.get("g_gametype", 0))
        except ValueError:
            gametype = 0
        out.append(MapSegment(
            index=k, map_name=mapname, level_name=gs.configstrings.get(3, ""), protocol=demo.protocol,
            protocol_flags=0, maxclients=min(max(maxclients, 1), g.MAX_CLIENTS), gametype=gametype,
            model_precache=models, sound_precache=sounds, start_frame=start, end_frame=stop,
            start_time=float(times[start]) if start < stop else 0.0,
            end_time=float(times[stop - 1]) if start < stop else 0.0, time_offset=float(offsets[k]),
            baselines=EntityStates.empty(), statics=EntityStates.empty(), static_sounds=(),
            map_path=f"maps/{mapname}.bsp" if mapname else "", player_models=_player_models(demo, k)))
    return out


def _quake3_powerups(demo: Quake3Demo) -> Quake3Demo:
    """``demo`` with protocol 91's powerup slots renumbered as Quake III's (:func:`.game.powerups_as_quake3`) in
    its snapshots' entity and player states, so effects, HUD, events and sounds read one numbering; other
    protocols as they are."""
    if demo.protocol != 91:
        return demo
    snaps = demo.snapshots
    states, player = snaps.states.copy(), snaps.player.copy()
    states["powerups"], player["powerups"] = g.powerups_as_quake3(states["powerups"], player["powerups"])
    for a in (states, player):
        a.flags.writeable = False
    return dataclasses.replace(demo, snapshots=dataclasses.replace(snaps, states=states, player=player))


def timeline_from_demo(demo: Quake3Demo) -> DemoTimeline:
    """The timeline of a decoded demo (rules: module docstring).  A demo without a snapshot is a
    :class:`~assets_loader.errors.FormatError` like any demo without frames."""
    demo = _quake3_powerups(demo)
    snaps = demo.snapshots
    if not len(snaps) or not demo.gamestates:
        raise FormatError(demo.path, f"dm_{demo.protocol}", None, "at least one gamestate and one snapshot",
                          f"{len(demo.gamestates)} gamestates and {len(snaps)} snapshots")
    times, frame_segment, offsets = _frame_times(demo)
    entity_offsets, cols, frame_of_row, column_row = _entity_columns(demo, times, frame_segment)
    segments = _segments(demo, times, offsets)
    player = snaps.player
    stat_rows = _stat_rows(demo, _leader_scores(demo), _warmup(demo))
    followed = player["clientNum"].astype(np.int32)
    view_origin = player["origin"].astype(np.float64)
    view_origin[:, 2] += player["viewheight"]
    gs0 = demo.gamestates[0]
    serverinfo = gs0.configstrings.get(CS_SERVERINFO, "")
    info = dict(g.info_pairs(serverinfo))
    systeminfo = dict(g.info_pairs(gs0.configstrings.get(CS_SYSTEMINFO, "")))
    events: list[Event] = demo_events(demo, times, frame_segment, cols, entity_offsets, column_row)
    maxclients = segments[0].maxclients
    return DemoTimeline(
        schema=QUAKE3, format=f"dm_{demo.protocol}", protocol=demo.protocol, protocol_flags=0, path=demo.path,
        segments=segments, events=events, warnings=demo.warnings, block_count=demo.num_messages, cd_track=-1,
        times=times, server_times=snaps.server_time.astype(np.float64), frame_segment=frame_segment,
        view_entity=followed, view_origin=view_origin, view_angles=player["viewangles"].astype(np.float64),
        stat_rows=stat_rows, entity_offsets=entity_offsets, entity_columns=cols, entity_rows=column_row,
        lightstyle_changes=(),
        score_changes=_scoreboard(demo, times, frame_segment, maxclients),
        score_resets=[(min(gs.first_snapshot, len(times) - 1), maxclients) for gs in demo.gamestates],
        players=_players(cols, column_row, frame_of_row, stat_rows, followed, len(times), gs0.client_num),
        default_pov=-1,
        meta={"gamedir": systeminfo.get("fs_game", "") or info.get("gamename", ""),
              "gamename": info.get("gamename", ""), "fs_game": systeminfo.get("fs_game", ""),
              "serverinfo": info, "recorder": gs0.client_num, "truncated": demo.truncated,
              "server_commands": len(demo.commands)})
