"""Quake II explosion models (viewer/games/quake2/explosions.py) and the models a segment registers beyond its
configstrings: visible player weapons and effect models (segment_models.py), linked from ``modelindex2 == 255``."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.demos.quake2 import decode_dm2
from assets_loader.demos.quake2 import protocol as P
from assets_loader.vfs import VirtualFS
from tests.builders.dm2 import DM2Messages, dm2, pos
from tests.builders.quake2_models import build_md2
from tests.builders.segment import named_models
from viewer.games.quake2 import explosions, fx, link, segment_models
from viewer.games.quake2.assets import load_model
from viewer.render.refdef import ModelRef
from viewer.scene import build_scene

M = DM2Messages()
ROCKET, GRENADE, BFG = 7, 8, 20


def _timeline(*msgs: bytes, ents: tuple[bytes, ...] = (), signon: tuple[bytes, ...] = ()):
    head = [M.serverdata(), M.configstring(P.CS_MODELS + 1, "maps/t.bsp"), *signon]
    return decode_dm2(dm2(head, [M.frame(1, -1), M.playerinfo(origin=(0, 0, 0)), M.packetentities(ents), *msgs],
                          [M.frame(2, 1), M.playerinfo(), M.packetentities([])]), "t.dm2")


def test_an_explosion_starts_one_frame_in_and_ends_at_its_last_frame() -> None:
    rocket, grenade = explosions.KINDS["rocket_explosion"], explosions.KINDS["grenade_explosion"]
    start = explosions.pose_at(rocket, 0.0)
    assert start is not None and (start.f, start.blend) == (1, 0.0)
    half = explosions.pose_at(rocket, 0.25)
    assert half is not None and half.f == 3 and half.blend == pytest.approx(0.5)
    assert explosions.pose_at(rocket, 1.29) is not None and explosions.pose_at(rocket, 1.3) is None   # 15 frames
    assert explosions.pose_at(grenade, 1.69) is not None and explosions.pose_at(grenade, 1.7) is None  # 19 frames
    assert explosions.pose_at(rocket, -0.01) is None


def test_explosion_models_pose_skin_and_fade_like_cl_add_explosions() -> None:
    tl = _timeline(M.temp_entity(ROCKET, pos((100, 0, 0))), M.temp_entity(GRENADE, pos((0, 100, 0))))
    effects = fx.Quake2Effects.of(tl)
    t0 = tl.start_time
    rocket, grenade = effects.models(tl.sample(t0 + 0.05), t0 + 0.05)
    assert rocket.model == grenade.model == explosions.EXPLODE_MODEL
    assert rocket.fullbright and grenade.fullbright                     # RF_FULLBRIGHT: not lit by the map
    assert rocket.prev_frame in (1, 16) and rocket.frame == rocket.prev_frame + 1 and rocket.blend == pytest.approx(0.5)
    assert (grenade.prev_frame, grenade.frame, grenade.skin, grenade.alpha) == (31, 32, 0, 1.0)
    np.testing.assert_allclose(rocket.origin, (100, 0, 0))
    late = effects.models(tl.sample(t0 + 1.15), t0 + 1.15)             # f = 12: skin 5 at (16 - 12) / 16
    assert [(m.skin, m.alpha) for m in late] == [(5, 0.25), (5, 0.25)]
    again = effects.models(tl.sample(t0 + 0.05), t0 + 0.05)[0]
    assert again.angles[1] == rocket.angles[1] and again.frame == rocket.frame        # seeded, not random per call
    assert effects.models(tl.sample(t0 + 1.8), t0 + 1.8) == []
    lights = effects.lights(tl.sample(t0 + 0.5), t0 + 0.5, None)        # f = 6: 350 × 10 / 16
    np.testing.assert_allclose(lights.radius, [350 * 10 / 16] * 2)
    assert lights.colors[0].tolist() == [1.0, 0.5, 0.5]


def test_the_scene_draws_explosions_by_their_registered_name() -> None:
    tl = _timeline(M.temp_entity(GRENADE, pos((0, 100, 0))))
    names = ("", "maps/t.bsp", explosions.EXPLODE_MODEL)
    frame = build_scene(tl, tl.start_time + 0.05, effects=fx.Quake2Effects.of(tl), assets=named_models(names))
    (draw,) = [d for d in frame.models if d.model == 2]
    assert (draw.prev_frame, draw.frame, draw.blend, draw.skin) == (31, 32, pytest.approx(0.5), 0)
    assert draw.fullbright


def test_the_bfg_explosion_is_translucent_from_its_first_frame() -> None:
    tl = _timeline(M.temp_entity(BFG, pos((0, 0, 50))))
    effects = fx.Quake2Effects.of(tl)
    t0 = tl.start_time
    first, second = (effects.models(tl.sample(t), t)[0] for t in (t0 + 0.05, t0 + 0.15))
    assert first.model == explosions.BFG_EXPLODE_SPRITE and first.fullbright
    assert (first.alpha, second.alpha) == (15 / 16, 14 / 16)             # (16 - f) / 16 with f = 1, 2


def _game_dir(tmp_path) -> VirtualFS:
    md2 = build_md2()
    for path in ("players/male/weapon.md2", "players/male/w_shotgun.md2", "players/female/weapon.md2",
                 explosions.EXPLODE_MODEL):
        f = tmp_path / "baseq2" / path
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(md2)
    return VirtualFS(str(tmp_path), None, base="baseq2")


def test_each_client_gets_its_model_dirs_weapons_with_the_engines_fallbacks(tmp_path) -> None:
    fs = _game_dir(tmp_path)
    precache = ["", "maps/t.bsp", "#w_shotgun.md2", "#w_railgun.md2"] + [""] * 252
    precache += ["players/male/grunt.pcx", "", "players/female/athena.pcx", "players/cyborg/oni911.pcx"]
    assert segment_models.weapon_files(precache) == ("weapon.md2", "w_shotgun.md2", "w_railgun.md2")
    assert segment_models.client_model_dirs(precache) == {0: "players/male", 2: "players/female",
                                                          3: "players/cyborg"}
    with pytest.warns(UserWarning, match="2 player weapon or effect models missing") as caught:
        more = segment_models.extra_models(fs, precache, len(precache), lambda f, n: ModelRef(n, "alias"))
    assert len(caught) == 1 and "players/cyborg/weapon.md2" not in str(caught[0].message)
    models = tuple(ModelRef(n, "none") for n in precache) + more

    def weapon(client: int, k: int) -> str:
        return models[segment_models.weapon_model_index(client, k)].name

    assert (weapon(0, 0), weapon(0, 1), weapon(0, 2)) == ("players/male/weapon.md2", "players/male/w_shotgun.md2",
                                                          "players/male/weapon.md2")    # no w_railgun: weapon.md2
    assert weapon(0, 7) == weapon(0, 25) == "players/male/weapon.md2"                   # unknown numbers: weapon 0
    assert weapon(2, 1) == "players/female/weapon.md2"
    assert models[segment_models.weapon_model_index(1, 0)].kind == "none"              # no client in slot 1
    assert weapon(3, 1) == "players/male/weapon.md2"                                   # the base client's weapon
    tail = models[-len(explosions.EFFECT_MODELS):]
    assert [(m.name, m.kind) for m in tail] == [(explosions.EXPLODE_MODEL, "alias"),
                                                (explosions.BIG_EXPLODE_MODEL, "null"),       # Q2PRO's axes
                                                (explosions.BFG_EXPLODE_SPRITE, "null")]
    with pytest.warns(UserWarning):                  # the built MD2's skin and two effect models are missing
        loaded = segment_models.extra_models(fs, ["", "", "#w_x.md2"] + [""] * 253 + ["players/male/a.pcx"], 257,
                                             load_model)
    assert loaded[segment_models.weapon_model_index(0, 0) - 257].alias is not None


def test_a_player_with_model2_255_carries_its_clients_weapon() -> None:
    skins = (M.configstring(P.CS_PLAYERSKINS + 1, "You\\female/athena"),)
    tl = _timeline(ents=(M.entity(2, model=255, model2=255, skin=1 | (3 << 8), origin=(64, 0, 0)),), signon=skins)
    draws = link.entity_draws(tl.sample(tl.start_time), first_person=False)
    assert [d.model for d in draws] == [257, segment_models.weapon_model_index(1, 3)]
