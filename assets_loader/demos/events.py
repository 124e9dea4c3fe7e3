"""Typed demo events (prints, sounds, temp entities, obituaries…) and Quake obituary parsing.

Every event is a frozen slotted dataclass with ``time`` (timeline seconds, see :class:`DemoTimeline`),
``frame`` (index of the timeline frame the message arrived in; messages before a segment's first ``svc_time``
belong to that first frame) and ``segment`` (map segment index), plus its own fields.  The class attribute
``kind`` names the event (``"print"``, ``"sound"``…); :func:`event_fields` gives the kind-specific fields as a
plain dict for reports and JSON.

Obituaries: the server announces deaths with ``svc_print`` texts built by QuakeC ``ClientObituary``
("Bob chewed on Alice's boomstick").  :func:`parse_obituary` recognises the standard id texts and returns
victim / killer / weapon where the text names them; the print itself is kept as a ``print`` event too.

References: Uwe Girlich, "The unofficial DEM format description" v1.0.9, sections 7.7–7.35;
id Software QuakeC ``client.qc`` ``ClientObituary`` (message wording); QuakeSpasm ``cl_parse.c`` / ``cl_tent.c``.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar
from collections.abc import Iterable, Mapping

from .quake3.colors import strip_colors

Vec3 = tuple[float, float, float]

__all__ = [
    "Event", "PrintEvent", "CenterPrintEvent", "ObituaryEvent", "SoundEvent", "StopSoundEvent", "TempEntityEvent",
    "TEMP_ENTITIES",
    "ParticleEvent", "DamageEvent", "SetViewEvent", "SetAngleEvent", "IntermissionEvent", "FinaleEvent",
    "CutsceneEvent", "SellScreenEvent", "KilledMonsterEvent", "FoundSecretEvent", "PauseEvent", "StuffTextEvent",
    "LightStyleEvent", "FogEvent", "SkyboxEvent", "BonusFlashEvent", "ColorShiftEvent", "CdTrackEvent",
    "ServerInfoEvent", "DisconnectEvent", "AchievementEvent", "RoundEvent", "LocalSoundEvent", "ChatEvent",
    "ItemPickupEvent", "RespawnTimeEvent",
    "MuzzleFlashEvent", "SetInfoEvent", "KickEvent", "ReconnectEvent", "LayoutEvent", "InventoryEvent", "EVENT_KINDS",
    "Obituary", "parse_obituary", "parse_chat", "parse_pickup",
    "plain_text", "plain_line", "event_fields",
]


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every demo event."""

    kind: ClassVar[str] = "event"
    time: float
    frame: int
    segment: int


@dataclass(frozen=True, slots=True)
class PrintEvent(Event):
    """``svc_print``: console/notify text (may contain Quake's coloured characters ≥ 128 and ``\\x01`` markers).

    QuakeWorld adds ``level`` (0 low / pickups, 1 medium / obituaries, 2 high, 3 chat; ``None`` in NetQuake) and
    ``to``: the player slots an MVD message was addressed to (``dem_single`` / ``dem_multiple``), ``None`` when it
    went to everyone (or, in a ``.qwd``/``.dem``, to the recorder).
    """

    kind: ClassVar[str] = "print"
    text: str
    level: int | None = None
    to: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class CenterPrintEvent(Event):
    kind: ClassVar[str] = "centerprint"
    text: str


@dataclass(frozen=True, slots=True)
class ObituaryEvent(Event):
    """A death announced by a ``svc_print`` (the print event is recorded as well).

    ``killer`` is a player name, a monster name ("Grunt") or ``None`` (world, suicide: see ``suicide``);
    ``weapon`` is a short id ("rocket", "grenade", "shotgun", "telefrag", "lava", …) or ``None``.
    """

    kind: ClassVar[str] = "obituary"
    victim: str | None
    killer: str | None
    weapon: str | None
    suicide: bool
    text: str


@dataclass(frozen=True, slots=True)
class SoundEvent(Event):
    """``svc_sound``: ``volume`` 0..1, ``attenuation`` (1 normal, 0 none), ``sound`` the precache name; ``loop``:
    the sound repeats until a ``stopsound`` on its entity and channel (Quake III's looping entity sounds)."""

    kind: ClassVar[str] = "sound"
    entity: int
    channel: int
    sound_index: int
    sound: str
    volume: float
    attenuation: float
    origin: Vec3
    loop: bool = False


