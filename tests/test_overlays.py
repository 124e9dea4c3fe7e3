"""The caster's overlays drawn over real pictures (issue #33 item 5): a name lands on its player's projected head
and hides behind walls, x-ray outlines show a player behind a wall where the player is, minimap arrows stand at the
players' map positions; --overlay parsing, F5–F8 and a smoke test of every format."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assets_loader.demos import load_demo
from viewer.cli import main
from viewer.headless import DemoRenderer
from viewer.input import key_action
from viewer.overlays import NO_OVERLAYS, OverlayNameError, OverlayOptions, parse_overlays
from viewer.overlays.minimap import minimap_rect, placement
from viewer.overlays.names import line_of_sight, name_point
from viewer.overlays.players import player_marks
from viewer.overlays.projection import project
from viewer.overlays.xray import box_corners
from viewer.picture import draw_picture
from viewer.render.refdef import Camera
from viewer.render.view_math import frame_view_projection
from viewer.session import game_filesystem
from viewer.ui.readout import Readout, readout_lines

from .conftest import DATA, LQ1, QUAKE2, QUAKE3, QUAKEWORLD

MVD = QUAKEWORLD / "lq_lqdm2_mvd.mvd"
SIZE = (640, 360)


@pytest.fixture(scope="module")
def mvd_renderer():
    timeline = load_demo(MVD)
    renderer = DemoRenderer(timeline, game_filesystem(str(MVD), None, None), SIZE)
    yield renderer
    renderer.release()


def looking_at(eye, point) -> Camera:
    d = np.asarray(point, float) - np.asarray(eye, float)
    yaw = math.degrees(math.atan2(d[1], d[0]))
    pitch = -math.degrees(math.atan2(d[2], math.hypot(d[0], d[1])))
    return Camera(tuple(float(v) for v in eye), (pitch, yaw, 0.0), 90.0)


def palette_rgb(renderer):
    return np.asarray(renderer.session.game.load_palette(renderer.session.fs).rgb)


def watch_other(renderer, seen: bool):
    """A time and a camera at player 0's eye looking at player 1, whose eye is (``seen``) or is not in sight."""
    timeline, session = renderer.timeline, renderer.session
    session.use_segment(0)
    vh = timeline.schema.view_height
    for t in np.arange(timeline.start_time + 5.0, timeline.end_time, 0.5):
        state = timeline.sample(float(t))
        marks = {m.slot: m for m in player_marks(state, timeline.schema, (1, 2), palette_rgb(renderer))}
        if set(marks) != {0, 1}:
            continue
        eye, other = marks[0].origin + (0, 0, vh), marks[1].origin + (0, 0, vh)
        far = np.linalg.norm(other - eye)
        if 200 < far < 1200 and line_of_sight(session.game_map, eye, other) == seen:
            return float(t), looking_at(eye, other), marks[1]
    raise AssertionError("no such moment in the demo")


def changed(renderer, t, camera, options):
    """The picture without and with ``options``' overlays, the mask of pixels they changed, and the picture."""
    picture = draw_picture(renderer.session, renderer.target, t, camera)
    before = renderer.target.read_rgb().astype(int)
    renderer.overlays.draw(picture, renderer.target, options)
    after = renderer.target.read_rgb().astype(int)
    return np.abs(after - before).sum(axis=2) > 30, after, picture


def test_a_name_is_drawn_at_its_players_projected_head(mvd_renderer):
    t, camera, other = watch_other(mvd_renderer, seen=True)
    mask, _, picture = changed(mvd_renderer, t, camera, OverlayOptions(names=True))
    view_proj = frame_view_projection(picture.frame, mvd_renderer.session.renderer.assets.look, SIZE)
    (x, y), = project(view_proj, [name_point(other, mvd_renderer.timeline.schema.view_height)], SIZE)[0]
    rows, cols = np.nonzero(mask)
    assert len(rows) > 20
    assert (cols.min() + cols.max()) / 2 == pytest.approx(x, abs=5)     # centred on the head
    assert rows.max() == pytest.approx(y, abs=3)                          # its bottom above it
    assert rows.max() - rows.min() <= 9                                   # one line of 8-pixel characters


