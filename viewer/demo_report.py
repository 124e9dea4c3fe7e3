"""Pure report functions behind ``qdv info DEMO`` and ``qdv events DEMO``: a timeline in, plain data / text out.

No I/O here: the CLI loads the demo (``assets_loader.demos.load_demo``), calls these and prints the result.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Mapping
from typing import Any

from assets_loader.demos.events import EVENT_KINDS, Event, event_fields, plain_line, plain_text
from assets_loader.demos.quake3.colors import strip_colors
from assets_loader.demos.quake.protocol import protocol_flag_names
from assets_loader.demos.timeline import DemoTimeline

__all__ = ["info_dict", "events_list", "format_info", "format_events", "to_json"]

#: Event fields that carry names or texts: in a game with colour codes (Quake III) JSON has them clean, beside the
#: raw text as ``FIELD_raw``.
_TEXT_FIELDS = ("victim", "killer", "sender", "text", "level_name")
#: Events a decoder also reads out of the ``print`` just before them (same frame): counted once, as themselves.
_FROM_PRINT = ("chat", "obituary", "pickup")


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return round(value, 6)
    return value


def info_dict(timeline: DemoTimeline, path: str) -> dict[str, Any]:
    """Summary of a demo.

    Keys: ``path``, ``format`` ("dem"), ``game`` ("quake"), ``protocol``, ``protocol_flags`` (int),
    ``protocol_flag_names`` (list), ``maps`` (map names, one per segment, e.g. ``["lqdm3"]``), ``segments`` (list of
    ``{map, level_name, start, end, server_start_time, server_end_time, frames, models, sounds, maxclients}``),
    ``duration`` (seconds, last − first frame time), ``server_start_time``, ``server_end_time``, ``frames``,
    ``blocks``, ``cd_track``, ``players`` (list of
    ``{slot, name, name_raw, frags, colors: [top, bottom]}`` for named slots at the end: ``name`` plain, without
    colour codes, ``name_raw`` as the demo has it), ``events`` (count per kind; a print the decoder also read as a
    chat, an obituary or a pickup counts once, as that), ``warnings`` (list of strings).  In a game with colour
    codes (Quake III) each segment also has ``level_name_raw`` beside its clean ``level_name``.

    Demos whose server sends each client's userinfo (QuakeWorld) add to each player ``team``, ``spectator``,
    ``ping``, ``pl``, ``userinfo`` (dict); demos with server facts in ``timeline.meta`` (QuakeWorld: ``format``
    "qwd" / "mvd") add the keys ``gamedir``, ``serverinfo`` (dict), ``extensions`` (dict of FTE/MVD1 extension
    bits), ``recorder`` (the .qwd recorder's slot, -1 for .mvd), ``pov_slots`` (slots with player data, the POVs Tab
    cycles through) and ``default_pov``.  With ``--merge``, ``merged`` lists each merged demo: ``{path, slots
    (the slots it gave exact views of), shift (seconds added to its clock)}``.
    """
    codes = timeline.schema.color_codes
    segments = []
    for seg in timeline.segments:
        segments.append({
            "map": seg.map_name, "level_name": strip_colors(seg.level_name) if codes else seg.level_name,
            **({"level_name_raw": seg.level_name} if codes else {}),
            "start": round(seg.start_time - timeline.start_time, 6),
            "end": round(seg.end_time - timeline.start_time, 6),
            "server_start_time": round(seg.start_time - seg.time_offset, 6),
            "server_end_time": round(seg.end_time - seg.time_offset, 6), "frames": seg.end_frame - seg.start_frame,
            "models": len(seg.model_precache) - 1, "sounds": len(seg.sound_precache) - 1,
            "maxclients": seg.maxclients,
        })
    scoreboard = timeline.final_scoreboard()
    with_userinfo = any(p.userinfo for p in scoreboard)   # QuakeWorld-style servers send each client's userinfo
    players = []
    for p in scoreboard:
        if not p.name:
            continue
        entry: dict[str, Any] = {"slot": p.slot, "name": plain_line(p.name, codes), "name_raw": p.name,
                                 "frags": p.frags, "colors": [p.top, p.bottom]}
        if with_userinfo:
            entry.update(team=plain_line(p.team, codes), spectator=p.spectator, ping=p.ping, pl=p.pl,
                         userinfo={k: plain_line(v, codes) for k, v in p.userinfo})
        players.append(entry)
    counts = _event_counts(timeline.events)
    info: dict[str, Any] = {
        "path": path,
        "format": timeline.format,
        "game": timeline.game,
        "protocol": timeline.protocol,
        "protocol_flags": timeline.protocol_flags,
        "protocol_flag_names": list(protocol_flag_names(timeline.protocol_flags)),
        "maps": list(timeline.maps),
        "segments": segments,
        "duration": round(timeline.duration, 6),
        "server_start_time": round(
            timeline.start_time - (timeline.segments[0].time_offset if timeline.segments else 0.0), 6),
        "server_end_time": round(timeline.end_time - timeline.segments[-1].time_offset, 6)
        if timeline.segments else round(timeline.end_time, 6),
        "frames": timeline.num_frames,
        "blocks": timeline.block_count,
        "cd_track": timeline.cd_track,
        "players": players,
        "events": dict(sorted(counts.items())),
        "warnings": list(timeline.warnings),
    }
    meta = timeline.meta
    if "serverinfo" in meta:   # the format's server facts (QuakeWorld today)
        info.update(
            gamedir=meta.get("gamedir", ""),
            serverinfo={k: plain_line(str(v), codes) for k, v in _mapping(meta.get("serverinfo")).items()},
            extensions=dict(_mapping(meta.get("extensions"))),
            recorder=meta.get("recorder", -1),
            pov_slots=list(timeline.pov_slots),
            default_pov=timeline.default_pov,
        )
    if "merged" in meta:       # qdv info --merge OTHER: each merged demo, the slots it gave exact views of
        info["merged"] = [{"path": m["path"], "slots": list(m["slots"]), "shift": m["shift"]}
                          for m in meta["merged"]]  # type: ignore[attr-defined]
    return info


def events_list(timeline: DemoTimeline, kinds: Collection[str] | None = None) -> list[dict[str, Any]]:
    """Events as dicts ``{time, server_time, frame, segment, kind, **fields}`` in demo order, optionally only of
    ``kinds``. ``time`` counts from the demo's start (the base of ``--time``, ``--start`` and the timeline bar);
    ``server_time`` is the server's clock of that map.  In a game with colour codes (Quake III) the names and texts
    (``victim``, ``killer``, ``sender``, ``text``, ``level_name``) are clean, each beside its raw ``FIELD_raw``.

    Raises ``ValueError`` for an unknown kind (the message lists the known ones).
    """
    unknown = sorted(set(kinds or ()) - set(EVENT_KINDS))
    if unknown:
        raise ValueError(f"unknown event kind {unknown[0]!r}; known kinds: {', '.join(sorted(EVENT_KINDS))}")
    out = []
    for e in timeline.events:
        if kinds and e.kind not in kinds:
            continue
        offset = timeline.segments[e.segment].time_offset if 0 <= e.segment < len(timeline.segments) else 0.0
        d: dict[str, Any] = {"time": round(e.time - timeline.start_time, 6), "server_time": round(e.time - offset, 6),
                             "frame": e.frame, "segment": e.segment, "kind": e.kind}
        for k, v in event_fields(e).items():
            if timeline.schema.color_codes and k in _TEXT_FIELDS and isinstance(v, str):
                d[k], d[k + "_raw"] = strip_colors(v), v
            else:
                d[k] = _jsonable(v)
        out.append(d)
    return out


def _event_counts(events: tuple[Event, ...]) -> Counter[str]:
    """Events per kind, a print that the next event (same frame) was read out of counted once, as that event."""
    counts = Counter(e.kind for e in events)
    for e, after in zip(events, events[1:]):
        if e.kind == "print" and after.kind in _FROM_PRINT and after.frame == e.frame:
            counts["print"] -= 1
    return +counts


def format_info(info: dict[str, Any]) -> str:
    """Human-readable text of :func:`info_dict`."""
    flags = ", ".join(info["protocol_flag_names"]) or "none"
    lines = [
        f"{info['path']}: {info['format']} ({info['game']}), protocol {info['protocol']} (flags: {flags})",
        f"  duration {info['duration']:.3f} s (server time {info['server_start_time']:.3f} .. "
        f"{info['server_end_time']:.3f}), "
        f"{info['frames']} frames, {info['blocks']} blocks, cd track {info['cd_track']}",
    ]
    for i, seg in enumerate(info["segments"]):
        lines.append(f"  map {i}: {seg['map']} \"{plain_line(seg['level_name'])}\" {seg['frames']} frames, "
                     f"{seg['models']} models, {seg['sounds']} sounds, maxclients {seg['maxclients']}")
    if "gamedir" in info:
        host = info["serverinfo"].get("hostname") or info["serverinfo"].get("sv_hostname", "")   # Quake III's
        ext = ", ".join(f"{k} 0x{v:x}" for k, v in info["extensions"].items()) or "none"
        lines.append(f"  gamedir {info['gamedir']}, server \"{host}\", extensions: {ext}, "
                     f"recorder slot {info['recorder']}, POV slots {info['pov_slots']}")
    for p in info["players"]:
        extra = ""
        if "team" in p:
            extra = (f"  team {p['team'] or '-'}  ping {p['ping']}" + ("  spectator" if p["spectator"] else ""))
        lines.append(f"  player {p['slot']}: {p['name']}  frags {p['frags']}  colors {p['colors'][0]}/{p['colors'][1]}"
                     + extra)
    if info["events"]:
        lines.append("  events: " + ", ".join(f"{k} {v}" for k, v in info["events"].items()))
    for m in info.get("merged", ()):
        slots = ", ".join(str(s) for s in m["slots"]) or "none new"
        lines.append(f"  merged {m['path']}: exact views of slots {slots} (its clock + {m['shift']:.3f} s)")
    for w in info["warnings"]:
        lines.append(f"  warning: {w}")
    return "\n".join(lines)


def format_events(events: list[dict[str, Any]]) -> str:
    """One line per event: ``time kind field=value …`` (text fields shown as plain, escaped strings)."""
    lines = []
    for e in events:
        fields = []
        for k, v in e.items():
            if k in ("time", "server_time", "frame", "segment", "kind") or k.endswith("_raw"):
                continue
            if isinstance(v, str):
                v = json.dumps(plain_text(v))
            fields.append(f"{k}={v}")
        lines.append(f"{e['time']:10.3f}  {e['kind']:<13} " + " ".join(fields))
    return "\n".join(lines)


def to_json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


def _mapping(value: object) -> Mapping[str, object]:
    """A ``meta`` entry that holds a mapping (``serverinfo``, ``extensions``), or an empty one."""
    return value if isinstance(value, Mapping) else {}
