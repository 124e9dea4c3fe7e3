"""Screen blends (``V_CalcBlend``): damage, bonus flash, contents and powerup shifts, their fades and mixing; the
stuffed-text whitelist that turns ``bf`` / ``v_cshift`` into events; the real QuakeWorld demo's flashes."""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from assets_loader.demos import load_demo
from assets_loader.demos.events import BonusFlashEvent, ColorShiftEvent, DamageEvent
from assets_loader.demos.kit.stufftext import visual_events
from tests.conftest import QUAKEWORLD
from viewer.games.quake import blend
from viewer.games.quake.hud import IT_INVULNERABILITY, IT_QUAD


def _damage(t: float, armor: int = 0, blood: int = 20) -> DamageEvent:
    return DamageEvent(t, 0, 0, armor, blood, (0.0, 0.0, 0.0))


def test_damage_adds_three_times_the_count_and_fades_150_a_second() -> None:
    shift = blend.damage_shift([_damage(1.0, blood=20)], 1.0)
    assert shift is not None and shift.color == (255, 0, 0) and shift.percent == pytest.approx(30.0)
    assert blend.damage_shift([_damage(1.0, blood=20)], 1.1).percent == pytest.approx(15.0)
    assert blend.damage_shift([_damage(1.0, blood=20)], 1.21) is None            # gone after 30 / 150 s
    assert blend.damage_shift([_damage(1.0, blood=2)], 1.0).percent == pytest.approx(30.0)   # count at least 10
    assert blend.damage_shift([_damage(1.0, blood=200)], 1.0).percent == pytest.approx(150.0)  # at most 150
    assert blend.damage_shift([_damage(2.0)], 1.0) is None                        # not yet


def test_damage_colour_follows_armour() -> None:
    assert blend.damage_color(armor=0, blood=10) == (255, 0, 0)
    assert blend.damage_color(armor=3, blood=10) == (220, 50, 50)
    assert blend.damage_color(armor=10, blood=3) == (200, 100, 100)


def test_damage_accumulates_over_the_faded_rest() -> None:
    events = [_damage(1.0, blood=40), _damage(1.1, blood=40)]    # 60, then 60 - 15 + 60
    assert blend.damage_shift(events, 1.1).percent == pytest.approx(105.0)


def test_bonus_flash_starts_at_50_and_fades_100_a_second() -> None:
    events = [BonusFlashEvent(3.0, 0, 0)]
    assert blend.bonus_shift(events, 3.0) == blend.ColorShift((215, 186, 69), 50.0)
    assert blend.bonus_shift(events, 3.25).percent == pytest.approx(25.0)
    assert blend.bonus_shift(events, 3.5) is None


def test_powerups_in_the_engine_order() -> None:
    assert blend.powerup_shift(IT_QUAD | IT_INVULNERABILITY).color == (0, 0, 255)
    assert blend.powerup_shift(IT_INVULNERABILITY) == blend.ColorShift((255, 255, 0), 30.0)
    assert blend.powerup_shift(0) is None


def test_v_cshift_tints_the_open_until_the_next() -> None:
    events = [ColorShiftEvent(1.0, 0, 0, (10, 20, 30), 40), ColorShiftEvent(2.0, 0, 0, (0, 0, 0), 0)]
    assert blend.contents_shift(None, (0, 0, 0), events, 1.5) == blend.ColorShift((10, 20, 30), 40.0)
    assert blend.contents_shift(None, (0, 0, 0), events, 2.5) is None


def test_mixing_lays_each_shift_over_the_ones_before() -> None:
    assert blend.mix_shifts([None, None]) is None
    r, g, b, a = blend.mix_shifts([blend.ColorShift((255, 0, 0), 51.0)])
    assert (r, g, b) == (1.0, 0.0, 0.0) and a == pytest.approx(0.2)
    r, g, b, a = blend.mix_shifts([blend.ColorShift((255, 0, 0), 51.0), blend.ColorShift((0, 0, 255), 51.0)])
    assert a == pytest.approx(0.36)                     # 0.2 + 0.2 * 0.8
    assert b > r > 0                                    # the later shift weighs more (0.2 / 0.36)


