"""Any player's eyes derived from their entity (:mod:`assets_loader.demos.entity_eyes`): where the demo also has the
player's own view (MVD players, the recorder of a client demo) the derived one matches it within a few units and
degrees; ``--pov NAME`` looks through another player's eyes in ``qdv screenshot``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assets_loader.demos import DemoTimeline, load_demo
from assets_loader.demos.entity_eyes import derived_eye, entity_players
from assets_loader.demos.schema import QUAKE, QUAKE2, QUAKE3
from tests.conftest import DATA, LQ1, QUAKE2 as QUAKE2_DATA, QUAKE3 as QUAKE3_DATA, QUAKEWORLD
from viewer.cli import main
from viewer.games.registry import game_view
from viewer.input import Action
from viewer.scene import build_scene
from viewer.viewer_state import FrameContext, ViewerState


def _angle_error(a: np.ndarray, b: np.ndarray) -> float:
    """The larger of the pitch and yaw differences, degrees on the shortest arc."""
    d = (np.asarray(a, float) - np.asarray(b, float) + 180.0) % 360.0 - 180.0
    return float(np.abs(d[:2]).max())


def _derived(tl: DemoTimeline):
    """The players' rows built from ``tl``'s entity rows, as :mod:`.entity_eyes` builds them for client demos."""
    col = tl.entity_column
    slots = len(tl.final_scoreboard())
    players = entity_players(tl.schema, tl.times, np.asarray(tl._offsets, np.int64), col("number"), col("model"),
                             col("frame"), col("skin"), col("effects"), col("origin"), col("angles"), slots,
                             len(tl.schema.stat_names), -1)
    assert players is not None and players.from_entities
    return players


@pytest.mark.parametrize("name", ["lq_lqdm2_mvd.mvd", "2on2_sf_vs_red[frobodm2]220104-0915.mvd"])
def test_an_mvd_players_entity_gives_their_own_view(name: str) -> None:
    tl = load_demo(QUAKEWORLD / name)
    derived = _derived(tl)
    assert set(derived.seen_slots()) == set(tl.pov_slots)
    frames = np.linspace(1, len(tl.times) - 2, 300).astype(int)
    for slot in tl.pov_slots:
        origin_err, angle_err = [], []
        for f in frames:
            row, exact = derived.row_near(slot, int(f))
            if not exact:
                continue
            own = tl.sample(float(tl.times[f]), pov=slot)
            eye = derived.row_origin[row].astype(float) + (0.0, 0.0, tl.schema.view_height)
            origin_err.append(np.abs(own.view_origin - eye).max())
            angle_err.append(_angle_error(own.view_angles, derived.row_angles[row]))
        assert len(origin_err) > 100
        assert np.median(origin_err) <= 1.0 and np.median(angle_err) <= 1.0, (slot, name)
        assert np.percentile(angle_err, 75) <= 4.0, (slot, name)


def _recorder_errors(tl: DemoTimeline, frames: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Differences between the demo's own view and the recorder's view derived from its entity, at ``frames``."""
    recorder = tl.players.recorder
    origin_err, angle_err = [], []
    for f in frames:
        t = float(tl.times[f])
        own, derived = tl.sample(t), tl.sample(t, pov=recorder)
        origin_err.append(np.abs(own.view_origin - derived.view_origin).max())
        angle_err.append(_angle_error(own.view_angles, derived.view_angles))
    return np.array(origin_err), np.array(angle_err)


@pytest.mark.parametrize("path", [QUAKE2_DATA / "demos" / "libq2-testduel.dm2",
                                  QUAKE2_DATA / "demos" / "AQtion-bandaging-guide.dm2"])
def test_a_quake2_recorders_entity_gives_its_view(path: Path) -> None:
    tl = load_demo(path)
    assert tl.players.from_entities and tl.players.recorder in tl.pov_slots
    origin_err, angle_err = _recorder_errors(tl, np.linspace(1, len(tl.times) - 2, 400).astype(int))
    assert np.median(origin_err) <= 2.0 and np.median(angle_err) <= 4.0, (np.median(origin_err),
                                                                        np.median(angle_err))
    assert np.percentile(origin_err, 75) <= 4.0