@dataclass(frozen=True, slots=True)
class StopSoundEvent(Event):
    kind: ClassVar[str] = "stopsound"
    entity: int
    channel: int


#: The neutral temp-entity vocabulary: every decoder translates its wire codes into these names, so nothing after
#: the decoder sees a protocol number.  Name → what the engine shows (``CL_ParseTEnt``).
TEMP_ENTITIES: Mapping[str, str] = MappingProxyType({
    "spike": "nail hitting a wall: 10 dark particles",
    "superspike": "super nail hitting a wall: 20 dark particles",
    "gunshot": "bullet hitting a wall: 20 dark particles (QuakeWorld sends a count)",
    "explosion": "rocket / grenade explosion: 1024 particles, a light, in QuakeWorld the s_explod sprite",
    "tarexplosion": "tarbaby explosion: a purple blob of particles",
    "lightning1": "Shambler lightning beam (progs/bolt.mdl)",
    "lightning2": "player lightning gun beam (progs/bolt2.mdl)",
    "lightning3": "Chthon lightning beam (progs/bolt3.mdl)",
    "wizspike": "Scrag spit hitting a wall: green particles",
    "knightspike": "Hell Knight fire hitting a wall: orange particles",
    "lavasplash": "Chthon's lava splash",
    "teleport": "teleport splash",
    "explosion2": "colour-mapped explosion (palette range) with a light",
    "beam": "grappling-hook beam (progs/beam.mdl)",
    "blood": "bullets hitting a body: red particles, 20 per count",
    "lightningblood": "lightning hitting a body: 50 red particles",
    "missile_hit": "Quake III rocket / grenade / plasma hitting a player: explosion and blood",
    "missile_miss": "Quake III rocket / grenade / plasma hitting a wall: explosion mark and smoke",
    "rail": "Quake III railgun trail from the shooter's muzzle to ``end`` (rings and a core beam)",
    "shotgun": "shotgun pellets hitting a wall: a few dark particles (Quake II), impacts around the aim point "
               "(Quake III)",
    "pain": "Quake III player pain sound and flash",
    "death": "Quake III player death (the death animation starts)",
    "gib": "Quake III player gibbed: body parts thrown",
    "jumppad": "Quake III jump pad launch (a sound, the player flies)",
    "teleport_out": "Quake III player leaving through a teleporter (the entry flash)",
    # Quake II (cl_tent.c CL_ParseTEnt; "gunshot", "blood" as above)
    "blaster": "blaster bolt hitting a wall: yellow particles and a flash sprite",
    "railtrail": "railgun trail: a blue spiral and a white core from origin to end",
    "explosion1": "big explosion (boss, barrel): models/objects/r_explode with a light",
    "barrel_explosion": "barrel / grenade-style explosion: models/objects/r_explode with a light",
    "rocket_explosion": "rocket explosion: models/objects/r_explode, particles and a light",
    "grenade_explosion": "grenade explosion: models/objects/r_explode, particles and a light",
    "rocket_explosion_water": "rocket explosion under water",
    "grenade_explosion_water": "grenade explosion under water",
    "sparks": "sparks off a hit: orange particles",
    "splash": "a splash (water, slime, lava, sparks: the colour byte says which)",
    "bubbletrail": "bullet through water: bubbles from origin to end",
    "screen_sparks": "hit on a power screen: green sparks",
    "shield_sparks": "hit on a power shield: green sparks",
    "bullet_sparks": "bullet ricochet: sparks",
    "laser_sparks": "laser hitting a wall: particles of the given colour",
    "parasite_attack": "parasite tongue beam from entity",
    "medic_cable_attack": "medic cable beam from entity",
    "bfg_explosion": "BFG ball explosion sprite",
    "bfg_bigexplosion": "BFG big explosion particles",
    "bosstport": "boss teleport particles",
    "bfg_laser": "BFG laser from origin to end",
    "grapple_cable": "grappling cable from entity (with an offset)",
    "welding_sparks": "welding sparks of a colour",
    "greenblood": "green blood particles",
    "bluehyperblaster": "blue hyperblaster bolt impact",
    "plasma_explosion": "plasma explosion",
    "tunnel_sparks": "tunnel sparks of a colour",
    "blaster2": "green blaster impact",
    "lightning": "lightning beam between two entities",
    "debugtrail": "debug trail from origin to end",
    "plain_explosion": "explosion without particles",
    "flashlight": "a flashlight light on entity",
    "forcewall": "force wall particles of a colour from origin to end",
    "heatbeam": "player heat beam from entity",
    "monster_heatbeam": "monster heat beam from entity",
    "steam": "steam puffs",
    "bubbletrail2": "bubble trail from origin to end",
    "moreblood": "lots of blood",
    "heatbeam_sparks": "heat beam sparks",
    "heatbeam_steam": "heat beam steam",
    "chainfist_smoke": "chainfist smoke",
    "electric_sparks": "electric sparks",
    "tracker_explosion": "disruptor explosion",
    "teleport_effect": "teleport particles",
    "dball_goal": "deathball goal particles",
    "widowbeamout": "widow beam-out effect",
    "nukeblast": "nuke blast",
    "widowsplash": "widow splash",
    "explosion1_big": "big explosion",
    "explosion1_np": "explosion without particles",
    "flechette": "flechette impact",
})


