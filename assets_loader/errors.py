"""Typed errors for every loader: file, format, byte offset, and what was expected.

Every parser in :mod:`assets_loader` raises only :class:`FormatError` subclasses, so callers (and the CLI) can
report bad input in one clear line instead of a traceback from deep inside.
"""

from __future__ import annotations


class FormatError(Exception):
    """A file does not match its format.

    ``path`` names the file (or ``"<bytes>"``), ``fmt`` the format being read ("PAK", "BSP29", ...),
    ``offset`` the byte offset where the problem was found (``None`` if unknown) and ``expected`` what the
    reader expected to find there.
    """

    def __init__(self, path: str, fmt: str, offset: int | None, expected: str, found: str | None = None) -> None:
        self.path = path
        self.fmt = fmt
        self.offset = offset
        self.expected = expected
        self.found = found
        where = f" at offset {offset}" if offset is not None else ""
        got = f", found {found}" if found is not None else ""
        super().__init__(f"{path}: bad {fmt} file{where}: expected {expected}{got}")


class BadMagicError(FormatError):
    """Wrong magic number or unsupported version."""


class TruncatedError(FormatError):
    """The file ends before a record, lump or count it declares."""


class BadIndexError(FormatError):
    """An index or count points outside the table it refers to."""


class NotFoundError(FormatError):
    """A file named inside a game filesystem or pak does not exist."""

    def __init__(self, path: str, fmt: str, offset: int | None, expected: str, found: str | None = None) -> None:
        super().__init__(path, fmt, offset, expected, found)
        self.args = (f"{path}: {fmt} not found: expected {expected}",)


class NotAFileError(FormatError):
    """A path names something that is not a regular file (a FIFO, a device such as ``/dev/zero``, a socket):
    refused before reading, since it may never end or never deliver a byte. ``found`` says what it is."""

    def __init__(self, path: str, fmt: str, offset: int | None, expected: str, found: str | None = None) -> None:
        super().__init__(path, fmt, offset, expected, found)
        self.args = (f"{path}: {found}; expected {expected}",)


class TooLargeError(FormatError):
    """The input (or what it inflates to) is larger than the limit set for its kind; ``expected`` says how to
    raise the limit."""

    def __init__(self, path: str, fmt: str, offset: int | None, expected: str, found: str | None = None) -> None:
        super().__init__(path, fmt, offset, expected, found)
        self.args = (f"{path}: {found}; expected {expected}",)


class UnsupportedFormatError(FormatError):
    """A well-formed file of a kind (or version) qdv recognises but does not read: ``found`` says what it is."""

    def __init__(self, path: str, fmt: str, offset: int | None, expected: str, found: str | None = None) -> None:
        super().__init__(path, fmt, offset, expected, found)
        self.args = (f"{path}: {found}; expected {expected}",)


class OverBudgetError(TooLargeError):
    """A small input that stands for too much work: more tessellated vertices, lightmap texels, frames × vertices,
    texture pixels (…) than the budget of :mod:`assets_loader.budgets`; ``expected`` names the budget and the
    environment variable raising it."""
