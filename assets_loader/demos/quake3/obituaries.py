"""Quake III death messages as the cgame prints them for ``EV_OBITUARY`` (``CG_Obituary``), and the centerprint the
killer's own view shows ("You fragged NAME" with the place line).

Deaths without a killer (or by one's own hand) read "VICTIM <cause>." ("cratered", "blew himself up"); kills read
"VICTIM <message> KILLER<suffix>" ("was shredded by" … "'s shrapnel").  The victim's gender picks "his / her /
its" in the suicide wording: the ``sex`` line of its model's ``animation.cfg`` (``f`` female, ``n`` neuter, anything
else male).  A demo does not carry it, so its events read as for a male victim, like a model without a ``sex`` line;
:func:`gendered_obituary` words such a line again once the model's sex is known.  Places: "1st", "2nd", "3rd",
"Nth" (11th ‥ 13th), "Tied for " before a shared place (``RANK_TIED_FLAG``).  Names keep their colour codes
and are followed by ``^7`` (``S_COLOR_WHITE``), as ``CG_Obituary`` appends it, so the message reads in white.

References: ioquake3 ``code/cgame/cg_event.c`` (``CG_Obituary``, ``CG_PlaceString``), ``code/game/bg_public.h``
(``meansOfDeath_t``, ``RANK_TIED_FLAG``).
"""

from __future__ import annotations

__all__ = ["RANK_TIED_FLAG", "S_COLOR_WHITE", "frag_centerprint", "gendered_obituary", "obituary_text", "place_string"]

RANK_TIED_FLAG = 0x4000
S_COLOR_WHITE = "^7"

#: Deaths with no killer to name, by means of death (:data:`~.game.MEANS_OF_DEATH` names).
_ALONE = {"suicide": "suicides", "falling": "cratered", "crush": "was squished", "water": "sank like a rock",
          "slime": "melted", "lava": "does a back flip into the lava", "target laser": "saw the light",
          "trigger hurt": "was in the wrong place", "switch teams": "switched teams"}
#: Deaths by one's own weapon, ``{his}`` / ``{himself}`` standing for the victim's pronouns.
_SELF = {"kamikaze": "goes out with a bang", "grenade splash": "tripped on {his} own grenade",
         "rocket splash": "blew {himself} up", "plasma splash": "melted {himself}",
         "bfg splash": "should have used a smaller gun", "proximity mine": "found {his} prox mine",
         "lightning discharge": "discharged {himself}"}
_SELF_OTHER = "killed {himself}"
#: ``animation.cfg``'s ``sex`` → the pronouns ``CG_Obituary`` uses (``GENDER_FEMALE``, ``GENDER_NEUTER``; male
#: otherwise).
_PRONOUNS = {"f": {"his": "her", "himself": "herself"}, "n": {"his": "its", "himself": "itself"}}
_MALE = {"his": "his", "himself": "himself"}
#: Kills: (message, suffix after the killer's name).
_KILLS = {"grapple": ("was caught by", ""), "gauntlet": ("was pummeled by", ""),
          "machinegun": ("was machinegunned by", ""), "shotgun": ("was gunned down by", ""),
          "grenade": ("ate", "'s grenade"), "grenade splash": ("was shredded by", "'s shrapnel"),
          "rocket": ("ate", "'s rocket"), "rocket splash": ("almost dodged", "'s rocket"),
          "plasma": ("was melted by", "'s plasmagun"), "plasma splash": ("was melted by", "'s plasmagun"),
          "railgun": ("was railed by", ""), "lightning": ("was electrocuted by", ""),
          "bfg": ("was blasted by", "'s BFG"), "bfg splash": ("was blasted by", "'s BFG"),
          "nail": ("was nailed by", ""), "chaingun": ("got lead poisoning from", "'s Chaingun"),
          "proximity mine": ("was too close to", "'s Prox Mine"),
          "kamikaze": ("falls to", "'s Kamikaze blast"), "juiced": ("was juiced by", ""),
          "telefrag": ("tried to invade", "'s personal space"),
          # Quake Live's (WolfcamQL cg_event.c CG_Obituary)
          "heavy machinegun": ("was ripped up by", "'s HMG"), "railgun headshot": ("was railed in the head by", ""),
          "lightning discharge": ("was discharged by", "")}


def obituary_text(victim: str, killer: str | None, means: str, sex: str = "m") -> str:
    """The line ``CG_Obituary`` prints; ``killer`` ``None`` for the world, equal to ``victim`` for a suicide;
    ``sex``: the victim model's ``animation.cfg`` ``sex``."""
    suicide = killer == victim
    victim += S_COLOR_WHITE
    if means in _ALONE:
        return f"{victim} {_ALONE[means]}."
    if suicide:
        return f"{victim} {_SELF.get(means, _SELF_OTHER).format_map(_PRONOUNS.get(sex, _MALE))}."
    if killer is None:
        return f"{victim} died."
    message, suffix = _KILLS.get(means, ("was killed by", ""))
    return f"{victim} {message} {killer}{S_COLOR_WHITE}{suffix}"


def gendered_obituary(text: str, victim: str, means: str, sex: str) -> str:
    """``text``, an obituary worded for a male victim, as ``CG_Obituary`` words it for a victim of ``sex``: only
    a death by one's own hand changes."""
    if text != obituary_text(victim, victim, means):
        return text
    return obituary_text(victim, victim, means, sex)


def place_string(rank: int) -> str:
    """``CG_PlaceString`` for a 1-based ``rank``, with its colour codes: 1st blue, 2nd red, 3rd yellow."""
    tied = "Tied for " if rank & RANK_TIED_FLAG else ""
    rank &= ~RANK_TIED_FLAG
    if rank == 1:
        place = "^41st" + S_COLOR_WHITE
    elif rank == 2:
        place = "^12nd" + S_COLOR_WHITE
    elif rank == 3:
        place = "^33rd" + S_COLOR_WHITE
    elif rank in (11, 12, 13):
        place = f"{rank}th"
    elif rank % 10 == 1:
        place = f"{rank}st"
    elif rank % 10 == 2:
        place = f"{rank}nd"
    elif rank % 10 == 3:
        place = f"{rank}rd"
    else:
        place = f"{rank}th"
    return tied + place


def frag_centerprint(victim: str, rank: int, score: int, team_game: bool = False) -> str:
    """What the killer sees: "You fragged VICTIM" and, outside team games, its place and score (``rank`` is
    ``PERS_RANK``, 0-based)."""
    victim += S_COLOR_WHITE
    if team_game:
        return f"You fragged {victim}"
    return f"You fragged {victim}\n{place_string(rank + 1)} place with {score}"
