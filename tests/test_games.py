"""The per-game seam: demos find their game's view by ``DemoTimeline.game``; unknown games are named."""

from __future__ import annotations

import pytest

from assets_loader.demos import load_demo
from tests.conftest import LQ1, QUAKEWORLD
from viewer.games.quake.view import QuakeView
from viewer.games.registry import GAME_VIEWS, MAP_GAME, game_view
from viewer.scene import build_scene


def test_quake_and_quakeworld_demos_use_the_quake_view() -> None:
    for path in (LQ1 / "demo3.dem", QUAKEWORLD / "lq_lqdm2_ranger.qwd"):
        assert isinstance(game_view(load_demo(path).game), QuakeView)
    assert isinstance(game_view(MAP_GAME), QuakeView)


def test_an_unknown_game_is_named_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"'quake2'.*quake, quakeworld"):
        game_view("quake2")
    assert set(GAME_VIEWS) == {"quake", "quakeworld"}


def test_the_scene_asks_the_game_which_entities_are_drawn() -> None:
    timeline = load_demo(LQ1 / "demo3.dem")
    t = timeline.start_time + 5.0

    class NoEntities(QuakeView):
        __slots__ = ()

        def entity_draws(self, state, first_person):
            return []

    assert build_scene(timeline, t).models
    assert build_scene(timeline, t, game=NoEntities()).models == ()
