"""Find every shader's ``name { … }`` block in a script without parsing it, as the engine indexes its scripts.

ioquake3 reads all scripts at start-up but parses a shader only when a surface or model asks for it: it notes
where each name's braced block is (``SkipBracedSection``) and parses that text in ``R_FindShader``. This scan
does the same: a regular expression visits only the tokens that matter for nesting (stand-alone braces,
comments and quoted strings, at token starts as ``COM_ParseExt`` sees them) and the few words between blocks are
the names. Unbalanced braces, or words between blocks other than one name, are the errors the full parser
reports for the file (:class:`~.parser.ShaderSyntaxError`).

References: ioquake3 ``renderergl1/tr_shader.c`` (``ScanAndLoadShaderFiles``, ``FindShaderInShaderText``),
``qcommon/q_shared.c`` (``SkipBracedSection``, ``COM_ParseExt``).
"""

from __future__ import annotations

import re

from .parser import MAX_SHADER_STAGES, ShaderSyntaxError, shader_key

#: Comments, quoted strings and stand-alone braces, each only where a token can start (the first character is
#: matched before the look-behind, which lets the scan skip ordinary characters quickly).
_NESTING = re.compile(r'[/"{}](?<!\S.)(?:(?<=/)(?:/[^\n]*|\*.*?(?:\*/|\Z))|(?<=")[^"]*"?|(?<=[{}])(?!\S))',
                      re.DOTALL)
#: Every token (``tokens._TOKEN``), for the few words between blocks.
_WORD = re.compile(r'//[^\n]*|/\*.*?(?:\*/|\Z)|"[^"]*"?|[^\s]+', re.DOTALL)


def _words(text: str, start: int, end: int) -> list[str]:
    """The tokens of ``text[start:end]`` without comments, quotes removed."""
    return [w.strip('"') if w[0] == '"' else w for w in _WORD.findall(text, start, end) if w[:2] not in ("//", "/*")]


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def shader_blocks(text: str | bytes, source: str = "<text>") -> dict[str, str]:
    """Each shader's text (its name through its closing brace) by :func:`~.parser.shader_key`; a name defined
    twice in one script keeps its first block."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("latin-1")
    out: dict[str, str] = {}
    depth = 0
    gap = 0          # where the text between blocks starts
    name, start = "", 0
    for m in _NESTING.finditer(text):
        tok = m.group()
        if tok == "{":
            if depth == 0:
                words = _words(text, gap, m.start())
                if len(words) != 1:
                    found = "a '{' without a name" if not words else f"{' '.join(words[:3])!r}"
                    raise ShaderSyntaxError(source, "shader script", None,
                                            f"one shader name before the '{{' on line {_line(text, m.start())}",
                                            found)
                name, start = words[0], gap
            depth += 1
        elif tok == "}":
            depth -= 1
            if depth < 0:
                raise ShaderSyntaxError(source, "shader script", None, "a shader name",
                                        f"a '}}' on line {_line(text, m.start())}")
            if depth == 0:
                out.setdefault(shader_key(name), text[start:m.end()])
                gap = m.end()
    if depth > 0:
        raise ShaderSyntaxError(source, "shader script", None, f"a '}}' closing shader {name!r}", "end of text")
    rest = _words(text, gap, len(text))
    if rest:
        raise ShaderSyntaxError(source, "shader script", None, f"'{{' after shader name {rest[0]!r}",
                                "end of text")
    return out


def cut_past_stage_cap(block: str) -> str:
    """One shader's block (:func:`shader_blocks`) cut just after the brace opening a stage past
    ``MAX_SHADER_STAGES`` and closed there: the parser warns at that stage and ignores the rest as ``ParseShader``
    does, so the rest (a million stages) is never tokenized."""
    depth = stages = 0
    for m in _NESTING.finditer(block):
        tok = m.group()
        if tok in ("{", "}"):
            depth += 1 if tok == "{" else -1
            stages += depth == 2 and tok == "{"
            if stages > MAX_SHADER_STAGES:
                return block[:m.end()] + "\n}\n}\n"
    return block
