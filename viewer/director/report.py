"""``qdv director DEMO [--json]``: the director's shot list as a table or as JSON, times in seconds from the demo's
start (as ``--start`` / ``--from`` take them)."""

from __future__ import annotations

from typing import Any

from . import plan as rules
from .plan import DirectorPlan

__all__ = ["plan_dict", "plan_table"]


def plan_dict(plan: DirectorPlan, demo: str) -> dict[str, Any]:
    """``{demo, duration, rules, shots: [{start, end, player, slot, camera, reason, why}], frags: [{time, killer,
    victim, outcome, note}]}``: what ``--json`` prints."""
    def rel(t: float) -> float:
        return round(t - plan.start, 3)

    return {
        "demo": demo,
        "duration": rel(plan.end),
        "rules": {name.lower(): getattr(rules, name) for name in
                  ("FRAG_LEAD", "DEATH_HOLD", "MIN_SHOT", "MAX_SHOT", "POWERUP_SCORE", "LEADER_SCORE",
                   "STAY_SCORE", "ORBIT_SPEED")} | {"filler_cameras": list(rules.FILLER_CAMERAS)},
        "shots": [{"start": rel(s.start), "end": rel(s.end), "player": s.player, "slot": s.slot,
                   "camera": s.camera, "reason": s.reason, "why": s.why} for s in plan.shots],
        "frags": [{"time": rel(f.time), "killer": f.killer, "victim": f.victim, "outcome": f.outcome,
                   "note": f.note} for f in plan.frags],
    }


def _clock(seconds: float) -> str:
    """``M:SS.s``."""
    minutes, rest = divmod(round(seconds, 1), 60)
    return f"{int(minutes)}:{rest:04.1f}"


def plan_table(plan: DirectorPlan) -> str:
    """One line per shot (start, end, length, camera, player, why) and a line counting what became of the frags."""
    lines = [f"{'start':>9} {'end':>9} {'length':>6}  {'camera':<6} {'player':<16} why"]
    for s in plan.shots:
        lines.append(f"{_clock(s.start - plan.start):>9} {_clock(s.end - plan.start):>9} "
                     f"{s.end - s.start:6.1f}  {s.camera:<6} {(s.player or '(demo view)')[:16]:<16} {s.why}")
    counts: dict[str, int] = {}
    for f in plan.frags:
        counts[f.outcome] = counts.get(f.outcome, 0) + 1
    said = ", ".join(f"{n} {outcome}" for outcome, n in counts.items())
    lines.append(f"{len(plan.shots)} shots; {len(plan.frags)} frags" + (f": {said}" if said else ""))
    return "\n".join(lines)
