"""The entity-state budget of one decoded demo: how many entity rows its timeline may hold, all frames together.

A size limit per file does not bound a timeline: a snapshot that names no entity keeps every entity of the one it
is delta-coded from (``CL_ParsePacketEntities`` copies them forward), so a few bytes per frame can stand for a
thousand rows each.  Every decoder counts the rows it keeps and stops with :class:`StateBudgetError` as soon as the
count passes the budget, before the timeline columns are built, so such a file costs a few seconds and a few
hundred MB instead of gigabytes.

The default, :data:`MAX_DEMO_STATES` (4M states), is more than five times the largest real demo measured (the
public ``2001_Duel2_Quakecon.dm_66``: 763,899 rows over 18,331 snapshots); ``QDV_MAX_DEMO_STATES`` raises it
(a number with an optional K/M/G suffix, like ``QDV_MAX_DEMO_SIZE``).
"""

from __future__ import annotations


from ...errors import TooLargeError
from ...source import limit_setting

__all__ = ["MAX_DEMO_STATES", "STATES_VARIABLE", "StateBudgetError", "state_budget", "check_states"]

#: Default largest number of entity states (rows, all frames together) a decoded demo may hold.
MAX_DEMO_STATES = 4 << 20
STATES_VARIABLE = "QDV_MAX_DEMO_STATES"


class StateBudgetError(TooLargeError):
    """The timeline would hold more entity states than the budget: decoding stops (it is not a corrupt message
    whose frames before are kept)."""


def state_budget() -> int:
    """The budget: ``QDV_MAX_DEMO_STATES`` if set, else :data:`MAX_DEMO_STATES`."""
    return limit_setting(STATES_VARIABLE, MAX_DEMO_STATES)


def check_states(path: str, fmt: str, count: int, budget: int) -> None:
    """Raise :class:`StateBudgetError` when ``count`` entity states exceed ``budget``."""
    if count > budget:
        raise StateBudgetError(path, fmt, None, f"at most {budget} (raise it with {STATES_VARIABLE})",
                               f"the timeline would hold more than {budget} entity states")
