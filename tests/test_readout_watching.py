"""The corner readout's "watching NAME" names the player whose eyes are shown, in every demo format (issue 29,
item 5): each game's entity → player rule (``GameSchema.entity_slot``), plain names (no Quake III colour codes)."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.demos import DemoTimeline, SceneState, load_demo
from assets_loader.demos.quake3.colors import strip_colors
from viewer.viewer_state import ViewerState

from .conftest import DATA, LQ1, QUAKE2, QUAKE3, QUAKEWORLD

DEMOS = [
    LQ1 / "demo1.dem",
    QUAKEWORLD / "lq_lqdm2_ranger.qwd",
    QUAKEWORLD / "lq_lqdm2_mvd.mvd",
    QUAKE2 / "demos" / "libq2-testduel.dm2",
    QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68",     # follows client 0 (Sarge) for a while: no name before
    QUAKE3 / "demos" / "oa_dm1_player_p71.dm_71",     # DemoCam's own eyes: "Penguin" before
    DATA / "public" / "quake3" / "cpma_duel.dm_68",   # coloured names
]


def _eyes_of(timeline: DemoTimeline, scene: SceneState) -> int:
    """The scoreboard slot whose eyes ``scene`` shows, found without the readout's rule: Quake III's playerState
    names its client; elsewhere it is the player entity standing under the view."""
    if timeline.game == "quake3":
        return int(scene.stats["clientNum"])
    ents = scene.entities
    players = [i for i, n in enumerate(ents.number) if 1 <= n <= len(scene.scoreboard)]
    eye = np.asarray(scene.view_origin, np.float64)
    nearest = min(players, key=lambda i: float(np.linalg.norm(ents.origin[i][:2] - eye[:2])))
    return int(ents.number[nearest]) - 1   # Quake, QuakeWorld and Quake II: client slot s is entity s + 1


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: p.name)
def test_the_readout_names_the_player_whose_eyes_are_shown(path) -> None:
    timeline = load_demo(str(path))
    state = ViewerState.for_timeline(timeline)
    assert state.mode == "pov"
    for share in (0.3, 0.5, 0.8):
        scene = timeline.sample(timeline.start_time + share * timeline.duration, pov=state.pov_slot)
        slot = state.pov_slot if state.pov_slot is not None else _eyes_of(timeline, scene)
        name = strip_colors(scene.scoreboard[slot].name)
        assert name and state.watching(scene) == name


def test_follow_switches_in_a_quake3_spectator_demo_are_named() -> None:
    """oa_dm1_follow_p68 is recorded by a spectator following one bot after another, client 0 among them."""
    timeline = load_demo(str(QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"))
    state = ViewerState.for_timeline(timeline)
    seen = {}
    for t in np.linspace(timeline.start_time, timeline.end_time, 40):
        scene = timeline.sample(float(t))
        seen[int(scene.stats["clientNum"])] = state.watching(scene)
    assert seen[0] == "Sarge"
    assert all(seen[c] == timeline.final_scoreboard()[c].name for c in seen)
    assert "DemoCam" not in seen.values()


def test_coloured_names_are_plain_in_the_readout_and_orbit_follows_name_the_entitys_player() -> None:
    timeline = load_demo(str(DATA / "public" / "quake3" / "cpma_duel.dm_68"))
    state = ViewerState.for_timeline(timeline)
    scene = timeline.sample(timeline.start_time + timeline.duration / 2)
    assert timeline.final_scoreboard()[2].name == "^7^4>^7Sylver^4<"
    state.mode, state.follow = "orbit", 2      # Quake III: entity 2 is client 2
    assert state.watching(scene) == ">Sylver<"
