"""Writers for Quake III text files and packs: shader scripts, ``animation.cfg``, ``.skin`` and ``.pk3`` zips."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping


def shader_script(shaders: dict[str, tuple[list[str], list[list[str]]]]) -> str:
    """A script from ``name → (general lines, [stage lines…])``."""
    out = []
    for name, (general, stages) in shaders.items():
        out.append(name)
        out.append("{")
        out.extend("\t" + line for line in general)
        for stage in stages:
            out.append("\t{")
            out.extend("\t\t" + line for line in stage)
            out.append("\t}")
        out.append("}")
    return "\n".join(out) + "\n"


def animation_cfg(rows: list[tuple[int, int, int, int]], header: str = "sex m\n") -> str:
    """An ``animation.cfg``: the header keywords, then ``first count loop fps`` per line."""
    return header + "".join(f"{a}\t{b}\t{c}\t{d}\t\t// row {i}\n" for i, (a, b, c, d) in enumerate(rows))


def build_pk3(files: Mapping[str, bytes | str], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip holding ``files`` (name → bytes or text) in order."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()