@dataclass(frozen=True, slots=True)
class TempEntityEvent(Event):
    """``svc_temp_entity``: ``name`` is one of :data:`TEMP_ENTITIES` ("gunshot", "blood", "lightning2"…).

    Beams (lightning1..3, beam) have ``entity`` and ``end``; explosion2 has ``color_start`` / ``color_length``;
    QuakeWorld gunshot / blood have ``count``.
    """

    kind: ClassVar[str] = "temp_entity"
    name: str
    origin: Vec3
    end: Vec3 | None = None
    entity: int | None = None
    color_start: int | None = None
    color_length: int | None = None
    count: int | None = None            # QuakeWorld gunshot / blood particle count; Quake II splash / sparks count
    direction: Vec3 | None = None       # Quake II impact direction (a unit vector)
    color: int | None = None            # Quake II splash / laser sparks / force wall colour byte
    extra: tuple[float, ...] = ()       # Quake II leftovers: grapple offset, lightning target, steam magnitude…


@dataclass(frozen=True, slots=True)
class ParticleEvent(Event):
    """``svc_particle``: ``direction`` is the velocity byte triple / 16; count 255 means an explosion (1024)."""

    kind: ClassVar[str] = "particle"
    origin: Vec3
    direction: Vec3
    count: int
    color: int


@dataclass(frozen=True, slots=True)
class DamageEvent(Event):
    """``svc_damage``: ``armor`` taken from armour, ``blood`` from health, ``origin`` where it came from."""

    kind: ClassVar[str] = "damage"
    armor: int
    blood: int
    origin: Vec3


@dataclass(frozen=True, slots=True)
class SetViewEvent(Event):
    kind: ClassVar[str] = "setview"
    entity: int


@dataclass(frozen=True, slots=True)
class SetAngleEvent(Event):
    kind: ClassVar[str] = "setangle"
    angles: Vec3


@dataclass(frozen=True, slots=True)
class IntermissionEvent(Event):
    kind: ClassVar[str] = "intermission"


@dataclass(frozen=True, slots=True)
class FinaleEvent(Event):
    kind: ClassVar[str] = "finale"
    text: str


@dataclass(frozen=True, slots=True)
class CutsceneEvent(Event):
    kind: ClassVar[str] = "cutscene"
    text: str


@dataclass(frozen=True, slots=True)
class SellScreenEvent(Event):
    kind: ClassVar[str] = "sellscreen"


@dataclass(frozen=True, slots=True)
class KilledMonsterEvent(Event):
    """``svc_killedmonster``; ``count`` is the running total (STAT_MONSTERS after the increment)."""

    kind: ClassVar[str] = "killedmonster"
    count: int


@dataclass(frozen=True, slots=True)
class FoundSecretEvent(Event):
    kind: ClassVar[str] = "foundsecret"
    count: int


@dataclass(frozen=True, slots=True)
class PauseEvent(Event):
    kind: ClassVar[str] = "pause"
    paused: bool


@dataclass(frozen=True, slots=True)
class StuffTextEvent(Event):
    """``svc_stufftext``: console text the server asked the client to run.  Recorded, never executed."""

    kind: ClassVar[str] = "stufftext"
    text: str


