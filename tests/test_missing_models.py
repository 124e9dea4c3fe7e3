"""A model the game data lacks is never drawn as nothing.  A Quake III player falls back as the cgame does (the
model's default skin, ``DEFAULT_MODEL`` sarge, then any player model the data holds), and without any player model
is a placeholder box; Quake II uses ``players/male`` (``CL_LoadClientinfo``); other missing models (Quake's,
Quake III items, missiles and weapons) are boxes with a nose that shows their facing; Quake II's explosion models
are Q2PRO's three axis lines.

The public CPMA duel names models OpenArena lacks (``mynx``, ``razor``); the OpenArena demo is played with some or
all of its player models hidden from the game data.  "Drawn" is checked by rendering each frame with and without
its players: the pictures must differ where a player is in view."""

from __future__ import annotations

import dataclasses
import warnings
from pathlib import Path

import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.vfs import VirtualFS
from viewer.render.bsp.records import BspSegment
from viewer.render.q3.records import Quake3Segment
from viewer.games.quake2.assets import client_model, load_precache_model
from viewer.games.quake3 import assets as q3assets
from viewer.headless import DemoRenderer
from viewer.render.context import OffscreenTarget
from viewer.render.frame import FrameRenderer
from viewer.games.quake3.players import QUAKE3_PLAYER_BOX, quake3_player_box
from viewer.render.placeholders import OBJECT_BOX, lying_down, with_nose
from viewer.render.shaded.md3 import model_matrix
from viewer.render.shaded.records import Md3Draw, Quake3Models
from viewer.render.refdef import Camera, EntityDraw, ModelRef, SceneFrame, SegmentAssets

from .conftest import DATA, QUAKE2, QUAKE3

CPMA_DUEL = DATA / "public" / "quake3" / "cpma_duel.dm_68"
FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"
#: Times (s from the start) of oa_dm1_follow_p68 with another player 100‥400 units ahead of the followed one.
PLAYERS_AHEAD = (38.0, 83.0)


class HidingFS(VirtualFS):
    """The game data of ``basedir`` without the files under the ``hidden`` prefixes (as if a pak lacked them)."""

    def __init__(self, basedir: Path, hidden: tuple[str, ...]) -> None:
        super().__init__(basedir, "baseoa", base="baseoa")
        self.hidden = hidden

    def _locate(self, name: str):
        return None if name.lower().startswith(self.hidden) else super()._locate(name)

    def list(self, pattern: str = "*") -> list[str]:
        return [n for n in super().list(pattern) if not n.startswith(self.hidden)]


def _players_drawn(renderer: DemoRenderer, t: float) -> float:
    """The share of the picture at ``t`` that changes when its players are left out (0: drawn as nothing)."""
    frame = renderer.scene(t)
    others = tuple(d for d in frame.md3 if not d.model.startswith("models/players/"))
    assert len(others) < len(frame.md3), f"no player in the scene at {t}"
    renderer.render(frame)
    with_players = renderer.target.read_rgb().astype(np.int32)
    renderer.render(dataclasses.replace(frame, md3=others))
    without = renderer.target.read_rgb().astype(np.int32)
    return float((np.abs(with_players - without).sum(axis=2) > 30).mean())


def _follow_renderer(fs: VirtualFS) -> DemoRenderer:
    """oa_dm1_follow_p68 on ``fs``, its segment's assets loaded (their warnings silenced)."""
    renderer = DemoRenderer(load_demo(FOLLOW), fs, (160, 90))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        renderer.scene(renderer.timeline.start_time)
    return renderer


def _players(renderer: DemoRenderer):
    assert renderer.session.renderer is not None
    return renderer.session.renderer.assets.md3.players


def test_the_fallback_order_is_the_cgames_then_what_the_data_holds(q3_fs) -> None:
    held = ("angelyss/default", "kyonshi/default", "major/default", "penguin/default", "smarine/default")
    assert q3assets.player_fallbacks(q3_fs, "mynx/pm") == ("mynx/pm", "sarge/default", *held)
    assert q3assets.player_fallbacks(q3_fs, "Mynx/Red", team_game=True) == ("mynx/red", "sarge/red",
                                                                              "sarge/default", *held)


