"""The delta-field compiler: a protocol's entity-update field table + one update's bit mask → a small reader.

A field table lists the fields of an entity update in wire order (:class:`Field`: which bits must be set — and which
clear — for it to be present, its struct code, the state column it writes and how).  For each distinct bit mask
:class:`DeltaPlans` compiles one specialised function (one ``Struct.unpack_from`` for every field present, one
``Struct.pack`` of the whole state row; columns not sent keep the base state's values), so the hot loop makes one
call per update.  The generated source holds only the table's own constants (column indices, scales), never input
bytes.  Two shapes, after where the protocol puts the entity number:

* ``number`` given (NetQuake: the number follows the bits): ``upd(data, p, base_of, out) -> (number, p)``; the base
  state is ``base_of(number) or default`` and the packed row goes to ``out``;
* ``number`` ``None`` (QuakeWorld, later Quake II: the number came with the bits): ``upd(data, p, base, number) ->
  (state, row, p)``.

Compiling costs far more than reading one update, so the number of compiled masks per table is capped
(:data:`MAX_COMPILED`, far above the 30 or so a real demo uses); rarer masks get an interpreted reader
(:func:`interpret_delta`, the same shapes and the same arithmetic, a loop over the present fields), so a file
that sends a new mask with every update costs time proportional to its size.

References: ioquake3 ``msg.c`` ``MSG_ReadDeltaEntity`` (one loop over a field table); QuakeSpasm ``cl_parse.c``
``CL_ParseUpdate``; ezQuake ``cl_ents.c`` ``CL_ParseDelta``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import Any
from collections.abc import Callable, Sequence

__all__ = ["Op", "Field", "compile_delta", "interpret_delta", "DeltaPlans", "MAX_COMPILED", "MAX_CACHED"]

#: Masks compiled per field table; later masks are interpreted.
MAX_COMPILED = 64
#: Readers kept per field table; beyond this a reader is built for each update that needs it.
MAX_CACHED = 4096


class Op(IntEnum):
    """How a field's value combines with its column."""

    SET = 0         # column = value * scale + offset
    ADD = 1         # column += value * scale (the fraction byte of a 24-bit coordinate)
    HIGH_BYTE = 2   # column = low byte of column | value << 8 (FitzQuake U_FRAME2 / U_MODEL2)
    INTERVAL = 3    # column = max(value * scale, 0.001) (U_LERPFINISH)
    SKIP = 4        # read and dropped
    COPY = 5        # column = the base state's column ``offset``, nothing read (Quake II old_origin = old origin)


@dataclass(frozen=True, slots=True)
class Field:
    """One wire field: present when ``bits & when == when`` and ``bits & unless == 0``."""

    when: int
    code: str
    column: int = -1
    scale: float = 1.0
    op: Op = Op.SET
    offset: int = 0
    unless: int = 0


def _present(fields: Sequence[Field], bits: int) -> list[Field]:
    return [f for f in fields if bits & f.when == f.when and not bits & f.unless]


def _value(name: str, f: Field) -> str:
    v = name if f.scale == 1 else f"{name} * {f.scale!r}"
    return f"({v} + {f.offset})" if f.offset else v


