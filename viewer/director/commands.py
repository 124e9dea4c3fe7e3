"""``qdv director DEMO [--json]`` and the ``--camera director`` of ``play`` / ``screenshot`` / ``render``: the
argument parsing and the command, kept out of :mod:`viewer.cli`."""

from __future__ import annotations

import argparse
import json

from assets_loader.demos import DemoTimeline

from .plan import DirectorPlan, plan_director
from .report import plan_dict, plan_table

__all__ = ["DirectorOptionError", "add_parser", "director_for", "run"]


class DirectorOptionError(ValueError):
    """Options that do not go with ``--camera director``."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The ``director`` command."""
    p = sub.add_parser("director", help="the automatic director's shot list: who is watched when, with which "
                                        "camera and why (what --camera director plays and renders)")
    p.add_argument("demo")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> str:
    """The shot list of ``args.demo`` as ``qdv director`` prints it."""
    from assets_loader.demos import load_demo

    plan = plan_director(load_demo(args.demo))
    return json.dumps(plan_dict(plan, args.demo), indent=2) if args.json else plan_table(plan)


def director_for(timeline: DemoTimeline, mode: str, pov: str | None) -> DirectorPlan | None:
    """The shot list of ``--camera director`` (``None`` for another camera); :class:`DirectorOptionError` when
    ``--pov`` asks for a player as well (the director picks them)."""
    if mode != "director":
        return None
    if pov is not None:
        raise DirectorOptionError(f"--pov {pov}: the director picks whom to watch (give --pov or --camera director)")
    return plan_director(timeline)
