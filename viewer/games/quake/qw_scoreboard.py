"""QuakeWorld's scoreboards, drawn on the 320-pixel virtual canvases of :mod:`viewer.games.quake.hud`.

* :func:`deathmatch_overlay` — ``Sbar_DeathmatchOverlay``: ``gfx/ranking.lmp`` and a table ``ping pl time frags
  [team] name`` (the team column in team games), players and spectators by frags, the watched player's frags
  in ``\\x10`` … ``\\x11`` brackets, a packet loss above 25 % in the bronze half;
* :func:`team_overlay` — ``Sbar_TeamOverlay``: ``low/avg/high team total players``, one row a team (pings of
  its players, summed frags), then the player table under it;
* :func:`mini_overlay` — ``Sbar_MiniDeathmatchOverlay``: the frags beside the status bar (screens ≥ 512 virtual
  pixels wide), and the team totals to its right in team games;
* :func:`solo_scoreboard` — QuakeWorld's ``Sbar_SoloScoreboard``: only the time on the score bar.

Team games: any playing slot has a ``team`` userinfo (the serverinfo ``teamplay`` is not kept by the timeline);
there the scoreboard key shows the team totals above the player table (the engine keeps those for its separate
``+showteamscores`` key, and for the dead and the intermission).
The ``time`` column counts minutes since the map started (``svc_updateentertime`` is not kept either).

References: QuakeWorld ``sbar.c`` (``Sbar_SortFrags``, ``Sbar_SortTeams``, ``Sbar_DeathmatchOverlay``,
``Sbar_TeamOverlay``, ``Sbar_MiniDeathmatchOverlay``, ``Sbar_SoloScoreboard``, ``Sbar_Draw``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from assets_loader.demos.timeline import PlayerScore

CHAR = 8
#: Packet loss above this is drawn in the bronze half.
HIGH_PL = 25
_BOX_L, _BOX_M, _BOX_R = "\x1d", "\x1e", "\x1f"   # the console's line-drawing characters


class Canvas(Protocol):
    """The HUD builder's drawing calls (virtual pixels of the current canvas)."""

    def pic(self, x: int, y: int, name: str, w: int, h: int, alpha: float = 1.0) -> None: ...

    def char(self, x: int, y: int, code: int) -> None: ...

    def string(self, x: int, y: int, text: str, add: int = 0) -> None: ...

    def fill(self, x: int, y: int, w: int, h: int, colour: int) -> None: ...


@dataclass(frozen=True, slots=True)
class TeamScore:
    """One team of ``Sbar_SortTeams``: its name (4 characters shown), summed frags, player count and pings."""

    team: str
    frags: int
    players: int
    ping_low: int
    ping_avg: int
    ping_high: int


def _colour(c: int) -> int:
    return (c & 15) * 16 + 8


def ranked(scores: Sequence[PlayerScore], *, spectators: bool) -> list[PlayerScore]:
    """``Sbar_SortFrags``: named slots by frags, most first (ties keep slot order); spectators only if asked."""
    return sorted((s for s in scores if s.name and (spectators or not s.spectator)), key=lambda s: -s.frags)


def is_team_game(scores: Sequence[PlayerScore]) -> bool:
    """A team game: some playing slot has a team."""
    return any(s.team for s in scores if s.name and not s.spectator)