@dataclass(frozen=True, slots=True)
class LightStyleEvent(Event):
    kind: ClassVar[str] = "lightstyle"
    style: int
    pattern: str


@dataclass(frozen=True, slots=True)
class FogEvent(Event):
    """``svc_fog`` (666/999): density and colour 0..1, ``fade_time`` seconds."""

    kind: ClassVar[str] = "fog"
    density: float
    color: Vec3
    fade_time: float


@dataclass(frozen=True, slots=True)
class SkyboxEvent(Event):
    kind: ClassVar[str] = "skybox"
    name: str


@dataclass(frozen=True, slots=True)
class BonusFlashEvent(Event):
    """``svc_bf`` (666/999): the item-pickup screen flash."""

    kind: ClassVar[str] = "bf"


@dataclass(frozen=True, slots=True)
class ColorShiftEvent(Event):
    """A ``v_cshift r g b percent`` the server stuffed (QuakeWorld): the screen tint in the open, until the next
    one; ``color`` 0..255 RGB, ``percent`` 0..255."""

    kind: ClassVar[str] = "cshift"
    color: tuple[int, int, int]
    percent: int


@dataclass(frozen=True, slots=True)
class CdTrackEvent(Event):
    kind: ClassVar[str] = "cdtrack"
    track: int
    loop_track: int


@dataclass(frozen=True, slots=True)
class ServerInfoEvent(Event):
    """A new map segment starts (``svc_serverinfo``)."""

    kind: ClassVar[str] = "serverinfo"
    map: str
    level_name: str
    protocol: int
    maxclients: int


@dataclass(frozen=True, slots=True)
class DisconnectEvent(Event):
    kind: ClassVar[str] = "disconnect"


@dataclass(frozen=True, slots=True)
class ReconnectEvent(Event):
    """Quake II ``svc_reconnect``: the server asked the client to reconnect (a map change follows)."""

    kind: ClassVar[str] = "reconnect"


@dataclass(frozen=True, slots=True)
class LayoutEvent(Event):
    """Quake II ``svc_layout``: a layout program (scoreboard, help computer), shown while ``STAT_LAYOUTS`` is set."""

    kind: ClassVar[str] = "layout"
    text: str


@dataclass(frozen=True, slots=True)
class InventoryEvent(Event):
    """Quake II ``svc_inventory``: the count of each of the 256 items (names in the item configstrings)."""

    kind: ClassVar[str] = "inventory"
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AchievementEvent(Event):
    kind: ClassVar[str] = "achievement"
    name: str


@dataclass(frozen=True, slots=True)
class RoundEvent(Event):
    """A round of a round-based game type starts (``started``) or ends: clan arena, freeze tag… ``number`` is the
    round's number where the game says it (0 otherwise)."""

    kind: ClassVar[str] = "round"
    started: bool
    number: int = 0


@dataclass(frozen=True, slots=True)
class RespawnTimeEvent(Event):
    """OpenArena's ``respawn`` server command to a player who died (``RespawnTimeMessage``): ``wait`` is how many
    seconds after this event it may respawn; ``None`` for the ``respawn 0`` that clears it when the player spawns."""

    kind: ClassVar[str] = "respawn_time"
    wait: float | None


@dataclass(frozen=True, slots=True)
class LocalSoundEvent(Event):
    kind: ClassVar[str] = "localsound"
    sound_index: int
    sound: str


@dataclass(frozen=True, slots=True)
class ChatEvent(Event):
    """A chat line (QuakeWorld ``svc_print`` level 3 ``PRINT_CHAT``): ``"name: text"``, team chat ``"(name): text"``.

    ``sender`` is the name as printed (``""`` if the line has no ``": "``), ``slot`` the sender's client slot when a
    scoreboard name matches (else -1), ``team`` true for team chat; ``text`` is the message without the sender and
    trailing newline; ``to`` as in :class:`PrintEvent`.  The print event is recorded as well.
    """

    kind: ClassVar[str] = "chat"
    sender: str
    slot: int
    team: bool
    text: str
    to: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class ItemPickupEvent(Event):
    """An item pickup seen in a ``"You got …"`` / ``"You receive …"`` print (QuakeWorld level 0).

    ``item`` is the printed item text ("the Rocket Launcher", "25 health"), ``player`` the slot that picked it up (the
    recorder in a ``.qwd``, the addressee in an ``.mvd``; -1 unknown).
    """

    kind: ClassVar[str] = "pickup"
    player: int
    item: str
    text: str


