"""Per-game timeline schema: the stat columns, the interpolation rules and the entity-row layout a game's decoders
fill, so :mod:`.timeline` stays game-neutral.

A :class:`GameSchema` names its game (``DemoTimeline.game``), its per-frame stat columns in order, the teleport
distance beyond which ``sample`` snaps instead of lerping, the default alias-pose interval, and a ``trajectory``
hook: the name of a per-entity trajectory rule (Quake III ``trType``) that ``sample`` evaluates instead of lerping
origins; ``None`` for games whose entities are plain snapshots.

References: QuakeSpasm ``client.h`` (``cl.stats``, ``STAT_*``), ``cl_main.c`` ``CL_RelinkEntities`` (teleport snap
at 100 units); ezQuake ``cl_ents.c`` ``CL_LinkPlayers``; ioquake3 ``q_shared.h`` ``trajectory_t`` (the hook).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GameSchema", "QUAKE", "QUAKE2", "QUAKE2_STAT_NAMES", "QUAKE3", "QUAKE3_ENTITY_FIELDS", "QUAKE3_STAT_NAMES",
           "QUAKEWORLD", "STAT_NAMES", "PLAYER_DEAD", "PLAYER_GIB", "view_height"]

#: Quake's per-frame stat columns, in order.  The first 15 are ``cl.stats`` (STAT_HEALTH…STAT_MONSTERS):
#: ``weaponmodel`` is the view weapon's model index, ``activeweapon`` the IT_* bit of the selected weapon.
#: The rest come from ``svc_clientdata``: ``items`` (IT_* bits), ``viewheight``, ``idealpitch``, ``punch_*``
#: (punch angles, degrees), ``onground`` / ``inwater`` (0/1), ``weaponalpha`` (666/999 alpha byte, 0 = default);
#: ``intermission`` is 0 in play, 1 intermission, 2 finale, 3 cutscene.
STAT_NAMES: tuple[str, ...] = (
    "health", "frags", "weaponmodel", "ammo", "armor", "weaponframe", "shells", "nails", "rockets", "cells",
    "activeweapon", "totalsecrets", "totalmonsters", "secrets", "monsters",
    "items", "viewheight", "idealpitch", "punch_pitch", "punch_yaw", "punch_roll", "onground", "inwater",
    "weaponalpha", "intermission",
)

#: Player flag bits of ``PlayerFrames.flags`` (QuakeWorld ``PF_DEAD`` / ``PF_GIB``; MVD ``DF_DEAD`` / ``DF_GIB``
#: map here).
PLAYER_DEAD = 1 << 9
PLAYER_GIB = 1 << 10


@dataclass(frozen=True, slots=True)
class GameSchema:
    """What a game's timeline holds and how ``sample`` interpolates it."""

    game: str
    stat_names: tuple[str, ...]
    #: An entity that moved more than this on any axis between two frames is snapped, not interpolated.
    teleport_distance: float = 100.0
    #: Seconds an alias-model pose blend takes when the wire does not say (``frame_interval``).
    pose_interval: float = 0.1
    #: Name of the per-entity trajectory rule ``sample`` evaluates (Quake III), ``None`` = lerp snapshots.
    trajectory: str | None = None
    #: Extra per-entity columns the game's timeline keeps beside the common ones (``SceneState.entity_fields``).
    entity_fields: tuple[str, ...] = ()
    #: Entity number of client slot ``s`` is ``s + client_entity_offset`` (Quake: slot + 1; Quake III: the slot).
    client_entity_offset: int = 1
    #: Values of an ``event`` entity column that make ``sample`` snap the entity (Quake II teleport events).
    snap_events: tuple[int, ...] = ()
    #: Eye height above a living player's origin when its stats do not say (Quake's 22, Quake III's
    #: ``DEFAULT_VIEWHEIGHT`` 26).
    view_height: float = 22.0
    #: A player entity's pitch times this is its view pitch (Quake ``SV_ClientThink`` sends ``-pitch / 3``, Quake II
    #: ``ClientEndServerFrame`` ``pitch / 3``, Quake III ``BG_PlayerStateToEntityState`` the view angles).
    entity_pitch_scale: float = -3.0
    #: Where orbit cameras look, above a followed entity's origin (Quake: about the chest; Quake III: the eye).
    orbit_height: float = 16.0
    #: Names and texts carry Quake III colour codes (``^1``…, :mod:`.quake3.colors`).
    color_codes: bool = False
    #: The game's maps carry per-leaf ambient sound levels (Quake's BSP ``ambient_level``: water, wind…).
    leaf_ambients: bool = False
    #: How its sound system places a sound (``S_StartSound``): sounds this close are at full volume (Quake III
    #: ``SOUND_FULLVOLUME`` 80; Quake 0), each side is ``sound_separation`` × (1 ± the sideways dot product) of it
    #: (Quake 1, Quake III 0.5), and a sound on an entity's channel cuts the one playing there (Quake) or both play
    #: (Quake III, which only picks a free channel).
    sound_full_distance: float = 0.0
    sound_separation: float = 1.0
    sound_channel_replace: bool = True
    #: Quake III drops a start of a sound its entity started less than this many seconds before (``S_StartSound``:
    #: 50 ms); 0: Quake's rule, a sound started twice in one frame is offset instead.
    sound_repeat_gap: float = 0.0
    #: Volume 0..1 of a local sound (Quake's ``S_LocalSound`` 1; Quake III's ``S_StartLocalSound`` its ``master_vol``
    #: 127 of 255, like every other sound).
    local_sound_volume: float = 1.0
    #: Player sounds ``player/MODEL/…`` missing from the game files play the default model's instead
    #: (Quake III ``CG_LoadClientInfo``: ``sarge``); empty: no fallback.
    default_player_sounds: str = ""

    def entity_slot(self, entity: int) -> int:
        """The client slot whose player is entity ``entity`` (-1 or beyond the slots for a non-player)."""
        return entity - self.client_entity_offset

    def stat_index(self, name: str) -> int:
        """Column of stat ``name`` (``ValueError`` if this game has no such stat)."""
        return self.stat_names.index(name)