def team_scores(scores: Sequence[PlayerScore]) -> list[TeamScore]:
    """``Sbar_SortTeams``: the teams of the playing slots, most frags first; pings clamped to 0..999."""
    teams: dict[str, list[PlayerScore]] = {}
    for s in scores:
        if s.name and not s.spectator:
            teams.setdefault(s.team[:16], []).append(s)
    out = []
    for team, members in teams.items():
        pings = [min(max(m.ping, 0), 999) for m in members]
        out.append(TeamScore(team, sum(m.frags for m in members), len(members), min(pings),
                             sum(pings) // len(pings), max(pings)))
    return sorted(out, key=lambda ts: -ts.frags)


def _rule(widths: Sequence[int]) -> str:
    """The underline row: one ``\\x1d\\x1e…\\x1f`` segment per column of ``widths`` characters."""
    return " ".join(_BOX_L + _BOX_M * (w - 2) + _BOX_R for w in widths)


def _ranking_pic(b: Canvas, ranking_size: tuple[int, int]) -> None:
    w, h = ranking_size
    b.pic(160 - w // 2, 0, "gfx/ranking.lmp", w, h)


def deathmatch_overlay(b: Canvas, scores: Sequence[PlayerScore], view_slot: int, minutes: int,
                       ranking_size: tuple[int, int], *, start: int = 0, bottom: int = 200) -> None:
    """The player table from canvas row ``start`` (0: with the ranking picture, table at row 24), rows stop at
    ``bottom`` − 10."""
    teams = is_team_game(scores)
    if not start:
        _ranking_pic(b, ranking_size)
    y = start or 24
    x = 4 if teams else 16
    if teams:
        b.string(x, y, "ping pl time frags team name")
        b.string(x, y + CHAR, _rule((4, 2, 4, 5, 4, 16)))
    else:
        b.string(x, y, "ping pl time frags name")
        b.string(x, y + CHAR, _rule((4, 2, 4, 5, 16)))
    y += 2 * CHAR
    rows = ranked(scores, spectators=True)
    skip = 8 if len(rows) > 16 else 10      # "largegame"
    name_x = x + 152 + (40 if teams else 0)
    for s in rows:
        if y > bottom - 10:
            break
        b.string(x, y, f"{min(max(s.ping, 0), 999):4d}")
        b.string(x + 32, y, f"{s.pl:3d}", add=128 if s.pl > HIGH_PL else 0)
        if s.spectator:
            b.string(x + 40, y, "(spectator)")
            b.string(name_x, y, s.name[:16])
            y += skip
            continue
        b.string(x + 64, y, f"{minutes:4d}")
        if skip == 8:
            b.fill(x + 104, y + 1, 40, 3, _colour(s.top))
        else:
            b.fill(x + 104, y, 40, 4, _colour(s.top))
        b.fill(x + 104, y + 4, 40, 4, _colour(s.bottom))
        b.string(x + 112, y, f"{s.frags:3d}"[:3])
        if s.slot == view_slot:
            b.char(x + 104, y, 16)
            b.char(x + 136, y, 17)
        if teams:
            b.string(x + 152, y, s.team[:4])
        b.string(name_x, y, s.name[:16])
        y += skip


def team_overlay(b: Canvas, scores: Sequence[PlayerScore], view_slot: int, minutes: int,
                 ranking_size: tuple[int, int], *, bottom: int = 200) -> None:
    """The team totals, then the player table (``Sbar_TeamOverlay``)."""
    _ranking_pic(b, ranking_size)
    x, y = 36, 24
    b.string(x, y, "low/avg/high team total players")
    b.string(x, y + CHAR, _rule((11, 4, 5, 7)))
    y += 2 * CHAR
    mine = next((s.team for s in scores if s.slot == view_slot), None)
    for ts in team_scores(scores):
        b.string(x, y, f"{ts.ping_low:3d}/{ts.ping_avg:3d}/{ts.ping_high:3d}")
        b.string(x + 104, y, ts.team[:4])
        b.string(x + 144, y, f"{ts.frags:5d}")
        b.string(x + 192, y, f"{ts.players:5d}")
        if mine is not None and ts.team == mine[:16]:
            b.char(x + 96, y, 16)
            b.char(x + 136, y, 17)
        y += CHAR
    deathmatch_overlay(b, scores, view_slot, minutes, ranking_size, start=y + CHAR, bottom=bottom)


def mini_overlay(b: Canvas, scores: Sequence[PlayerScore], view_slot: int, width: int, lines: int = 48) -> None:
    """Frags beside the status bar on the status bar canvas (x from 324); ``width`` is the screen's in virtual
    pixels, ``lines`` the status bar's height."""
    rows = ranked(scores, spectators=False)
    numlines = lines // CHAR
    if width < 512 or not rows or numlines < 3:
        return
    teams = is_team_game(scores)
    i = next((k for k, s in enumerate(rows) if s.slot == view_slot), None)
    i = 0 if i is None else i - numlines // 2
    i = max(0, min(i, len(rows) - numlines))
    x, y = 324, 0
    for s in rows[i:]:
        if y >= lines - CHAR + 1:
            break
        b.fill(x, y + 1, 40, 3, _colour(s.top))
        b.fill(x, y + 4, 40, 4, _colour(s.bottom))
        b.string(x + 8, y, f"{s.frags:3d}"[:3])
        if s.slot == view_slot:
            b.char(x, y, 16)
            b.char(x + 32, y, 17)
        if teams:
            b.string(x + 48, y, s.team[:4])
            b.string(x + 88, y, s.name[:16])
        else:
            b.string(x + 48, y, s.name[:16])
        y += CHAR
    x += 48 + 40 + 16 * CHAR + CHAR
    if not teams or width - x < 80:
        return
    mine = next((s.team for s in scores if s.slot == view_slot), None)
    for row, ts in enumerate(team_scores(scores)[:numlines]):
        y = row * CHAR
        b.string(x + 8, y, ts.team[:4])
        b.string(x + 40, y, f"{ts.frags:5d}")
        if mine is not None and ts.team == mine[:16]:
            b.char(x, y, 16)
            b.char(x + 80, y, 17)


def solo_scoreboard(b: Canvas, seconds: float, y: int) -> None:
    """QuakeWorld's score bar row at canvas row ``y``: the ``scorebar`` picture and ``Time :MMM:SS``."""
    b.pic(0, y, "scorebar", 320, 24)
    secs = max(0, int(seconds))
    b.string(184, y + 4, f"Time :{secs // 60:3d}:{secs % 60 // 10}{secs % 10}")
