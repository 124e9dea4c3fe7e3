"""Splits: per map of a demo, the run's time from its level start to the map's end (the intermission), the kills and
secrets where the game counts them (Quake's ``STAT_MONSTERS`` / ``STAT_SECRETS`` and their totals), and the
difference to each ghost's run of the same map (``qdv splits``).

A map ends at its first ``svc_intermission`` or ``svc_finale`` (or the ``intermission`` stat turning to 1 or 2,
Quake II / Quake III), as the speedrun community times it; a map the demo leaves without one ends where its segment
ends (``finished`` is false: :func:`viewer.ghosts.map_end`). Level starts are :func:`viewer.ghosts.level_start`'s.

NetQuake shows the level's time on its intermission screen: ``cl.completed_time``, the client's time when
``svc_intermission`` arrived — the server's clock, which starts when the map loads (``sv.time`` 1.0 in
``SV_SpawnServer``) — as ``M:SS``; a split keeps it as :attr:`Split.printed` (the run's own time is shorter by the
level start, the second or so before the player is in the map). The other games show a scoreboard there.

References: QuakeSpasm ``cl_parse.c`` (``svc_intermission`` sets ``cl.completed_time``), ``sbar.c``
(``Sbar_IntermissionOverlay``: time, secrets, monsters), ``sv_main.c`` (``SV_SpawnServer``).
"""

from __future__ import annotations

from dataclasses import dataclass


from assets_loader.demos import DemoTimeline

from .ghosts import Ghosts, level_start, map_end

#: The demo formats whose game shows the level's time at the intermission (NetQuake's ``.dem``).
PRINTED_FORMATS = ("dem",)
#: The stats a split reads where the game's schema has them: (done, total) for kills and secrets.
KILL_STATS = ("monsters", "totalmonsters")
SECRET_STATS = ("secrets", "totalsecrets")


@dataclass(frozen=True, slots=True)
class Split:
    """One map of a run: ``map_name``, ``start`` / ``end`` (demo times), ``finished`` (ended by an intermission),
    ``kills`` / ``secrets`` as (done, total) or ``None`` where the game does not count them, ``ghosts``:
    (label, that ghost's time minus this one, or ``None`` when it did not finish the map), and ``printed``: the
    level time the game shows at the intermission (NetQuake's ``cl.completed_time``), ``None`` where it shows
    none."""

    map_name: str
    start: float
    end: float
    finished: bool
    kills: tuple[int, int] | None = None
    secrets: tuple[int, int] | None = None
    ghosts: tuple[tuple[str, float | None], ...] = ()
    printed: float | None = None

    @property
    def time(self) -> float:
        return self.end - self.start

    def as_dict(self) -> dict:
        return {"map": self.map_name, "start": round(self.start, 3), "end": round(self.end, 3),
                "time": round(self.time, 3), "finished": self.finished,
                "kills": list(self.kills) if self.kills else None,
                "secrets": list(self.secrets) if self.secrets else None,
                "ghosts": [{"ghost": label, "difference": None if d is None else round(d, 3)}
                           for label, d in self.ghosts],
                "printed": None if self.printed is None else round(self.printed, 3)}


def _pair(timeline: DemoTimeline, names: tuple[str, str], t: float) -> tuple[int, int] | None:
    if not all(n in timeline.schema.stat_names for n in names):
        return None
    stats = timeline.sample(t).stats
    done, total = int(stats[names[0]]), int(stats[names[1]])
    return (done, total) if done or total else None   # deathmatch maps count nothing


def splits(timeline: DemoTimeline, ghosts: Ghosts | None = None) -> list[Split]:
    """The splits of every map of ``timeline``, compared with ``ghosts``' runs of the same maps."""
    out = []
    for i, seg in enumerate(timeline.segments):
        start = level_start(timeline, i)
        end, finished = map_end(timeline, i)
        compared = []
        for ghost in ghosts.ghosts if ghosts is not None else ():
            if i not in ghost.segments:
                continue
            own, ghost_start = ghost.segments[i]
            ghost_end, ghost_finished = map_end(ghost.timeline, own)
            ghost_time = ghost_end - ghost_start + ghost.offset
            compared.append((ghost.label, ghost_time - (end - start) if ghost_finished and finished else None))
        printed = end - seg.time_offset if finished and timeline.format in PRINTED_FORMATS else None
        out.append(Split(seg.map_name, start, end, finished, _pair(timeline, KILL_STATS, end),
                         _pair(timeline, SECRET_STATS, end), tuple(compared), printed))
    return out


def minutes_seconds(seconds: float) -> str:
    """``M:SS`` as Quake's intermission screen shows a time (``Sbar_IntermissionOverlay``: whole seconds, cut)."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _side(seconds: float) -> str:
    return "behind" if seconds > 0 else "ahead" if seconds < 0 else "level"


def splits_table(rows: list[Split]) -> str:
    """``qdv splits``' table: one line per map, a line per ghost under it."""
    lines = []
    for s in rows:
        kills = f"  kills {s.kills[0]}/{s.kills[1]}" if s.kills else ""
        secrets = f"  secrets {s.secrets[0]}/{s.secrets[1]}" if s.secrets else ""
        end = "" if s.finished else "  (no intermission: demo end)"
        if s.printed is not None:
            end = f"  (the game shows {minutes_seconds(s.printed)})"
        lines.append(f"{s.map_name:<12} {s.time:9.3f} s{kills}{secrets}{end}")
        for label, d in s.ghosts:
            said = "no split (a run has no intermission)" if d is None else f"{d:+.3f} s ({_side(d)})"
            lines.append(f"  ghost {label}: {said}")
    return "\n".join(lines)