def test_liquid_at_the_eye_tints_the_view(tmp_path) -> None:
    from assets_loader.bsp import load_bsp
    from assets_loader.bsp.dtypes import CONTENTS_EMPTY
    from assets_loader.bsp.trace import point_contents
    from assets_loader.game_map import Contents
    from tests.builders.bsp import build_bsp

    world = load_bsp(build_bsp())
    assert point_contents(world, (32.0, 32.0, 40.0)) in (CONTENTS_EMPTY, -2)
    assert blend.contents_shift(world, (32.0, 32.0, 40.0), (), 0.0) is None
    assert blend.CONTENTS_SHIFTS[Contents.WATER] == blend.ColorShift((130, 80, 50), 128.0)
    assert blend.CONTENTS_SHIFTS[Contents.LAVA] == blend.ColorShift((255, 80, 0), 150.0)


# --- stuffed text ------------------------------------------------------------------------------------------------

def test_only_whitelisted_visual_commands_become_events() -> None:
    assert visual_events("bf\n") == [(BonusFlashEvent, ())]
    assert visual_events("bf; bf") == [(BonusFlashEvent, ()), (BonusFlashEvent, ())]
    assert visual_events("v_cshift 255 300 -4 50\n") == [(ColorShiftEvent, ((255, 255, 0), 50))]
    assert visual_events('say "bf;bf"\nquit\nexec x.cfg\nbf extra\n') == []
    assert visual_events("v_cshift 1 2 three 4") == []
    assert visual_events("v_cshift inf 0 nan 1e999") == [(ColorShiftEvent, ((0, 0, 0), 0))]  # atoi: 0 (issue 30)


@given(st.text(max_size=200))
def test_any_stuffed_text_gives_only_known_events(text: str) -> None:
    for cls, fields in visual_events(text):
        assert cls in (BonusFlashEvent, ColorShiftEvent)
        if cls is ColorShiftEvent:
            (r, g, b), percent = fields
            assert all(0 <= v <= 255 for v in (r, g, b, percent))


def test_real_qw_demo_has_bonus_flashes_and_damage() -> None:
    timeline = load_demo(QUAKEWORLD / "lq_lqdm2_ranger.qwd")
    flashes = timeline.events_of_kind("bf")
    assert len(flashes) == sum(t.text.count("bf\n") for t in timeline.events_of_kind("stufftext")) > 0
    first = flashes[0]
    state = timeline.sample(first.time + 0.05)
    colour = blend.screen_blend(state, timeline, first.time + 0.05, None)
    assert colour is not None
    r, g, b, a = colour
    assert r > g > b and a == pytest.approx(45.0 / 255.0, abs=0.02)
    hit = timeline.events_of_kind("damage")[0]
    r, g, b, a = blend.screen_blend(timeline.sample(hit.time), timeline, hit.time, None)
    assert r > 0.7 and g < 0.5 and a > 0.2


def test_screen_blend_needs_no_events() -> None:
    from assets_loader.demos.timeline import EntityStates, SceneState

    empty = EntityStates.empty()
    state = SceneState(0.0, 0, 0, 1.0, 1, np.zeros(3), np.zeros(3), empty, empty,
                       MappingProxyType({"items": IT_QUAD}), ("",) * 64, ())

    class NoEvents:
        players = None

        def events_of_kind(self, kind):
            return ()

    assert blend.screen_blend(state, NoEvents(), 0.0, None) == pytest.approx((0.0, 0.0, 1.0, 30.0 / 255.0))


def test_multi_view_demo_flashes_nobody_with_everyones_events() -> None:
    timeline = load_demo(QUAKEWORLD / "lq_lqdm2_mvd.mvd")
    flash = timeline.events_of_kind("bf")[0]
    state = timeline.sample(flash.time + 0.01, pov=timeline.pov_slots[0])
    colour = blend.screen_blend(state, timeline, flash.time + 0.01, None)
    assert colour is None or colour[:3] != pytest.approx((215 / 255, 186 / 255, 69 / 255))