def compile_delta(fields: Sequence[Field], bits: int, ncols: int, row: struct.Struct, *,
                  number: str | None = None, default: Sequence[Any] = (), number_column: int = 0) -> Callable:
    """Compile the update with ``bits`` of the field table ``fields`` (see the module docstring for the shapes)."""
    fmt = "<" + (number or "")
    expr = [f"b[{i}]" for i in range(ncols)]
    expr[number_column] = "n"
    names: list[str] = []
    for f in _present(fields, bits):
        if f.op == Op.COPY:
            expr[f.column] = f"b[{f.offset}]"
            continue
        fmt += f.code
        v = f"v{len(names)}"
        names.append(v)
        if f.op == Op.SET:
            expr[f.column] = _value(v, f)
        elif f.op == Op.ADD:
            expr[f.column] = f"({expr[f.column]} + {_value(v, f)})"
        elif f.op == Op.HIGH_BYTE:
            expr[f.column] = f"((int({expr[f.column]}) & 255) | ({v} << 8))"
        elif f.op == Op.INTERVAL:
            expr[f.column] = f"max({_value(v, f)}, 0.001)"
    st = struct.Struct(fmt)
    if number is not None:
        source = (f"def upd(data, p, base_of, out):\n"
                  f"    {', '.join(['n'] + names)}, = unpack(data, p)\n"
                  f"    b = base_of(n) or default\n"
                  f"    out(pack({', '.join(expr)}))\n"
                  f"    return n, p + {st.size}\n")
    else:
        unpack_line = f"    {', '.join(names)}, = unpack(data, p)\n" if names else ""
        source = (f"def upd(data, p, b, n):\n{unpack_line}"
                  f"    s = ({', '.join(expr)})\n"
                  f"    return s, pack(*s), p + {st.size}\n")
    namespace: dict[str, Any] = {"unpack": st.unpack_from, "pack": row.pack, "default": tuple(default)}
    exec(compile(source, f"<delta 0x{bits:x}>", "exec"), namespace)  # noqa: S102 - our own constants only
    return namespace["upd"]


def interpret_delta(fields: Sequence[Field], bits: int, ncols: int, row: struct.Struct, *,
                    number: str | None = None, default: Sequence[Any] = (), number_column: int = 0) -> Callable:
    """The reader :func:`compile_delta` would make for ``bits``, as a loop over the present fields (no code
    generation): same shapes, same results."""
    sent = [f for f in _present(fields, bits) if f.op != Op.COPY]
    copies = [(f.column, f.offset) for f in _present(fields, bits) if f.op == Op.COPY]
    present = [(f.column, f.op, f.scale, f.offset) for f in sent]
    st = struct.Struct("<" + (number or "") + "".join(f.code for f in sent))
    size = st.size
    unpack = st.unpack_from
    pack = row.pack
    base_default = tuple(default)

    def apply(b: Sequence[Any], n: int, values: Sequence[Any]) -> tuple:
        s = list(b[:ncols])
        for column, source in copies:
            s[column] = b[source]
        for (column, op, scale, offset), v in zip(present, values):
            if op == Op.HIGH_BYTE:
                s[column] = (int(s[column]) & 255) | (v << 8)
                continue
            if op == Op.SKIP:
                continue
            x = v if scale == 1 else v * scale
            if offset:
                x = x + offset
            if op == Op.SET:
                s[column] = x
            elif op == Op.ADD:
                s[column] = s[column] + x
            else:
                s[column] = max(x, 0.001)
        s[number_column] = n
        return tuple(s)

    if number is not None:
        def upd_numbered(data: bytes, p: int, base_of: Callable, out: Callable) -> tuple[int, int]:
            n, *values = unpack(data, p)
            out(pack(*apply(base_of(n) or base_default, n, values)))
            return n, p + size
        return upd_numbered

    def upd(data: bytes, p: int, b: Sequence[Any], n: int) -> tuple[tuple, bytes, int]:
        s = apply(b, n, unpack(data, p))
        return s, pack(*s), p + size
    return upd


class DeltaPlans(dict):
    """Readers by bit mask for one field table; ``plans[bits]`` builds on first use (compiled for the first
    :data:`MAX_COMPILED` masks, interpreted after that)."""

    def __init__(self, fields: Sequence[Field], ncols: int, row: struct.Struct, *, number: str | None = None,
                 wide_number: str | None = None, wide_bit: int = 0, default: Sequence[Any] = ()) -> None:
        super().__init__()
        self.fields = tuple(fields)
        self.ncols = ncols
        self.row = row
        self.number = number
        self.wide_number = wide_number
        self.wide_bit = wide_bit
        self.default = tuple(default)

        self.compiled = 0

    def __missing__(self, bits: int) -> Callable:
        number = self.wide_number if (self.wide_bit and bits & self.wide_bit) else self.number
        if self.compiled < MAX_COMPILED:
            self.compiled += 1
            make = compile_delta
        else:
            make = interpret_delta
        plan = make(self.fields, bits, self.ncols, self.row, number=number, default=self.default)
        if len(self) < MAX_CACHED:
            self[bits] = plan
        return plan
