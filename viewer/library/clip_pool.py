"""``qdv render --highlights`` in parallel, as ``qdv index`` decodes: a job (the CLI's ``qdv render`` of one clip, a
pure function of the clip) mapped over a pool of ``spawn`` processes, each making its own EGL context.

A clip that fails is one :class:`ClipOutcome` with its message and the others go on; a clip that kills its process
(which breaks the whole pool) is found by trying the clips of the broken pool again, each alone. Ctrl+C reaches the
parent, which stops the run: each pool process interrupts the clip it renders as Ctrl+C interrupts ``qdv render``
(the file keeps the frames written) and begins no other.

References: Python ``concurrent.futures.ProcessPoolExecutor`` (``BrokenProcessPool``), ``_thread.interrupt_main``.
"""

from __future__ import annotations

import _thread
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.synchronize import Event as EventType

from .highlights import Clip

__all__ = ["ClipJob", "ClipOutcome", "render_clips"]


@dataclass(frozen=True, slots=True)
class ClipOutcome:
    """How rendering ``clip`` ended: ``written`` (the file is whole), else ``message`` says why not; ``interrupted``
    by Ctrl+C (the file then holds the frames written before it, or is removed); ``warnings`` raised meanwhile."""

    clip: Clip
    written: bool
    message: str
    interrupted: bool = False
    warnings: tuple[str, ...] = ()


#: A clip's job: picklable (a module's function, or a partial of one), a pure function of the clip.
ClipJob = Callable[[Clip], ClipOutcome]


#: In a pool process: the parent stopped the run (Ctrl+C). A plain flag: the main thread never waits on the event.
_stopped = False


def _pool_process(stop: EventType) -> None:
    """A pool process: Ctrl+C from the terminal is left to the parent, which sets ``stop``; a thread then interrupts
    the clip being rendered as Ctrl+C interrupts ``qdv render`` (:func:`_run_job`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_interrupt_when, args=(stop,), name="qdv-stop", daemon=True).start()


def _interrupt_when(stop: EventType) -> None:
    global _stopped
    stop.wait()
    _stopped = True
    _thread.interrupt_main()    # KeyboardInterrupt in a clip (its SIGINT handler); nothing between clips (ignored)


def _run_job(job: ClipJob, clip: Clip) -> ClipOutcome:
    """``job(clip)`` in a pool process; once the run is stopped it ends between frames (the file keeps the frames
    written) or does not begin."""
    begun = False
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)    # interrupt_main() raises KeyboardInterrupt now
        if not _stopped:    # checked after the handler is set: a stop after this raises in the job
            begun = True
            return job(clip)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return ClipOutcome(clip, False, "interrupted" if begun else "interrupted before it began", interrupted=True)


def _failed(clip: Clip, exc: BaseException) -> ClipOutcome:
    if isinstance(exc, BrokenProcessPool):
        return ClipOutcome(clip, False, "its rendering process ended abruptly")
    if isinstance(exc, KeyboardInterrupt):
        return ClipOutcome(clip, False, "interrupted", interrupted=True)
    return ClipOutcome(clip, False, str(exc) or type(exc).__name__)


def _pool_outcomes(job: ClipJob, clips: Sequence[Clip], indices: Iterable[int], workers: int,
                   done: Callable[[int, ClipOutcome], None]) -> tuple[list[int], bool]:
    """Render ``clips[i]`` for ``indices`` in ``workers`` spawned processes (each makes its own EGL context),
    calling ``done(i, outcome)`` per clip. Returns the indices of clips whose process died (which breaks the pool:
    the clips still running or queued then fail with it) and whether Ctrl+C was pressed: the queued clips are then
    cancelled and the running ones finalised."""
    broken, interrupted = [], False
    spawn = multiprocessing.get_context("spawn")
    stop = spawn.Event()
    with ProcessPoolExecutor(workers, spawn, _pool_process, (stop,)) as pool:
        ours = signal.signal(signal.SIGINT, signal.SIG_IGN)     # the processes start in submit(): while they import
        try:
            futures: dict[Future[ClipOutcome], int] = {pool.submit(_run_job, job, clips[i]): i for i in indices}
        finally:
            signal.signal(signal.SIGINT, ours)
        pending = set(futures)
        while pending:
            try:
                for future in as_completed(pending):
                    pending.discard(future)
                    i, exc = futures[future], future.exception()
                    if exc is None:
                        done(i, future.result())
                    elif isinstance(exc, BrokenProcessPool):
                        broken.append(i)
                    else:       # an unexpected error fails its clip only, with its message
                        done(i, _failed(clips[i], exc))
            except KeyboardInterrupt:
                interrupted = True
                stop.set()
                for future in [f for f in pending if f.cancel()]:
                    pending.discard(future)
                    done(futures[future], ClipOutcome(clips[futures[future]], False, "interrupted before it began",
                                                      interrupted=True))
    return sorted(broken), interrupted


def render_clips(job: ClipJob, clips: Sequence[Clip], workers: int,
                 progress: Callable[[ClipOutcome], None] | None = None) -> list[ClipOutcome]:
    """Each of ``clips`` rendered by ``job`` (a picklable function of one clip) in a pool of ``workers`` processes
    (one: here, in turn), ``progress(outcome)`` as each ends; the outcomes in the order of ``clips``. A clip that
    raises fails alone; clips whose pool broke (a process killed or crashed) are tried again each in its own pool,
    so only the clip that kills its process fails. Ctrl+C ends the run (``KeyboardInterrupt``) after the running
    clips are finalised."""
    outcomes: list[ClipOutcome | None] = [None] * len(clips)

    def done(i: int, outcome: ClipOutcome) -> None:
        outcomes[i] = outcome
        if progress is not None:
            progress(outcome)

    if workers <= 1 or len(clips) <= 1:
        for i, clip in enumerate(clips):
            try:
                outcome = job(clip)
            except Exception as exc:     # noqa: BLE001 - as in the pool: the clip fails, the others go on
                outcome = _failed(clip, exc)
            done(i, outcome)
            if outcome.interrupted:
                raise KeyboardInterrupt
    else:
        broken, interrupted = _pool_outcomes(job, clips, range(len(clips)), workers, done)
        for i in broken:
            if interrupted:
                done(i, ClipOutcome(clips[i], False, "interrupted", interrupted=True))
                continue
            again, interrupted = _pool_outcomes(job, clips, [i], 1, done)
            if again:
                done(i, _failed(clips[i], BrokenProcessPool()))
        if interrupted:
            raise KeyboardInterrupt
    return [o for o in outcomes if o is not None]