@pytest.mark.parametrize("path", [DATA / "public" / "quake1" / "vektar_demo1.dem", LQ1 / "demo1.dem"])
def test_a_netquake_recorders_entity_gives_its_view(path: Path) -> None:
    tl = load_demo(path)
    assert tl.players.from_entities and tl.players.recorder == 0
    playing = np.flatnonzero(tl.stats["intermission"] == 0)[1:-1]   # the cutscenes' camera is not the player's eye
    origin_err, angle_err = _recorder_errors(tl, playing[::max(1, len(playing) // 300)])
    assert np.median(origin_err) <= 1.0 and np.median(angle_err) <= 2.0


def test_the_view_pitch_comes_from_each_games_entity_pitch_and_is_smoothed() -> None:
    offsets = np.arange(6, dtype=np.int64)                      # 5 frames, one entity each, 20 ms apart
    times = np.arange(5) * 0.02
    yaw = np.array([178.0, 179.0, -179.0, -178.0, 180.0])       # crosses ±180: averaged on the shortest arc
    angles = np.stack([np.full(5, 5.0), yaw, np.full(5, 9.0)], axis=1)
    ones, zeros = np.ones(5, np.int64), np.zeros(5, np.int64)
    for schema, pitch in ((QUAKE, -15.0), (QUAKE2, 15.0), (QUAKE3, 5.0)):
        number = np.full(5, schema.client_entity_offset)
        pl = entity_players(schema, times, offsets, number, ones, zeros, zeros, zeros, np.zeros((5, 3)), angles,
                            1, 0, 0)
        assert pl is not None and pl.num_slots == 1
        np.testing.assert_allclose(pl.row_angles[:, 0], pitch)
        np.testing.assert_allclose(pl.row_angles[:, 2], 0.0)     # the movement roll is not the view's
        assert (np.abs((pl.row_angles[:, 1] + 180.0) % 360.0 - 180.0) > 176.0).all()
        assert (pl.row_angles[2, 1] - 180.0) % 360.0 == pytest.approx(0.0, abs=1e-3)   # (-3 - 2 + 0 + 1 - 1) / 5
        assert pl.row_angles[0, 1] == pytest.approx(178.0 + 4.0 / 3.0, abs=1e-3)       # rows 0..2: (0 + 1 + 3) / 3


def test_tab_cycles_every_player_of_a_quake2_duel_and_back_to_the_recorder() -> None:
    tl = load_demo(QUAKE2_DATA / "demos" / "libq2-testduel.dm2")
    s = ViewerState.for_timeline(tl, size=(640, 480))
    seen = []
    for _ in range(3):
        s.handle(Action("player", +1))
        seen.append(s.pov_slot)
    assert seen == [1, None, 1] and s.mode == "pov"             # shloo's eyes, claire's own view (the recorder)


def test_tab_from_a_spectators_view_goes_past_the_player_it_follows() -> None:
    """oa_dm1_follow_p68 is recorded by a spectator following Sarge: the first Tab shows another player's eyes, not
    Sarge's again."""
    tl = load_demo(QUAKE3_DATA / "demos" / "oa_dm1_follow_p68.dm_68")
    state = tl.sample(tl.start_time + 12.0)
    s = ViewerState.for_timeline(tl, size=(640, 480))
    followed = tl.schema.entity_slot(int(state.view_entity))
    assert followed in tl.pov_slots and s.pov_slot is None
    s.handle(Action("player", +1), FrameContext(scene=state))
    assert s.pov_slot is not None and s.pov_slot != followed and s.mode == "pov"


def _png(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"), np.int16)


def test_screenshot_pov_name_looks_through_another_quake3_players_eyes(q3_basedir, tmp_path: Path) -> None:
    demo = QUAKE3_DATA / "demos" / "oa_dm1_player_p71.dm_71"
    game = ["--basedir", str(q3_basedir), "--game", "baseoa", "--size", "320x200", "--time", "30"]
    assert main(["screenshot", str(demo), "--out", str(tmp_path / "own.png"), *game]) == 0
    assert main(["screenshot", str(demo), "--pov", "^3grism", "--out", str(tmp_path / "grism.png"), *game]) == 0
    own, grism = _png(tmp_path / "own.png"), _png(tmp_path / "grism.png")
    assert np.abs(own - grism).mean() > 10                       # another place, another direction
    tl = load_demo(demo)
    from viewer.session import game_filesystem
    world = game_view("quake3").load_map_assets(game_filesystem(str(demo), str(q3_basedir), "baseoa"),
                                                "maps/oa_dm1.bsp").game_map
    eye = tl.sample(tl.start_time + 30, pov=1).view_origin
    assert int(world.contents(eye)) == 0                         # in the open air of the map
    assert len(np.unique(grism.reshape(-1, 3), axis=0)) > 500     # the map, textured, not a grid floor


def test_screenshot_pov_name_looks_through_another_quake2_players_eyes(tmp_path: Path) -> None:
    demo = QUAKE2_DATA / "demos" / "AQtion-bandaging-guide.dm2"
    game = ["--basedir", str(QUAKE2_DATA), "--game", "action", "--size", "320x200", "--time", "98.9"]
    assert main(["screenshot", str(demo), "--out", str(tmp_path / "own.png"), *game]) == 0
    assert main(["screenshot", str(demo), "--pov", "PLAYER", "--out", str(tmp_path / "other.png"), *game]) == 0
    own, other = _png(tmp_path / "own.png"), _png(tmp_path / "other.png")
    assert np.abs(own - other).mean() > 10
    assert len(np.unique(other.reshape(-1, 3), axis=0)) > 500


def test_screenshot_pov_unknown_name_exits_2_naming_the_players(tmp_path: Path, capsys) -> None:
    demo = QUAKE2_DATA / "demos" / "libq2-testduel.dm2"
    assert main(["screenshot", str(demo), "--pov", "nobody", "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["qdv screenshot: --pov nobody: no such player; this demo has 1 (shloo), 2 (claire)"]
    assert not (tmp_path / "x.png").exists()


def test_a_derived_view_has_no_view_weapon_and_hides_the_watched_body() -> None:
    tl = load_demo(QUAKE2_DATA / "demos" / "AQtion-bandaging-guide.dm2")
    own, other = build_scene(tl, 98.9), build_scene(tl, 98.9, pov=0)
    assert [d.view_model for d in own.models].count(True) == 1        # the recorder's gun
    assert not any(d.view_model for d in other.models)                 # not theirs: none
    assert other.camera.origin != own.camera.origin
    state = tl.sample(98.9, pov=0)
    assert derived_eye(tl, state) and not derived_eye(tl, tl.sample(98.9))
    body = state.entities.origin[state.entities.index_of(1)]
    assert all(np.abs(np.asarray(d.origin) - body).max() > 1.0 for d in other.models)   # entity 1: the eye


@pytest.mark.parametrize(("game", "words"), [("quake", "Tracking LQ_Ranger"), ("quake2", "Chasing Player")])
def test_a_derived_views_hud_is_only_the_players_name(game: str, words: str) -> None:
    layout = game_view(game).watching_layout(words.split()[1], (640, 480), 1)
    assert bytes(code & 127 for code in layout.chars()).decode() == words.replace(" ", "")
    assert all(q.kind == "char" for q in layout.quads) and layout.sbar_lines == 0


def test_a_derived_quake3_views_hud_says_following_and_the_name() -> None:
    layout = game_view("quake3").watching_layout("^1Gr^7ism", (640, 480), 1)
    tints = {q.tint for q in layout.quads}
    assert len(layout.quads) == 2 * (len("following") + len("Grism"))     # each glyph and its shadow
    assert len(tints) == 2                                                # white and the black shadow: forceColor
