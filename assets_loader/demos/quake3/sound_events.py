"""The sounds the Quake III cgame starts for entity events and player-state changes, as ``sound`` /
``localsound`` events (:mod:`assets_loader.demos.events`).

:class:`SoundRules` is fed by :mod:`.game_events` with every entity event it fires (``CG_EntityEvent``) and
turns it into ``S_StartSound`` calls: footsteps, jumps, landings and falls, jump pads, water, item pickups (the
item's ``pickup_sound``, powerups the ``n_health`` beep), weapon fire (a weapon's flash sounds, one picked at
random, ``CG_FireWeapon``; the lightning gun only on a new press; the quad's ``damage3`` with it), impacts
(``CG_MissileHitWall`` / ``CG_MissileHitPlayer``: explosions, plasma, ricochets, lightning hits), rail impacts,
teleports, item respawns, grenade bounces, powerups, configstring sounds (``EV_GENERAL_SOUND``, ``EV_GLOBAL_SOUND``),
pain by health (``CG_PainEvent``, at most two a second per player), death, gibs, the team announcer
(``EV_GLOBAL_TEAM_SOUND``: flag captured, returned, taken, team scores and leads).  Player sounds (``*pain25_1.wav``…)
come from the player's model in its ``CS_PLAYERS`` string (``model\\sarge/default`` → ``player/sarge/…``); the
viewer falls back to the default model's when that file is missing (``CG_LoadClientInfo``).  :func:`local_sounds`
adds what ``CG_CheckLocalSounds`` plays for the followed client: hit beeps, its own pain, the announcer's awards
(impressive, excellent, humiliation, defense, assist, capture, denied, holy shit), "you have the flag", lead
taken / tied / lost and the frag- and time-limit warnings; :func:`match_sounds` the warm-up's "prepare", "three,
two, one" and "fight".

Names are sample paths without ``sound/`` (as Quake's precache names); channels are ``soundChannel_t``;
``volume`` is the engine's ``master_vol`` 127 of 255 and ``attenuation`` 0.8 (``SOUND_ATTENUATE`` 0.0008 per unit
as attenuation / 1000), the falloff the mixer applies for Quake III (:class:`~assets_loader.demos.schema.GameSchema`
``sound_full_distance``).  A sound started with a ``NULL`` origin follows its entity; impact sounds play at a
fixed point on ``ENTITYNUM_WORLD``.  "Random" choices (footstep, flash variant, ricochet) are a hash of the frame
and entity, so a demo always sounds the same.  Not modelled: the model's footstep kind (``animation.cfg``
``footsteps``: every model steps as ``normal``), water level (gurp / drown instead of pain / death), tracer
whizzes.  :func:`loop_sounds` adds the looping sounds: entities' ``loopSound``, missiles in flight, weapon hums.

References: ioquake3 ``code/cgame/cg_event.c`` (``CG_EntityEvent``, ``CG_PainEvent``, ``CG_UseItem``),
``cg_weapons.c`` (``CG_RegisterWeapon``, ``CG_FireWeapon``, ``CG_MissileHitWall``, ``CG_MissileHitPlayer``,
``CG_Bullet``), ``cg_main.c`` (``CG_RegisterSounds``), ``cg_players.c`` (``cg_customSoundNames``,
``CG_CustomSound``), ``cg_playerstate.c`` (``CG_CheckLocalSounds``, ``CG_TransitionPlayerState``),
``code/game/bg_misc.c`` (``bg_itemlist``), ``bg_public.h`` (``entity_event_t``), ``q_shared.h``
(``soundChannel_t``), ``code/client/snd_dma.c`` (``S_StartSound``: ``master_vol`` 127).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

import numpy as np

from .. import events as ev
from . import game as g
from .obituaries import RANK_TIED_FLAG
from .records import CS_SERVERINFO, Quake3Demo

__all__ = ["ATTENUATION", "CHANNELS", "FLASH_SOUNDS", "LOOP_CHANNEL", "PICKUP_SOUNDS", "VOLUME",
           "WEAPON_LOOP_CHANNEL", "SoundRules", "local_sounds", "loop_sounds", "match_sounds", "player_model"]

#: ``soundChannel_t``.
CHANNELS = {"auto": 0, "local": 1, "weapon": 2, "voice": 3, "item": 4, "body": 5, "local_sound": 6, "announcer": 7}
#: ``S_StartSound``'s ``master_vol`` (127 of 255).
VOLUME = 127 / 255
#: ``SOUND_ATTENUATE`` (0.0008 per unit) as an attenuation (the mixer divides it by 1000).
ATTENUATION = 0.8

_AUTO, _WEAPON, _VOICE, _ITEM, _BODY = 0, 2, 3, 4, 5
#: ``EV_GLOBAL_TEAM_SOUND`` lines the same for everyone (``GTS_REDTEAM_SCORED`` … ``GTS_KAMIKAZE``).
_TEAM_LINES = {8: "teamplay/voc_red_scores.wav", 9: "teamplay/voc_blue_scores.wav", 10: "feedback/redleads.wav",
               11: "feedback/blueleads.wav", 12: "feedback/teamstied.wav", 13: "items/kam_explode_far.wav"}
_LOCAL_SOUND, _ANNOUNCER = 6, 7
_WORLD = g.ENTITYNUM_WORLD

#: ``CG_RegisterWeapon``'s ``flashSound[]`` by weapon number (Team Arena order, :data:`~.game.WEAPONS`).
FLASH_SOUNDS: dict[int, tuple[str, ...]] = {
    1: ("weapons/melee/fstatck.wav",),
    2: tuple(f"weapons/machinegun/machgf{i}b.wav" for i in range(1, 5)),
    3: ("weapons/shotgun/sshotf1b.wav",),
    4: ("weapons/grenade/grenlf1a.wav",),
    5: ("weapons/rocket/rocklf1a.wav",),
    6: ("weapons/lightning/lg_fire.wav",),
    7: ("weapons/railgun/railgf1a.wav",),
    8: ("weapons/plasma/hyprbf1a.wav",),
    9: ("weapons/bfg/bfg_fire.wav",),
    11: ("weapons/nailgun/wnalfire.wav",),
    12: ("weapons/proxmine/wstbfire.wav",),
    13: tuple(f"weapons/vulcan/vulcanf{i}b.wav" for i in range(1, 5)),
}

#: ``bg_itemlist`` ``pickup_sound`` by item class name (``None``: a powerup or team item, ``CG_EntityEvent`` plays
#: ``n_health`` at prediction time and the global pickup plays the sound).
_ARMOR, _HEALTH = "misc/ar2_pkup.wav", "items/n_health.wav"
PICKUP_SOUNDS: dict[str, str] = {
    "item_armor_shard": "misc/ar1_pkup.wav", "item_armor_combat": _ARMOR, "item_armor_body": _ARMOR,
    "item_armor_jacket": _ARMOR,
    "item_health_small": "items/s_health.wav", "item_health": _HEALTH, "item_health_large": "items/l_health.wav",
    "item_health_mega": "items/m_health.wav", "holdable_teleporter": "items/holdable.wav",
    "holdable_medkit": "items/holdable.wav", "item_quad": "items/quaddamage.wav", "item_enviro": "items/protect.wav",
    "item_haste": "items/haste.wav", "item_invis": "items/invisibility.wav", "item_regen": "items/regeneration.wav",
    "item_flight": "items/flight.wav", "holdable_kamikaze": "items/holdable.wav",
    "holdable_portal": "items/holdable.wav", "holdable_invulnerability": "items/holdable.wav",
    "item_scout": "items/scout.wav", "item_guard": "items/guard.wav", "item_doubler": "items/doubler.wav",
    "item_ammoregen": "items/ammoregen.wav", "item_redcube": "misc/am_pkup.wav", "item_bluecube": "misc/am_pkup.wav",
}
_POWERUP_ITEMS = frozenset({"item_quad", "item_enviro", "item_haste", "item_invis", "item_regen", "item_flight",
                            "team_CTF_redflag", "team_CTF_blueflag", "team_CTF_neutralflag", "item_redcube",
                            "item_bluecube"})
_PERSISTANT_POWERUPS = {"item_scout": "items/cl_scout.wav", "item_guard": "items/cl_guard.wav",
                        "item_doubler": "items/cl_doubler.wav", "item_ammoregen": "items/cl_ammoregen.wav"}

_FOOTSTEPS = {"FOOTSTEP": "step", "FOOTSTEP_METAL": "clank", "FOOTSPLASH": "splash", "FOOTWADE": "splash",
              "SWIM": "splash"}
#: Events that always play one sound on the entity: (channel, sample; ``*`` = the player model's).
_SIMPLE = {
    "FALL_SHORT": (_AUTO, "player/land1.wav"), "FALL_MEDIUM": (_VOICE, "*pain100_1.wav"),
    "FALL_FAR": (_AUTO, "*fall1.wav"), "JUMP": (_VOICE, "*jump1.wav"), "TAUNT": (_VOICE, "*taunt.wav"),
    "WATER_TOUCH": (_AUTO, "player/watr_in.wav"), "WATER_LEAVE": (_AUTO, "player/watr_out.wav"),
    "WATER_UNDER": (_AUTO, "player/watr_un.wav"), "WATER_CLEAR": (_AUTO, "*gasp.wav"),
    "CHANGE_WEAPON": (_AUTO, "weapons/change.wav"), "PLAYER_TELEPORT_IN": (_AUTO, "world/telein.wav"),
    "PLAYER_TELEPORT_OUT": (_AUTO, "world/teleout.wav"), "ITEM_POP": (_AUTO, "items/respawn1.wav"),
    "ITEM_RESPAWN": (_AUTO, "items/respawn1.wav"), "DEATH1": (_VOICE, "*death1.wav"),
    "DEATH2": (_VOICE, "*death2.wav"), "DEATH3": (_VOICE, "*death3.wav"), "GIB_PLAYER": (_BODY, "player/gibsplt1.wav"),
    "POWERUP_QUAD": (_ITEM, "items/damage3.wav"), "POWERUP_BATTLESUIT": (_ITEM, "items/protect3.wav"),
    "POWERUP_REGEN": (_ITEM, "items/regen.wav"), "PROXIMITY_MINE_TRIGGER": (_AUTO, "weapons/proxmine/wstbactv.wav"),
}
#: The weapons whose hits are not the lightning gun's default sound (``CG_MissileHitWall``'s own cases).
_BULLETS_AND_NAILS = (g.WP_MACHINEGUN, g.WP_SHOTGUN, g.WP_NAILGUN, g.WP_PROX_LAUNCHER, g.WP_CHAINGUN)
_ROCKET_EXPLOSION, _PLASMA_EXPLOSION = "weapons/rocket/rocklx1a.wav", "weapons/plasma/plasmx1a.wav"
_RICOCHETS = ("weapons/machinegun/ric1.wav", "weapons/machinegun/ric2.wav", "weapons/machinegun/ric3.wav",
              "weapons/machinegun/ric3.wav")      # rand() & 3: 0, 1, then 2 and 3 both ric3
_LIGHTNING_HITS = ("weapons/lightning/lg_hit2.wav", "weapons/lightning/lg_hit2.wav",
                   "weapons/lightning/lg_hit.wav", "weapons/lightning/lg_hit3.wav")
#: ``CG_PainEvent`` plays at most one pain sound per player in this many seconds.
PAIN_INTERVAL = 0.5
#: A lightning gun shot this soon after the last one is the same press (``pe.lightningFiring``): no new sound.
LIGHTNING_HOLD = 0.2


def _pick(count: int, *keys: int) -> int:
    """A fixed "random" choice among ``count`` for these keys (frame, entity…)."""
    h = 0x811C9DC5
    for k in keys:
        h = ((h ^ (k & 0xFFFFFFFF)) * 0x01000193) & 0xFFFFFFFF
    return (h >> 7) % count


def player_model(info: str) -> str:
    """The model directory of a ``CS_PLAYERS`` string (``model\\sarge/default`` → ``"sarge"``), lower case;
    :data:`~.game.DEFAULT_MODEL` when it has none."""
    model = dict(g.info_pairs(info)).get("model", "").split("/")[0].strip().lower()
    return model or g.DEFAULT_MODEL


def _strip(path: str) -> str:
    return path[len("sound/"):] if path.lower().startswith("sound/") else path


class SoundRules:
    """Sounds of the entity events of one demo; ``add(cls, frame, *fields)`` appends an event (the collector's)."""

    def __init__(self, demo: Quake3Demo, add: Callable[..., None], times: np.ndarray,
                 viewer: Callable[[int], tuple[int, int, int] | None]) -> None:
        self.demo = demo
        #: The game's numbers (Quake III's or Quake Live's): events, items, configstring indices.
        self.numbers = g.game_numbers(demo.protocol)
        self._name = {code: name for name, code in self.numbers.ev.items()}
        self.add = add
        self.times = times
        self.viewer = viewer
        self._changes = [c.snapshot for c in demo.configstring_changes]
        self._version = -1
        self._strings: dict[int, str] = {}
        self._pain: dict[int, float] = {}
        self._lightning: dict[int, float] = {}
        info = dict(g.info_pairs(demo.gamestates[0].configstrings.get(CS_SERVERINFO, ""))) if demo.gamestates else {}
        #: OpenArena's cgame plays the nailgun's impact for a weapon it does not list (the lightning gun's wall hits
        #: carry none); baseq3's falls through to the lightning gun's.
        self._nail_default = info.get("gamename", "").lower() == "baseoa"

    def configstrings(self, frame: int) -> dict[int, str]:
        """The configstrings in force at ``frame`` (kept until the next change)."""
        version = bisect.bisect_right(self._changes, frame)
        if version != self._version:
            self._strings, self._version = self.demo.configstrings_at(frame), version
        return self._strings

    def _custom(self, frame: int, entity: int, name: str) -> str:
        """``CG_CustomSound``: ``*name`` → the player's model's ``player/MODEL/name``; other names unchanged."""
        if not name.startswith("*"):
            return _strip(name)
        client = entity if 0 <= entity < g.MAX_CLIENTS else 0
        players = self.numbers.cs_players
        return f"player/{player_model(self.configstrings(frame).get(players + client, ''))}/{name[1:]}"

    def start(self, frame: int, entity: int, channel: int, name: str, origin: tuple[float, ...]) -> None:
        """``S_StartSound`` of ``name`` (``*`` names: the entity's model) on ``entity`` heard from ``origin``."""
        if not name:
            return
        self.add(ev.SoundEvent, frame, entity, channel, 0, self._custom(frame, entity, name), VOLUME, ATTENUATION,
                 tuple(float(v) for v in origin))

    def local(self, frame: int, name: str) -> None:
        """``S_StartLocalSound``: heard at full volume wherever the view is."""
        self.add(ev.LocalSoundEvent, frame, 0, name)

    def pain(self, frame: int, key: int, entity: int, health: int, origin: tuple[float, ...]) -> None:
        """``CG_PainEvent``: the pain sound for ``health``, unless ``key``'s last one is under half a second old."""
        t = float(self.times[frame])
        if t - self._pain.get(key, -1e9) < PAIN_INTERVAL:
            return
        level = 25 if health < 25 else 50 if health < 50 else 75 if health < 75 else 100
        self.start(frame, entity, _VOICE, f"*pain{level}_1.wav", origin)
        self._pain[key] = t

    def entity_event(self, frame: int, code: int, entity: int, parm: int, origin: tuple[float, ...], weapon: int,
                     powerups: int = 0, playerstate: bool = False) -> None:
        """The sounds of entity event ``code`` (``CG_EntityEvent``) fired by ``entity`` at ``origin``;
        ``playerstate``: it came from the followed client's playerState."""
        name = self._name.get(code)
        if name is None:
            return
        if name in _SIMPLE:
            channel, sample = _SIMPLE[name]
            self.start(frame, entity, channel, sample, origin)
            if name == "FALL_FAR":
                self._pain[entity] = float(self.times[frame])
        elif name in _FOOTSTEPS:
            self.start(frame, entity, _BODY, f"player/footsteps/{_FOOTSTEPS[name]}{_pick(4, frame, entity) + 1}.wav",
                       origin)
        elif name == "JUMP_PAD":
            self.start(frame, _WORLD, _VOICE, "world/jumppad.wav", origin)   # at a point, not on the player
            self.start(frame, entity, _VOICE, "*jump1.wav", origin)
        elif name in ("ITEM_PICKUP", "GLOBAL_ITEM_PICKUP"):
            self._pickup(frame, name == "GLOBAL_ITEM_PICKUP", entity, parm, origin)
        elif name == "FIRE_WEAPON":
            self._fire(frame, entity, weapon, powerups, origin)
        elif name.startswith("USE_ITEM"):
            item = code - self.numbers.ev["USE_ITEM0"]
            sample = {0: "items/use_nothing.wav", 2: "items/use_medkit.wav", 5: "items/invul_activate.wav"}.get(
                item, "" if item in (1, 3, 4) else "items/use_nothing.wav")
            self.start(frame, entity, _BODY, sample, origin)
        elif name == "GRENADE_BOUNCE":
            self.start(frame, entity, _AUTO, f"weapons/grenade/hgrenb{_pick(2, frame, entity) + 1}a.wav", origin)
        elif name in ("GENERAL_SOUND", "GLOBAL_SOUND"):
            sample = self.configstrings(frame).get(self.numbers.cs_sounds + parm, "") if 0 < parm < 256 else ""
            if name == "GENERAL_SOUND":
                self.start(frame, entity, _VOICE, sample, origin)
            elif (view := self.viewer(frame)) is not None and sample:
                self.add(ev.SoundEvent, frame, view[0], _AUTO, 0, self._custom(frame, entity, sample), VOLUME,
                         ATTENUATION, tuple(float(v) for v in origin))
        elif name in ("MISSILE_MISS", "MISSILE_MISS_METAL", "RAILTRAIL") or (
                name == "MISSILE_HIT" and weapon in (4, 5, 11, 12, 13)):
            if not (name == "RAILTRAIL" and parm == 255):
                self._impact(frame, g.WP_RAILGUN if name == "RAILTRAIL" else weapon, name, origin)
        elif name == "BULLET_HIT_WALL":
            self._impact(frame, g.WP_MACHINEGUN, name, origin)
        elif name == "PROXIMITY_MINE_STICK":
            kind = "l" if parm & 0x100 else "m" if parm & 0x1000 else "d"     # SURF_FLESH, SURF_METALSTEPS
            self.start(frame, entity, _AUTO, f"weapons/proxmine/wstbimp{kind}.wav", origin)
        elif name == "GLOBAL_TEAM_SOUND":
            self._team_sound(frame, parm)
        elif name == "PAIN":
            view = self.viewer(frame)
            if not playerstate and not (view is not None and view[0] == entity):
                self.pain(frame, entity, entity, parm, origin)

    def _team_sound(self, frame: int, parm: int) -> None:
        """``EV_GLOBAL_TEAM_SOUND``'s announcer lines, worded for the viewed player's team (``PERS_TEAM``)."""
        ps = self.demo.snapshots.player
        if not 0 <= frame < len(ps):
            return
        team = int(ps[frame]["persistant"][g.PERS_TEAM])
        flags = ps[frame]["powerups"]
        if parm in (0, 1):                                      # GTS_RED_CAPTURE, GTS_BLUE_CAPTURE
            mine = team == (g.TEAM_RED if parm == 0 else g.TEAM_BLUE)
            self.local(frame, f"teamplay/flagcapture_{'yourteam' if mine else 'opponent'}.wav")
        elif parm in (2, 3):                                    # GTS_RED_RETURN, GTS_BLUE_RETURN
            mine = team == (g.TEAM_RED if parm == 2 else g.TEAM_BLUE)
            self.local(frame, f"teamplay/flagreturn_{'yourteam' if mine else 'opponent'}.wav")
            self.local(frame, f"teamplay/voc_{'blue' if parm == 2 else 'red'}_returned.wav")
        elif parm in (4, 5):                                    # GTS_RED_TAKEN, GTS_BLUE_TAKEN
            carrying = flags[g.PW_BLUEFLAG if parm == 4 else g.PW_REDFLAG] or flags[g.PW_NEUTRALFLAG]
            losing, taking = (g.TEAM_BLUE, g.TEAM_RED) if parm == 4 else (g.TEAM_RED, g.TEAM_BLUE)
            if not carrying and team in (losing, taking):
                self.local(frame, "teamplay/voc_enemy_flag.wav" if team == losing else "teamplay/voc_team_flag.wav")
        elif parm in _TEAM_LINES:
            self.local(frame, _TEAM_LINES[parm])

    def _pickup(self, frame: int, global_: bool, entity: int, parm: int, origin: tuple[float, ...]) -> None:
        items = self.numbers.items
        if not 1 <= parm < len(items):
            return
        item = items[parm]
        if global_:
            view = self.viewer(frame)
            if view is not None and item in PICKUP_SOUNDS:
                self.start(frame, view[0], _AUTO, PICKUP_SOUNDS[item], origin)
        elif item in _POWERUP_ITEMS:
            self.start(frame, entity, _AUTO, _HEALTH, origin)
        elif item in _PERSISTANT_POWERUPS:
            self.start(frame, entity, _AUTO, _PERSISTANT_POWERUPS[item], origin)
        else:
            sample = PICKUP_SOUNDS.get(item, "misc/w_pkup.wav" if item.startswith("weapon_") else "misc/am_pkup.wav")
            self.start(frame, entity, _AUTO, sample, origin)

    def _fire(self, frame: int, entity: int, weapon: int, powerups: int, origin: tuple[float, ...]) -> None:
        """``CG_FireWeapon``: the quad's sound and one of the weapon's flash sounds."""
        sounds = FLASH_SOUNDS.get(weapon)
        if sounds is None:
            return
        if weapon == g.WP_LIGHTNING:
            t, last = float(self.times[frame]), self._lightning.get(entity, -1e9)
            self._lightning[entity] = t
            if t - last <= LIGHTNING_HOLD:
                return
        if powerups & (1 << g.PW_QUAD):
            self.start(frame, entity, _ITEM, "items/damage3.wav", origin)
        self.start(frame, entity, _WEAPON, sounds[_pick(len(sounds), frame, entity, weapon)], origin)

    def _impact(self, frame: int, weapon: int, name: str, origin: tuple[float, ...]) -> None:
        """``CG_MissileHitWall``'s sound at a fixed point (``ENTITYNUM_WORLD``)."""
        key = (frame, int(origin[0]), int(origin[1]), int(origin[2]))
        flesh = name == "MISSILE_HIT"
        if weapon in (g.WP_GRENADE_LAUNCHER, g.WP_ROCKET_LAUNCHER, g.WP_BFG):
            sample = _ROCKET_EXPLOSION
        elif weapon in (g.WP_RAILGUN, g.WP_PLASMAGUN):
            sample = _PLASMA_EXPLOSION
        elif weapon == g.WP_LIGHTNING or (weapon not in _BULLETS_AND_NAILS and not self._nail_default):
            sample = _LIGHTNING_HITS[_pick(4, *key)]
        elif weapon == g.WP_MACHINEGUN:
            sample = _RICOCHETS[_pick(4, *key)]
        elif weapon == g.WP_PROX_LAUNCHER:
            sample = "weapons/proxmine/wstbexpl.wav"
        elif weapon == g.WP_CHAINGUN:
            sample = f"weapons/vulcan/wvulimp{'l' if flesh else 'm' if name == 'MISSILE_MISS_METAL' else 'd'}.wav"
        elif weapon == g.WP_SHOTGUN:
            return
        else:                                                   # the nailgun, and OpenArena's default
            sample = f"weapons/nailgun/wnalimp{'l' if flesh else 'm' if name == 'MISSILE_MISS_METAL' else 'd'}.wav"
        self.start(frame, _WORLD, _AUTO, sample, origin)


_REWARDS = ((14, "teamplay/flagcapture_yourteam.wav"), (9, "feedback/impressive.wav"),
            (10, "feedback/excellent.wav"), (13, "feedback/humiliation.wav"), (11, "feedback/defense.wav"),
            (12, "feedback/assist.wav"))
_PLAYER_EVENT_SOUNDS = ((1, "feedback/denied.wav"), (2, "feedback/humiliation.wav"), (4, "feedback/voc_holyshit.wav"))
_FRAG_WARNINGS = ((1, 4, "feedback/1_frag.wav"), (2, 2, "feedback/2_frags.wav"), (3, 1, "feedback/3_frags.wav"))


def _number(text: str, default: int = 0) -> int:
    try:
        return int(text)
    except ValueError:
        return default


def local_sounds(demo: Quake3Demo, rules: SoundRules) -> None:
    """``CG_CheckLocalSounds`` between consecutive playerStates of the same client (skipped at a follow switch,
    in intermission, for a spectator, or when the team changed): hit beeps, pain on a health drop of more than 1,
    reward announcements, then lead changes (free-for-all, outside warm-up, when no reward played), the frag-limit
    and time-limit warnings (once each until a new gamestate or ``map_restart``: ``cg.fraglimitWarnings``,
    ``cg.timelimitWarnings``; the time from ``CS_LEVEL_START_TIME``)."""
    ps = demo.snapshots.player
    server = demo.snapshots.server_time
    starts = {gs.first_snapshot: k for k, gs in enumerate(demo.gamestates)}
    restarts = {cmd.snapshot for cmd in demo.commands if cmd.name == "map_restart"}
    info: dict[str, str] = {}
    warned = timed = 0
    for i in range(len(ps)):
        if i in starts or i == 0:       # a new gamestate starts the cgame again: nothing to compare with
            gs = demo.gamestates[starts.get(i, 0)]
            info, warned, timed = dict(g.info_pairs(gs.configstrings.get(CS_SERVERINFO, ""))), 0, 0
            continue
        if i in restarts:               # CG_MapRestart: the warnings play again
            warned = timed = 0
        old, new = ps[i - 1], ps[i]
        pers, opers = new["persistant"], old["persistant"]
        if int(new["clientNum"]) != int(old["clientNum"]) or int(new["pm_type"]) == g.PM_INTERMISSION \
                or int(pers[g.PERS_TEAM]) == g.TEAM_SPECTATOR or int(pers[g.PERS_TEAM]) != int(opers[g.PERS_TEAM]):
            continue
        if pers[g.PERS_HITS] > opers[g.PERS_HITS]:
            rules.local(i, "feedback/hit.wav")
        elif pers[g.PERS_HITS] < opers[g.PERS_HITS]:
            rules.local(i, "feedback/hit_teammate.wav")
        health, old_health = int(new["stats"][0]), int(old["stats"][0])
        client = int(new["clientNum"])
        if 0 < health < old_health - 1:
            rules.pain(i, -1, client, health, tuple(float(v) for v in new["origin"]))
        reward = False
        for slot, sample in _REWARDS:
            if pers[slot] != opers[slot]:
                rules.local(i, sample)
                reward = True
        if pers[g.PERS_PLAYEREVENTS] != opers[g.PERS_PLAYEREVENTS]:
            changed = int(pers[g.PERS_PLAYEREVENTS]) ^ int(opers[g.PERS_PLAYEREVENTS])
            sample = next((s for bit, s in _PLAYER_EVENT_SOUNDS if changed & bit), "")
            if sample:
                rules.local(i, sample)
            reward = True
        gametype = _number(info.get("g_gametype", "0"))
        got_flag = any(new["powerups"][p] and new["powerups"][p] != old["powerups"][p]
                       for p in (g.PW_REDFLAG, g.PW_BLUEFLAG, g.PW_NEUTRALFLAG))
        if gametype > g.GT_TEAM and got_flag:
            rules.local(i, "teamplay/voc_you_flag.wav")
        strings = rules.configstrings(i)
        in_warmup = _number(strings.get(g.CS_WARMUP, ""), 0) != 0         # cg.warmup
        if not reward and not in_warmup and pers[g.PERS_RANK] != opers[g.PERS_RANK] and gametype < g.GT_TEAM:
            rank, old_rank = int(pers[g.PERS_RANK]), int(opers[g.PERS_RANK])
            if rank == 0:
                rules.local(i, "feedback/takenlead.wav")
            elif rank == RANK_TIED_FLAG:
                rules.local(i, "feedback/tiedlead.wav")
            elif old_rank & ~RANK_TIED_FLAG == 0:
                rules.local(i, "feedback/lostlead.wav")
        fraglimit = _number(info.get("fraglimit", "0"))
        if fraglimit > 0 and gametype < g.GT_CTF:
            high = _number(strings.get(g.CS_SCORES1, ""), g.SCORE_NOT_PRESENT)
            if gametype == g.GT_TEAM:
                high = max(high, _number(strings.get(g.CS_SCORES2, ""), g.SCORE_NOT_PRESENT))
            for left, bit, sample in _FRAG_WARNINGS:
                if not warned & bit and high == fraglimit - left and (left == 1 or fraglimit > left):
                    warned |= {1: 7, 2: 3, 3: 1}[left]
                    rules.local(i, sample)
                    break
        timelimit = _number(info.get("timelimit", "0"))
        if timelimit > 0:
            msec = int(server[i]) - _number(strings.get(g.CS_LEVEL_START_TIME, ""), 0)
            for bit, after, sample in ((4, (timelimit * 60 + 2) * 1000, "feedback/sudden_death.wav"),
                                       (2, (timelimit - 1) * 60000, "feedback/1_minute.wav"),
                                       (1, (timelimit - 5) * 60000 if timelimit > 5 else None,
                                        "feedback/5_minute.wav")):
                if not timed & bit and after is not None and msec > after:
                    timed |= {4: 7, 2: 3, 1: 1}[bit]
                    rules.local(i, sample)
                    break


_COUNTDOWN = ("feedback/one.wav", "feedback/two.wav", "feedback/three.wav")


def match_sounds(demo: Quake3Demo, rules: SoundRules) -> None:
    """The warm-up's announcer: "prepare" when a warm-up end time is set (``CG_ParseWarmup``), "three", "two", "one"
    as the whole seconds left reach 2, 1, 0 (``CG_DrawWarmup``, at the snapshot's server time), and "fight" at a
    ``map_restart`` outside a warm-up (``CG_MapRestart``).  Commands and ``cs`` changes of ``CS_WARMUP`` are read in
    the order they came, each gamestate starting from its own ``CS_WARMUP``."""
    server = demo.snapshots.server_time
    n = len(server)
    by_snapshot: dict[int, list] = {}
    for cmd in demo.commands:
        if cmd.name == "map_restart" or (cmd.name == "cs" and len(cmd.args) > 2 and cmd.args[1] == str(g.CS_WARMUP)):
            by_snapshot.setdefault(cmd.snapshot, []).append(cmd)
    ends = [gs.first_snapshot for gs in demo.gamestates[1:]] + [n]
    for gs, end in zip(demo.gamestates, ends):
        warmup, count = _number(gs.configstrings.get(g.CS_WARMUP, ""), 0), -1
        for i in range(max(gs.first_snapshot, 0), min(end, n)):
            for cmd in by_snapshot.get(i, ()):
                if cmd.message < gs.message:
                    continue
                if cmd.name == "map_restart":
                    if warmup == 0:
                        rules.local(i, "feedback/fight.wav")
                    continue
                value = _number(cmd.args[2], 0)
                if value > 0 and warmup <= 0:
                    rules.local(i, "feedback/prepare.wav")
                warmup, count = value, -1
            if warmup < 0:
                count = 0
            elif warmup > 0:
                sec = int((warmup - int(server[i])) / 1000)      # C division: towards zero
                if sec < 0:
                    warmup, sec = 0, 0
                if sec != count:
                    count = sec
                    if sec < len(_COUNTDOWN):
                        rules.local(i, _COUNTDOWN[sec])


#: The channels of the two loops an entity can have (ours: Quake III mixes loops apart from channels).
LOOP_CHANNEL, WEAPON_LOOP_CHANNEL = 8, 9
#: ``CG_RegisterWeapon``'s looping sounds: a missile's ``missileSound``, a player's ``firingSound`` while
#: ``EF_FIRING`` and ``readySound`` otherwise, by weapon number.
_WEAPON_LOOPS = ("", "weapons/rocket/rockfly.wav", "weapons/plasma/lasfly.wav", "weapons/melee/fstrun.wav",
                 "weapons/lightning/lg_hum.wav", "weapons/melee/fsthum.wav", "weapons/railgun/rg_hum.wav",
                 "weapons/bfg/bfg_hum.wav")
_MISSILE_LOOP = {5: 1, 8: 2, 9: 1}
_FIRING_LOOP = {1: 3, 6: 4}
_READY_LOOP = {1: 5, 6: 5, 7: 6, 9: 7}


def _table(mapping: dict[int, int]) -> np.ndarray:
    out = np.zeros(32, np.int32)
    for weapon, code in mapping.items():
        out[weapon] = code
    return out


def loop_sounds(rules: SoundRules, columns: dict[str, np.ndarray], column_row: np.ndarray, offsets: np.ndarray,
                frame_segment: np.ndarray) -> None:
    """Looping sounds (``S_AddLoopingSound``, re-added every frame while their entity is in the snapshot): an
    entity's ``loopSound`` (a ``CS_SOUNDS`` name: speakers, movers, a body in lava; ``CG_EntityEffects``), a
    rocket's or plasma ball's flight (``CG_Missile``), a living player's weapon hum (``CG_AddPlayerWeapon``: the
    lightning gun's and gauntlet's while firing, the railgun's, BFG's, gauntlet's and lightning gun's ready hum).
    Each run of consecutive snapshots with the same loop on an entity is one ``loop`` sound started at its first
    snapshot and stopped (``stopsound``) at the first snapshot without it.  Row ``k`` of the frames (``offsets``) is
    row ``column_row[k]`` of the entity ``columns``."""
    frames = len(offsets) - 1
    if frames <= 0 or not len(column_row):
        return
    cols = {name: columns[name][column_row] for name in ("number", "weapon", "eType", "eFlags", "loopSound", "origin")}
    frame = np.repeat(np.arange(frames), np.diff(offsets))
    weapon = np.clip(cols["weapon"], 0, 31)
    etype, eflags = cols["eType"], cols["eFlags"]
    firing = _table(_FIRING_LOOP)[weapon]
    held = np.where(((eflags & g.EF_FIRING) != 0) & (firing > 0), firing, _table(_READY_LOOP)[weapon])
    weapon_loop = np.where(etype == g.ET_MISSILE, _table(_MISSILE_LOOP)[weapon],
                           np.where((etype == g.ET_PLAYER) & ((eflags & g.EF_DEAD) == 0), held, 0))
    entity_loop = np.where(etype < g.ET_EVENTS, cols["loopSound"], 0)
    for channel, code in ((LOOP_CHANNEL, entity_loop), (WEAPON_LOOP_CHANNEL, weapon_loop)):
        rows = np.flatnonzero(code > 0)
        if not len(rows):
            continue
        rows = rows[np.lexsort((frame[rows], cols["number"][rows]))]
        number, f, c = cols["number"][rows], frame[rows], code[rows]
        new = np.ones(len(rows), bool)
        new[1:] = (number[1:] != number[:-1]) | (c[1:] != c[:-1]) | (f[1:] != f[:-1] + 1) \
            | (frame_segment[f[1:]] != frame_segment[f[:-1]])
        starts = np.flatnonzero(new)
        ends = np.append(starts[1:], len(rows)) - 1
        for a, b in zip(starts.tolist(), ends.tolist()):
            first, entity = int(f[a]), int(number[a])
            if channel == LOOP_CHANNEL:
                name = rules.configstrings(first).get(rules.numbers.cs_sounds + int(c[a]), "")
                if not name or name.startswith("*"):
                    continue
            else:
                name = _WEAPON_LOOPS[int(c[a])]
            rules.add(ev.SoundEvent, first, entity, channel, 0, _strip(name), VOLUME, ATTENUATION,
                      tuple(float(v) for v in cols["origin"][rows[a]]), True)
            if int(f[b]) + 1 < frames:
                rules.add(ev.StopSoundEvent, int(f[b]) + 1, entity, channel)
