"""Demo sound: the sounds a demo plays, mixed in 3D as a pure function of time (issue 16).

:class:`Mixer` / :func:`mix` render int16 stereo at :data:`OUTPUT_RATE` for any span of a timeline, heard by a
:class:`Listener`; :class:`SoundBank` loads the ``sound/*.wav`` files; :func:`sound_track` is the only reader of
the timeline's events.
"""

from .listener import Listener, ListenerPath
from .mixer import Mixer, mix
from .sounds import OUTPUT_RATE, MixSound, SoundBank
from .track import SoundTrack, sound_track

__all__ = ["OUTPUT_RATE", "Listener", "ListenerPath", "MixSound", "Mixer", "SoundBank", "SoundTrack", "mix",
           "sound_track"]
