"""The fuzz loop shared by every parser family: mutate a corpus file, load it, and demand a result or a
:class:`~assets_loader.errors.FormatError` within a CPU-time and memory budget.

Mutations (a hypothesis strategy, so a failure shrinks to a short list of edits on one seed): overwrite a byte,
write an extreme 32-bit value (0, -1, 2^31-1, -2^31, a large count), cut the file, delete, duplicate or insert a run
of bytes, or share a range: copy 8 bytes (a record's first/count pair) over the same place in up to 63 later
records, so they all point at the same data (issue 30's amplification shape; seeds of that shape come from
:mod:`tests.fuzz.shared_ranges`). Each input gets :data:`CPU_SECONDS` of CPU time, enforced with ``ITIMER_PROF``
(CPU time, so a busy machine does not make it flaky), and may raise the process's peak resident size by at most
:data:`INPUT_MB` (the kernel's ``VmHWM``, reset before each input through ``/proc/self/clear_refs``, so numpy's
allocations count too); the whole child process is also capped by the caller (``RLIMIT_AS``,
:func:`tests.fuzz.measure.run_measured`), so an allocation too large to make at all surfaces as a ``MemoryError``
failure. Anything else than a result or a ``FormatError`` is a failure.
"""

from __future__ import annotations

import signal
import struct
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from assets_loader.errors import FormatError

#: CPU seconds one input may take (real files load in well under a second).
CPU_SECONDS = 10.0
#: Most memory one input may add to the process's peak resident size.
INPUT_MB = 512
_CLEAR_REFS = "/proc/self/clear_refs"
_STATUS = "/proc/self/status"
_EXTREMES = (0, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x00100000, 0x7FFF, 0xFFFF, 1)


@dataclass(frozen=True, slots=True)
class Target:
    """A loader under test: ``load(data, name)`` must return or raise a ``FormatError``; ``seeds`` are the
    (name, bytes) corpus files it starts from."""

    name: str
    load: Callable[[bytes, str], object]
    seeds: Callable[[], Sequence[tuple[str, bytes]]]


class CpuTimeExceeded(Exception):
    """An input used more than its CPU-time budget."""


@dataclass(slots=True)
class Stats:
    """What a run did: inputs tried, how they ended, the slowest input."""

    inputs: int = 0
    results: int = 0
    format_errors: int = 0
    slowest_cpu: float = 0.0
    slowest_input: str = ""
    largest_mb: float = 0.0
    largest_input: str = ""
    by_target: dict[str, int] = field(default_factory=dict)


def _edit(data: bytearray, op: int, where: int, value: int, span: int) -> None:
    if not data:
        data.extend(value.to_bytes(4, "little"))
        return
    pos = (where * 2654435761) % len(data)  # Knuth's multiplicative hash: small draws land anywhere
    if op == 0:
        data[pos] = value & 0xFF
    elif op == 1:
        data[pos:pos + 4] = struct.pack("<I", _EXTREMES[value % len(_EXTREMES)])
    elif op == 2:
        del data[pos + 1:]
    elif op == 3:
        del data[pos:pos + span]
    elif op == 4:
        data[pos:pos] = data[pos:pos + span]
    elif op == 5:
        data[pos:pos] = bytes((value + i * 31) & 0xFF for i in range(span))
    else:
        window = bytes(data[pos:pos + 8])
        stride = 4 * (value % 32 + 1)
        for at in range(pos + stride, min(len(data) - 8, pos + stride * (span % 64)) + 1, stride):
            data[at:at + 8] = window


_EDITS = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 1 << 31), st.integers(0, 0xFFFF), st.integers(1, 4096)),
                  min_size=1, max_size=4)


def mutate(data: bytes, edits: Sequence[tuple[int, int, int, int]]) -> bytes:
    """``data`` after ``edits`` (``(operation, position draw, value, span)`` each)."""
    out = bytearray(data)
    for edit in edits:
        _edit(out, *edit)
    return bytes(out)


def _status_mb(field: str) -> float:
    """A size line of ``/proc/self/status`` (``VmRSS``, ``VmHWM``) in MB."""
    with open(_STATUS, "rb") as f:
        for line in f:
            if line.startswith(field.encode() + b":"):
                return int(line.split()[1]) / 1024
    raise OSError(f"{_STATUS} has no {field}")


def _reset_peak_rss() -> float:
    """Reset the kernel's peak-RSS mark (``VmHWM``) to the current size and return that size in MB."""
    with open(_CLEAR_REFS, "wb") as f:
        f.write(b"5")
    return _status_mb("VmRSS")


def _on_cpu_limit(signum, frame) -> None:
    raise CpuTimeExceeded(f"more than {CPU_SECONDS} s of CPU")


def check_one(target: Target, data: bytes, name: str, stats: Stats) -> None:
    """Load ``data`` once; raise ``AssertionError`` unless it gives a result or a ``FormatError`` in budget."""
    base = _reset_peak_rss()
    start = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, CPU_SECONDS)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            target.load(data, name)
        stats.results += 1
    except FormatError:
        stats.format_errors += 1
    except (CpuTimeExceeded, MemoryError) as exc:
        raise AssertionError(f"{target.name} on a mutated {name}: {type(exc).__name__}: {exc}") from None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    spent = time.process_time() - start
    allocated = _status_mb("VmHWM") - base
    if allocated > INPUT_MB:
        raise AssertionError(f"{target.name} on a mutated {name}: allocated {allocated:.0f} MB (> {INPUT_MB})")
    stats.inputs += 1
    stats.by_target[target.name] = stats.by_target.get(target.name, 0) + 1
    if spent > stats.slowest_cpu:
        stats.slowest_cpu, stats.slowest_input = spent, f"{target.name} on a mutated {name}"
    if allocated > stats.largest_mb:
        stats.largest_mb, stats.largest_input = allocated, f"{target.name} on a mutated {name}"


def fuzz(targets: Sequence[Target], examples: int, start_seed: int, deadline: float | None = None) -> Stats:
    """Run ``examples`` mutated inputs per hypothesis batch over ``targets``, from ``start_seed``: one batch
    when ``deadline`` (a ``time.monotonic()`` value) is ``None``, else batches with the next seeds until then."""
    signal.signal(signal.SIGPROF, _on_cpu_limit)
    stats = Stats()
    corpus = [(t, name, data) for t in targets for name, data in t.seeds()]
    run_seed = start_seed
    while True:
        @seed(run_seed)
        @settings(max_examples=examples, deadline=None, database=None, derandomize=False, print_blob=True,
                  suppress_health_check=list(HealthCheck))
        @given(st.integers(0, 1 << 16), _EDITS)
        def batch(index, edits) -> None:
            target, name, data = corpus[index % len(corpus)]
            check_one(target, mutate(data, edits), name, stats)

        batch()
        run_seed += 1
        if deadline is None or time.monotonic() >= deadline:
            return stats