@dataclass(frozen=True, slots=True)
class MuzzleFlashEvent(Event):
    """``svc_muzzleflash``: ``entity`` fired (players are slot + 1); that entity gets EF_MUZZLEFLASH for the frame."""

    kind: ClassVar[str] = "muzzleflash"
    entity: int
    name: str | None = None             # Quake II flash (MZ_* / MZ2_* name: "railgun", "soldier_blaster_1"…)
    silenced: bool = False              # Quake II MZ_SILENCED
    monster: bool = False               # Quake II svc_muzzleflash2


@dataclass(frozen=True, slots=True)
class SetInfoEvent(Event):
    """QuakeWorld ``svc_setinfo`` (``slot`` ≥ 0: one key of that player's userinfo) or ``svc_serverinfo`` (``slot``
    -1: a server info key) changed."""

    kind: ClassVar[str] = "setinfo"
    slot: int
    key: str
    value: str


@dataclass(frozen=True, slots=True)
class KickEvent(Event):
    """QuakeWorld ``svc_smallkick`` (``pitch`` -2) / ``svc_bigkick`` (-4): the view punch of a weapon shot."""

    kind: ClassVar[str] = "kick"
    pitch: float


EVENT_KINDS: dict[str, type[Event]] = {
    cls.kind: cls for cls in (
        PrintEvent, CenterPrintEvent, ObituaryEvent, SoundEvent, StopSoundEvent, TempEntityEvent, ParticleEvent,
        DamageEvent, SetViewEvent, SetAngleEvent, IntermissionEvent, FinaleEvent, CutsceneEvent, SellScreenEvent,
        KilledMonsterEvent, FoundSecretEvent, PauseEvent, StuffTextEvent, LightStyleEvent, FogEvent, SkyboxEvent,
        BonusFlashEvent, ColorShiftEvent, CdTrackEvent, ServerInfoEvent, DisconnectEvent, AchievementEvent,
        RoundEvent, RespawnTimeEvent, LocalSoundEvent, ChatEvent, ItemPickupEvent, MuzzleFlashEvent, SetInfoEvent,
        KickEvent, ReconnectEvent, LayoutEvent, InventoryEvent)
}

_BASE_FIELDS = frozenset({"time", "frame", "segment"})


def event_fields(event: Event) -> dict[str, Any]:
    """The kind-specific fields of ``event`` as a dict (tuples stay tuples)."""
    return {f.name: getattr(event, f.name) for f in dataclasses.fields(event) if f.name not in _BASE_FIELDS}


# --- Quake text ---------------------------------------------------------------------------------------------------

_PLAIN: dict[int, int | None] = {i: (i & 0x7F) for i in range(128, 256)}
_PLAIN.update({i: None for i in range(32) if i != 10})


def plain_text(text: str) -> str:
    """Quake console text → plain ASCII: coloured (high-bit) characters folded, control bytes dropped."""
    return text.translate(_PLAIN)


_LINE_BREAKS = re.compile(r"\s*[\r\n]+\s*")


def plain_line(text: str, color_codes: bool = False) -> str:
    """``text`` for one line of plain output: Quake III colour codes dropped when the game has them
    (``color_codes``), line breaks as spaces, then :func:`plain_text`."""
    if color_codes:
        text = strip_colors(text)
    return plain_text(_LINE_BREAKS.sub(" ", text).strip())


# --- obituaries ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Obituary:
    victim: str | None
    killer: str | None
    weapon: str | None
    suicide: bool


