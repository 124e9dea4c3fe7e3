"""The default sample of ``qdv play`` (``viewer/sample/oa``, issue 37 item 1): five OpenArena bots fighting on
``oa_dm1``, recorded by us.  Its recording facts (players, frags, sounds, every player seen by the recorder's view)
and that it plays from its own pk3 alone: every sound found, every frame drawn without a missing-file warning
other than the images OpenArena's cgame names but never shipped."""

from __future__ import annotations

import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest

from assets_loader.bsp46 import load_bsp46
from assets_loader.bsp46.dtypes import CONTENTS_SOLID
from assets_loader.demos import SceneState, load_demo
from viewer.audio import Mixer, SoundBank
from viewer.cli import DEFAULT_SAMPLE, sample_demo
from viewer.headless import DemoRenderer
from viewer.session import game_filesystem

from tests.test_quake3_sounds import NOT_SHIPPED

BOTS = ["Sarge", "Grunt", "Major", "Angelyss", "Kyonshi"]
ET_PLAYER = 1
#: Images OpenArena's data names (shaders, a model's skin) that no OpenArena pk3 holds: the engine draws nothing.
NEVER_SHIPPED = ("'e:/projects/oa/newplasrailhit/sphere'", "'poopypants'")


@pytest.fixture(scope="module")
def timeline():
    return load_demo(sample_demo())


@pytest.fixture(scope="module")
def fs():
    return game_filesystem(sample_demo(), None, None)


def test_the_default_sample_is_the_openarena_match(timeline) -> None:
    assert DEFAULT_SAMPLE == "oa"
    assert timeline.game == "quake3" and timeline.segments[0].map_name == "oa_dm1"
    assert 60.0 <= timeline.duration <= 120.0
    players = [s.name for s in timeline.final_scoreboard() if s.name]
    assert players[:5] == BOTS


def test_the_bots_frag_each_other_with_sound(timeline) -> None:
    frags = [e for e in timeline.events_of_kind("obituary") if e.killer and not e.suicide]
    assert len(frags) >= 10 and {e.killer for e in frags} == set(BOTS)
    assert len(timeline.events_of_kind("sound")) >= 200


def _seen(state: SceneState, level, clients: int) -> set[int]:
    """Players (entity numbers below ``clients``) inside the view's 90x73.7 degree frustum (``fov 90`` at 4:3) with
    nothing solid on the line from the eye to them; the followed player (the view itself) is left out."""
    pitch, yaw = np.radians(state.view_angles[:2])
    forward = np.array([np.cos(pitch) * np.cos(yaw), np.cos(pitch) * np.sin(yaw), -np.sin(pitch)])
    right = np.array([np.sin(yaw), -np.cos(yaw), 0.0])
    up = np.cross(right, forward)
    e = state.entities
    eye = tuple(float(v) for v in state.view_origin)
    out = set()
    for i, n in enumerate(e.number):
        if n >= clients or n == state.view_entity or e.extra["eType"][i] != ET_PLAYER:
            continue
        d = e.origin[i] - state.view_origin
        x = float(d @ forward)
        if x <= 0 or abs(d @ right) > x or abs(d @ up) > 0.75 * x:
            continue
        if level.collision.trace_line(eye, tuple(float(v) for v in e.origin[i]), CONTENTS_SOLID).fraction >= 1.0:
            out.add(int(n))
    return out


def test_every_player_is_seen_by_the_recorder(timeline, fs) -> None:
    level = load_bsp46(fs.read("maps/oa_dm1.bsp"), "maps/oa_dm1.bsp")
    seen: set[int] = set()
    for t in timeline.times[::5]:
        seen |= _seen(timeline.sample(float(t)), level, len(BOTS))
    assert seen == set(range(len(BOTS)))


def test_the_sample_is_its_own_game_data(fs) -> None:
    pk3 = Path(sample_demo()).parents[1] / "pak0.pk3"
    assert fs.game_dirs == [pk3.parent] and fs.fallback is None
    folder = pk3.parents[1]
    assert sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) <= 25_000_000   # issue 37: <= 25 MB
    with zipfile.ZipFile(pk3) as z:
        assert "maps/oa_dm1.bsp" in z.namelist() and z.testzip() is None


def test_the_pk3s_pngs_are_found_for_their_tga_names(fs) -> None:
    """``make_sample`` stores some TGAs as PNGs of the same pixels: a ``.tga`` name (a shader's, a skin's) finds
    the ``.png`` as ``R_LoadImage`` tries the other extensions, and no picture is there under two extensions."""
    with zipfile.ZipFile(Path(sample_demo()).parents[1] / "pak0.pk3") as z:
        pictures = [n for n in z.namelist() if n.endswith((".tga", ".png", ".jpg"))]
    pngs = [n for n in pictures if n.endswith(".png")]
    assert len(pngs) >= 20 and all(fs.find_image(n[:-4] + ".tga") == n for n in pngs)
    assert len({n[:-4] for n in pictures}) == len(pictures)


def test_every_sound_of_the_sample_is_in_its_pk3(timeline, fs) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mixer = Mixer(timeline, SoundBank(fs))
    skipped = {str(w.message).split(" ")[1] for w in caught}
    assert skipped <= NOT_SHIPPED
    names = mixer.track.names
    assert len(names) > 50 and all(s is not None for s, n in zip(mixer.sounds, names, strict=True)
                                    if n not in NOT_SHIPPED)


def test_the_sample_draws_from_its_pk3_alone(timeline, fs) -> None:
    """A fight (a grenade explosion, the scoreboard of a death) and a frame after the view switched players."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        renderer = DemoRenderer(timeline, fs, (320, 240), hud=True)
        try:
            shots = [renderer.pixels(float(timeline.times[0]) + t) for t in (3.0, 9.0, 64.0)]
        finally:
            renderer.release()
    unexpected = [str(w.message) for w in caught if not any(name in str(w.message) for name in NEVER_SHIPPED)]
    assert unexpected == []
    assert all(shot.std() > 20 for shot in shots)
