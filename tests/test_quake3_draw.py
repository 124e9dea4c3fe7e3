"""Quake III entity drawing on the corpus: players posed from legsAnim/torsoAnim as MD3 legs/torso/head with their
weapon on tag_weapon, items spinning and bobbing, missiles facing their flight, the followed player hidden from
its own eyes, and a demo screenshot through the CLI."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from PIL import Image

from assets_loader.demos import load_demo
from viewer.cli import main
from viewer.games.quake3 import link
from viewer.games.quake3.hud import CROSSHAIR
from viewer.games.quake3.screen import NUMBERS
from viewer.games.registry import game_view
from viewer.games.quake3.players import player_md3_draws

from .conftest import QUAKE3

FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"


@pytest.fixture(scope="module")
def follow():
    return load_demo(str(FOLLOW))


def test_players_items_and_missiles_become_md3_draws(follow) -> None:
    state = follow.sample(follow.start_time + 3.0)
    models, players = link.md3_draws(state, first_person=True)
    clients = {p.player for p in players}
    assert clients and clients <= {"sarge/default", "smarine/default", "major/default", "angelyss/default"}
    assert "sarge/default" not in clients            # the followed player (Sarge) is the camera
    _, from_outside = link.md3_draws(state, first_person=False)
    assert "sarge/default" in {p.player for p in from_outside}
    assert any(m.model.startswith("models/powerups/") for m in models)


def test_items_turn_and_bob_with_time(follow) -> None:
    a = link.md3_draws(follow.sample(follow.start_time + 3.0), True)[0]
    b = link.md3_draws(follow.sample(follow.start_time + 3.5), True)[0]
    item_a = next(m for m in a if m.model.startswith("models/powerups/"))
    item_b = next(m for m in b if m.model == item_a.model and np.allclose(m.origin[:2], item_a.origin[:2]))
    assert not np.allclose(item_a.axis, item_b.axis)
    assert item_a.origin[2] != item_b.origin[2]


def test_a_posed_player_has_legs_torso_head_and_weapon(follow, q3_fs) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assets = game_view("quake3").load_segment_assets(q3_fs, follow.segments[0])
    state = follow.sample(follow.start_time + 3.0)
    _, players = link.md3_draws(state, first_person=False)
    major = next(p for p in players if p.player == "major/default")
    draws = player_md3_draws(assets.md3, major)
    assert [d.model for d in draws] == ["models/players/major/lower.md3", "models/players/major/upper.md3",
                                       "models/players/major/head.md3", major.weapon]
    legs, torso, head = draws[:3]
    assert torso.origin[2] > legs.origin[2] and head.origin[2] > torso.origin[2]
    assert legs.frame != 0 or legs.old_frame != 0        # a running animation, not the bind pose


def test_demo_screenshot_renders_the_map_and_its_models(tmp_path) -> None:
    out = tmp_path / "shot.png"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["screenshot", str(FOLLOW), "--basedir", str(QUAKE3), "--time", "3", "--size", "320x180",
                     "--out", str(out)]) == 0
    pixels = np.asarray(Image.open(out).convert("RGB"), np.float32)
    assert pixels.std() > 10


def _text_of(layout, y_min: int, y_max: int) -> str:
    """The glyphs (not their black shadows) and status-bar digits drawn with tops in ``y_min`` ‥ ``y_max``, left to
    right."""
    chars = []
    for q in layout.quads:
        ref = str(q.ref)
        if q.kind != "pic" or not y_min <= q.y < y_max:
            continue
        if ref.startswith("q3char") and q.tint != (0.0, 0.0, 0.0):
            chars.append((q.x, chr(int(ref.split("/")[1]))))
        elif ref.startswith("gfx/2d/numbers/"):
            chars.append((q.x, str(NUMBERS.index(ref.rsplit("/", 1)[1].split("_")[0]))))
    return "".join(c for _, c in sorted(chars))


def test_the_hud_shows_health_armor_following_and_frag_messages(follow) -> None:
    view = game_view("quake3")
    state = follow.sample(follow.start_time + 0.6)
    layout = view.hud_layout(state, follow, (640, 480), 1, pic_sizes={CROSSHAIR: (128, 128)})
    assert "following" in _text_of(layout, 20, 40) and "Sarge" in _text_of(layout, 40, 80)
    bottom = _text_of(layout, 430, 480)
    assert str(state.stats["health"]) in bottom and str(state.stats["armor"]) in bottom
    assert _text_of(layout, 0, 1).startswith("AngelysswasgunneddownbyGrunt")   # spaces draw nothing
    assert any(q.kind == "pic" and q.ref == CROSSHAIR for q in layout.quads)
    later = view.hud_layout(follow.sample(follow.start_time + 50.0), follow, (640, 480), 1)
    assert "Grunt" in _text_of(later, 40, 80)


@pytest.mark.parametrize(("t", "ammo", "health", "armor"), [(12.3, 100, 109, 10), (24.3, 17, 93, 2)])
def test_hud_numbers_match_the_reference_frames(follow, t, ammo, health, armor) -> None:
    """reference/playback_oa_dm1_follow_p68_t12s / _t24s show these numbers (ammo, health, armor) under
    "following Sarge"."""
    layout = game_view("quake3").hud_layout(follow.sample(follow.start_time + t), follow, (640, 480), 1)
    assert _text_of(layout, 430, 480) == f"{ammo}{health}{armor}"
    assert _text_of(layout, 40, 70) == "Sarge"            # the attacker's name, if any, starts at 76