def test_a_name_behind_a_wall_is_hidden_and_xray_outlines_the_player_there(mvd_renderer):
    t, camera, other = watch_other(mvd_renderer, seen=False)
    mask, _, _ = changed(mvd_renderer, t, camera, OverlayOptions(names=True))
    assert not mask.any()                                                 # the wall hides the name
    mask, after, picture = changed(mvd_renderer, t, camera, OverlayOptions(xray=True))
    view_proj = frame_view_projection(picture.frame, mvd_renderer.session.renderer.assets.look, SIZE)
    corners, front = project(view_proj, box_corners(other.origin), SIZE)
    assert front.all()
    rows, cols = np.nonzero(mask)
    assert len(rows) > 40
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    assert cols.min() >= lo[0] - 3 and cols.max() <= hi[0] + 3
    assert rows.min() >= lo[1] - 3 and rows.max() <= hi[1] + 3
    colour = after[mask].mean(axis=0) / 255.0
    assert np.abs(colour - np.asarray(other.colour)).max() < 0.2         # in the player's colour


def test_minimap_arrows_stand_at_the_players_map_positions(mvd_renderer):
    timeline = mvd_renderer.timeline
    t = timeline.start_time + 30.0
    mask, after, picture = changed(mvd_renderer, t, None, OverlayOptions(minimap=True))
    marks = player_marks(picture.state, timeline.schema, (1, 2), palette_rgb(mvd_renderer))
    place = placement(mvd_renderer.overlays._floors[(0, mvd_renderer.session.game_map.name)], SIZE)
    x, y, w, h = place.rect
    assert x > SIZE[0] / 2 and y < SIZE[1] / 2                             # the top-right corner
    for mark in marks:
        px, py = np.round(place.to_pixels(mark.origin[:2])).astype(int)
        assert x <= px < x + w and y <= py < y + h
        patch = after[py - 1:py + 2, px - 1:px + 2].reshape(-1, 3) / 255.0
        assert np.abs(patch - np.asarray(mark.colour)).max(axis=1).min() < 0.1


