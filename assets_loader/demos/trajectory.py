"""The Quake III trajectory rule (``GameSchema.trajectory == "quake3"``): where an entity is at a given server time.

An ``entityState_t`` carries its motion as two ``trajectory_t`` (``pos`` for the origin, ``apos`` for the
angles): a type, a start time and duration (ms), a base and a delta vector.  :func:`evaluate_trajectory` computes
the position of many trajectories at once, like ``BG_EvaluateTrajectory``: stationary and interpolated entities
stay at the base (the snapshot lerp moves them), linear ones move at ``delta`` units/s, linear-stop ones stop after
``trDuration``, sine ones swing by ``delta`` with period ``trDuration``, gravity ones fall at 800 units/s².

References: ioquake3 ``code/game/bg_misc.c`` (``BG_EvaluateTrajectory``), ``code/qcommon/q_shared.h``
(``trType_t``), ``code/game/bg_public.h`` (``DEFAULT_GRAVITY``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["DEFAULT_GRAVITY", "TR_GRAVITY", "TR_INTERPOLATE", "TR_LINEAR", "TR_LINEAR_STOP", "TR_SINE",
           "TR_STATIONARY", "evaluate_trajectory", "moves_by_itself"]

TR_STATIONARY, TR_INTERPOLATE, TR_LINEAR, TR_LINEAR_STOP, TR_SINE, TR_GRAVITY = range(6)
DEFAULT_GRAVITY = 800.0


def moves_by_itself(tr_type: np.ndarray) -> np.ndarray:
    """bool [N]: trajectories whose position depends on time (not stationary, not snapshot-interpolated)."""
    return tr_type >= TR_LINEAR


def evaluate_trajectory(tr_type: np.ndarray, tr_time: np.ndarray, tr_duration: np.ndarray, base: np.ndarray,
                        delta: np.ndarray, at_ms: float | np.ndarray) -> np.ndarray:
    """f4 [N, 3]: the trajectories' positions at server time ``at_ms`` (a scalar or one time per row).

    An unknown type stays at its base (the engine would stop with an error; a viewer keeps drawing).
    """
    at = np.broadcast_to(np.asarray(at_ms, np.float64), tr_type.shape)
    start = tr_time.astype(np.float64)
    seconds = (at - start) * 0.001
    stop = tr_type == TR_LINEAR_STOP
    if stop.any():
        capped = np.minimum(at, start + tr_duration) - start
        seconds = np.where(stop, np.maximum(capped * 0.001, 0.0), seconds)
    factor = np.where((tr_type == TR_LINEAR) | stop | (tr_type == TR_GRAVITY), seconds, 0.0)
    sine = tr_type == TR_SINE
    if sine.any():
        duration = np.where(tr_duration != 0, tr_duration, 1).astype(np.float64)
        factor = np.where(sine, np.sin((at - start) / duration * 2.0 * np.pi), factor)
    out = base.astype(np.float64) + delta.astype(np.float64) * factor[:, None]
    gravity = tr_type == TR_GRAVITY
    if gravity.any():
        out[:, 2] -= np.where(gravity, 0.5 * DEFAULT_GRAVITY * seconds * seconds, 0.0)
    return out.astype(np.float32)
