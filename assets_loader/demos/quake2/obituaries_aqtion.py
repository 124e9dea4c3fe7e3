"""The death messages of Action Quake 2 (AQtion, the ``action`` game dir), as wordings for
:mod:`.obituaries`.

AQtion words a kill by the weapon and the body part hit, printed "VICTIM<message> KILLER<suffix>"; a death caused by
a push from another player "VICTIM <message> KILLER"; a death by the world or by one's own hand "VICTIM <message>",
or "VICTIM died".  ``{his}`` / ``{him}`` stand for the victim's gendered word (his/her/its, him/her/it).  The weapon
names are the mod's items (``mk23``, ``mp5``, ``m4``, ``m3``, ``handcannon``, ``sniper``, ``akimbo``, ``knife``,
``throwing_knife``) and its unarmed kills (``kick``, ``punch``).

References: AQ2:TNG / AQtion ``source/p_client.c`` ``ClientObituary`` (wording per ``MOD_*`` and ``LOC_*``).
"""

from __future__ import annotations

from typing import Final

#: The victim's gendered words, in the order the game tries them (male, female, neuter).
GENDER_WORDS: Final = ({"his": "his", "him": "him"}, {"his": "her", "him": "her"}, {"his": "its", "him": "it"})

# "VICTIM<middle>KILLER<suffix>" and the weapon; a middle without a suffix is tried after those with one.
AQTION_KILLS: Final[tuple[tuple[str, str, str], ...]] = (
    (" has a hole in {his} head from ", "'s Mark 23 pistol", "mk23"),
    (" loses a vital chest organ thanks to ", "'s Mark 23 pistol", "mk23"),
    (" loses {his} lunch to ", "'s .45 caliber pistol round", "mk23"),
    (" is legless because of ", "'s .45 caliber pistol round", "mk23"),
    (" was shot by ", "'s Mark 23 Pistol", "mk23"),
    ("'s brains are on the wall thanks to ", "'s 10mm MP5/10 round", "mp5"),
    (" feels some chest pain via ", "'s MP5/10 Submachinegun", "mp5"),
    (" needs some Pepto Bismol after ", "'s 10mm MP5 round", "mp5"),
    (" had {his} legs blown off thanks to ", "'s MP5/10 Submachinegun", "mp5"),
    (" was shot by ", "'s MP5/10 Submachinegun", "mp5"),
    (" had a makeover by ", "'s M4 Assault Rifle", "m4"),
    (" feels some heart burn thanks to ", "'s M4 Assault Rifle", "m4"),
    (" has an upset stomach thanks to ", "'s M4 Assault Rifle", "m4"),
    (" is now shorter thanks to ", "'s M4 Assault Rifle", "m4"),
    (" was shot by ", "'s M4 Assault Rifle", "m4"),
    (" accepts ", "'s M3 Super 90 Assault Shotgun in hole-y matrimony", "m3"),
    (" is full of buckshot from ", "'s M3 Super 90 Assault Shotgun", "m3"),
    (" underestimated ", "'s single barreled handcannon shot", "handcannon"),
    (" ate ", "'s sawed-off 12 gauge", "handcannon"),
    (" won't be able to pass a metal detector anymore thanks to ", "'s single barreled handcannon shot",
     "handcannon"),
    (" is full of buckshot from ", "'s sawed off shotgun", "handcannon"),
    (" was trepanned by ", "'s akimbo Mark 23 pistols", "akimbo"),
    (" needs some new kidneys thanks to ", "'s akimbo Mark 23 pistols", "akimbo"),
    (" was shot in the legs by ", "'s akimbo Mark 23 pistols", "akimbo"),
    (" was shot by ", "'s pair of Mark 23 Pistols", "akimbo"),
    (" was slashed apart by ", "'s Combat Knife", "knife"),
    (" caught ", "'s flying knife with {his} forehead", "throwing_knife"),
    ("'s ribs don't help against ", "'s flying knife", "throwing_knife"),
    (" sees the contents of {his} own stomach thanks to ", "'s flying knife", "throwing_knife"),
    (" had {his} legs cut off thanks to ", "'s flying knife", "throwing_knife"),
    (" was hit by ", "'s flying Combat Knife", "throwing_knife"),
    (" couldn't remove ", "'s boot from {his} ass", "kick"),
    (" had a Bruce Lee put on {him} by ", ", with a quickness", "kick"),
    (" caught ", "'s iron fist", "punch"),
    # no suffix
    (" was minched by ", "", "handcannon"),
    (" saw the sniper bullet go through {his} scope thanks to ", "", "sniper"),
    (" caught a sniper bullet between the eyes from ", "", "sniper"),
    (" was picked off by ", "", "sniper"),
    (" was sniped in the stomach by ", "", "sniper"),
    (" was shot in the legs by ", "", "sniper"),
    (" was sniped by ", "", "sniper"),
    (" was John Woo'd by ", "", "akimbo"),
    (" had {his} throat slit by ", "", "knife"),
    (" had open heart surgery, compliments of ", "", "knife"),
    (" was gutted by ", "", "knife"),
    (" was stabbed repeatedly in the legs by ", "", "knife"),
    (" got {his} ass kicked by ", "", "kick"),
    (" got a free facelift by ", "", "punch"),
    (" was knocked out by ", "", "punch"),
    # a push into the world's harm: "VICTIM <message> KILLER"
    (" was thrown through a window by ", "", "glass"),
    (" was taught how to fly by ", "", "fall"),
    (" melted thanks to ", "", "slime"),
    (" was drop-kicked into the lava by ", "", "lava"),
    (" was shoved off the edge by ", "", "hurt"),
)

# "VICTIM <suffix>", the cause and whether it was the victim's own doing (the base game's shared ones aside).
AQTION_DEATHS: Final[tuple[tuple[str, str | None, bool], ...]] = (
    (" didn't throw {his} grenade far enough", "hand_grenade", True),
    (" ate too much glass", "glass", False),
    (" is done with the world", "suicide", True),
    (" plummets to {his} death", "fall", False),
    (" was flattened", "squish", False),
    (" died", None, False),
)


def gender_forms(*texts: str) -> tuple[tuple[str, ...], ...]:
    """``texts`` with the victim's gendered words filled in, once per gender (the texts as they are when none has a
    placeholder)."""
    if not any("{" in t for t in texts):
        return (texts,)
    return tuple(tuple(t.format(**words) for t in texts) for words in GENDER_WORDS)
