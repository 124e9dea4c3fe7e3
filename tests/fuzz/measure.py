"""Run a command in a child process and measure it: CPU seconds, wall seconds and peak resident memory.

The figures come from ``os.wait4`` (the child's own ``rusage``), taken by a small launcher that forks the command
as its own child: a process started straight from this one would carry this process's peak memory in its
``ru_maxrss`` (Linux keeps the high-water mark of the address space it had before ``exec``, and a fork starts with the
parent's), so a test session grown large would be measured instead of the command.  The command can be given a hard
address-space cap (``RLIMIT_AS``) so an input that would exhaust memory fails inside it instead of on the machine.
A wall-clock timeout kills a child that hangs; it is a safety net, not a measurement: bounds are asserted on CPU
time and peak memory.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: Run as ``python -c _LAUNCH MB REPORT ARGV…``: fork ARGV as a fresh child (its address space capped at MB unless
#: MB is 0), wait for it, write its CPU seconds and peak kilobytes to REPORT and end the way it ended.
_LAUNCH = ("import os, resource, signal, sys\n"
           "cap, report, argv = int(sys.argv[1]) << 20, sys.argv[2], sys.argv[3:]\n"
           "pid = os.fork()\n"
           "if pid == 0:\n"
           "    if cap:\n"
           "        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))\n"
           "    try:\n"
           "        os.execvp(argv[0], argv)\n"
           "    finally:\n"
           "        os._exit(127)\n"
           "_, status, usage = os.wait4(pid, 0)\n"
           "with open(report, 'w') as f:\n"
           "    f.write(f'{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}')\n"
           "code = os.waitstatus_to_exitcode(status)\n"
           "if code < 0:\n"
           "    if -code != signal.SIGKILL:\n"
           "        signal.signal(-code, signal.SIG_DFL)\n"
           "    os.kill(os.getpid(), -code)\n"
           "os._exit(code)\n")


@dataclass(frozen=True, slots=True)
class Measurement:
    """What one child run cost and printed: ``returncode`` is ``None`` when the timeout killed it."""

    cpu_seconds: float
    wall_seconds: float
    peak_mb: float
    returncode: int | None
    stdout: str
    stderr: str

    @property
    def timed_out(self) -> bool:
        return self.returncode is None

    def summary(self) -> str:
        end = "killed by timeout" if self.timed_out else f"exit {self.returncode}"
        return f"{self.cpu_seconds:.2f} s CPU, {self.wall_seconds:.2f} s wall, {self.peak_mb:.0f} MB peak, {end}"


def run_measured(argv: Sequence[str], *, timeout: float = 120.0, max_address_mb: int | None = None,
                 cwd: str | os.PathLike = REPO, env: dict[str, str] | None = None,
                 stdin: int | None = subprocess.DEVNULL) -> Measurement:
    """Run ``argv`` (the child's stdout/stderr go to temporary files) and return its :class:`Measurement`."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".usage") as report:
        argv = [sys.executable, "-c", _LAUNCH, str(max_address_mb or 0), report.name, *argv]
        start = time.monotonic()
        proc = subprocess.Popen(list(argv), cwd=cwd, env=env, stdin=stdin, stdout=out, stderr=err,
                                start_new_session=True)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            os.killpg(proc.pid, signal.SIGKILL)

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4: tell Popen
        figures = report.read().split()                       # empty when the launcher was killed
        cpu, peak_kb = (float(figures[0]), float(figures[1])) if len(figures) == 2 else \
            (usage.ru_utime + usage.ru_stime, float(usage.ru_maxrss))
        out.seek(0)
        err.seek(0)
        return Measurement(cpu_seconds=cpu, wall_seconds=wall,
                           peak_mb=peak_kb / 1024, returncode=None if killed.is_set() else proc.returncode,
                           stdout=out.read().decode(errors="replace"), stderr=err.read().decode(errors="replace"))


def run_python(code: str, *args: str, **kwargs) -> Measurement:
    """:func:`run_measured` on ``python -c code args…`` with this interpreter, from the repository root."""
    return run_measured([sys.executable, "-c", code, *args], **kwargs)


def run_qdv(*args: str, **kwargs) -> Measurement:
    """:func:`run_measured` on the ``qdv`` command line (``python -m viewer.cli``) of this checkout."""
    return run_measured([sys.executable, "-m", "viewer.cli", *args], **kwargs)
