"""Quake sound effects: RIFF/WAVE files holding mono 8- or 16-bit PCM, with an optional loop point.

The chunks are found the way the engine's ``GetWavinfo`` finds them, so a file loads (or fails) as it does in
Quake:

* the file is walked chunk by chunk from its start (a chunk is a 4-byte id, a little-endian signed 32-bit length and
  the data padded to an even size) until ``RIFF`` is found; its first 4 data bytes must be ``WAVE``.  The chunks
  inside are then walked from there to the *end of the file* (not of the ``RIFF`` chunk); a chunk whose length is
  negative or runs past the end of the file ends the walk (the chunk searched for counts as absent);
* ``fmt `` gives the format tag (1 = PCM), channels, rate and bits per sample (the 16 bytes are read even if the
  chunk says it is shorter);
* ``cue ``: the loop start is the 32-bit value 24 bytes into its data (the first cue point's sample offset).
  A ``LIST`` chunk found *after* the cue chunk whose data (at least 32 bytes) has ``mark`` at data offset 20 (an
  ``adtl`` list whose first ``ltxt`` entry has purpose ``mark``) gives the loop length at data offset 16: the sound
  then ends at loop start + loop length;
* ``data``: the samples (8-bit unsigned, 16-bit signed little-endian).  A loop length longer than the data is an
  error (the engine stops with "bad loop length"); a loop start at or past the end is dropped with a warning.

8-bit samples are widened to 16 bits as the engine's mixer does (``(s - 128) << 8``).  Stereo files, other sample
sizes, other format tags and empty data are refused, like ``S_LoadSound`` refuses them.

References: QuakeSpasm ``snd_mem.c`` (``GetWavinfo``, ``FindNextChunk``, ``S_LoadSound``, ``ResampleSfx``);
Microsoft/IBM "Multimedia Programming Interface and Data Specifications 1.0" (RIFF, ``fmt ``, ``cue ``, ``LIST``
``adtl`` / ``ltxt``).
"""

from __future__ import annotations

import struct
import warnings
from dataclasses import dataclass, field

import numpy as np

from .errors import BadIndexError, BadMagicError, FormatError, TruncatedError
from .source import Source, read_source

FMT = "WAV"
WAVE_FORMAT_PCM = 1
#: Sample rates accepted (Hz).  Quake's own sounds use 11025, 22050 and 44100; replacement packs use 48000.  The
#: bounds keep a resampled copy at a 48 kHz output no bigger than a dozen times the file.
MIN_RATE = 4000
MAX_RATE = 192000

_I16 = struct.Struct("<h")
_I32 = struct.Struct("<i")
_CHUNK_HEADER = 8
#: Offsets inside a chunk (from its id): the first cue point's sample offset; in a ``LIST``, the first ``ltxt``
#: entry's sample length and purpose.
_CUE_SAMPLE_OFFSET = 32
_LTXT_LENGTH = 24
_LTXT_PURPOSE = 28
_MIN_MARK_LIST = 32


@dataclass(frozen=True, slots=True)
class WaveSound:
    """A loaded sound: ``samples`` int16 [N] mono (8-bit files widened), ``rate`` Hz, ``width`` bytes per sample in the
    file (1 or 2), ``loop_start`` the sample a looping sound jumps back to after its last sample (``None``: plays once).
    """

    name: str
    rate: int
    width: int
    samples: np.ndarray = field(repr=False)
    loop_start: int | None

    @property
    def num_samples(self) -> int:
        return len(self.samples)

    @property
    def duration(self) -> float:
        """Length in seconds (one pass, without looping)."""
        return len(self.samples) / self.rate

    @property
    def looped(self) -> bool:
        return self.loop_start is not None


@dataclass(frozen=True, slots=True)
class _Chunk:
    offset: int     # of the 4-byte id
    length: int     # data bytes as declared
    next: int       # where the following chunk starts (data padded to an even size)

    @property
    def data(self) -> int:
        return self.offset + _CHUNK_HEADER


