"""Temp entities reach the viewer by their neutral names: each protocol's wire codes map into one vocabulary, and
QuakeWorld blood (wire code 12, NetQuake's explosion2) draws blood, never an explosion (issue 9)."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.demos import load_demo
from assets_loader.demos.events import TEMP_ENTITIES
from assets_loader.demos.quake import protocol as NQ
from assets_loader.demos.quakeworld import protocol as QW
from tests.builders.qw import QWDWriter, QWMessages, qwd_signon
from tests.conftest import QUAKEWORLD
from viewer.games.quake.fx import EffectKind, build_emitters, particles_at

m = QWMessages()


@pytest.mark.parametrize("protocol", [NQ, QW], ids=["quake", "quakeworld"])
def test_every_wire_code_has_a_vocabulary_name(protocol) -> None:
    assert set(protocol.TE_NAMES.values()) <= set(TEMP_ENTITIES)
    assert set(protocol.TE_NAMES) == set(protocol.TE_SHAPES)


def test_the_same_wire_code_names_different_effects_per_protocol() -> None:
    assert NQ.TE_NAMES[12] == "explosion2" and QW.TE_NAMES[12] == "blood"
    assert NQ.TE_NAMES[13] == "beam" and QW.TE_NAMES[13] == "lightningblood"


def _qwd_with(*messages: bytes):
    w = QWDWriter()
    qwd_signon(m, w, names=("Alice", "Bob"))
    w.cmd(1.9, viewangles=(0.0, 0.0, 0.0))
    w.packet(2.0, m.playerinfo_qwd(0, (0, 0, 24)), m.packetentities([]), *messages)
    w.packet(2.1, m.playerinfo_qwd(0, (0, 0, 24)))
    return load_demo(w.build(), "blood.qwd")


def test_qw_blood_draws_blood_particles_and_no_explosion_light() -> None:
    tl = _qwd_with(m.temp_entity(QW.TE_BLOOD, (64, 0, 8), count=3))
    [blood] = tl.events_of_kind("temp_entity")
    assert blood.name == "blood" and blood.count == 3
    em = build_emitters(tl.events)
    assert len(em) == 1 and em.kinds[0] == EffectKind.RUN
    assert em.colors[0] == 73 and em.counts[0] == 20 * 3            # R_RunParticleEffect(pos, 0, 73, 20 * count)
    assert len(em.lights) == 0
    parts = particles_at(em, blood.time + 0.05)
    assert 0 < len(parts) <= 60 and set(np.unique(parts.colors)) <= set(range(72, 80))   # (73 & ~7) + rand & 7


def test_qw_lightning_blood_is_red_and_unlit_while_an_explosion_is_lit() -> None:
    tl = _qwd_with(m.temp_entity(QW.TE_LIGHTNINGBLOOD, (0, 0, 0)), m.temp_entity(QW.TE_EXPLOSION, (256, 0, 0)))
    em = build_emitters(tl.events)
    runs = em.kinds == EffectKind.RUN
    assert em.colors[runs].tolist() == [225] and em.counts[runs].tolist() == [50]
    assert len(em.lights) == 1 and em.lights.origins[0].tolist() == [256, 0, 0]


def test_real_mvd_blood_makes_no_explosion_lights() -> None:
    tl = load_demo(QUAKEWORLD / "2on2_sf_vs_red[frobodm2]220104-0915.mvd")
    te = tl.events_of_kind("temp_entity")
    blood = [e for e in te if e.name == "blood"]
    explosions = [e for e in te if e.name in ("explosion", "explosion2")]
    assert len(blood) == 191
    lights = build_emitters(tl.events).lights
    assert len(lights) == len(explosions)
    lit = {(float(t), tuple(np.round(o, 3))) for t, o in zip(lights.times, lights.origins)}
    assert not any((e.time, tuple(np.round(np.float32(e.origin), 3))) in lit for e in blood)