# "VICTIM<middle>KILLER<suffix>" — player killed by player (ClientObituary, attacker.classname == "player").
_PVP: tuple[tuple[str, str, str], ...] = (
    (" was telefragged by ", "", "telefrag"),
    (" was ax-murdered by ", "", "axe"),
    (" chewed on ", "'s boomstick", "shotgun"),
    (" ate 2 loads of ", "'s buckshot", "super_shotgun"),
    (" was nailed by ", "", "nailgun"),
    (" was punctured by ", "", "super_nailgun"),
    (" eats ", "'s pineapple", "grenade"),
    (" was gibbed by ", "'s grenade", "grenade"),
    (" was gibbed by ", "'s rocket", "rocket"),
    (" rides ", "'s rocket", "rocket"),
    (" accepts ", "'s shaft", "lightning"),
    (" accepts ", "'s discharge", "lightning"),
    (" was brutalized by ", "'s quad rocket", "rocket"),   # QuakeWorld-era mods, harmless here
    (" was smeared by ", "'s quad rocket", "rocket"),
    (" was body pierced by ", "", "super_nailgun"),
    (" was squished by ", "", "squish"),
    # QuakeWorld (KTX) wordings
    (" was perforated by ", "", "super_nailgun"),
    (" was ventilated by ", "", "super_nailgun"),
    (" was straw-cuttered by ", "", "nailgun"),
    (" was axed to pieces by ", "!", "axe"),
    (" was literally stomped into particles by ", "!", "stomp"),
    (" softens ", "'s fall", "stomp"),
    (" tried to catch ", "", "stomp"),
    (" was jumped by ", "", "stomp"),
    (" was crushed by ", "", "stomp"),
    (" was hooked by ", "", "hook"),
    (" was instagibbed by ", "", "instagib"),
    (" was lead poisoned by ", "", "shotgun"),
    (" ate 8 loads of ", "'s buckshot", "super_shotgun"),
    (" gets a natural disaster from ", "", "lightning"),
    (" drains ", "'s batteries", "lightning"),
)

# "KILLER<middle>VICTIM<suffix>" — the killer is named first (KTX).
_PVP_KILLER_FIRST: tuple[tuple[str, str, str], ...] = (
    (" squishes ", "", "squish"),
    (" stomps ", "", "stomp"),
    (" rips ", " a new one", "rocket"),
)

# "VICTIM was <verb> by his/her teammate" (KTX): the killer is not named.
_TEAMMATE_VICTIM: tuple[tuple[str, str], ...] = (
    (" was telefragged by ", "telefrag"), (" was jumped by ", "stomp"), (" was crushed by ", "stomp"),
)
_POSSESSIVE = ("his", "her", "its", "their")

# "VICTIM<suffix>" — killed themself or by the world.
_SOLO: tuple[tuple[str, str | None, bool], ...] = (
    (" somehow becomes bored with life", "suicide", True),
    (" becomes bored with life", "suicide", True),
    (" suicides", "suicide", True),                          # QuakeWorld "kill" command (KTX)
    (" discovers blast radius", "rocket", True),
    (" electrocutes himself", "lightning", True),
    (" electrocutes herself", "lightning", True),
    (" electrocutes itself", "lightning", True),
    (" discharges into the slime", "lightning", True),
    (" discharges into the lava", "lightning", True),
    (" heats up the water", "lightning", True),
    (" tries to put the pin back in", "grenade", True),
    (" discharges into the water", "lightning", True),
    (" checks his glasses", "teamkill", False),
    (" sleeps with the fishes", "water", False),
    (" sucks it down", "water", False),
    (" gulped a load of slime", "slime", False),
    (" can't exist on slime alone", "slime", False),
    (" burst into flames", "lava", False),
    (" turned into hot slag", "lava", False),
    (" visits the Volcano God", "lava", False),
    (" blew up", "explobox", False),
    (" was squished", "squish", False),
    (" fell to his death", "fall", False),
    (" was spiked", "trap", False),
    (" ate a lavaball", "lavaball", False),
    (" tried to leave", "changelevel", False),
    (" died", None, False),
)

# "VICTIM was <verb> by a MONSTER" and friends (attacker.flags & FL_MONSTER).
_MONSTER: tuple[tuple[str, str], ...] = (
    (" was shot by a Grunt", "Grunt"),
    (" was eviscerated by a Fiend", "Fiend"),
    (" was mauled by a Rottweiler", "Rottweiler"),
    (" was fried by a Dragon", "Dragon"),
    (" was blasted by an Enforcer", "Enforcer"),
    (" was fed to the Rotfish", "Rotfish"),
    (" was slain by a Death Knight", "Death Knight"),
    (" was slashed by a Knight", "Knight"),
    (" was destroyed by an Ogre", "Ogre"),
    (" became one with Shub-Niggurath", "Shub-Niggurath"),
    (" was exploded by a Vore", "Vore"),
    (" was smashed by a Shambler", "Shambler"),
    (" was slimed by a Spawn", "Spawn"),
    (" was vomited on by a Vomitus", "Vomitus"),
    (" was scragged by a Scrag", "Scrag"),
    (" joins the Zombies", "Zombie"),
)