QUAKE = GameSchema("quake", STAT_NAMES, leaf_ambients=True)
QUAKEWORLD = GameSchema("quakeworld", STAT_NAMES, leaf_ambients=True)

#: Quake III's per-frame stat columns (the followed / recording client's ``playerState_t``): ``stats[]`` in
#: OpenArena / Team Arena order (STAT_HEALTH … STAT_MAX_HEALTH; ``weapons`` is a bit per WP_*), ``persistant[]``
#: (PERS_SCORE … PERS_CAPTURES), ``ammo`` of the held weapon, the held ``weapon``, ``powerups`` (a bit per PW_* in
#: force), ``viewheight``, ``pm_type``, ``pm_flags``, ``clientNum`` (the player the view follows), ``bob_cycle``
#: (``bobCycle``: the walk cycle the view and weapon bob with), ``scores1`` / ``scores2`` (the first and second
#: place's scores, ``CS_SCORES1`` / ``CS_SCORES2``; -9999 for nobody), the damage the view took (``damageEvent``
#: counts hits, ``damageYaw`` / ``damagePitch`` the direction it came from as bytes, ``damageCount`` how much), and
#: the snapshot's own timing: ``snap_flags`` (``snapFlags``: 1 = rate delayed) and ``snap_drops`` (message numbers
#: that went by without a valid snapshot just before this one), ``warmup`` (from ``CS_WARMUP``: the number the
#: cgame's "Starts in: N" shows, -1 while waiting for players, 0 outside a warm-up), and the held weapon's
#: ``weapon_state`` (``weaponstate``: ``WEAPON_READY`` 0 … ``WEAPON_FIRING`` 3) and ``weapon_time`` (``weaponTime``:
#: ms until it may fire again).
QUAKE3_STAT_NAMES: tuple[str, ...] = (
    "health", "holdable_item", "persistant_powerup", "weapons", "armor", "dead_yaw", "clients_ready", "max_health",
    "score", "hits", "rank", "team", "spawn_count", "playerevents", "attacker", "attackee_armor", "killed",
    "impressive_count", "excellent_count", "defend_count", "assist_count", "gauntlet_frag_count", "captures",
    "ammo", "weapon", "powerups", "viewheight", "pm_type", "pm_flags", "clientNum", "bob_cycle", "scores1", "scores2",
    "damage_event", "damage_yaw", "damage_pitch", "damage_count", "snap_flags", "snap_drops", "warmup",
    "weapon_state", "weapon_time",
)

