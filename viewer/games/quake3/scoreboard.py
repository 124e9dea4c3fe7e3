"""Quake III's in-game scoreboard (``CG_DrawOldScoreboard``) on the cgame's virtual 640 × 480 screen.

It shows while the scores key is held, while the viewed player is dead and in the intermission (not while dead in
the warm-up, :mod:`.warmup`).  From the top:

- "Fragged by <name>" at y 40 while dead, when another player made the last frag of the viewed player.
- The place line at y 60: "<place> place with <score>" (``CG_PlaceString``) in free-for-all unless a spectator;
  in team games "Red leads a to b", "Blue leads b to a" or "Teams are tied at a".
- The column titles ``menu/tab/score``, ``ping``, ``time`` and ``name`` (64 × 32) at y 86.
- One row per player from y 118, sorted by score (the order of the server's ``scores``): up to 7 rows 40 apart
  with 48-unit heads, or up to 17 rows 16 apart with 16-unit heads when more players are listed.  A row holds the
  bot skill icon (``menu/art/skill1`` … ``5``, 32 units) or else the handicap below 100 at x 80, the player's head
  facing the view (yaw 180, ``CG_DrawHead``: its 3D head model, else its 2D icon) at x 112, and the score line
  ``"%5i %4i %4i %s"`` (score, ping, minutes, name; spectators ``" SPECT %3i %4i %s"``) in 16-unit shadowed
  characters at x 160 (a duel's wins and losses are not drawn).  The viewed player's row is backed by a bar
  512 × 17 from x 176 in the colour of its place (1st blue, 2nd red, 3rd yellow, else grey; grey for spectators and
  team games) at 0.7 opacity.
- Free-for-all lists the players, then the spectators; team games the leading team, then the other, each on a
  band of its colour at 0.33 opacity, then the spectators.  The viewed player, when not listed, is added below.

References: ioquake3 ``code/cgame/cg_scoreboard.c`` (``CG_DrawOldScoreboard``, ``CG_DrawClientScore``,
``CG_TeamScoreboard``), ``cg_drawtools.c`` (``CG_DrawTeamBackground``), ``cg_draw.c`` (``CG_DrawHead``),
``cg_event.c`` (``CG_Obituary``: the killer's name), ``cg_players.c`` (``CG_NewClientInfo``: ``skill``, ``hc``).
"""

from __future__ import annotations

from assets_loader.demos import DemoTimeline, PlayerScore, SceneState
from assets_loader.demos.events import ObituaryEvent
from assets_loader.demos.quake3.game import (PM_DEAD, PM_INTERMISSION, TEAM_BLUE, TEAM_FREE, TEAM_RED,
                                             TEAM_SPECTATOR, team_number)
from assets_loader.demos.quake3.colors import visible_len
from assets_loader.demos.quake3.obituaries import RANK_TIED_FLAG, place_string

from ...render.shaded.records import Quake3Models
from . import hud_icons
from .screen import VirtualScreen
from .warmup import in_warmup

__all__ = ["COLUMN_TITLES", "is_showing", "killer_name", "scoreboard"]

#: Rows of the two layouts between the titles and the status bar (``SB_MAXCLIENTS_NORMAL`` / ``_INTER``).
MAX_ROWS_NORMAL, MAX_ROWS_INTER = 7, 17
ROW_NORMAL, ROW_INTER = 40, 16
TOP = 118
#: x of the bot icon, the head and the score line (``SB_BOTICON_X``, ``SB_HEAD_X`` and ``SB_SCORELINE_X``, each
#: moved by half the rating width).
ICON_X, HEAD_X, LINE_X = 80, 112, 160
#: The column titles and their x at y 86 (``SB_SCORE_X`` + 48, ``SB_PING_X`` - 48, …).
COLUMN_TITLES = (("menu/tab/score", 176), ("menu/tab/ping", 264), ("menu/tab/time", 344), ("menu/tab/name", 416))
#: The viewed player's bar by its place (0-based): 1st blue, 2nd red, 3rd yellow, others grey.
PLACE_BARS = {0: (0.0, 0.0, 0.7), 1: (0.7, 0.0, 0.0), 2: (0.7, 0.7, 0.0)}
GREY_BAR = (0.7, 0.7, 0.7)
TEAM_BANDS = {TEAM_RED: (1.0, 0.0, 0.0), TEAM_BLUE: (0.0, 0.0, 1.0)}


def is_showing(state: SceneState, show_scores: bool) -> bool:
    """Whether the scoreboard is up: the scores key held, or the viewed player dead or in the intermission outside a
    warm-up (``CG_DrawScoreboard``)."""
    return show_scores or (int(state.stats.get("pm_type", 0)) in (PM_DEAD, PM_INTERMISSION) and not in_warmup(state))


def _number(info: dict[str, str], key: str, default: int) -> int:
    """``atoi`` of a userinfo value (``" 3.00"`` → 3)."""
    digits = info.get(key, "").strip().split(".")[0]
    return int(digits) if digits.lstrip("-").isdigit() else default


