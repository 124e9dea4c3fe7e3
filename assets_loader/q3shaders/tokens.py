"""Tokens of Quake III text files the way ``COM_ParseExt`` splits them, with the line each starts on.

Whitespace separates tokens; ``//`` and ``/* … */`` start comments (only where a token could start); a
``"quoted string"`` is one token. Braces are ordinary words, so ``{`` needs whitespace around it like in the
engine. The parser asks for the next token either anywhere or only on the current line (``allowLineBreaks``).

References: ioquake3 ``qcommon/q_shared.c`` (``COM_ParseExt``, ``SkipWhitespace``, ``SkipRestOfLine``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

_NEWLINE = re.compile("\n")
_TOKEN = re.compile(r'//[^\n]*|/\*.*?(?:\*/|\Z)|"[^"]*"?|[^\s]+', re.DOTALL)


class Token(NamedTuple):
    """``text`` (quotes removed), the 1-based ``line`` it starts on and the line it ends on."""

    text: str
    line: int
    end_line: int


def tokenize(text: str) -> list[Token]:
    """Every token of ``text`` in order."""
    matches = [m for m in _TOKEN.finditer(text) if m.group()[:2] not in ("//", "/*")]
    if not matches:
        return []
    newlines = np.fromiter((m.start() for m in _NEWLINE.finditer(text)), np.int64)
    starts = np.searchsorted(newlines, [m.start() for m in matches]) + 1
    ends = np.searchsorted(newlines, [m.end() - 1 for m in matches]) + 1
    out = []
    for m, line, end_line in zip(matches, starts.tolist(), ends.tolist(), strict=True):
        word = m.group()
        if word[0] == '"':
            word = word[1:].removesuffix('"')
        out.append(Token(word, line, end_line))
    return out


class TokenStream:
    """A cursor over tokens: :meth:`next` crosses lines, :meth:`next_on_line` returns ``""`` at a line end."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.line = 1

    def at_end(self) -> bool:
        return self.pos >= len(self.tokens)

    def next(self) -> str:
        """The next token anywhere, or ``""`` at the end of the text."""
        if self.pos >= len(self.tokens):
            return ""
        tok = self.tokens[self.pos]
        self.pos += 1
        self.line = tok.end_line
        return tok.text

    def next_on_line(self) -> str:
        """The next token if it starts on the current line, else ``""`` (the token stays unread)."""
        if self.pos >= len(self.tokens) or self.tokens[self.pos].line != self.line:
            return ""
        return self.next()

    def rest_of_line(self) -> list[str]:
        """``SkipRestOfLine``: the remaining tokens of the current line."""
        out = []
        while tok := self.next_on_line():
            out.append(tok)
        return out

    def line_of_next(self) -> int:
        return self.tokens[self.pos].line if self.pos < len(self.tokens) else self.line
