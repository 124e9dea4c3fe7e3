"""Demo decoders → the game-agnostic, immutable :class:`DemoTimeline`; :func:`sample` gives the scene at a time.

Layout: :mod:`.timeline` (the timeline and ``sample``), :mod:`.schema` (per-game stat names and lerp rules),
:mod:`.events` (event records and the neutral temp-entity vocabulary), :mod:`.detect` (``load_demo``); the shared
decoder kit in :mod:`.kit` (timeline builder, message loop, delta compiler, packet-entities merge); one package per
protocol with ``framing``, ``protocol`` (tables) and ``parse`` (handlers): :mod:`.quake`, :mod:`.quakeworld`,
:mod:`.quake2`.
"""

from .detect import DEMO_SUFFIXES, demo_game_dir, detect_format, is_demo_name, load_demo
from .events import Event, event_fields
from .timeline import (DemoTimeline, EntityStates, MapSegment, PlayerFrames, PlayerScore, SceneState, sample,
                       sample_pov)

__all__ = ["load_demo", "demo_game_dir", "detect_format", "DEMO_SUFFIXES", "is_demo_name", "DemoTimeline", "SceneState",
           "EntityStates", "MapSegment", "PlayerScore", "PlayerFrames", "Event", "event_fields", "sample", "sample_pov"]