def test_the_public_cpma_duels_players_are_drawn_as_sarge(q3_basedir) -> None:
    """cpma_duel's players are mynx/pm and razor/id (OpenArena has neither); its map is missing too."""
    timeline = load_demo(CPMA_DUEL)
    with pytest.warns(UserWarning) as caught:
        renderer = DemoRenderer(timeline, VirtualFS(q3_basedir, "cpma", base="baseoa"), (160, 90))
        renderer.scene(timeline.start_time)
    try:
        said = " ".join(str(w.message) for w in caught)
        assert "drawing player model 'mynx/pm' as sarge/default" in said
        players = _players(renderer)
        assert {players[n].model for n in ("mynx/pm", "razor/id")} == {"sarge"}
        assert _players_drawn(renderer, timeline.start_time + 0.25 * timeline.duration) > 0.001
    finally:
        renderer.release()


def test_hidden_openarena_player_models_become_sarge(q3_basedir) -> None:
    fs = HidingFS(q3_basedir, ("models/players/smarine/", "models/players/angelyss/", "models/players/major/"))
    renderer = _follow_renderer(fs)
    try:
        players = _players(renderer)
        assert {players[n].model for n in ("smarine/default", "angelyss/default", "major/default")} == {"sarge"}
        for t in PLAYERS_AHEAD:
            assert _players_drawn(renderer, renderer.timeline.start_time + t) > 0.003, t
    finally:
        renderer.release()


def test_without_sarge_the_first_player_model_in_the_data_stands_in(q3_basedir) -> None:
    fs = HidingFS(q3_basedir, ("models/players/sarge/",))
    with pytest.warns(UserWarning, match="drawing player model 'sarge/default' as angelyss/default"):
        models = q3assets.load_models(fs, (), q3assets.load_shader_library(fs), q3assets.ImageLoader(fs),
                                      ("sarge/default",))
    assert models.players["sarge/default"].model == "angelyss"


def test_without_any_player_model_players_are_placeholder_boxes(q3_basedir) -> None:
    renderer = _follow_renderer(HidingFS(q3_basedir, ("models/players/",)))
    try:
        assert not _players(renderer)
        for t in PLAYERS_AHEAD:
            frame = renderer.scene(renderer.timeline.start_time + t)
            assert _players_drawn(renderer, frame.time) > 0.003, t
            renderer.render(frame)
            rgb = renderer.target.read_rgb().astype(np.int32)
            magenta = (rgb[..., 0] > 80) & (rgb[..., 2] > 80) & (rgb[..., 1] < 0.3 * rgb[..., 0])
            assert magenta.sum() > 20, t
    finally:
        renderer.release()


def test_the_placeholder_player_crouches_lies_dead_and_has_a_nose_ahead() -> None:
    standing, dead = quake3_player_box(22)              # LEGS_IDLE
    assert standing == QUAKE3_PLAYER_BOX and not dead
    crouched, _ = quake3_player_box(23)                 # LEGS_IDLECR
    assert crouched[1][2] == 16.0
    box, dead = quake3_player_box(1)                    # BOTH_DEAD1
    assert dead
    body, nose = with_nose(box)
    assert nose[0][0] == body[1][0] and nose[1][0] > body[1][0]    # in front (+x), out of the front face
    yaw90 = model_matrix((100.0, 0.0, 0.0), np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 1]], np.float32))
    corners = np.array([[x, y, z, 1.0] for x in (body[0][0], body[1][0]) for y in (body[0][1], body[1][1])
                        for z in (body[0][2], body[1][2])])
    flat = (lying_down(yaw90, box) @ corners.T).T
    assert flat[:, 2].min() == pytest.approx(-24.0)                 # on the floor the standing feet were on
    assert np.ptp(flat[:, 2]) == pytest.approx(30.0)                # as high as the body was deep
    assert np.ptp(flat[:, 1]) == pytest.approx(56.0)                # as long as it was tall, along its facing (+y)


@pytest.mark.parametrize(("skin", "model", "picture"), [
    ("players/sydney/sydney.pcx", "players/sydney/tris.md2", "players/sydney/sydney.pcx"),
    ("players/sydney/ctf_r.pcx", "players/male/tris.md2", "players/male/ctf_r.pcx"),     # CTF skin: the male's
    ("players/female/athena.pcx", "players/male/tris.md2", "players/male/grunt.pcx"),    # no such model
])
def test_quake2_clients_fall_back_to_the_male_model(skin: str, model: str, picture: str) -> None:
    fs = VirtualFS(QUAKE2, "action", base="baseq2")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert client_model(fs, skin) == (model, picture)
    assert bool(caught) == (picture != skin)


#: 100 units behind the origin on -x, looking along +x.
BEHIND = Camera((-100.0, 0.0, 4.0), (0.0, 0.0, 0.0))


