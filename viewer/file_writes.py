"""Every file qdv writes goes through here, so no write ever follows a symbolic link it did not create.

Two ways to write:

* :func:`replace_file` — settings and camera paths: the bytes go into a fresh temporary name made by
  ``tempfile.mkstemp`` in the target's folder (``O_CREAT | O_EXCL``, never an existing name, so a link planted at
  ``X.tmp`` is never opened), which is then renamed over the target: a reader sees the old file or the new one,
  and a link at the target itself is replaced, not followed.
* :func:`open_new` — pictures and videos, written as they are produced: ``O_CREAT | O_EXCL`` (a new file only)
  or, with ``force``, ``O_NOFOLLOW`` (an existing regular file or device is written over; a link at the name is
  removed and a new file made in its place). ``O_NONBLOCK`` while opening keeps a FIFO without a reader from
  hanging the open.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO

#: Mode of a file made here (before the umask, as ``open`` does).
_NEW_FILE_MODE = 0o666


def replace_file(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` through a fresh temporary file in the same folder, renamed over ``path``.
    The file keeps the permissions of the regular file it replaces (else: ``0o644``)."""
    target = Path(path)
    try:
        st = os.lstat(target)
        mode = stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else 0o644
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), mode)
            f.write(data)
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise


def open_new(path: str | os.PathLike, force: bool = False) -> BinaryIO:
    """``path`` opened for writing in binary: a new file, or with ``force`` whatever file is there (``FileExistsError``
    without it). A symbolic link at ``path`` is never followed: it is an existing name without ``force``, and is
    replaced by a new file with it."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    flags |= os.O_TRUNC if force else os.O_EXCL
    try:
        fd = os.open(path, flags, _NEW_FILE_MODE)
    except OSError as exc:
        if not force or exc.errno != errno.ELOOP:
            raise
        os.unlink(path)  # a link where the file goes: replaced, never written through
        fd = os.open(path, flags | os.O_EXCL, _NEW_FILE_MODE)
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    return os.fdopen(fd, "wb")
