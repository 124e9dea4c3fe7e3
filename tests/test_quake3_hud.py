"""The cgame-like Quake III HUD on the corpus: colours by value, icons, the score boxes, the weapon select row,
centre prints with place colours, the attacker's head, the follow notice; the truecolour pictures and the HUD
overlay drawing them."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.demos import load_demo
from viewer.picture import draw_hud
from viewer.games.quake3 import hud
from viewer.games.quake3.screen import SELECT_GOLD
from viewer.headless import DemoRenderer
from viewer.games.quake3.hud_pics import char_pic, load_hud_pics
from viewer.render.hud_overlay import HudRenderer
from viewer.render.refdef import HudLayout, HudQuad

from .conftest import QUAKE3

FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"
PLAYER = QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71"


@pytest.fixture(scope="module")
def follow():
    return load_demo(str(FOLLOW))


def _pics(layout, prefix: str) -> list[HudQuad]:
    return [q for q in layout.quads if q.kind == "pic" and str(q.ref).startswith(prefix)]


def test_status_bar_numbers_are_coloured_by_value_with_their_icons(follow) -> None:
    at12 = hud.hud_layout(follow.sample(follow.start_time + 12.3), follow, (640, 480), 1)
    digits = _pics(at12, "gfx/2d/numbers/")
    assert [q.tint for q in digits if 185 <= q.x < 300] == [hud.WHITE] * 3          # 109 health: over 100
    assert {q.tint for q in digits if q.x < 100} == {hud.YELLOW}                     # ammo
    icons = {str(q.ref) for q in _pics(at12, "icons/") + _pics(at12, "models/players/")}
    assert {"icons/icona_machinegun", "icons/iconr_yellow", "models/players/sarge/icon_default"} <= icons
    at24 = hud.hud_layout(follow.sample(follow.start_time + 24.3), follow, (640, 480), 1)
    assert {q.tint for q in _pics(at24, "gfx/2d/numbers/") if 185 <= q.x < 300} == {hud.YELLOW}   # 93


def test_following_is_shadowed_like_every_big_string(follow) -> None:
    """``CG_DrawFollow`` draws "following" with ``CG_DrawBigString``, whose shadow the reference frames show."""
    layout = hud.hud_layout(follow.sample(follow.start_time + 24.3), follow, (640, 480), 1)
    letters = [q for q in layout.quads if q.y == 24 and q.w == 16 and q.tint != (0.0, 0.0, 0.0)]
    shadows = {(q.x, q.y) for q in layout.quads if q.tint == (0.0, 0.0, 0.0)}
    assert len(letters) == len("following") and all((q.x + 2, q.y + 2) in shadows for q in letters)


def test_the_gauntlet_shows_no_ammo_count() -> None:
    """Its ammo is -1 (``CG_DrawStatusBar`` draws the field only from 0): the recorder of the player demo holds it
    at 20 s, with 90 health beside."""
    player = load_demo(str(QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71"))
    state = player.sample(player.start_time + 20.0)
    assert (state.stats["weapon"], state.stats["ammo"]) == (1, -1)
    layout = hud.hud_layout(state, player, (640, 480), 1)
    digits = _pics(layout, "gfx/2d/numbers/")
    assert not [q for q in digits if q.x < 185] and not _pics(layout, "icons/icona_")
    assert [str(q.ref) for q in digits if 185 <= q.x < 300] == ["gfx/2d/numbers/nine_32b", "gfx/2d/numbers/zero_32b"]


def test_health_colours_and_the_crosshair_tint() -> None:
    assert hud.health_color(100, 0) == (1.0, 1.0, 1.0)
    assert hud.health_color(50, 0) == (1.0, pytest.approx(2 / 3), 0.0)
    assert hud.health_color(20, 0) == (1.0, 0.0, 0.0)
    assert hud.health_color(60, 100)[2] == 1.0                  # armor counts towards full health


def test_the_score_boxes_show_the_leader_and_the_second(follow) -> None:
    layout = hud.hud_layout(follow.sample(follow.start_time + 12.3), follow, (640, 480), 1)
    blue = [q for q in layout.quads if q.ref == "<white>" and q.tint == (0.0, 0.0, 1.0)
            and q.y < 432]                                       # (the lagometer's bars are below)
    assert len(blue) == 1 and blue[0].y == 480 - 48 - 24 - 4      # our box leads (the reference shows 2 | 1)
    gold = [q for q in layout.quads if q.ref == "<white>" and q.tint == SELECT_GOLD]
    assert len(gold) == 4                                        # its frame
    row = sorted((q.x, chr(int(str(q.ref).split("/")[1]))) for q in _pics(layout, "q3char") if q.y == 408)
    assert "".join(c for _, c in row) == "21"
    later = hud.hud_layout(follow.sample(follow.start_time + 24.3), follow, (640, 480), 1)
    row = sorted((q.x, chr(int(str(q.ref).split("/")[1]))) for q in _pics(later, "q3char") if q.y == 408)
    assert "".join(c for _, c in row) == "32"                     # CS_SCORES2, as the 24 s reference shows


def test_the_frag_centerprint_colours_the_place(follow) -> None:
    layout = hud.hud_layout(follow.sample(follow.start_time + 24.3), follow, (640, 480), 1)
    line = [q for q in _pics(layout, "q3char") if 150 <= q.y < 160 and q.tint != (0.0, 0.0, 0.0)]
    place = [q.tint for q in sorted(line, key=lambda q: q.x)][:3]
    assert place == [(0.0, 0.0, 1.0)] * 3                        # "1st" in blue
    gone = hud.hud_layout(follow.sample(follow.start_time + 26.0), follow, (640, 480), 1)
    assert not [q for q in _pics(gone, "q3char") if 120 <= q.y < 170]


def test_the_attacker_head_shows_after_damage(follow) -> None:
    layout = hud.hud_layout(follow.sample(follow.start_time + 24.3), follow, (640, 480), 1)
    heads = [q for q in _pics(layout, "models/players/") if q.x > 500]
    assert [str(q.ref) for q in heads] == ["models/players/angelyss/icon_default"]


def test_the_window_readout_leaves_cgames_upper_right_corner_free(follow) -> None:
    """CG_DrawUpperRight's follow prompt and the attacker's head and name: the readout starts below them."""
    from viewer.ui.readout import readout_layout

    layout = hud.hud_layout(follow.sample(follow.start_time + 24.3), follow, (1280, 720), 2)
    (box,) = readout_layout(("0:24.3 / 1:55.0", "1x  pov"), (1280, 720), 2, hud=layout).rects
    head = [q for q in _pics(layout, "models/players/") if q.x > 1000]
    assert head and box.y >= max(q.y + q.h for q in head)
    corner = [q for q in layout.quads if q.x + q.w > box.x and q.y < 144]
    assert all(q.y + q.h <= box.y for q in corner)


def test_the_window_readout_stays_above_the_scoreboard_rows(follow) -> None:
    """With the scoreboard up the readout keeps its place under the follow prompt, clear of the place line's end,
    the column titles and the rows (it once went down over the first row's right end)."""
    from viewer.ui.readout import readout_layout

    layout = hud.hud_layout(follow.sample(follow.start_time + 15.0), follow, (1280, 720), 2, show_scores=True)
    (box,) = readout_layout(("0:15.0 / 1:55.0", "1x  pov"), (1280, 720), 2, hud=layout).rects
    titles = _pics(layout, "menu/tab/")
    assert titles and box.y + box.h <= min(q.y for q in titles)
    assert not [q for q in layout.quads if q.x < box.x + box.w and box.x < q.x + q.w
                and q.y < box.y + box.h and box.y < q.y + q.h]
    prompt = [q for q in layout.quads if q.x + q.w > box.x and q.y < 24]    # "USE_ITEM to stop following"
    assert prompt and box.y == max(q.y + q.h for q in prompt) + 4 * 2


def test_the_weapon_select_row_appears_after_a_change() -> None:
    player = load_demo(str(PLAYER))
    changes = np.flatnonzero(np.diff(player.stats["weapon"]) != 0) + 1
    times = player.times[changes]
    lonely = [c for c, after in zip(changes, np.append(times[1:], np.inf)) if after - player.times[c] > 3]
    t = float(player.times[lonely[0]])
    during = hud.hud_layout(player.sample(t + 0.2), player, (640, 480), 1)
    icons = _pics(during, "icons/iconw_")
    assert icons and all(q.y == 380 for q in icons)
    later = hud.hud_layout(player.sample(t + 1.6), player, (640, 480), 1)
    assert not _pics(later, "icons/iconw_")


def test_a_weapon_pickup_shows_the_select_row_with_that_weapon_framed(follow) -> None:
    """CG_ItemPickup (cg_autoswitch 1): Grunt picks up the rocket launcher at 83.1 s while followed; the ioquake3
    frame at 83.65 s shows the row with the rocket launcher framed and no name (OpenArena's weapon bar 0)."""
    layout = hud.hud_layout(follow.sample(follow.start_time + 83.65), follow, (640, 480), 1)
    icons = _pics(layout, "icons/iconw_")
    assert [str(q.ref)[len("icons/iconw_"):] for q in icons][:2] == ["gauntlet", "machinegun"]
    rocket = next(q for q in icons if q.ref == "icons/iconw_rocket")
    frame = [q for q in layout.quads if q.ref == "<white>" and q.tint == SELECT_GOLD]
    assert frame and min(q.x for q in frame) == pytest.approx(rocket.x - 4 * rocket.w / 32)
    assert not [q for q in layout.quads if q.kind == "pic" and str(q.ref).startswith("q3char") and
                q.y == pytest.approx(rocket.y - 22 * rocket.h / 32)]
    later = hud.hud_layout(follow.sample(follow.start_time + 84.6), follow, (640, 480), 1)
    assert not _pics(later, "icons/iconw_")


def test_the_last_pickup_shows_in_the_lower_left_for_three_seconds(follow) -> None:
    """CG_DrawPickupItem: Grunt's rockets at 53.95 s show as icona_rocket (48 units at x 8, y 384) and "Rockets"
    at 55.7 s, as the ioquake3 frame does; a weapon pickup (Sarge's lightning gun at 9.2 s) brings up the weapon
    select instead, which clears it."""
    def pickup(seconds: float) -> list[HudQuad]:
        layout = hud.hud_layout(follow.sample(follow.start_time + seconds), follow, (640, 480), 1)
        return [q for q in layout.quads if (q.x, q.w) == (8, 48)]

    shown = pickup(55.7)
    assert [(q.ref, q.y, q.h) for q in shown] == [("icons/icona_rocket", 384, 48)]
    layout = hud.hud_layout(follow.sample(follow.start_time + 55.7), follow, (640, 480), 1)
    name = sorted((q.x, chr(int(str(q.ref).split("/")[1]))) for q in _pics(layout, "q3char")
                  if q.y == 384 + 24 - 8 and q.tint != (0.0, 0.0, 0.0))
    assert "".join(c for _, c in name) == "Rockets" and name[0][0] == 64
    assert all(q.ref != "icons/icona_rocket" for q in pickup(57.0)) and not pickup(10.0)


def _line(layout, row: int) -> str:
    """The console notify line ``row`` (8 × 16 characters at scale 2, spaces left out)."""
    chars = sorted((q.x, chr(int(str(q.ref).split("/")[1]))) for q in _pics(layout, "q3char") if q.y == row * 16
                   and q.w == 8)
    return "".join(c for _, c in chars)


def test_a_suicide_is_worded_for_the_sex_of_the_victims_model(follow, q3_fs) -> None:
    from viewer.games.quake3.view import Quake3View

    models = Quake3View().load_segment_assets(q3_fs, follow.segments[0]).md3
    assert models is not None
    sexes = {name.split("/")[0]: p.animations.sex for name, p in models.players.items()}
    assert sexes["major"] == "f" and sexes["sarge"] == "m"
    death = next(e for e in follow.events_of_kind("obituary") if e.suicide and e.victim == "Major")
    state = follow.sample(death.time + 0.5)
    plain = hud.hud_layout(state, follow, (1280, 720), 2)
    worded = hud.hud_layout(state, follow, (1280, 720), 2, models=models)
    rows = [r for r in range(4) if _line(worded, r).startswith("Majorblew")]
    assert rows and _line(plain, rows[0]) == "Majorblewhimselfup."                 # no models: the demo's text
    assert _line(worded, rows[0]) == "Majorblewherselfup."


def test_the_level_timer_shows_only_when_asked_for(follow) -> None:
    state = follow.sample(follow.start_time + 12.3)

    def timer(layout) -> str:
        return "".join(c for _, c in sorted((q.x, chr(int(str(q.ref).split("/")[1])))
                                            for q in _pics(layout, "q3char") if q.y == 18 and q.w == 16))

    assert timer(hud.hud_layout(state, follow, (640, 480), 1)) == ""                  # cg_drawTimer 0
    assert timer(hud.hud_layout(state, follow, (640, 480), 1, draw_timer=True)) == "0:12"


def test_q3_pictures_load_on_demand_as_rgba(q3_fs) -> None:
    pics = load_hud_pics(q3_fs)
    digit = pics["gfx/2d/numbers/zero_32b"]
    assert isinstance(digit, np.ndarray) and digit.shape == (64, 64, 4)
    glyph = pics[char_pic(ord("A"), 32)]
    assert glyph.shape == (32, 32, 4) and glyph[..., 3].max() > 200
    assert pics.get("gfx/2d/nothing_here") is None and "gfx/2d/nothing_here" not in pics
    assert pics["conchars"].width == 128


def test_the_scoreboard_column_titles_keep_their_tga_alpha(q3_fs) -> None:
    """menu/tab/score.tga holds red letters at alpha <= 72 over transparent black; its TGA 2.0 footer says "no
    alpha", which ioquake3's R_LoadTGA never reads: drawn with the 2D default blend they are faint letters with no
    black box (as the reference frames show), not an opaque black box."""
    score = load_hud_pics(q3_fs)["menu/tab/score"]
    assert score.shape == (32, 128, 4)
    alpha = score[..., 3]
    assert alpha.max() == 72 and (alpha == 0).mean() > 0.8
    assert score[..., :3][alpha == 0].max() == 0


def test_hud_pictures_blend_as_their_shader_scripts_say(q3_fs, tmp_path, ctx) -> None:
    """A picture named by a script is its first stage's image with that stage's blendFunc (OpenArena's select frame:
    alpha-blended, its own binary alpha); an additive one adds to the picture under it, an opaque one covers it
    whatever its alpha; a picture without a script is alpha-blended (ioquake3's 2D default)."""
    from PIL import Image as PilImage

    from viewer.games.quake3.assets import GREY_PALETTE
    from viewer.render.context import OffscreenTarget
    from viewer.render.gl_state import ALPHA_BLEND

    oa = load_hud_pics(q3_fs)
    assert oa.blend("gfx/2d/select") == ALPHA_BLEND and set(np.unique(oa["gfx/2d/select"][..., 3])) == {0, 255}
    assert oa.blend("menu/tab/score") == ALPHA_BLEND                              # no script named so
    (tmp_path / "baseoa" / "scripts").mkdir(parents=True)
    (tmp_path / "baseoa" / "gfx" / "2d").mkdir(parents=True)
    (tmp_path / "baseoa" / "scripts" / "hud.shader").write_text(
        "gfx/2d/glow\n{\n nopicmip\n {\n  map gfx/2d/glowart.tga\n  blendFunc GL_ONE GL_ONE\n }\n}\n"
        "gfx/2d/solid\n{\n {\n  map gfx/2d/solid.tga\n }\n}\n")
    half = np.zeros((4, 4, 4), np.uint8)
    half[...] = (100, 100, 100, 0)
    for name in ("glowart", "solid"):
        PilImage.fromarray(half).save(tmp_path / "baseoa" / "gfx" / "2d" / f"{name}.tga")
    from assets_loader.vfs import VirtualFS
    with pytest.warns(UserWarning, match="bigchars"):
        pics = load_hud_pics(VirtualFS(tmp_path, "baseoa"))
    assert pics.blend("gfx/2d/glow") == (1, 1) and pics.blend("gfx/2d/solid") is None
    assert pics["gfx/2d/glow"][0, 0].tolist() == [100, 100, 100, 255]              # alpha not read: opaque
    renderer = HudRenderer(ctx, GREY_PALETTE, pics)
    target = OffscreenTarget(ctx, (32, 32))
    target.use()
    ctx.clear(0.4, 0.4, 0.4)
    renderer.draw(HudLayout((32, 32), 1, (HudQuad("pic", "gfx/2d/glow", 0, 0, 16, 32),
                                          HudQuad("pic", "gfx/2d/solid", 16, 0, 16, 32))))
    pixels = target.read_rgb().astype(int)
    assert abs(pixels[16, 8, 0] - (102 + 100)) <= 2 and abs(pixels[16, 24, 0] - 100) <= 1
    renderer.release()
    target.release()


def test_the_overlay_draws_rgba_pictures_with_their_tint(ctx) -> None:
    from viewer.games.quake3.assets import GREY_PALETTE
    from viewer.render.context import OffscreenTarget

    red = np.zeros((4, 4, 4), np.uint8)
    red[...] = (255, 255, 255, 255)
    renderer = HudRenderer(ctx, GREY_PALETTE, {"gfx/2d/white": red})
    assert renderer.pic_size("gfx/2d/white") == (4, 4)
    target = OffscreenTarget(ctx, (32, 32))
    target.use()
    ctx.clear(0, 0, 0)
    renderer.draw(HudLayout((32, 32), 1, (HudQuad("pic", "gfx/2d/white", 8, 8, 16, 16, 1.0, (1.0, 0.5, 0.0)),)))
    pixels = target.read_rgb()
    assert tuple(pixels[16, 16]) == (255, 128, 0) or tuple(pixels[16, 16]) == (255, 127, 0)
    assert tuple(pixels[2, 2]) == (0, 0, 0)
    renderer.release()
    target.release()


def test_the_3d_head_icon_is_drawn_in_its_box(follow, q3_fs) -> None:
    """With the segment's models the status bar's head is Sarge's head model (``cg_draw3dIcons 1``), drawn in its
    box over the picture: the box's pixels change where the model stands, the helmet's green-blue."""
    renderer = DemoRenderer(follow, q3_fs, (640, 360), hud=True)
    try:
        t = follow.start_time + 12.3
        state = follow.sample(t)
        renderer.render(renderer.scene(t))
        plain = renderer.target.read_rgb().astype(np.int32)
        assert renderer.hud is not None
        draw_hud(renderer.session, renderer.target, state, renderer.hud)
        shown = renderer.target.read_rgb().astype(np.int32)
        layout = renderer.session.game.hud_layout(state, follow, (640, 360), 1, pic_sizes=renderer.hud.pic_size,
                                                  assets=renderer.session.renderer.assets)
    finally:
        renderer.release()
    heads = [m for m in layout.models if m.model.model == "models/players/sarge/head.md3"]
    assert len(heads) == 1 and (heads[0].x, heads[0].w) == (285, 60)     # 640 wide: one pixel per unit
    box = heads[0]
    before, after = (a[box.y:box.y + box.h, box.x:box.x + box.w] for a in (plain, shown))
    changed = np.abs(after - before).sum(axis=2) > 30
    assert changed.mean() > 0.25
    helmet = after[changed]
    assert helmet[:, 1].mean() > helmet[:, 0].mean() + 20              # green over red: the teal helmet


def test_every_skin_of_a_shared_head_has_its_images(q3_fs) -> None:
    """Grism (sarge/classic) and DemoCam (sarge/default) share ``models/players/sarge/head.md3``: the images of
    both skins are loaded, so DemoCam's 3D head icon is textured, not blank."""
    from assets_loader.bsp46 import LIGHTMAP_NONE
    from viewer.games.quake3.view import Quake3View

    player = load_demo(str(PLAYER))
    models = Quake3View().load_segment_assets(q3_fs, player.segments[0]).md3
    assert models is not None and models.library is not None
    for key in ("sarge/default", "sarge/classic"):
        shaders = models.players[key].skins["head"].values()
        names = {n.lower() for s in shaders for n in models.library.find(s, LIGHTMAP_NONE).image_names()}
        assert names and names <= set(models.images), key


def test_the_name_of_the_player_last_under_the_crosshair_shows_for_a_second(follow, q3_fs) -> None:
    """ioquake3's follow frame at 22.75 s writes "Angelyss" grey under the centre print: Sarge's view passed over
    her 0.6 s before (CG_ScanForCrosshairEntity), and CG_DrawCrosshairNames writes the name for 1 s at half
    opacity in 16-unit letters centred at y 170, fading over the last 200 ms; at 37.75 s a player sits on the
    view's line behind a wall, which stops the scan."""
    from viewer.games.quake3 import crosshair_names
    from viewer.games.quake3.view import Quake3View

    game_map = Quake3View().load_segment_assets(q3_fs, follow.segments[0]).game_map
    assert game_map is not None
    t = follow.start_time + 22.75
    sighted = crosshair_names.crosshair_client(follow.sample(t), follow, game_map)
    assert sighted is not None and sighted[0] == 3 and sighted[1] == pytest.approx(0.6)
    layout = hud.hud_layout(follow.sample(t), follow, (640, 480), 1, game_map=game_map)
    name = [q for q in layout.quads if q.y == 170 and q.tint != (0.0, 0.0, 0.0)]
    assert len(name) == len("Angelyss") and {q.alpha for q in name} == {0.5} and {q.w for q in name} == {16}
    assert name[0].x == 320 - 8 * 16 / 2
    fading = crosshair_names.crosshair_client(follow.sample(t + 0.3), follow, game_map)
    assert fading is not None and fading[1] == pytest.approx(0.9)
    assert crosshair_names.crosshair_client(follow.sample(t + 0.45), follow, game_map) is None   # over 1 s
    behind = follow.sample(follow.start_time + 37.75)
    assert crosshair_names.sighted_client(behind, None) is not None
    assert crosshair_names.sighted_client(behind, game_map) is None



def test_the_crosshair_name_played_forward_is_the_name_found_afresh(follow, q3_fs) -> None:
    """Played forward, each snapshot's own scan is kept for the second after it; the names (and their ages) are
    those a fresh look at each moment finds, around the sighting of Angelyss at 22.15 s."""
    from viewer.games.quake3 import crosshair_names
    from viewer.games.quake3.view import Quake3View

    game_map = Quake3View().load_segment_assets(q3_fs, follow.segments[0]).game_map
    times = follow.times[(follow.times > follow.start_time + 21.5) & (follow.times < follow.start_time + 23.5)]
    crosshair_names._SCANS.pop(follow, None)
    played = [crosshair_names.crosshair_client(follow.sample(float(t)), follow, game_map) for t in times]
    fresh = []
    for t in times:
        crosshair_names._SCANS.pop(follow, None)
        fresh.append(crosshair_names.crosshair_client(follow.sample(float(t)), follow, game_map))
    assert played == fresh
    assert sum(found is not None for found in played) > 10

def test_the_ammo_is_dark_grey_while_the_weapon_reloads(follow) -> None:
    """CG_DrawStatusBar: WEAPON_FIRING with over 100 ms of weaponTime left draws the ammo dark grey, as ioquake3's
    follow frame at 83.65 s shows Grunt's 12 rockets just after a shot; at 12.3 s it is yellow."""
    state = follow.sample(follow.start_time + 83.65)
    assert state.stats["weapon_state"] == hud.WEAPON_FIRING and state.stats["weapon_time"] > 100
    ammo = [q for q in _pics(hud.hud_layout(state, follow, (640, 480), 1), "gfx/2d/numbers/") if q.x < 100]
    assert len(ammo) == 2 and {q.tint for q in ammo} == {hud.GREY}
    ready = [q for q in _pics(hud.hud_layout(follow.sample(follow.start_time + 12.3), follow, (640, 480), 1),
                              "gfx/2d/numbers/") if q.x < 100]
    assert ready and {q.tint for q in ready} == {hud.YELLOW}
