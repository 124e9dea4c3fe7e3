"""Quake II monster muzzle flashes (``svc_muzzleflash2``): the ``MZ2_*`` numbers by name.

The value byte of ``svc_muzzleflash2`` indexes this table (1-based; 0 is unused).  The engine looks up an offset
per entry (``monster_flash_offset``) and a light per monster; the decoder reports the name, the viewer draws it.

References: Quake II 3.20 ``game/q_shared.h`` (``MZ2_*``, Xatrix and Rogue additions); ``client/cl_fx.c``
``CL_ParseMuzzleFlash2``.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MONSTER_FLASHES", "monster_flash_name"]

#: ``MONSTER_FLASHES[n - 1]`` is the lower-case name of ``MZ2_*`` value ``n``.
MONSTER_FLASHES: Final[tuple[str, ...]] = (
    "tank_blaster_1", "tank_blaster_2", "tank_blaster_3", "tank_machinegun_1", "tank_machinegun_2",
    "tank_machinegun_3", "tank_machinegun_4", "tank_machinegun_5", "tank_machinegun_6", "tank_machinegun_7",
    "tank_machinegun_8", "tank_machinegun_9", "tank_machinegun_10", "tank_machinegun_11", "tank_machinegun_12",
    "tank_machinegun_13", "tank_machinegun_14", "tank_machinegun_15", "tank_machinegun_16", "tank_machinegun_17",
    "tank_machinegun_18", "tank_machinegun_19", "tank_rocket_1", "tank_rocket_2", "tank_rocket_3",
    "infantry_machinegun_1", "infantry_machinegun_2", "infantry_machinegun_3", "infantry_machinegun_4",
    "infantry_machinegun_5", "infantry_machinegun_6", "infantry_machinegun_7", "infantry_machinegun_8",
    "infantry_machinegun_9", "infantry_machinegun_10", "infantry_machinegun_11", "infantry_machinegun_12",
    "infantry_machinegun_13", "soldier_blaster_1", "soldier_blaster_2", "soldier_shotgun_1", "soldier_shotgun_2",
    "soldier_machinegun_1", "soldier_machinegun_2", "gunner_machinegun_1", "gunner_machinegun_2",
    "gunner_machinegun_3", "gunner_machinegun_4", "gunner_machinegun_5", "gunner_machinegun_6",
    "gunner_machinegun_7", "gunner_machinegun_8", "gunner_grenade_1", "gunner_grenade_2", "gunner_grenade_3",
    "gunner_grenade_4", "chick_rocket_1", "flyer_blaster_1", "flyer_blaster_2", "medic_blaster_1",
    "gladiator_railgun_1", "hover_blaster_1", "actor_machinegun_1", "supertank_machinegun_1",
    "supertank_machinegun_2", "supertank_machinegun_3", "supertank_machinegun_4", "supertank_machinegun_5",
    "supertank_machinegun_6", "supertank_rocket_1", "supertank_rocket_2", "supertank_rocket_3",
    "boss2_machinegun_l1", "boss2_machinegun_l2", "boss2_machinegun_l3", "boss2_machinegun_l4",
    "boss2_machinegun_l5", "boss2_rocket_1", "boss2_rocket_2", "boss2_rocket_3", "boss2_rocket_4", "float_blaster_1",
    "soldier_blaster_3", "soldier_shotgun_3", "soldier_machinegun_3", "soldier_blaster_4", "soldier_shotgun_4",
    "soldier_machinegun_4", "soldier_blaster_5", "soldier_shotgun_5", "soldier_machinegun_5", "soldier_blaster_6",
    "soldier_shotgun_6", "soldier_machinegun_6", "soldier_blaster_7", "soldier_shotgun_7", "soldier_machinegun_7",
    "soldier_blaster_8", "soldier_shotgun_8", "soldier_machinegun_8", "makron_bfg", "makron_blaster_1",
    "makron_blaster_2", "makron_blaster_3", "makron_blaster_4", "makron_blaster_5", "makron_blaster_6",
    "makron_blaster_7", "makron_blaster_8", "makron_blaster_9", "makron_blaster_10", "makron_blaster_11",
    "makron_blaster_12", "makron_blaster_13", "makron_blaster_14", "makron_blaster_15", "makron_blaster_16",
    "makron_blaster_17", "makron_railgun_1", "jorg_machinegun_l1", "jorg_machinegun_l2", "jorg_machinegun_l3",
    "jorg_machinegun_l4", "jorg_machinegun_l5", "jorg_machinegun_l6", "jorg_machinegun_r1", "jorg_machinegun_r2",
    "jorg_machinegun_r3", "jorg_machinegun_r4", "jorg_machinegun_r5", "jorg_machinegun_r6", "jorg_bfg_1",
    "boss2_machinegun_r1", "boss2_machinegun_r2", "boss2_machinegun_r3", "boss2_machinegun_r4",
    "boss2_machinegun_r5", "carrier_machinegun_l1", "carrier_machinegun_r1", "carrier_grenade", "turret_machinegun",
    "turret_rocket", "turret_blaster", "stalker_blaster", "daedalus_blaster", "medic_blaster_2", "carrier_railgun",
    "widow_disruptor", "widow_blaster", "widow_rail", "widow_plasmabeam", "carrier_machinegun_l2",
    "carrier_machinegun_r2", "widow_rail_left", "widow_rail_right", "widow_blaster_sweep1", "widow_blaster_sweep2",
    "widow_blaster_sweep3", "widow_blaster_sweep4", "widow_blaster_sweep5", "widow_blaster_sweep6",
    "widow_blaster_sweep7", "widow_blaster_sweep8", "widow_blaster_sweep9", "widow_blaster_100", "widow_blaster_90",
    "widow_blaster_80", "widow_blaster_70", "widow_blaster_60", "widow_blaster_50", "widow_blaster_40",
    "widow_blaster_30", "widow_blaster_20", "widow_blaster_10", "widow_blaster_0", "widow_blaster_10l",
    "widow_blaster_20l", "widow_blaster_30l", "widow_blaster_40l", "widow_blaster_50l", "widow_blaster_60l",
    "widow_blaster_70l", "widow_run_1", "widow_run_2", "widow_run_3", "widow_run_4", "widow_run_5", "widow_run_6",
    "widow_run_7", "widow_run_8", "carrier_rocket_1", "carrier_rocket_2", "carrier_rocket_3", "carrier_rocket_4",
    "widow2_beamer_1", "widow2_beamer_2", "widow2_beamer_3", "widow2_beamer_4", "widow2_beamer_5",
    "widow2_beam_sweep_1", "widow2_beam_sweep_2", "widow2_beam_sweep_3", "widow2_beam_sweep_4",
    "widow2_beam_sweep_5", "widow2_beam_sweep_6", "widow2_beam_sweep_7", "widow2_beam_sweep_8",
    "widow2_beam_sweep_9", "widow2_beam_sweep_10", "widow2_beam_sweep_11",
)


def monster_flash_name(value: int) -> str:
    """The name of monster flash ``value`` (``"tank_blaster_1"``), or ``"monster_flash_N"`` outside the table."""
    return MONSTER_FLASHES[value - 1] if 1 <= value <= len(MONSTER_FLASHES) else f"monster_flash_{value}"
