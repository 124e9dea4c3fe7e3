"""The BSP entity lump: ``{ "key" "value" ... }`` blocks of text, parsed into dicts.

Tokens follow the engine's ``COM_Parse``: whitespace and ``//`` or ``/* */`` comments are skipped, a quoted
string runs to the next ``"``, braces are tokens of their own, anything else is a bare word. The text ends at
the first NUL byte. Keys lose trailing spaces like ``ED_ParseEdict`` does; a repeated key keeps its last value.

References: Unofficial Quake Specs 3.2, chapter 3.3 "The entities"; Quake ``COM_Parse`` (common.c),
``ED_ParseEdict`` / ``ED_LoadFromFile`` (pr_edict.c).
"""

from __future__ import annotations

import re

from ..errors import FormatError, TruncatedError

_TOKEN = re.compile(
    r'\s+|//[^\n]*|/\*.*?\*/|"([^"]*)"|([{}])|(")|(/\*)|([^\s{}"]+)',
    re.DOTALL,
)


def _tokens(text: str, path: str, base: int):
    """Yield ``(offset, token, is_brace)``; raise on an unterminated quote or comment."""
    for m in _TOKEN.finditer(text):
        quoted, brace, lone_quote, lone_comment, word = m.groups()
        if quoted is not None:
            yield m.start(), quoted, False
        elif brace is not None:
            yield m.start(), brace, True
        elif lone_quote is not None:
            raise TruncatedError(path, "BSP entities", base + m.start(), "a closing quote", "end of the lump")
        elif lone_comment is not None:
            raise TruncatedError(path, "BSP entities", base + m.start(), "the end of a /* comment */",
                                 "end of the lump")
        elif word is not None:
            yield m.start(), word, False


def parse_entities(raw: bytes | memoryview, path: str = "<bytes>", base: int = 0) -> list[dict[str, str]]:
    """Parse an entity lump into a list of ``{key: value}`` dicts (Latin-1 text, order kept).

    ``base`` is the lump's offset in the file, used in error offsets. Raises :class:`FormatError` for a
    missing ``{``, a key without a value, a ``}`` given as a value, or text ending inside an entity, a quote
    or a comment.
    """
    data = bytes(raw)
    end = data.find(b"\0")
    text = (data if end < 0 else data[:end]).decode("latin-1")
    out: list[dict[str, str]] = []
    tokens = _tokens(text, path, base)
    for pos, tok, brace in tokens:
        if not (brace and tok == "{"):
            raise FormatError(path, "BSP entities", base + pos, "'{' starting an entity", repr(tok[:40]))
        ent: dict[str, str] = {}
        while True:
            nxt = next(tokens, None)
            if nxt is None:
                raise TruncatedError(path, "BSP entities", base + len(text), "'}' closing the entity",
                                     "end of the lump")
            kpos, key, kbrace = nxt
            if kbrace:
                if key == "}":
                    break
                raise FormatError(path, "BSP entities", base + kpos, "a key or '}'", "'{'")
            val = next(tokens, None)
            if val is None:
                raise TruncatedError(path, "BSP entities", base + len(text), f"a value for key {key!r}",
                                     "end of the lump")
            vpos, value, vbrace = val
            if vbrace:
                raise FormatError(path, "BSP entities", base + vpos, f"a value for key {key!r}", repr(value))
            ent[key.rstrip(" ")] = value
        out.append(ent)
    return out
