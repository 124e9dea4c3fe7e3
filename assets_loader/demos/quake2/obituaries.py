"""Quake II death messages (``svc_print`` at ``PRINT_MEDIUM``) → victim, killer and weapon.

The base game builds them in ``ClientObituary`` from the means of death: "VICTIM<middle>KILLER<suffix>" for a
kill, "VICTIM<suffix>" for a death by the world or by one's own weapon.  Mods keep most of the wording (OpenTDM in
the corpus uses the base texts); AQtion's own wordings (:mod:`.obituaries_aqtion`) are known too.  Wordings with a
suffix are tried before those without.  Player names may contain the separators, so the known names (longest
first) are tried as the victim before the first match of a wording.

References: Quake II 3.20 ``game/p_client.c`` ``ClientObituary`` (wording per ``MOD_*``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..events import Obituary, plain_text
from .obituaries_aqtion import AQTION_DEATHS, AQTION_KILLS, gender_forms

__all__ = ["parse_quake2_obituary"]

# "VICTIM<middle>KILLER<suffix>" and the weapon.
_KILLS: tuple[tuple[str, str, str], ...] = (
    (" was blasted by ", "", "blaster"),
    (" was gunned down by ", "", "shotgun"),
    (" was blown away by ", "'s super shotgun", "super_shotgun"),
    (" was machinegunned by ", "", "machinegun"),
    (" was cut in half by ", "'s chaingun", "chaingun"),
    (" was popped by ", "'s grenade", "grenade_launcher"),
    (" was shredded by ", "'s shrapnel", "grenade_launcher"),
    (" ate ", "'s rocket", "rocket_launcher"),
    (" almost dodged ", "'s rocket", "rocket_launcher"),
    (" was melted by ", "'s hyperblaster", "hyperblaster"),
    (" was railed by ", "", "railgun"),
    (" saw the pretty lights from ", "'s BFG", "bfg"),
    (" was disintegrated by ", "'s BFG blast", "bfg"),
    (" couldn't hide from ", "'s BFG", "bfg"),
    (" caught ", "'s handgrenade", "hand_grenade"),
    (" didn't see ", "'s handgrenade", "hand_grenade"),
    (" feels ", "'s pain", "hand_grenade"),
    (" tried to invade ", "'s personal space", "telefrag"),
    (" was caught by ", "'s grapple", "grapple"),
)

# "VICTIM<suffix>", the cause and whether it was the victim's own doing.
_DEATHS: tuple[tuple[str, str | None, bool], ...] = (
    (" suicides", "suicide", True),
    (" cratered", "fall", False),
    (" was squished", "squish", False),
    (" sank like a rock", "water", False),
    (" melted", "slime", False),
    (" does a back flip into the lava", "lava", False),
    (" blew up", "explosive", False),
    (" found a way out", "exit", False),
    (" saw the light", "laser", False),
    (" got blasted", "blaster", False),
    (" was in the wrong place", "hurt", False),
    (" tried to put the pin back in", "hand_grenade", True),
    (" tripped on his own grenade", "grenade", True),
    (" tripped on her own grenade", "grenade", True),
    (" tripped on its own grenade", "grenade", True),
    (" blew himself up", "rocket_launcher", True),
    (" blew herself up", "rocket_launcher", True),
    (" blew itself up", "rocket_launcher", True),
    (" should have used a smaller gun", "bfg", True),
    (" killed himself", "suicide", True),
    (" killed herself", "suicide", True),
    (" killed itself", "suicide", True),
    (" died.", None, False),
)


#: Every kill wording, those with a suffix first (a bare middle would also match a line that has one).
_ALL_KILLS = tuple(sorted(((m, s, weapon) for middle, suffix, weapon in _KILLS + AQTION_KILLS
                           for m, s in gender_forms(middle, suffix)), key=lambda kill: not kill[1]))
_ALL_DEATHS = tuple((s, cause, own) for suffix, cause, own in _DEATHS + AQTION_DEATHS
                    for (s,) in gender_forms(suffix))


def _split(line: str, middle: str, names: list[str]) -> tuple[str, str] | None:
    for name in names:
        if line.startswith(name + middle) and len(line) > len(name + middle):
            return name, line[len(name + middle):]
    i = line.find(middle)
    if i > 0 and i + len(middle) < len(line):
        return line[:i], line[i + len(middle):]
    return None


def parse_quake2_obituary(text: str, names: Iterable[str] = ()) -> Obituary | None:
    """Recognise a base Quake II death message; ``None`` if ``text`` is not one.

    >>> parse_quake2_obituary("shloo was railed by claire\\n")
    Obituary(victim='shloo', killer='claire', weapon='railgun', suicide=False)
    """
    line = plain_text(text).strip()
    if not line or "\n" in line:
        return None
    known = sorted((n for n in names if n), key=len, reverse=True)
    for middle, suffix, weapon in _ALL_KILLS:
        if suffix and not line.endswith(suffix):
            continue
        body = line[:-len(suffix)] if suffix else line
        pair = _split(body, middle, known)
        if pair is not None:
            return Obituary(pair[0], pair[1], weapon, False)
    for suffix, cause, own in _ALL_DEATHS:
        if line.endswith(suffix) and len(line) > len(suffix):
            return Obituary(line[:-len(suffix)], None, cause, own)
    return None
