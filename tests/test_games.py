"""The per-game seam: demos find their game's view by ``DemoTimeline.game``; unknown games are named."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.demos import load_demo
from tests.conftest import LQ1, QUAKE2, QUAKE3, QUAKEWORLD
from viewer.games.quake.view import QuakeView
from viewer.games.registry import DEFAULT_GAME, GAME_VIEWS, game_view, map_game
from viewer.scene import build_scene


def test_quake_and_quakeworld_demos_use_the_quake_view() -> None:
    for path in (LQ1 / "demo3.dem", QUAKEWORLD / "lq_lqdm2_ranger.qwd"):
        assert isinstance(game_view(load_demo(path).game), QuakeView)
    assert isinstance(game_view(DEFAULT_GAME), QuakeView)


def test_maps_name_their_game_by_their_header() -> None:
    from assets_loader.pak import load_pak
    from assets_loader.pk3 import load_pk3

    assert map_game(load_pak(LQ1 / "pak0.pak").read("maps/lqdm3.bsp")[:8]) == "quake"
    q2 = load_pak(QUAKE2 / "action" / "aq_terminal.pak").read("maps/terminal.bsp")
    assert map_game(q2[:8]) == "quake2"
    assert map_game(load_pk3(QUAKE3 / "oa_dm1_assets.pk3").read("maps/oa_dm1.bsp")[:8]) == "quake3"
    with pytest.raises(ValueError, match="not a Quake, Quake II or Quake III map"):
        map_game(b"PACK\0\0\0\0")


def test_an_unknown_game_is_named_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"'hexen2'.*quake, quake2, quake3, quakeworld"):
        game_view("hexen2")
    assert set(GAME_VIEWS) == {"quake", "quakeworld", "quake2", "quake3"}


def test_the_scene_asks_the_game_which_entities_are_drawn() -> None:
    timeline = load_demo(LQ1 / "demo3.dem")
    t = timeline.start_time + 5.0

    class NoEntities(QuakeView):
        __slots__ = ()

        def entity_draws(self, state, first_person, model_flags=None):
            return []

    assert build_scene(timeline, t).models
    assert build_scene(timeline, t, game=NoEntities()).models == ()


def test_quake_bonus_items_spin_with_time_whatever_their_own_angles() -> None:
    """``CL_RelinkEntities``: a model with ``EF_ROTATE`` (armor.mdl in LibreQuake) turns 100° a second."""
    from assets_loader.models import EF_ROTATE
    from viewer.games.quake.link import spun
    from viewer.render.refdef import EntityDraw

    armor, door = (EntityDraw(m, np.zeros(3), np.array([10.0, 20.0, 30.0])) for m in (1, 2))
    flags = np.array([0, EF_ROTATE, 0], np.int32)
    turned, kept = spun([armor, door], flags, 4.5)
    assert tuple(turned.angles) == (0.0, 90.0, 0.0) and kept is door
    assert spun([armor], None, 4.5) == [armor]