def _draw(ctx, assets: SegmentAssets, frame: SceneFrame) -> np.ndarray:
    target = OffscreenTarget(ctx, (64, 64))
    renderer = FrameRenderer(ctx, assets)
    try:
        renderer.draw(frame, target)
        return target.read_rgb().astype(np.int32)
    finally:
        renderer.release()
        target.release()


def _magenta(rgb: np.ndarray) -> np.ndarray:
    return (rgb[..., 0] > 30) & (rgb[..., 2] > 30) & (rgb[..., 1] < 10)


def test_a_missing_quake_model_is_a_box_of_its_size_with_a_nose_where_it_faces(ctx) -> None:
    models = (ModelRef("progs/player.mdl", "missing"), ModelRef("progs/grenade.mdl", "missing"))
    assets = BspSegment(models, q3assets.GREY_PALETTE)
    styles = np.ones(64, np.float32)

    def picture(draw: EntityDraw) -> np.ndarray:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _draw(ctx, assets, SceneFrame(0.0, 0, BEHIND, (draw,), styles))

    at = np.zeros(3, np.float32)
    facing_us = picture(EntityDraw(0, at, np.array([0.0, 180.0, 0.0], np.float32), colors=(0, 0)))
    facing_away = picture(EntityDraw(0, at, np.zeros(3, np.float32), colors=(0, 0)))
    thing = picture(EntityDraw(1, at, np.zeros(3, np.float32)))
    rows, cols = np.nonzero(_magenta(facing_away))
    assert np.ptp(rows) > 1.5 * np.ptp(cols)                          # a player: taller than wide
    assert _magenta(thing).sum() < 0.3 * _magenta(facing_away).sum()  # an object: a small cube
    shades = [len(np.unique(p[_magenta(p)][:, 0] // 16)) for p in (facing_us, facing_away)]
    assert shades[0] > shades[1]                                      # the darker nose shows from the front


def test_a_missing_quake3_item_is_a_box_and_an_effect_model_is_left_out(ctx) -> None:
    assets = Quake3Segment((), q3assets.GREY_PALETTE, md3=Quake3Models())
    axis = np.eye(3, dtype=np.float32)
    at = np.zeros(3, np.float32)
    item = Md3Draw("models/powerups/nothere.md3", at, axis, placeholder=OBJECT_BOX)
    effect = Md3Draw("models/weaphits/nothere.md3", at, axis)
    styles = np.ones(64, np.float32)
    assert _magenta(_draw(ctx, assets, SceneFrame(0.0, 0, BEHIND, (), styles, md3=(item,)))).sum() > 20
    assert not _draw(ctx, assets, SceneFrame(0.0, 0, BEHIND, (), styles, md3=(effect,))).any()


def test_a_quake2_client_of_a_missing_model_is_drawn_on_the_male_model() -> None:
    """libq2-testduel's players wear female/athena, which the AQtion pak lacks: the male model stands in."""
    fs = VirtualFS(QUAKE2, "action", base="baseq2")
    with pytest.warns(UserWarning, match="players/female/athena.pcx"):
        ref = load_precache_model(fs, "players/female/athena.pcx")
    assert ref.kind == "alias" and ref.name == "players/male/tris.md2" and ref.alias is not None


def test_a_missing_quake2_effect_model_is_q2pros_three_axis_lines(ctx) -> None:
    """Q2PRO's GL_DrawNullModel for a model it could not load (the AQtion pak has no explosion model): a red, a
    green and a blue line of 16 units along the entity's axes, no box."""
    assets = BspSegment((ModelRef("models/objects/r_explode/tris.md2", "null"),), q3assets.GREY_PALETTE)
    draw = EntityDraw(0, np.zeros(3, np.float32), np.array([0.0, -45.0, 0.0], np.float32))
    rgb = _draw(ctx, assets, SceneFrame(0.0, 0, BEHIND, (draw,), np.ones(64, np.float32)))
    red = (rgb[..., 0] > 200) & (rgb[..., 1] < 40) & (rgb[..., 2] < 40)
    green = (rgb[..., 1] > 200) & (rgb[..., 0] < 40) & (rgb[..., 2] < 40)
    blue = (rgb[..., 2] > 200) & (rgb[..., 0] < 40) & (rgb[..., 1] < 40)
    assert red.any() and green.any() and blue.any() and not _magenta(rgb).any()
    rows, cols = np.nonzero(blue)
    assert np.ptp(rows) > 3 * max(np.ptp(cols), 1)                   # the up axis: a vertical line
    assert (red | green | blue).sum() < 0.02 * red.size              # lines, not a box
