"""Quake II HUD layout programs and effects (viewer/games/quake2/hud.py, fx.py) on tiny synthetic demos."""

from __future__ import annotations


import numpy as np

from assets_loader.demos.quake2 import decode_dm2
from assets_loader.demos.quake2 import protocol as P
from tests.builders.dm2 import DM2Messages, dm2, pos
from viewer.games.quake2 import fx, hud
from viewer.games.quake2.view import Quake2View

M = DM2Messages()
BAR = 'yb -24 xv 0 hnum xv 50 pic 0 if 12 xr -40 string2 "never" endif xl 4 yt 2 num 3 14 xl 8 stat_string 8'


def _timeline(*msgs: bytes, ents: tuple[bytes, ...] = ()):
    signon = [M.serverdata(), M.configstring(P.CS_MODELS + 1, "maps/t.bsp"), M.configstring(P.CS_STATUSBAR, BAR),
              M.configstring(P.CS_IMAGES + 1, "i_health"), M.configstring(P.CS_ITEMS + 2, "Railgun")]
    stats = {0: 1, 1: -5, 14: -7, 8: P.CS_ITEMS + 2, 15: 1}
    return decode_dm2(dm2(signon, [M.frame(1, -1), M.playerinfo(stats=stats), M.packetentities(ents), *msgs],
                          [M.frame(2, 1), M.playerinfo(), M.packetentities([])]), "t.dm2")


