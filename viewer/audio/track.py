"""What a demo asks the sound system to play, as flat tables: the only part of the mixer that reads the timeline.

:func:`sound_track` turns a :class:`~assets_loader.demos.DemoTimeline` into a :class:`SoundTrack`:

* ``commands`` (:data:`SOUND_COMMAND`, demo order, so sorted by time): every ``sound`` event (``S_StartSound``),
  every ``localsound`` event (entity :data:`LOCAL_ENTITY`, never spatialised, at the game's
  ``local_sound_volume``) and every ``stopsound`` event
  (``sound`` = -1, ``S_StopSound``).  ``sound`` indexes ``names``;
* ``statics`` (:data:`STATIC_SOUND`): the ``svc_spawnstaticsound`` sounds of every segment (``S_StaticSound``);
* per segment the map, the time it starts and the time the next one starts (``S_StopAllSounds`` on a new level).

Events are read through their kind names and fields only (``event_fields``), so any decoder that emits ``sound`` /
``stopsound`` / ``localsound`` events with these fields (Quake II and III included) feeds the same mixer.

:func:`entity_origins` gives where entities are at given frames, for sounds that follow a moving entity.

References: QuakeSpasm ``cl_parse.c`` (``CL_ParseStartSoundPacket``, ``CL_ParseStaticSound``, ``svc_stopsound``,
``svc_localsound``), ``snd_dma.c`` (``S_StartSound``, ``S_StopSound``, ``S_StaticSound``, ``S_StopAllSounds``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assets_loader.demos import DemoTimeline, event_fields

#: The entity of a ``svc_localsound`` sound: played at full volume on both sides, never replaced.
LOCAL_ENTITY = -1
#: ``sound`` value of a stop command.
STOP = -1

#: One start or stop: timeline ``time``, the ``frame`` it arrived in, its ``segment``, ``entity`` and ``channel``
#: (0..7, Quake III's loops 8 and 9; -1 for local sounds), ``sound`` (index into ``SoundTrack.names``, :data:`STOP`
#: for a stop), ``volume`` 0..1, ``attenuation`` (1 normal, 0 none), ``origin`` (where the server said it started)
#: and ``loop`` (the sound repeats until stopped).
SOUND_COMMAND = np.dtype([("time", "<f8"), ("frame", "<i4"), ("segment", "<i4"), ("entity", "<i4"),
                          ("channel", "<i4"), ("sound", "<i4"), ("volume", "<f4"), ("attenuation", "<f4"),
                          ("origin", "<f4", (3,)), ("loop", "?")])
#: A looping ambient sound placed in the map by the server (``svc_spawnstaticsound``); ``attenuation`` as sent / 64.
STATIC_SOUND = np.dtype([("segment", "<i4"), ("sound", "<i4"), ("volume", "<f4"), ("attenuation", "<f4"),
                         ("origin", "<f4", (3,))])


@dataclass(frozen=True, slots=True)
class SoundTrack:
    """The sound side of a demo (see the module docstring).  ``segment_start`` / ``segment_end`` f8 [S]: timeline
    seconds each segment's sounds play in (the last segment never ends); ``maps`` the segments' map paths."""

    names: tuple[str, ...]
    commands: np.ndarray
    statics: np.ndarray
    segment_start: np.ndarray
    segment_end: np.ndarray
    maps: tuple[str, ...]

    def segment_at(self, t: float) -> int:
        """The segment playing at time ``t`` (the first one before the demo starts)."""
        return max(int(np.searchsorted(self.segment_start, t, side="right")) - 1, 0)


def sound_track(timeline: DemoTimeline) -> SoundTrack:
    """Collect the timeline's sound commands, static sounds and segment spans (rules: module docstring)."""
    index: dict[str, int] = {}

    def name_index(name: str) -> int:
        return index.setdefault(name, len(index))

    rows = []
    local_volume = timeline.schema.local_sound_volume
    for event in timeline.events:
        kind = event.kind
        if kind not in ("sound", "stopsound", "localsound"):
            continue
        f = event_fields(event)
        head = (event.time, event.frame, event.segment)
        if kind == "sound":
            rows.append(head + (f["entity"], f["channel"], name_index(f["sound"]), f["volume"], f["attenuation"],
                                f["origin"], f.get("loop", False)))
        elif kind == "localsound":
            rows.append(head + (LOCAL_ENTITY, -1, name_index(f["sound"]), local_volume, 0.0, (0.0, 0.0, 0.0), False))
        else:
            rows.append(head + (f["entity"], f["channel"], STOP, 0.0, 0.0, (0.0, 0.0, 0.0), False))
    commands = np.array(rows, SOUND_COMMAND) if rows else np.zeros(0, SOUND_COMMAND)

    statics = np.array([(seg.index, name_index(s.sound), s.volume, s.attenuation, s.origin)
                        for seg in timeline.segments for s in seg.static_sounds], STATIC_SOUND)
    starts = np.array([seg.start_time for seg in timeline.segments], np.float64)
    ends = np.append(starts[1:], np.inf) if len(starts) else starts
    return SoundTrack(tuple(index), commands, statics.reshape(-1), starts, ends,
                      tuple(seg.map_path for seg in timeline.segments))


def entity_origins(timeline: DemoTimeline, frames: np.ndarray, numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where entity ``numbers[i]`` is in timeline frame ``frames[i]`` (the two broadcast together): origins f8
    [..., 3] and bool [...]: whether the frame holds that entity (players included)."""
    frames, numbers = np.broadcast_arrays(np.asarray(frames, np.int64), np.asarray(numbers, np.int64))
    flat_frames, flat_numbers = frames.ravel(), numbers.ravel()
    origins = np.zeros((len(flat_frames), 3))
    found = np.zeros(len(flat_frames), bool)
    for frame in np.unique(flat_frames).tolist():
        states = timeline.frame_entities(frame)
        if len(states) == 0:
            continue
        rows = np.flatnonzero(flat_frames == frame)
        wanted = flat_numbers[rows]
        idx = np.minimum(np.searchsorted(states.number, wanted), len(states) - 1)
        hit = states.number[idx] == wanted
        origins[rows[hit]] = states.origin[idx[hit]]
        found[rows] = hit
    return origins.reshape(frames.shape + (3,)), found.reshape(frames.shape)
