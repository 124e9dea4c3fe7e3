"""The per-demo work of ``qdv index``: one file in, plain records out (:func:`demo_record`), a pure function.

It runs in a worker process or on a Dask worker, so it returns picklable plain data only: the file's facts, the
``qdv info --json`` dict, the ``qdv events --json`` list (:mod:`viewer.demo_report`) and what the library adds for
searching (players with clean and raw names, recorder / POV, game type, a date); a demo that fails to decode is a
record with its one-line ``error``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assets_loader.demos import load_demo
from assets_loader.errors import FormatError

from ..demo_report import events_list, info_dict

__all__ = ["DemoRecord", "Player", "demo_record", "file_hash", "name_date"]

#: File names ``load_demo`` decodes by extension (``assets_loader.demos.detect``), gzipped or not.
#: Quake III colour codes (``Q_IsColorString``: ``^`` and any character but ``^``); a stand-in until the
#: loaders offer their own clean name.

#: ``g_gametype`` (``gametype_t`` in ``bg_public.h``) → a short name.
_Q3_GAMETYPES = {"0": "ffa", "1": "duel", "2": "single", "3": "tdm", "4": "ctf", "5": "oneflag", "6": "obelisk",
                 "7": "harvester", "8": "elimination", "9": "ctf-elimination", "10": "lms", "11": "double-d",
                 "12": "domination"}

#: Dates in file names: ``2015_02_05-19_55_34`` / ``2015-02-05``, and QuakeWorld servers' ``220104-0915``.
_LONG_DATE = re.compile(r"(?<!\d)((?:19|20)\d\d)[-_.]?(\d\d)[-_.]?(\d\d)"
                        r"(?:[-_ T](\d\d)[-_:.]?(\d\d)(?:[-_:.]?(\d\d))?)?(?!\d)")
_SHORT_DATE = re.compile(r"(?<!\d)(\d\d)(\d\d)(\d\d)-(\d\d)(\d\d)(?!\d)")

_HASH_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class Player:
    slot: int
    name: str           # colour codes stripped, console text folded (``plain_text``)
    name_raw: str       # as the demo has it
    team: str
    score: int
    spectator: bool = False     # watching (a following spectator shows the score of whom it follows)


@dataclass(frozen=True, slots=True)
class DemoRecord:
    """What the library stores of one file; ``info`` / ``events`` empty and ``error`` set when it did not decode."""

    path: str
    size: int
    mtime: float
    hash: str
    info: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    players: tuple[Player, ...] = ()
    recorder: str | None = None
    pov: str | None = None
    gametype: str | None = None
    date: str | None = None
    error: str | None = None


def file_hash(path: str) -> str:
    """BLAKE2b (128 bits) of the file's bytes, as stored (a ``.gz`` is hashed compressed)."""
    h = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as f:
        while chunk := f.read(_HASH_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def name_date(name: str) -> str | None:
    """The date a file name carries (``YYYY-MM-DD`` with `` HH:MM[:SS]`` when there is a time), else ``None``."""
    m = _LONG_DATE.search(name)
    if m:
        y, mo, d, hh, mm, ss = m.groups()
    else:
        m = _SHORT_DATE.search(name)
        if not m:
            return None
        yy, mo, d, hh, mm = m.groups()
        y, ss = f"20{yy}", None
    if not (1 <= int(mo) <= 12 and 1 <= int(d) <= 31):
        return None
    date = f"{y}-{mo}-{d}"
    if hh is not None and int(hh) < 24 and int(mm) < 60:
        date += f" {hh}:{mm}" + (f":{ss}" if ss else "")
    return date


def _gametype(game: str, serverinfo: dict[str, str]) -> str | None:
    if game == "quake3" and "g_gametype" in serverinfo:
        return _Q3_GAMETYPES.get(serverinfo["g_gametype"], serverinfo["g_gametype"])
    if game == "quakeworld" and "deathmatch" in serverinfo:
        return "team" if serverinfo.get("teamplay", "0") not in ("", "0") else "ffa"
    return None


def demo_record(path: str) -> DemoRecord:
    """Decode ``path`` into its :class:`DemoRecord`; a :class:`FormatError` / ``OSError`` becomes ``error``."""
    st = Path(path).stat()
    digest = file_hash(path)
    try:
        timeline = load_demo(path)
        info = info_dict(timeline, path)
        events = events_list(timeline)
    except (FormatError, OSError) as exc:
        return DemoRecord(path, st.st_size, st.st_mtime, digest, error=" ".join(str(exc).split()))
    players = tuple(Player(p["slot"], p["name"], p["name_raw"], p.get("team", ""), p["frags"],
                           bool(p.get("spectator", False))) for p in info["players"])
    names = {p.slot: p.name for p in players}
    serverinfo = info.get("serverinfo", {})
    date = serverinfo.get("g_timestamp") or name_date(Path(path).name)
    return DemoRecord(path, st.st_size, st.st_mtime, digest, info, events, players,
                      recorder=names.get(info.get("recorder", -1)), pov=names.get(timeline.default_pov),
                      gametype=_gametype(info["game"], serverinfo), date=date)
