"""The automatic director (``--camera director``, ``qdv director``, Ctrl+D): a shot list planned from a demo's frags,
powerups and scoreboard (:mod:`.plan`, the rules; :mod:`.moments`, what the demo says; :mod:`.report`, the list as a
table and JSON). Pure: no OpenGL, no window."""

from .plan import DirectorPlan, FragCall, Shot, plan_director

__all__ = ["DirectorPlan", "FragCall", "Shot", "plan_director"]
