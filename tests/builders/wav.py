"""Write tiny RIFF/WAVE files for tests: PCM ``fmt ``, optional ``cue `` loop start and ``LIST``/``adtl``/``ltxt``
``mark`` loop length, then ``data`` (the layout Cool Edit wrote and Quake's ``GetWavinfo`` reads)."""

from __future__ import annotations

import struct

import numpy as np


def chunk(name: bytes, body: bytes) -> bytes:
    """One RIFF chunk: id, length, data padded to an even size."""
    return name + struct.pack("<i", len(body)) + body + (b"\0" if len(body) % 2 else b"")


def fmt_chunk(rate: int = 11025, bits: int = 8, channels: int = 1, tag: int = 1) -> bytes:
    block = channels * bits // 8
    return chunk(b"fmt ", struct.pack("<hhiihh", tag, channels, rate, rate * block, block, bits))


def cue_chunk(loop_start: int) -> bytes:
    """A cue list with one point whose sample offset is ``loop_start``."""
    return chunk(b"cue ", struct.pack("<iii4siii", 1, 1, 0, b"data", 0, 0, loop_start))


def mark_chunk(loop_length: int) -> bytes:
    """A ``LIST`` ``adtl`` holding one ``ltxt`` entry of purpose ``mark`` with ``loop_length`` samples."""
    ltxt = struct.pack("<ii4shhhh", 1, loop_length, b"mark", 0, 0, 0, 0)
    return chunk(b"LIST", b"adtl" + chunk(b"ltxt", ltxt))


def pcm_bytes(samples: np.ndarray, bits: int) -> bytes:
    """int16 samples → the file's sample bytes (8-bit: the top byte, offset to unsigned)."""
    s = np.asarray(samples, np.int16)
    if bits == 8:
        return ((s >> 8) + 128).astype(np.uint8).tobytes()
    return s.astype("<i2").tobytes()


def build_wav(samples, rate: int = 11025, bits: int = 8, loop_start: int | None = None,
              loop_length: int | None = None, extra: bytes = b"") -> bytes:
    """A mono PCM WAVE of ``samples`` (int16 values); ``extra`` chunks go after ``fmt ``."""
    body = fmt_chunk(rate, bits) + extra
    if loop_start is not None:
        body += cue_chunk(loop_start)
        if loop_length is not None:
            body += mark_chunk(loop_length)
    body += chunk(b"data", pcm_bytes(samples, bits))
    return chunk(b"RIFF", b"WAVE" + body)
