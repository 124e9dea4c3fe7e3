"""Reading the small text files qdv finds on its own (``NAME.camera.json`` beside a demo, ``settings.toml``) like
every other input: a regular file within its size limit (:func:`assets_loader.source.read_source`: a FIFO or
``/dev/zero`` is refused from its ``stat``), UTF-8, and nesting checked before a parser recurses into it.

Both parsers (``json``, ``tomllib``) recurse once per ``[`` or ``{``; :func:`check_nesting` counts the depth
outside strings and comments first, so a file of a million brackets is one :class:`SideFileError`, not a
``RecursionError``. Every failure is a :class:`SideFileError` naming the file.
"""

from __future__ import annotations

import os
import re

import numpy as np

from assets_loader.errors import FormatError
from assets_loader.source import read_source

#: Deepest nesting of arrays and tables accepted (a camera path needs 3, the settings 0).
MAX_NESTING = 32
#: Strings and comments, whose brackets do not nest: JSON strings; TOML's four string kinds and ``#`` comments. A
#: string left open runs to the end of the text (as its parser reads it), so every match that starts succeeds, and
#: the quantifiers are possessive (``*+``): one linear scan holding no backtracking state (a pattern needing the
#: closing quote was retried at every quote, quadratic; a plain ``*`` kept state per character, 250 MB for 4 MB).
JSON_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*+"?', re.DOTALL)
TOML_STRINGS = re.compile(r"'''(?:[^']|'(?!''))*+(?:'''|\Z)|\"\"\"(?:[^\"\\]|\\.|\"(?!\"\"))*+(?:\"\"\"|\Z)"
                          r"|'[^'\n]*+'?|\"(?:[^\"\\\n]|\\.)*+\"?|#[^\n]*+", re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


class SideFileError(FormatError):
    """A side file that cannot be used; ``fmt`` names its kind (``camera path``, ``settings``)."""


def read_text(path: str | os.PathLike, kind: str) -> str:
    """The text of ``path``: a regular file of at most the ``kind``'s size limit, in UTF-8 (a BOM is dropped).
    Raises ``OSError`` (missing, unreadable) or a :class:`~assets_loader.errors.FormatError`."""
    data, name = read_source(path, kind=kind)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SideFileError(name, kind, exc.start, "UTF-8 text", f"the byte 0x{data[exc.start]:02x}") from None


def check_nesting(text: str, name: str, kind: str, strings: re.Pattern[str], limit: int = MAX_NESTING) -> None:
    """Raise :class:`SideFileError` when arrays or tables in ``text`` (outside ``strings``) nest deeper than
    ``limit``."""
    marks = np.frombuffer(_NOT_BRACKETS.sub("", strings.sub("", text)).encode("ascii"), np.uint8)
    if not len(marks):
        return
    steps = np.where((marks == ord("[")) | (marks == ord("{")), 1, -1).astype(np.int32)
    depth = int(np.cumsum(steps).max())
    if depth > limit:
        raise SideFileError(name, kind, None, f"arrays and tables nested at most {limit} deep",
                            f"{depth} levels")