@pytest.mark.parametrize("demo", [LQ1 / "demo3.dem", QUAKEWORLD / "lq_lqdm2_ranger.qwd",
                                  QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd",
                                  QUAKE2 / "demos" / "AQtion-demo-guide.dm2", QUAKE2 / "demos" / "libq2-testduel.dm2",
                                  DATA / "public" / "quake3" / "cpma_duel.dm_68",
                                  QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71"])
def test_every_format_draws_every_overlay_at_pane_size(demo, q3_basedir):
    timeline = load_demo(demo)
    fs = game_filesystem(str(demo), str(q3_basedir) if demo.suffix == ".dm_71" else None, None)
    every = parse_overlays("names,xray,timers,minimap")
    renderer = DemoRenderer(timeline, fs, SIZE, hud=True, overlays=every)
    try:
        t = timeline.start_time + timeline.duration * 0.6
        with_overlays = renderer.pixels(t)
        renderer.overlay_options = NO_OVERLAYS
        without = renderer.pixels(t)
    finally:
        renderer.release()
    assert with_overlays.shape == (SIZE[1], SIZE[0], 3)
    corner = np.abs(with_overlays.astype(int) - without)[: SIZE[1] // 2, SIZE[0] // 2:].sum(axis=2) > 30
    assert corner.mean() > 0.02 or timeline.players is None                # the minimap in its corner


def test_overlay_lists_parse_and_unknown_names_are_refused(capsys, tmp_path):
    assert parse_overlays("names, minimap,") == OverlayOptions(names=True, minimap=True)
    assert parse_overlays("XRAY").enabled == ("xray",)
    with pytest.raises(OverlayNameError, match="'radar'.*names, xray, timers, minimap"):
        parse_overlays("names,radar")
    with pytest.raises(SystemExit) as exit_:
        main(["screenshot", str(MVD), "--out", str(tmp_path / "x.png"), "--overlay", "radar"])
    assert exit_.value.code == 2
    assert "unknown overlay 'radar'" in capsys.readouterr().err


def test_f5_to_f8_toggle_each_overlay_and_the_readout_says_which():
    from viewer.viewer_state import ViewerState

    state = ViewerState.for_timeline(load_demo(MVD))
    for key in ("F5", "F6", "F8"):
        action = key_action(key)
        assert action is not None
        getattr(state, f"_on_{action.name}")(action, None)
    assert state.overlays.enabled == ("names", "xray", "minimap")
    action = key_action("F6")
    getattr(state, f"_on_{action.name}")(action, None)
    assert state.overlays.enabled == ("names", "minimap")
    assert readout_lines(Readout(1.0, 2.0, overlays=",".join(state.overlays.enabled)))[-1] == \
        "overlays names,minimap"


def test_render_exports_the_overlays(tmp_path):
    """``qdv render --overlay minimap`` frames carry the minimap; the same frames without the flag do not."""
    from PIL import Image

    for name in ("with", "without"):
        (tmp_path / name).mkdir()
    common = ["render", str(MVD), "--from", "30", "--to", "+0.2", "--fps", "10", "--size", "320x180", "--no-audio"]
    assert main([*common, "--out", str(tmp_path / "with" / "%05d.png"), "--overlay", "minimap"]) == 0
    assert main([*common, "--out", str(tmp_path / "without" / "%05d.png")]) == 0
    first = sorted((tmp_path / "with").iterdir())[0].name
    with_map = np.asarray(Image.open(tmp_path / "with" / first), int)
    without = np.asarray(Image.open(tmp_path / "without" / first), int)
    x, y, w, h = (int(v) for v in minimap_rect((320, 180)))
    corner = np.abs(with_map - without)[y:y + h, x:x + w].sum(axis=2) > 30
    assert corner.mean() > 0.3
    assert not (np.abs(with_map - without)[y + h + 4:, :x - 4].sum(axis=2) > 30).any()


def test_a_map_without_its_file_is_drawn_where_the_players_stood():
    """CPMA's cpm3a is not in the corpus: the minimap's floors are squares under every place a player stood."""
    from viewer.overlays.minimap import WALKED_CELL, walked_floors

    timeline = load_demo(DATA / "public" / "quake3" / "cpma_duel.dm_68")
    floors = walked_floors(timeline, 0)
    assert floors is not None and len(floors.triangles) > 500
    corners = floors.triangles.reshape(-1, 6, 2)[:, [0, 2]]          # each square's low and high corner
    players = timeline.players
    for slot in (1, 2):
        a, b = players.slot_start[slot], players.slot_start[slot + 1]
        for xy in players.row_origin[a:b:500, :2]:
            inside = np.all((corners[:, 0] <= xy) & (xy <= corners[:, 1]), axis=1)
            assert inside.sum() == 1
    assert np.ptp(corners[:, 1] - corners[:, 0]) == 0 and corners[0, 1, 0] - corners[0, 0, 0] == WALKED_CELL


def test_names_are_written_in_each_games_colours():
    """Quake III's colour codes tint the glyphs (a black shadow under them); Quake keeps a name's bronze
    characters (codes 128..255); both centred on the point, their bottom on it."""
    from viewer.games.registry import game_view

    q3 = game_view("quake3").name_tag("^1Ab^4c", 320.0, 200.0, (640, 480), 1)
    glyphs = [q for q in q3.quads if q.tint != (0.0, 0.0, 0.0)]
    assert [q.tint for q in glyphs] == [(1.0, 0.0, 0.0)] * 2 + [(0.0, 0.0, 1.0)]
    assert len(q3.quads) == 6                                           # and three shadows
    left, right = glyphs[0].x, glyphs[-1].x + glyphs[-1].w
    assert (left + right) / 2 == pytest.approx(320, abs=1) and glyphs[0].y + glyphs[0].h == pytest.approx(200, abs=1)
    quake = game_view("quake").name_tag("\xc6ir\xe5", 100.0, 50.0, (640, 480), 2)
    assert [q.ref for q in quake.quads] == [0xC6, ord("i"), ord("r"), 0xE5]
    assert quake.quads[0].x == 100 - 4 * 16 / 2 and quake.quads[0].y + quake.quads[0].h == 50
