"""Quake Live's scoreboard commands: each player's client number, score, ping and minutes played.

Quake Live sends one command per game type instead of baseq3's ``scores``; each is a header, the number of
players, maybe the two team scores, then one equal-length record per player whose first fields are the client
number, (the team and, before protocol 91, a subscriber flag,) the score, the ping and the minutes played:

* ``scores`` / ``scores_ffa``: count, red and blue scores, records of 18 values (client, score, ping, time …);
* ``scores_duel``: count, then per player client, score, ping, time and the match and weapon statistics;
* ``scores_ca``: count, the team scores (not in the oldest demos), records of client, team, [subscriber], score …;
* ``scores_ft`` / ``scores_tdm``: 28 values of team item statistics, count, the team scores, then records like
  ``scores_ca``'s.

The record length is what is left after the header divided by the count; a command whose numbers do not divide
so (or are not numbers) gives no rows.  Race, red rover, CTF and attack & defend boards are not read.

References (facts only): WolfcamQL ``code/cgame/cg_servercmds.c`` (``CG_ParseScores``, ``CG_ParseScores_Ffa``,
``CG_ParseScores_Duel``, ``CG_ParseScores_Ca``, ``CG_ParseScores_Tdm``, ``CG_ParseScores_Ft``).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["SCORE_COMMANDS", "parse_ql_scores"]

MAX_CLIENTS = 64

#: Command → (index of the player count among the arguments, team-score values after it (tried in order),
#: whether records carry the team before the score).
SCORE_COMMANDS: dict[str, tuple[int, tuple[int, ...], bool]] = {
    "scores": (1, (2,), False), "scores_ffa": (1, (2,), False), "scores_duel": (1, (0,), False),
    "scores_ca": (1, (2, 0), True), "scores_ft": (29, (2,), True), "scores_tdm": (29, (2, 0), True),
}


def parse_ql_scores(args: Sequence[str], protocol: int) -> list[tuple[int, int, int, int]]:
    """``(client, score, ping, minutes)`` for each player of one Quake Live scoreboard command (``args[0]`` its
    name), or ``[]`` when it is not one read here or does not parse."""
    layout = SCORE_COMMANDS.get(args[0] if args else "")
    if layout is None:
        return []
    count_at, team_heads, has_team = layout
    try:
        count = int(args[count_at])
        values = [int(float(a)) for a in args[count_at + 1:]]
    except (IndexError, ValueError, OverflowError):
        return []
    if not 0 < count <= MAX_CLIENTS:
        return []
    skip = (2 if protocol < 91 else 1) if has_team else 0      # team [, subscriber] before the score
    for head in team_heads:
        body = len(values) - head
        if body <= 0 or body % count:
            continue
        stride = body // count
        if stride < skip + 4:
            continue
        rows = [values[head + i * stride: head + (i + 1) * stride] for i in range(count)]
        if all(0 <= r[0] < MAX_CLIENTS for r in rows):
            return [(r[0], r[1 + skip], r[2 + skip], r[3 + skip]) for r in rows]
    return []