def test_the_status_bar_program_draws_stats_pics_and_strings() -> None:
    tl = _timeline(M.text(P.svc_centerprint, "Fight!"))
    layout = hud.build_hud(tl.sample(tl.start_time), tl, (640, 480), 2, pic_sizes={"num_0": (24, 24), "ch1": (8, 8)})
    pics = [q for q in layout.quads if q.kind == "pic"]
    names = [q.ref for q in pics]
    # health -5 (dead): red digits, the flashing field behind (STAT_FLASHES bit 1); the health icon; frags -7
    assert names[:4] == ["ch1", "field_3", "anum_minus", "anum_5"] and "i_health" in names
    assert names[-2:] == ["num_minus", "num_7"]
    health = pics[2]
    assert (health.x, health.y) == ((320 // 2 - 160 + 0 + 2 + 16) * 2, (240 - 24) * 2)   # digits 16 apart
    assert pics[3].x - health.x == 16 * 2
    text = bytes(c & 0x7F for c in layout.chars()).decode()
    assert "Railgun" in text and "never" not in text and "Fight!" in text


def test_the_layout_program_language() -> None:
    b = hud._Builder(1, None)
    hud.run_layout(b, 'xr -10 yb -20 picn w_railgun if 3 string "x" endif string2 "ab" cstring "c"', [0] * 32,
                   {}, (320, 240), 0, 0)
    assert [(q.kind, q.ref, q.x, q.y) for q in b.quads] == [
        ("pic", "w_railgun", 310, 220), ("char", ord("a") | 0x80, 310, 220), ("char", ord("b") | 0x80, 318, 220),
        ("char", ord("c"), 310 + (320 - 8) // 2, 220)]


def test_explosions_spray_particles_and_light_deterministically() -> None:
    tl = _timeline(M.temp_entity(7, pos((100, 0, 0))), M.muzzleflash(1, 6),
                   ents=(M.entity(1, model=2, origin=(0, 0, 0)),))
    effects = fx.Quake2Effects.of(tl)
    t = tl.start_time + 0.2
    a, b = effects.particles(tl, t, None), effects.particles(tl, t, None)
    assert 100 < len(a) <= 256 and np.array_equal(a.positions, b.positions)
    assert np.all((a.colors >= 0xE0) & (a.colors < 0xE8))
    assert np.abs(a.positions - [100, 0, 0]).max() < 16 + 192 * 0.2 + 1
    assert len(effects.particles(tl, tl.start_time + 3.0, None)) == 0
    # CL_ExplosionParticles fade at alphavel -0.8 / (0.5 .. 0.8): alpha 1 - 0.2 * 0.8 / life, lower later
    assert a.alphas is not None and np.all((a.alphas >= 1 - 0.16 / 0.5 - 1e-6) & (a.alphas <= 1 - 0.16 / 0.8 + 1e-6))
    later = effects.particles(tl, tl.start_time + 0.4, None)
    assert later.alphas is not None and later.alphas.max() < a.alphas.min()
    lights = effects.lights(tl.sample(tl.start_time + 0.01), tl.start_time + 0.01, None)
    assert len(lights) == 2 and lights.colors[1].tolist() == [0.5, 0.5, 1.0]      # explosion, railgun flash
    assert len(effects.lights(tl.sample(tl.start_time + 0.05), tl.start_time + 0.05, None)) == 1  # 16 ms flash


def test_a_frames_effects_fire_as_q2pro_reads_it_at_the_previous_frames_time() -> None:
    """CL_DemoFrame reads frame N once the client's time passes frame N-1: its temp entities and muzzle flashes fire
    then, 100 ms before the frame's own time; the flash lights 16 ms (cl_muzzlelight_time) at 18 units before and 16
    right of its entity (CL_MuzzleFlash: 200 + 0..31 units, 100 + 0..31 silenced)."""
    signon = [M.serverdata(), M.configstring(P.CS_MODELS + 1, "maps/t.bsp")]
    shooter = M.entity(1, model=2, origin=(0, 0, 0), angles=(0, 90, 0))
    frames = [[M.frame(1, -1), M.playerinfo(), M.packetentities([shooter])],
              [M.frame(2, 1), M.playerinfo(), M.packetentities([shooter]),
               M.temp_entity(0, pos((100, 0, 0)) + bytes([5])),
               M.muzzleflash(1, 1), M.muzzleflash(1, 1 | P.MZ_SILENCED)]]
    tl = decode_dm2(dm2(signon, *frames), "t.dm2")
    effects = fx.Quake2Effects.of(tl)
    first, second = float(tl.times[0]), float(tl.times[1])
    assert effects.te_fired.tolist() == [first] and effects.te_times.tolist() == [second]
    assert len(effects.particles(tl, first + 0.001, None)) == 40                    # the gunshot's CL_ParticleEffect
    lights = effects.lights(tl.sample(first + 0.01), first + 0.01, None)
    np.testing.assert_allclose(lights.origins, [(16, 18, 0)] * 2, atol=1e-4)      # yaw 90: forward +y, right +x
    assert 200 <= lights.radius[0] < 232 and 100 <= lights.radius[1] < 132
    assert len(effects.lights(tl.sample(first + 0.02), first + 0.02, None)) == 0


def test_rail_trails_and_laser_beams() -> None:
    rail = M.temp_entity(3, pos((0, 0, 0)) + pos((256, 0, 0)))
    laser = M.entity(9, model=1, renderfx=fx.RF_BEAM, skin=0xF2F2F0F0, frame=2, origin=(0, 64, 0),
                     old_origin=(0, 64, 128))
    tl = _timeline(rail, ents=(laser,))
    p = fx.Quake2Effects.of(tl).particles(tl, tl.start_time, None)     # servers resend a beam every frame
    blue = p.positions[(p.colors >= 0x74) & (p.colors < 0x7C)]
    assert len(blue) == 256 and blue[:, 0].min() < 2 and blue[:, 0].max() > 250
    beam = p.colors[np.abs(p.positions[:, 1] - 64) < 1e-3]
    assert len(beam) == 32 and set(beam.tolist()) == {0xF2}


def test_flag_carriers_leave_a_trail_of_their_teams_colour_and_light_up() -> None:
    """EF_FLAG1 (red flag): CL_FlagTrail specks of colour 242 every 5 units within 16 of the path, and a red light of
    225; EF_FLAG2 blue (115)."""
    signon = [M.serverdata(), M.configstring(P.CS_MODELS + 1, "maps/t.bsp"),
              M.configstring(P.CS_MODELS + 2, "players/male/tris.md2")]
    frames = [[M.frame(n, n - 1 if n > 1 else -1), M.playerinfo(),
               M.packetentities([M.entity(3, model=2, effects=fx.EF_FLAG1, origin=(100 * n, 0, 0)),
                                 M.entity(4, model=2, effects=fx.EF_FLAG2, origin=(0, 100 * n, 0))])]
              for n in (1, 2)]
    tl = decode_dm2(dm2(signon, *frames), "t.dm2")
    t = float(tl.times[1])
    p = fx.Quake2Effects.of(tl).particles(tl, t, None)
    red, blue = p.positions[p.colors == 242], p.positions[p.colors == 115]
    assert len(red) == len(blue) == 20                                  # 100 units, one every 5
    assert red[:, 0].min() < 116 and red[:, 0].max() > 184 and np.abs(red[:, 1:]).max() <= 16 + 5
    lights = fx.Quake2Effects.of(tl).lights(tl.sample(t), t, None)
    np.testing.assert_allclose(sorted(lights.colors.tolist()), [(0.1, 0.1, 1.0), (1.0, 0.1, 0.1)], atol=1e-6)
    assert lights.radius.tolist() == [225.0, 225.0]


def test_notify_lines_wrap_words_like_the_console_and_chat_is_in_the_alternate_characters() -> None:
    assert hud.console_lines("abc defgh ijklmnopqrstu\nxy\n", 8) == [
        ("abc ", False), ("defgh ij", False), ("klmnopqr", False), ("stu", False), ("xy", False)]
    assert hud.console_lines("\x01hi there", 40) == [("hi there", True)]
    chat = "claire: " + "word " * 10
    tl = _timeline(M.print(P.PRINT_HIGH, "Leg damage\n"), M.print(P.PRINT_CHAT, chat + "\n"))
    layout = hud.build_hud(tl.sample(tl.start_time + 0.05), tl, (320, 240), 1, pic_sizes={})
    top = [q for q in layout.quads if q.kind == "char" and q.y < 4 * 8 and q.y % 8 == 0]   # not the bar's y 2
    rows: dict[int, list] = {}
    for q in top:
        rows.setdefault(q.y, []).append(q)
    assert sorted(rows) == [0, 8, 16]                                  # 1 + 2 wrapped chat lines (38 columns)
    assert bytes(q.ref for q in rows[0]).decode() == "Legdamage"        # spaces are not drawn
    assert all(q.ref & 0x80 for y in (8, 16) for q in rows[y])
    assert max(q.x for q in rows[8]) < 8 + 38 * 8 and min(q.x for q in top) == 8


def test_a_centerprint_is_centred_a_quarter_down_as_q2pro_draws_it() -> None:
    """SCR_DrawCenterString: y = height / 4 - lines * 8 / 2, each whole line centred (no 40-column cut)."""
    tl = _timeline(M.text(P.svc_centerprint, "one\n" + "x" * 50))
    layout = hud.build_hud(tl.sample(tl.start_time), tl, (1280, 720), 1, pic_sizes={})
    chars = [q for q in layout.quads if q.kind == "char" and 100 <= q.y < 400]
    assert min(q.y for q in chars) == 720 // 4 - 2 * 8 // 2
    xs = [q.x for q in chars if q.y == 720 // 4]
    assert len(xs) == 50 and xs[0] == (1280 - 50 * 8) // 2


def test_the_hud_is_at_q2pros_automatic_scale() -> None:
    """get_auto_scale: 1 at 1280×720, 2 from 1080 rows, 4 from 2160; a portrait screen goes by its width."""
    assert [hud.auto_scale(s) for s in ((1280, 720), (1920, 1080), (3840, 2160), (1920, 2560), (1080, 1920))] == \
        [1, 2, 4, 2, 1]
    tl = _timeline()
    layout = Quake2View().hud_layout(tl.sample(tl.start_time), tl, (1280, 720), 2, pic_sizes={})
    assert layout.scale == 1


def test_trail_movers_are_forgotten_outside_the_trail_window_with_the_same_particles() -> None:
    """Playing a long demo keeps at most MOVERS_KEPT frames of trail movers (plus the window being drawn), and a
    frame's trail drawn after the others were forgotten is the one a fresh start draws."""
    signon = [M.serverdata(), M.configstring(P.CS_MODELS + 1, "maps/t.bsp"),
              M.configstring(P.CS_MODELS + 2, "models/objects/rocket/tris.md2")]
    count = fx.MOVERS_KEPT * 2
    frames = [[M.frame(n, n - 1 if n > 1 else -1), M.playerinfo(),
               M.packetentities([M.entity(3, model=2, effects=fx.EF_ROCKET, origin=(8 * (n % 64), 0, 0))])]
              for n in range(1, count + 1)]
    tl = decode_dm2(dm2(signon, *frames), "t.dm2")
    effects = fx.Quake2Effects.of(tl)
    window = int(fx.TRAIL_WINDOW * 10) + 2                             # 10 frames a second
    for t in tl.times[1:]:
        effects.particles(tl, float(t), None)
        assert len(effects.movers) <= fx.MOVERS_KEPT + window
    t = float(tl.times[count // 3])
    again, fresh = effects.particles(tl, t, None), fx.Quake2Effects.of(tl).particles(tl, t, None)
    assert len(fresh.positions) > 0
    np.testing.assert_array_equal(again.positions, fresh.positions)
    np.testing.assert_array_equal(again.colors, fresh.colors)
