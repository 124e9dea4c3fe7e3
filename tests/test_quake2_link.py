"""Quake II entity linking (viewer/games/quake2/link.py) on tiny synthetic demos."""

from __future__ import annotations

import numpy as np

from assets_loader.demos.quake2 import decode_dm2
from assets_loader.demos.quake2 import protocol as P
from tests.builders.dm2 import DM2Messages, dm2
from viewer.games.quake2 import link

M = DM2Messages()


def _timeline():
    signon = [M.serverdata(playernum=0), M.configstring(P.CS_MODELS + 1, "maps/t.bsp"),
              M.configstring(P.CS_MODELS + 2, "models/items/armor/tris.md2"),
              M.configstring(P.CS_MODELS + 3, "models/weapons/v_rail/tris.md2"),
              M.configstring(P.CS_PLAYERSKINS, "Me\\male/grunt"),
              M.configstring(P.CS_PLAYERSKINS + 1, "You\\female/athena")]
    ents = (M.entity(1, model=255, skin=0, origin=(0, 0, 0)),
            M.entity(2, model=255, skin=1, model2=2, origin=(64, 0, 0)),
            M.entity(5, model=2, effects=link.EF_ROTATE, renderfx=link.RF_FULLBRIGHT, origin=(0, 64, 0)),
            M.entity(6, model=2, renderfx=link.RF_BEAM, origin=(0, 0, 64)))
    frame = [M.frame(1, -1), M.playerinfo(origin=(0, 0, 0), viewoffset=(0, 0, 22), gunindex=3, gunframe=7),
             M.packetentities(ents)]
    return decode_dm2(dm2(signon, frame), "t.dm2")


def test_players_use_their_client_model_and_beams_are_not_models() -> None:
    tl = _timeline()
    assert tl.segments[0].model_precache[256:] == ("players/male/grunt.pcx", "players/female/athena.pcx")
    state = tl.sample(tl.start_time)
    draws = link.entity_draws(state, first_person=False)
    by_entity = {}
    for d in draws:
        by_entity.setdefault(d.entity, []).append(d)
    assert [d.model for d in by_entity[1]] == [256] and [d.model for d in by_entity[2]] == [257, 2]
    assert 6 not in by_entity                                 # RF_BEAM: drawn by the effects
    assert by_entity[5][0].angles[0] == 0 and by_entity[5][0].angles[1] == (state.time * 100) % 360
    assert by_entity[5][0].fullbright and not by_entity[1][0].fullbright     # RF_FULLBRIGHT
    assert link.player_entities(state) == (1, 2) and link.follow_candidates(state) == (1, 2)


def test_first_person_hides_the_recorder_and_adds_the_view_weapon() -> None:
    state = _timeline().sample(0.1)
    draws = link.entity_draws(state, first_person=True)
    assert 1 not in [d.entity for d in draws if not d.view_model]
    (gun,) = [d for d in draws if d.view_model]
    assert gun.model == 3 and gun.frame == 7
    np.testing.assert_allclose(gun.origin, (0, 0, 22))


def test_powerups_and_colour_shells_add_a_translucent_shell_over_the_main_model() -> None:
    signon = [M.serverdata(playernum=0), M.configstring(P.CS_MODELS + 1, "maps/t.bsp"),
              M.configstring(P.CS_MODELS + 2, "models/items/armor/tris.md2"),
              M.configstring(P.CS_MODELS + 3, "models/weapons/g_rail/tris.md2")]
    shell = link.EF_COLOR_SHELL
    ents = (M.entity(2, model=2, effects=link.EF_QUAD, renderfx=link.RF_FULLBRIGHT | link.RF_TRANSLUCENT),
            M.entity(3, model=2, effects=shell, renderfx=link.RF_SHELL_RED | link.RF_SHELL_GREEN, model2=3),
            M.entity(4, model=2, effects=link.EF_PENT | link.EF_QUAD),
            M.entity(5, model=2, effects=link.EF_HALF_DAMAGE),
            M.entity(6, model=2, renderfx=link.RF_SHELL_BLUE | link.RF_TRANSLUCENT, model2=3))
    tl = decode_dm2(dm2(signon, [M.frame(1, -1), M.playerinfo(), M.packetentities(ents)]), "t.dm2")
    by_entity: dict[int, list] = {}
    for d in link.entity_draws(tl.sample(tl.start_time), first_person=False):
        by_entity.setdefault(d.entity, []).append(d)
    quad_model, quad_shell = by_entity[2]
    assert (quad_model.shell, quad_model.alpha, quad_model.fullbright) == (None, 1.0, False)   # flags go to the shell
    assert (quad_shell.shell, quad_shell.alpha, quad_shell.model) == ((0.0, 0.0, 1.0), link.SHELL_ALPHA, 2)
    assert [d.shell for d in by_entity[3]] == [None, (1.0, 1.0, 0.0), None]       # model, its shell, the weapon
    assert by_entity[3][2].model == 3 and by_entity[3][2].alpha == 1.0
    assert by_entity[4][1].shell == (1.0, 0.0, 1.0) and by_entity[5][1].shell == (0.56, 0.59, 0.45)
    assert [(d.shell, d.alpha) for d in by_entity[6]] == [(None, link.TRANSLUCENT_ALPHA), (None, 1.0)]   # no shell
