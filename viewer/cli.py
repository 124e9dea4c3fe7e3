"""The ``qdv`` command line: argument parsing and exit codes only; the work lives in other modules.

Exit codes: 0 ok, 1 bad input (the message names the file and what is wrong), 2 usage.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Sequence

from assets_loader.errors import FormatError

EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE = 0, 1, 2


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="qdv", description="Quake-family demo viewer.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play a demo in a window (default: the bundled sample)")
    play.add_argument("demo", nargs="?", help="demo file (.dem, .dem.gz)")
    _add_game_args(play)
    play.add_argument("--start", default="0", help="start time (SS, MM:SS, N%%)")
    play.add_argument("--speed", type=float, default=1.0, help="playback speed")

    inspect = sub.add_parser("inspect", help="what is inside a pak/bsp/mdl/spr/wad/lmp/demo file")
    inspect.add_argument("file", help="a file path, or a name inside the game dirs with --basedir/--game")
    inspect.add_argument("--json", action="store_true", help="print JSON")
    _add_game_args(inspect)

    info = sub.add_parser("info", help="summary of a demo: format, protocol, maps, duration, players, events")
    info.add_argument("demo")
    info.add_argument("--json", action="store_true", help="print JSON")

    events = sub.add_parser("events", help="the events of a demo with their times")
    events.add_argument("demo")
    events.add_argument("--json", action="store_true", help="print JSON")
    events.add_argument("--kind", action="append", help="only events of this kind (repeatable)")
    return parser


def _add_game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--basedir", help="Quake base directory holding id1 and mod dirs")
    p.add_argument("--game", help="mod dir searched before id1 (e.g. lq1)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _run(args)
    except BrokenPipeError:
        return EXIT_OK
    except (FormatError, OSError) as exc:
        print(f"qdv {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except _UsageError as exc:
        print(f"qdv {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE


class _UsageError(Exception):
    """Arguments that parse but make no sense together."""


def _run(args: argparse.Namespace) -> int:
    if args.command == "inspect":
        from .inspect import inspect_file, format_report

        report = inspect_file(args.file, basedir=args.basedir, game=args.game)
        print(json.dumps(report, indent=2) if args.json else format_report(report))
        return EXIT_OK
    if args.command in ("info", "events"):
        return _run_demo_report(args)
    if args.command == "play":
        print("qdv play: the viewer window is not built yet; try `qdv inspect` or `qdv info`.", file=sys.stderr)
        return EXIT_USAGE
    raise _UsageError(f"unknown command {args.command!r}")


def _run_demo_report(args: argparse.Namespace) -> int:
    from assets_loader.demos import load_demo

    from .demo_report import events_list, format_events, format_info, info_dict, to_json

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        timeline = load_demo(args.demo)
    for w in caught:
        print(f"qdv {args.command}: warning: {w.message}", file=sys.stderr)
    if args.command == "info":
        info = info_dict(timeline, args.demo)
        print(to_json(info) if args.json else format_info(info))
    else:
        try:
            events = events_list(timeline, kinds=args.kind)
        except ValueError as exc:
            raise _UsageError(str(exc)) from None
        print(to_json(events) if args.json else format_events(events))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