#: The ``entityState_t`` members a Quake III timeline keeps per entity beside the common columns (``origin`` /
#: ``angles`` are the trajectories evaluated at the snapshot; ``state_origin`` / ``state_angles`` the raw members;
#: ``legsAnimTime`` / ``torsoAnimTime``: the timeline time an animation value last changed, when it started).
QUAKE3_ENTITY_FIELDS: tuple[str, ...] = (
    "eType", "eFlags", "pos_trType", "pos_trTime", "pos_trDuration", "pos_trBase", "pos_trDelta",
    "apos_trType", "apos_trTime", "apos_trDuration", "apos_trBase", "apos_trDelta", "time", "time2",
    "state_origin", "origin2", "state_angles", "angles2", "otherEntityNum", "otherEntityNum2", "groundEntityNum",
    "constantLight", "loopSound", "modelindex2", "clientNum", "solid", "event", "eventParm", "powerups", "weapon",
    "legsAnim", "torsoAnim", "generic1", "legsAnimTime", "torsoAnimTime",
)

#: Quake III: stats of the followed client, entities on trajectories, players snapped when their teleport bit
#: flips (the distance rule stays as a backstop for a missed flip), client ``s`` is entity ``s``.
QUAKE3 = GameSchema("quake3", QUAKE3_STAT_NAMES, teleport_distance=256.0, pose_interval=0.05,
                    trajectory="quake3", entity_fields=QUAKE3_ENTITY_FIELDS, client_entity_offset=0,
                    view_height=26.0, orbit_height=26.0, entity_pitch_scale=1.0, color_codes=True,
                    sound_full_distance=80.0, sound_separation=0.5, sound_channel_replace=False, sound_repeat_gap=0.05,
                    local_sound_volume=127 / 255, default_player_sounds="sarge")
#: Quake II's per-frame columns: the 32 ``player_state_t.stats`` (``STAT_HEALTH_ICON``…, 16..31 mod-defined), then the
#: rest of the player state as integers in wire units: ``pm_*`` (``pmove_state_t``), ``gunindex`` / ``gunframe``,
#: ``fov`` (degrees), ``rdflags`` (``RDF_*``), ``blend_*`` (0..255), and quarter units (degrees or world units × 4)
#: for ``viewoffset_*``, ``kick_*``, ``gunoffset_*``, ``gunangles_*``; ``intermission`` is 1 while ``pm_type`` is
#: ``PM_FREEZE``; ``gunframe_prev`` / ``fov_prev`` are the previous server frame's (this one's after a gap).
QUAKE2_STAT_NAMES: tuple[str, ...] = (
    "health_icon", "health", "ammo_icon", "ammo", "armor_icon", "armor", "selected_icon", "pickup_icon",
    "pickup_string", "timer_icon", "timer", "help_icon", "selected_item", "layouts", "frags", "flashes",
) + tuple(f"stat{i}" for i in range(16, 32)) + (
    "pm_type", "pm_flags", "pm_time", "gravity", "gunindex", "gunframe", "fov", "rdflags",
    "blend_r", "blend_g", "blend_b", "blend_a", "viewoffset_x4", "viewoffset_y4", "viewoffset_z4",
    "kick_pitch4", "kick_yaw4", "kick_roll4", "gunoffset_x4", "gunoffset_y4", "gunoffset_z4",
    "gunangles_pitch4", "gunangles_yaw4", "gunangles_roll4", "intermission", "gunframe_prev", "fov_prev",
)
#: Quake II: 10 Hz server frames; entities moving over 512 units or with a teleport event (``EV_PLAYER_TELEPORT`` 6,
#: ``EV_OTHER_TELEPORT`` 7) snap (``CL_DeltaEntity``).
QUAKE2 = GameSchema("quake2", QUAKE2_STAT_NAMES, teleport_distance=512.0, snap_events=(6, 7), entity_pitch_scale=3.0)


def view_height(flags: int, stat_viewheight: int = 0, default: float = 22.0) -> float:
    """Eye height above the player origin (``V_CalcRefdef``): +8 gibbed, -16 dead, else STAT_VIEWHEIGHT or
    ``default`` (the schema's :attr:`GameSchema.view_height`)."""
    if flags & PLAYER_GIB:
        return 8.0
    if flags & PLAYER_DEAD:
        return -16.0
    return float(stat_viewheight) if stat_viewheight else default
