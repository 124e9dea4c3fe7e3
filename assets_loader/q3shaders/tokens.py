"""Tokens of Quake III text files the way ``COM_ParseExt`` splits them, with the line each starts on.

Whitespace separates tokens; ``//`` and ``/* … */`` start comments (only where a token could start); a
``"quoted string"`` is one token. Braces are ordinary words, so ``{`` needs whitespace around it like in the
engine. The parser asks for the next token either anywhere or only on the current line (``allowLineBreaks``).

References: ioquake3 ``qcommon/q_shared.c`` (``COM_ParseExt``, ``SkipWhitespace``, ``SkipRestOfLine``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r'\s+|//[^\n]*|/\*.*?(?:\*/|\Z)|"[^"]*"?|[^\s]+', re.DOTALL)


@dataclass(frozen=True, slots=True)
class Token:
    """``text`` (quotes removed), the 1-based ``line`` it starts on and the line it ends on."""

    text: str
    line: int
    end_line: int


def tokenize(text: str) -> list[Token]:
    """Every token of ``text`` in order."""
    out: list[Token] = []
    line = 1
    for m in _TOKEN.finditer(text):
        chunk = m.group()
        first = chunk[0]
        newlines = chunk.count("\n")
        if first.isspace() or chunk.startswith(("//", "/*")):
            line += newlines
            continue
        word = chunk[1:].removesuffix('"') if first == '"' else chunk
        out.append(Token(word, line, line + newlines))
        line += newlines
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
