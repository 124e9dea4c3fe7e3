"""Silence what C libraries print on the process's standard error while a sound driver is probed.

On a machine without a sound card, opening pyglet's OpenAL driver makes ALSA and OpenAL print their own lines
(``ALSA lib confmisc.c:855:(parse_card) cannot find card '0'`` …, ``AL lib: (EE) …``) straight to file descriptor 2,
beneath Python: :func:`quiet_stderr` points descriptor 2 at ``/dev/null`` for the probe and back after it, so the
window says "no audio device" once, in its own words.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """Descriptor 2 goes to ``/dev/null`` inside the block (what Python wrote before is flushed first)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 2)
        finally:
            os.close(null)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