# "KILLER<suffix>" — team kills name only the killer.
_TEAMKILL: tuple[str, ...] = (" mows down a teammate", " gets a frag for the other team", " loses another friend",
                              " squished a teammate", " checks her glasses")


def parse_obituary(text: str) -> Obituary | None:
    """Recognise a standard Quake death message; ``None`` if ``text`` is not one.

    >>> parse_obituary("Bob chewed on Alice's boomstick\\n")
    Obituary(victim='Bob', killer='Alice', weapon='shotgun', suicide=False)
    """
    line = plain_text(text).strip()
    if not line or "\n" in line:
        return None
    if line.startswith("Satan's power deflects ") and line.endswith("'s telefrag"):
        victim = line[len("Satan's power deflects "):-len("'s telefrag")]
        return Obituary(victim or None, None, "telefrag", False)
    if line.endswith(" teammate"):
        body = line[:-len(" teammate")]
        for middle, weapon in _TEAMMATE_VICTIM:
            for pos in _POSSESSIVE:
                if body.endswith(middle + pos) and len(body) > len(middle + pos):
                    return Obituary(body[:-len(middle + pos)], None, weapon, False)
    for suffix, monster in _MONSTER:
        if line.endswith(suffix) and len(line) > len(suffix):
            return Obituary(line[:-len(suffix)], monster, "monster", False)
    for middle, suffix, weapon in _PVP:
        if suffix and not line.endswith(suffix):
            continue
        body = line[:-len(suffix)] if suffix else line
        i = body.find(middle)
        if i > 0 and i + len(middle) < len(body):
            return Obituary(body[:i], body[i + len(middle):], weapon, False)
    for suffix in _TEAMKILL:
        if line.endswith(suffix) and len(line) > len(suffix):
            return Obituary(None, line[:-len(suffix)], "teamkill", False)
    for middle, suffix, weapon in _PVP_KILLER_FIRST:
        if suffix and not line.endswith(suffix):
            continue
        body = line[:-len(suffix)] if suffix else line
        i = body.find(middle)
        if i > 0 and i + len(middle) < len(body):
            return Obituary(body[i + len(middle):], body[:i], weapon, False)
    for suffix, cause, suicide in _SOLO:
        if line.endswith(suffix) and len(line) > len(suffix):
            name = line[:-len(suffix)]
            if cause == "teamkill":
                return Obituary(None, name, cause, False)
            return Obituary(name, None, cause, suicide)
    return None


# --- QuakeWorld chat and pickups ----------------------------------------------------------------------------------


def parse_chat(text: str, names: Iterable[str] = ()) -> tuple[str, bool, str] | None:
    """Split a QuakeWorld chat print (level 3) into ``(sender, team, message)``; ``None`` without ``": "``.

    ``"Bob: hi\\n"`` → ``("Bob", False, "hi")``; team chat ``"(Bob): hi"`` → ``("Bob", True, "hi")``.  Names may
    contain ``": "`` themselves, so the known player ``names`` (longest first) are tried before the first ``": "``.
    The sender is returned as sent (coloured characters kept; use :func:`plain_text` to fold it).
    """
    line = text.rstrip("\n")
    line = line.removeprefix("\x01")
    for name in sorted((n for n in names if n), key=len, reverse=True):
        if line.startswith(name + ": "):
            return name, False, line[len(name) + 2:]
        if line.startswith("(" + name + "): "):
            return name, True, line[len(name) + 4:]
    i = line.find(": ")
    if i <= 0:
        return None
    sender, message = line[:i], line[i + 2:]
    team = sender.startswith("(") and sender.endswith(")") and len(sender) > 2
    if team:
        sender = sender[1:-1]
    return sender, team, message


_PICKUP_PREFIXES = ("You got ", "You receive ", "You get ")


def parse_pickup(text: str) -> str | None:
    """The item of a pickup print ("You got the Shotgun" → ``"the Shotgun"``), else ``None``."""
    line = plain_text(text).strip()
    for prefix in _PICKUP_PREFIXES:
        if line.startswith(prefix) and len(line) > len(prefix):
            return line[len(prefix):]
    return None
