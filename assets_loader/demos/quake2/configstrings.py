"""Quake II configstrings over time: the history a ``.dm2`` timeline keeps (``meta["configstring_changes"]``) and
the views a viewer needs — the strings at a frame, the model / sound / image lists, player skins and the status bar
layout program.

A change is ``(frame, index, text)``: configstring ``index`` holds ``text`` from timeline frame ``frame`` on (frame 0
for the ones sent before the first frame).  A demo may change any of them at any time (player skins when someone
joins, the status bar on a game mode change).

References: Quake II 3.20 ``game/q_shared.h`` (``CS_*``), ``client/cl_parse.c`` ``CL_ParseConfigString``,
``CL_ParseClientinfo`` (``name\\model/skin``), ``client/cl_scrn.c`` ``SCR_DrawStats`` (the status bar program is
configstrings ``CS_STATUSBAR`` up to ``CS_AIRACCEL`` joined).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from collections.abc import Sequence

from . import protocol as P

__all__ = ["ConfigStrings", "PlayerSkin", "parse_player_skin"]


@dataclass(frozen=True, slots=True)
class PlayerSkin:
    """A ``CS_PLAYERSKINS`` entry: ``name\\model/skin`` (``model`` and ``skin`` empty when not given)."""

    name: str
    model: str
    skin: str


def parse_player_skin(text: str) -> PlayerSkin:
    """``"Bob\\male/grunt"`` → ``PlayerSkin("Bob", "male", "grunt")``."""
    name, _, rest = text.partition("\\")
    model, _, skin = rest.partition("/")
    return PlayerSkin(name, model, skin)


@dataclass(frozen=True, slots=True)
class ConfigStrings:
    """Configstring history of one timeline: ``changes`` are ``(frame, index, text)`` in frame order."""

    changes: tuple[tuple[int, int, str], ...]
    _frames: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_frames", tuple(c[0] for c in self.changes))

    @staticmethod
    def of(changes: Sequence[tuple[int, int, str]]) -> ConfigStrings:
        return ConfigStrings(tuple(sorted(changes, key=lambda c: c[0])))

    def at(self, frame: int) -> dict[int, str]:
        """Every configstring as it stands at timeline frame ``frame``."""
        out: dict[int, str] = {}
        for _, index, text in self.changes[:bisect.bisect_right(self._frames, frame)]:
            out[index] = text
        return out

    def distinct(self) -> int:
        """How many configstring indices the demo set."""
        return len({c[1] for c in self.changes})

    @staticmethod
    def models(strings: dict[int, str]) -> tuple[str, ...]:
        """Model index → path (index 0 is ``""``; index 1 the map, ``*N`` inline models, ``#w_*`` view weapons)."""
        return _list(strings, P.CS_MODELS, P.MAX_MODELS)

    @staticmethod
    def sounds(strings: dict[int, str]) -> tuple[str, ...]:
        return _list(strings, P.CS_SOUNDS, P.MAX_SOUNDS)

    @staticmethod
    def images(strings: dict[int, str]) -> tuple[str, ...]:
        """Image index → pic name (``i_health`` → ``pics/i_health.pcx``)."""
        return _list(strings, P.CS_IMAGES, P.MAX_IMAGES)

    @staticmethod
    def player_skins(strings: dict[int, str]) -> dict[int, PlayerSkin]:
        """Client slot → its skin entry, for the slots that have one."""
        return {i - P.CS_PLAYERSKINS: parse_player_skin(t) for i, t in strings.items()
                if P.CS_PLAYERSKINS <= i < P.CS_PLAYERSKINS + P.MAX_CLIENTS and t}

    @staticmethod
    def status_bar(strings: dict[int, str]) -> str:
        """The status bar layout program.  It is longer than one configstring: the client copies each string into
        its fixed 64-byte slot and lets it run on into the next ones, and reads the program from ``CS_STATUSBAR``
        up to the first NUL; the slots are replayed in index order the same way."""
        memory = bytearray(P.MAX_QPATH * (P.CS_AIRACCEL - P.CS_STATUSBAR))
        for i in range(P.CS_STATUSBAR, P.CS_AIRACCEL):
            text = strings.get(i)
            if text is None:
                continue
            at = (i - P.CS_STATUSBAR) * P.MAX_QPATH
            raw = text.encode("latin-1")[:len(memory) - at - 1] + b"\0"
            memory[at:at + len(raw)] = raw
        return memory.split(b"\0", 1)[0].decode("latin-1")


def _list(strings: dict[int, str], base: int, count: int) -> tuple[str, ...]:
    top = max((i - base for i in strings if base <= i < base + count), default=0)
    return ("",) + tuple(strings.get(base + i, "") for i in range(1, top + 1))