class _Chunks:
    """``FindChunk`` / ``FindNextChunk`` over one file: walks from a position to the end of the file."""

    def __init__(self, data: bytes, path: str) -> None:
        self.data = data
        self.path = path
        self.bad: str | None = None    # why the last walk stopped early, for the error message

    def find(self, name: bytes, start: int) -> _Chunk | None:
        data, end = self.data, len(self.data)
        pos = start
        while pos + _CHUNK_HEADER < end:
            length, = _I32.unpack_from(data, pos + 4)
            if length < 0 or length > end - (pos + _CHUNK_HEADER):
                self.bad = (f"chunk {data[pos:pos + 4]!r} at offset {pos} declares {length} bytes, "
                            f"{end - pos - _CHUNK_HEADER} left")
                return None
            chunk = _Chunk(pos, length, pos + _CHUNK_HEADER + ((length + 1) & ~1))
            if data[pos:pos + 4] == name:
                return chunk
            pos = chunk.next
        return None

    def need(self, name: bytes, start: int, what: str) -> _Chunk:
        self.bad = None
        chunk = self.find(name, start)
        if chunk is None:
            raise FormatError(self.path, FMT, start, what, self.bad or "end of file")
        return chunk

    def i16(self, pos: int, what: str) -> int:
        self._in_file(pos, 2, what)
        return _I16.unpack_from(self.data, pos)[0]

    def i32(self, pos: int, what: str) -> int:
        self._in_file(pos, 4, what)
        return _I32.unpack_from(self.data, pos)[0]

    def _in_file(self, pos: int, size: int, what: str) -> None:
        if pos + size > len(self.data):
            raise TruncatedError(self.path, FMT, pos, f"{size} bytes of {what}",
                                 f"{max(len(self.data) - pos, 0)} bytes left")


def load_wav(src: Source, name: str | None = None) -> WaveSound:
    """Load a Quake sound (rules: module docstring).  Raises only :class:`FormatError` subclasses."""
    data, path = read_source(src, name)
    chunks = _Chunks(data, path)
    riff = chunks.need(b"RIFF", 0, "a RIFF chunk")
    if data[riff.data:riff.data + 4] != b"WAVE":
        raise BadMagicError(path, FMT, riff.data, "form type 'WAVE'", repr(data[riff.data:riff.data + 4]))
    first = riff.data + 4

    fmt = chunks.need(b"fmt ", first, "a 'fmt ' chunk")
    p = fmt.data
    tag = chunks.i16(p, "format tag")
    if tag != WAVE_FORMAT_PCM:
        raise FormatError(path, FMT, p, f"format tag {WAVE_FORMAT_PCM} (Microsoft PCM)", str(tag))
    channels = chunks.i16(p + 2, "channel count")
    rate = chunks.i32(p + 4, "sample rate")
    bits = chunks.i16(p + 14, "bits per sample")
    if channels != 1:
        raise FormatError(path, FMT, p + 2, "1 channel (Quake plays mono sounds only)", str(channels))
    if not MIN_RATE <= rate <= MAX_RATE:
        raise FormatError(path, FMT, p + 4, f"a sample rate of {MIN_RATE}..{MAX_RATE} Hz", str(rate))
    if bits not in (8, 16):
        raise FormatError(path, FMT, p + 14, "8 or 16 bits per sample", str(bits))
    width = bits // 8

    loop_start = -1
    marked = 0        # samples up to the end of the loop, from a cue 'mark' (0: none)
    cue = chunks.find(b"cue ", first)
    if cue is not None:
        loop_start = chunks.i32(cue.offset + _CUE_SAMPLE_OFFSET, "cue point sample offset")
        mark = chunks.find(b"LIST", cue.next)
        if (mark is not None and mark.length >= _MIN_MARK_LIST
                and data[mark.offset + _LTXT_PURPOSE:mark.offset + _LTXT_PURPOSE + 4] == b"mark"):
            marked = loop_start + _I32.unpack_from(data, mark.offset + _LTXT_LENGTH)[0]

    body = chunks.need(b"data", first, "a 'data' chunk")
    available = body.length // width
    count = available
    if marked:
        if available < marked:
            raise BadIndexError(path, FMT, body.offset + 4, f"at least {marked} samples (cue loop start + length)",
                                str(available))
        count = marked
    if loop_start >= count:
        warnings.warn(f"{path}: loop start {loop_start} is not before the end ({count} samples); not looped",
                      stacklevel=2)
        loop_start = -1
        count = available
    if count <= 0:
        raise FormatError(path, FMT, body.offset + 4, "at least one sample", f"{count}")

    raw = np.frombuffer(data, "<i2" if width == 2 else "u1", count, body.data)
    samples = raw.astype(np.int16) if width == 2 else ((raw.astype(np.int16) - 128) << 8).astype(np.int16)
    return WaveSound(path, rate, width, samples, loop_start if loop_start >= 0 else None)
