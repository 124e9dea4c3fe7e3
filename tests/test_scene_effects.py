"""Scene effects: lightning beams (CL_UpdateTEnts), particles and lights in the scene, missing maps."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.demos.quake import protocol as P
from tests.builders.dem import DemWriter
from tests.builders.pak import build_pak
from tests.builders.segment import named_models
from viewer.games.quake.assets import load_segment_assets
from viewer.scene import build_scene
from viewer.games.quake.tents import BEAM_STEP, SceneEffects

MODELS = ["progs/player.mdl", "progs/bolt2.mdl"]


def demo_with(*messages_at: tuple[float, tuple[bytes, ...]]):
    w = DemWriter()
    w.block(w.serverinfo("maps/t.bsp", MODELS), w.setview(1))
    for t, messages in messages_at:
        w.block(w.time(t), w.update(entity=1, model=2, origin=(0, 0, 0)), *messages)
    return load_demo(w.build())


def beam(w: DemWriter, entity: int, start, end) -> bytes:
    return w.temp_entity(P.TE_LIGHTNING2, start, end, entity=entity)


def test_beam_is_its_model_every_30_units_for_a_fifth_of_a_second() -> None:
    w = DemWriter()
    tl = demo_with((1.0, (beam(w, 5, (0, 0, 0), (300, 0, 0)),)), (1.1, ()), (1.3, ()))
    effects = SceneEffects.for_timeline(tl)
    pieces = effects.beam_pieces(tl.sample(1.1), 1.1)
    assert len(pieces) == 11 and {p.model for p in pieces} == {"progs/bolt2.mdl"}
    xs = [float(p.origin[0]) for p in pieces]
    assert xs == pytest.approx([k * BEAM_STEP for k in range(11)])
    assert all(abs(p.angles[1]) < 1e-3 and abs(p.angles[0]) < 1e-3 for p in pieces)
    assert effects.beam_pieces(tl.sample(1.3), 1.3) == []


def test_newer_beam_of_the_same_entity_replaces_the_older() -> None:
    w = DemWriter()
    tl = demo_with((1.0, (beam(w, 5, (0, 0, 0), (60, 0, 0)),)),
                   (1.05, (beam(w, 5, (0, 0, 0), (0, 90, 0)),)))
    pieces = SceneEffects.for_timeline(tl).beam_pieces(tl.sample(1.05), 1.05)
    assert len(pieces) == 4 and pieces[-1].origin.tolist() == pytest.approx([0, 90, 0])
    assert pieces[0].angles[1] == pytest.approx(90)


def test_the_view_entity_beam_starts_at_the_eye() -> None:
    w = DemWriter()
    tl = demo_with((1.0, (beam(w, 1, (500, 500, 500), (0, 100, 22)),)))
    state = tl.sample(1.0)
    pieces = SceneEffects.for_timeline(tl).beam_pieces(state, 1.0)
    assert pieces[0].origin.tolist() == pytest.approx(state.view_origin.tolist())


def test_scene_carries_beams_particles_and_lights() -> None:
    w = DemWriter()
    tl = demo_with((1.0, (beam(w, 5, (0, 0, 0), (90, 0, 0)), w.temp_entity(P.TE_EXPLOSION, (0, 0, 50)))),
                   (1.1, ()))
    effects = SceneEffects.for_timeline(tl)
    frame = build_scene(tl, 1.1, effects=effects, assets=named_models(("", "maps/t.bsp", *MODELS)))
    bolts = [d for d in frame.models if d.model == 3]
    assert len(bolts) == 4
    assert len(frame.particles) > 500, "an explosion spawns about a thousand particles"
    assert len(frame.lights) == 1 and 300 < frame.lights.radius[0] < 350
    plain = build_scene(tl, 1.1)
    assert plain.particles is None and not [d for d in plain.models if d.model == 3]


def test_missing_map_gives_an_empty_world_and_leaves_the_notice_to_the_session(tmp_path) -> None:
    """The loader draws no world for a missing map and says nothing itself: the session's one notice names the map
    and how to point qdv at the game (``tests/test_no_game_data.py``)."""
    from assets_loader.vfs import VirtualFS
    from tests.conftest import LQ1
    from assets_loader.pak import load_pak

    real = load_pak(LQ1 / "pak0.pak")
    (tmp_path / "id1").mkdir()
    (tmp_path / "id1" / "pak0.pak").write_bytes(build_pak({
        "gfx/palette.lmp": real.read("gfx/palette.lmp"), "progs/player.mdl": real.read("progs/player.mdl")}))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assets = load_segment_assets(VirtualFS(tmp_path), ("", "maps/gone.bsp", "progs/player.mdl"))
    assert assets.world is None
    assert not any("maps/gone.bsp" in str(w.message) for w in caught)
    assert assets.models[2].kind == "alias"
    assert np.array_equal(assets.model_flags(), [0, 0, assets.models[2].alias.flags])


def test_quakeworld_explosions_show_the_sprite_for_six_frames() -> None:
    from tests.conftest import QUAKEWORLD

    tl = load_demo(QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd")
    effects = SceneEffects.for_timeline(tl)
    times = effects.explosion_times
    gaps = np.diff(times)
    lone = next(i for i in range(1, len(times) - 1) if gaps[i - 1] > 1 and gaps[i] > 1)  # no other explosion near
    first = float(times[lone])
    assert [m.frame for m in effects.explosion_sprites(tl.sample(first + 0.25), first + 0.25)] == [2]
    assert effects.explosion_sprites(tl.sample(first + 0.61), first + 0.61) == []
    sprites = effects.explosion_sprites(tl.sample(first + 0.25), first + 0.25)
    assert sprites and {m.model for m in sprites} == {"progs/s_explod.spr"}
    assert all(0 <= m.frame < 6 for m in sprites)
    names = tl.segments[0].model_precache
    frame = build_scene(tl, first + 0.25, effects=effects, assets=named_models(names))
    assert any(d.model == names.index("progs/s_explod.spr") for d in frame.models)


def test_netquake_explosions_make_no_sprite() -> None:
    w = DemWriter()
    tl = demo_with((1.0, (w.temp_entity(P.TE_EXPLOSION, (0, 0, 50)),)), (1.1, ()))
    assert SceneEffects.for_timeline(tl).explosion_sprites(tl.sample(1.1), 1.1) == []
