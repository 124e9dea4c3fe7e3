"""The ``qdv index`` and ``qdv find`` subcommands: their arguments (:func:`add_parsers`) and running them
(:func:`run`), kept here so that ``viewer.cli`` only hands them over."""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from pathlib import Path

__all__ = ["COMMANDS", "LibraryUsageError", "add_highlights_args", "add_parsers", "run"]

COMMANDS = ("index", "find")


class LibraryUsageError(ValueError):
    """Arguments that parse but make no sense together."""


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number ≥ 1, got {text}")
    return value


def _add_workers_arg(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--workers", type=_positive_int, metavar="N",
                   help=f"{what} processes (default: the core count, {os.cpu_count()})")


def _add_db_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="FILE", help="the library file (default: library.sqlite in the user data folder)")
    _add_workers_arg(p, "decoding")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="decode on this Dask cluster (tcp://host:8786) instead of local processes (extra 'library')")


def add_parsers(sub: argparse._SubParsersAction) -> None:
    index = sub.add_parser("index", help="index the demos under folders into the demo library (incremental)")
    index.add_argument("folders", nargs="+", metavar="DIR", help="folders to walk (recursively) or demo files")
    _add_db_args(index)

    find = sub.add_parser("find", help="search the demo library: demos by map/player/game/date, frags, multi-kills, "
                                       "sprees, chat; each hit with the 'qdv play' command that opens it")
    find.add_argument("folders", nargs="*", metavar="DIR", help="index these first and search only under them")
    _add_db_args(find)
    find.add_argument("--map", help="demos of this map")
    find.add_argument("--player", help="demos with a player whose name contains this")
    find.add_argument("--game", choices=("quake", "quakeworld", "quake2", "quake3"), help="demos of this game")
    find.add_argument("--date", help="demos of this date (a prefix: 2022, 2022-01, 2022-01-04)")
    find.add_argument("--kind", help="events of this kind (obituary, chat, intermission, …), one row each")
    find.add_argument("--killer", help="frags by a player whose name contains this")
    find.add_argument("--victim", help="frags of a player whose name contains this")
    find.add_argument("--weapon", help="frags with this weapon (rocket, railgun, lightning, …)")
    find.add_argument("--multi-kill", type=_positive_int, metavar="N", help="N frags by one player within --within")
    find.add_argument("--within", type=float, default=3.0, metavar="S", help="seconds for --multi-kill (default 3)")
    find.add_argument("--spree", type=_positive_int, metavar="N", help="N frags by one player without dying")
    find.add_argument("--text", help="chat lines containing this (case-insensitive)")
    find.add_argument("--json", action="store_true", help="print JSON")


def add_highlights_args(render: argparse.ArgumentParser) -> None:
    """``qdv render``'s highlight reel options."""
    render.add_argument("--highlights", metavar="RESULTS.json",
                        help="render each hit of 'qdv find --json' as its own clip into the folder --out")
    render.add_argument("--lead-in", type=float, default=2.0, metavar="S",
                        help="seconds before each moment (default 2)")
    render.add_argument("--lead-out", type=float, default=2.0, metavar="S",
                        help="seconds after each moment (default 2)")
    render.add_argument("--concat", metavar="FILE", help="with --highlights: join the clips into this video too")
    _add_workers_arg(render, "with --highlights: rendering")


def _index(db, folders: list[str], args: argparse.Namespace, db_path: str) -> None:
    from tqdm import tqdm

    from .index import index_folders
    from .records import DemoRecord

    stats = {"demo-min": 0.0, "errors": 0}
    with tqdm(desc="index", unit="file", file=sys.stderr, dynamic_ncols=True, mininterval=0.5) as bar:
        def progress(rec: DemoRecord, total: int) -> None:
            bar.total = total
            stats["demo-min"] += rec.info.get("duration", 0.0) / 60
            stats["errors"] += rec.error is not None
            bar.set_postfix({"demo-min": f"{stats['demo-min']:.1f}", "errors": stats["errors"]}, refresh=False)
            bar.update(1)

        try:
            result = index_folders(db, folders, workers=args.workers, scheduler=args.scheduler, progress=progress)
        except ValueError as exc:
            raise LibraryUsageError(str(exc)) from None
    print(f"{db_path}: {result.decoded} decoded ({result.demo_seconds / 60:.1f} demo-minutes, {result.errors} errors),"
          f" {result.unchanged} unchanged, {result.removed} removed, {result.duplicates} files with a duplicate",
          file=sys.stderr if args.command == "find" else sys.stdout)


def run(args: argparse.Namespace) -> int:
    from .find import Query, find, format_hits
    from .store import default_db_path, open_db

    db_path = args.db or str(default_db_path())
    for folder in args.folders:
        if not Path(folder).exists():
            raise FileNotFoundError(2, "No such file or directory", folder)
    try:
        db = open_db(db_path)
    except sqlite3.DatabaseError as exc:
        raise LibraryUsageError(f"{db_path}: not a library file ({exc})") from None
    try:
        if args.folders:
            _index(db, args.folders, args, db_path)
        if args.command == "index":
            return 0
        from assets_loader.demos.events import EVENT_KINDS

        if args.kind and args.kind not in EVENT_KINDS:
            raise LibraryUsageError(f"unknown event kind {args.kind!r}; known kinds: {', '.join(sorted(EVENT_KINDS))}")
        if args.multi_kill is not None and args.spree is not None:
            raise LibraryUsageError("--multi-kill and --spree are two searches: give one")
        query = Query(map=args.map, player=args.player, game=args.game, date=args.date,
                      under=tuple(str(Path(f).resolve()) for f in args.folders), kind=args.kind, killer=args.killer,
                      victim=args.victim, weapon=args.weapon, multi_kill=args.multi_kill, within=args.within,
                      spree=args.spree, text=args.text)
        hits = find(db, query)
        print(json.dumps([h.as_dict() for h in hits], indent=2, ensure_ascii=False) if args.json
              else format_hits(hits))
    finally:
        db.close()
    return 0
