"""Demo format detection (extension, then content) with transparent gzip, and the ``load_demo`` entry point.

``load_demo(src)`` accepts a path or bytes.  ``.gz`` files (or any input starting with the gzip magic) are
decompressed first, with a size cap so a gzip bomb cannot exhaust memory.  The format is chosen from the file
name (``.dem``, ``.qwd``, ``.mvd``, ``.dm2``, ``.dm_NN``) when there is one, otherwise from the content.  NetQuake
``.dem`` and QuakeWorld ``.qwd`` / ``.mvd`` are decoded; the other formats are recognised and reported as
unsupported.

References: Uwe Girlich, "The unofficial DEM format description" v1.0.9, section 6.1 (the CD-track line that
starts every NetQuake demo); RFC 1952 (gzip magic 1f 8b).
"""

from __future__ import annotations

import re
import zlib

from ..errors import BadMagicError, FormatError, TruncatedError
from ..source import Source, read_source
from .quake import decode_dem, parse_cd_track
from .quakeworld import decode_mvd, decode_qwd, looks_like_mvd, looks_like_qwd
from .timeline import DemoTimeline

__all__ = ["load_demo", "detect_format", "maybe_gunzip", "MAX_DECOMPRESSED"]

#: Largest decompressed demo accepted from a ``.gz`` (real demos are a few MB; this stops gzip bombs).
MAX_DECOMPRESSED = 1 << 30

_EXTENSIONS = {".dem": "dem", ".qwd": "qwd", ".mvd": "mvd", ".dm2": "dm2"}
_DM_Q3 = re.compile(r"\.dm_(\d+)$")


def maybe_gunzip(data: bytes, name: str) -> bytes:
    """Decompress ``data`` if it is gzip (by magic), else return it unchanged."""
    if data[:2] != b"\x1f\x8b":
        return data
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = d.decompress(data, MAX_DECOMPRESSED)
        if d.unconsumed_tail:
            raise BadMagicError(name, "gzip", None, f"at most {MAX_DECOMPRESSED} decompressed bytes", "more")
        out += d.flush()
    except zlib.error as exc:
        raise TruncatedError(name, "gzip", None, "a complete gzip stream", str(exc)) from exc
    if not d.eof:
        raise TruncatedError(name, "gzip", None, "a complete gzip stream", "a cut stream")
    return out


def detect_format(data: bytes, name: str = "") -> str:
    """``"dem"``, ``"qwd"``, ``"mvd"``, ``"dm2"`` or ``"dm_NN"`` from the name, else sniffed from the content."""
    lower = name.lower()
    if lower.endswith(".gz"):
        lower = lower[:-3]
    for ext, fmt in _EXTENSIONS.items():
        if lower.endswith(ext):
            return fmt
    m = _DM_Q3.search(lower)
    if m:
        return f"dm_{m.group(1)}"
    try:
        parse_cd_track(data[:16], name)
        return "dem"
    except FormatError:
        pass
    if looks_like_mvd(data):
        return "mvd"
    if looks_like_qwd(data):
        return "qwd"
    raise BadMagicError(name or "<bytes>", "demo", 0, "a Quake-family demo (.dem/.qwd/.mvd/.dm2/.dm_NN)",
                        repr(bytes(data[:8])))


def load_demo(src: Source, name: str | None = None) -> DemoTimeline:
    """Decode a demo file (path or bytes, optionally gzipped) into a :class:`DemoTimeline`.

    Raises ``OSError`` if a path cannot be read and :class:`FormatError` for bad or unsupported content; a
    truncated or partly corrupt demo returns the usable part with a warning (``timeline.warnings``).
    """
    data, label = read_source(src, name)
    data = maybe_gunzip(data, label)
    fmt = detect_format(data, label)
    if fmt == "dem":
        return decode_dem(data, label)
    if fmt == "qwd":
        return decode_qwd(data, label)
    if fmt == "mvd":
        return decode_mvd(data, label)
    raise BadMagicError(label, fmt, 0, "a Quake .dem or QuakeWorld .qwd/.mvd demo (the formats decoded so far)", fmt)