def killer_name(state: SceneState, timeline: DemoTimeline) -> str:
    """The player who made the viewed player's last frag while the view is dead (``cg.killerName``), or ""."""
    if int(state.stats.get("pm_type", 0)) != PM_DEAD:
        return ""
    client = int(state.stats.get("clientNum", -1))
    names = {p.slot: p.name for p in state.scoreboard}
    victim = names.get(client, "")
    deaths = [e for e in timeline.events_of_kind("obituary") if isinstance(e, ObituaryEvent)
              and e.time <= state.time and e.victim == victim]
    last = deaths[-1] if deaths else None
    if last is None or last.suicide or not last.killer or last.killer == victim:
        return ""
    return last.killer


def _team_scores(state: SceneState) -> tuple[int, int]:
    """The red and the blue team's scores (``CS_SCORES1`` / ``CS_SCORES2``, ``cg.teamScores``)."""
    return int(state.stats.get("scores1", 0)), int(state.stats.get("scores2", 0))


def _place_line(state: SceneState, team_game: bool) -> str:
    stats = state.stats
    if team_game:
        red, blue = _team_scores(state)
        if red == blue:
            return f"Teams are tied at {red}"
        return f"Red leads {red} to {blue}" if red > blue else f"Blue leads {blue} to {red}"
    if int(stats.get("team", 0)) == TEAM_SPECTATOR:
        return ""
    return f"{place_string(int(stats.get('rank', 0)) + 1)} place with {int(stats.get('score', 0))}"


def _row(screen: VirtualScreen, state: SceneState, player: PlayerScore, y: float, large: bool,
         models: Quake3Models | None, team_game: bool) -> None:
    """``CG_DrawClientScore``: one player's icon, head and score line at ``y``."""
    info = dict(player.userinfo)
    skill, handicap = _number(info, "skill", 0), _number(info, "hc", 100)
    if 1 <= skill <= 5:
        size = 32 if large else 16
        screen.pic(f"menu/art/skill{skill}", ICON_X, y - (size - 16) / 2, size, size)
    elif handicap < 100:
        screen.text(str(handicap), ICON_X, y, 8, 16)
    size = 48 if large else 16
    box = (float(HEAD_X), y - (size - 16) / 2, float(size), float(size))
    head = hud_icons.facing_head_icon(models, info, box) if models is not None else None
    if head is not None:
        screen.model(head)
    elif (icon := hud_icons.head_pic(info)):
        screen.pic(icon, *box)
    if team_number(player.team) == TEAM_SPECTATOR:
        line = f" SPECT {player.ping:3d} {player.minutes:4d} {player.name}"
    else:
        line = f"{player.frags:5d} {player.ping:4d} {player.minutes:4d} {player.name}"
    if player.slot == int(state.stats.get("clientNum", -1)):
        spectator = int(state.stats.get("team", 0)) == TEAM_SPECTATOR
        rank = -1 if spectator or team_game else int(state.stats.get("rank", 0)) & ~RANK_TIED_FLAG
        screen.fill(LINE_X + 16, y, 640 - 112 - 16, 17, PLACE_BARS.get(rank, GREY_BAR), 0.7)
    screen.text(line, LINE_X, y, 16, 16, shadow=True)


def scoreboard(screen: VirtualScreen, state: SceneState, timeline: DemoTimeline,
               models: Quake3Models | None) -> None:
    """Lay out the scoreboard for ``state`` (rules: module docstring); ``models``: the segment's, for 3D heads."""
    players = sorted((p for p in state.scoreboard if p.name), key=lambda p: -p.frags)
    team_game = any(team_number(p.team) in TEAM_BANDS for p in players)
    killer = killer_name(state, timeline)
    if killer:
        text = f"Fragged by {killer}"
        screen.text(text, (640 - visible_len(text) * 16) / 2, 40, 16, 16, shadow=True)
    if (place := _place_line(state, team_game)):
        screen.text(place, (640 - visible_len(place) * 16) / 2, 60, 16, 16, shadow=True)
    for name, x in COLUMN_TITLES:
        screen.pic(name, x, 86, 64, 32)
    large = len(players) <= MAX_ROWS_NORMAL
    height, room = (ROW_NORMAL, MAX_ROWS_NORMAL) if large else (ROW_INTER, MAX_ROWS_INTER)
    top_border = 16 if large else 8
    y = float(TOP)
    shown: set[int] = set()

    def rows(team: int, room: int) -> int:
        listed = [p for p in players if team_number(p.team) == team][:max(room, 0)]
        for k, player in enumerate(listed):
            _row(screen, state, player, y + k * height, large, models, team_game)
            shown.add(player.slot)
        return len(listed)

    if team_game:
        y += height / 2
        red, blue = _team_scores(state)
        for team in ((TEAM_RED, TEAM_BLUE) if red >= blue else (TEAM_BLUE, TEAM_RED)):
            n = rows(team, room)
            screen.fill(0, y - top_border, 640, n * height + 16, TEAM_BANDS[team], 0.33)
            y += n * height + 16
            room -= n
        y += rows(TEAM_SPECTATOR, room) * height + 16
    else:
        n = rows(TEAM_FREE, room)
        y += n * height + 16
        y += rows(TEAM_SPECTATOR, room - n) * height + 16
    client = int(state.stats.get("clientNum", -1))
    if client not in shown:
        for player in players:
            if player.slot == client:
                _row(screen, state, player, y, large, models, team_game)
