"""Demo decoders → the game-agnostic, immutable :class:`DemoTimeline`; :func:`sample` gives the scene at a time."""

from .detect import detect_format, load_demo
from .events import Event, event_fields
from .timeline import (DemoTimeline, EntityStates, MapSegment, PlayerFrames, PlayerScore, SceneState, sample,
                       sample_pov)

__all__ = ["load_demo", "detect_format", "DemoTimeline", "SceneState", "EntityStates", "MapSegment", "PlayerScore",
           "PlayerFrames", "Event", "event_fields", "sample", "sample_pov"]
