"""Quake III movers on the corpus: ET_MOVER entities become draws of their brush model ``*N`` (model slot
``MAX_MODELS + N``) at their trajectory's origin, and the renderer draws them: the sliding slab of oa_dm1 (``*2``,
234 units aside) is in the picture where its entity puts it."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

from assets_loader.demos import load_demo
from viewer.games.quake3 import link
from viewer.render.context import OffscreenTarget
from viewer.render.refdef import Camera
from viewer.session import DemoSession

from .conftest import QUAKE3

FOLLOW = QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"


@pytest.fixture(scope="module")
def follow():
    return load_demo(str(FOLLOW))


def test_movers_are_brush_model_draws_at_their_trajectory(follow) -> None:
    draws = link.entity_draws(follow.sample(follow.start_time + 15.0))
    door = link.brush_slot(2)
    assert door in {d.model for d in draws} and all(d.model > link.MAX_MODELS for d in draws)
    assert np.allclose(next(d for d in draws if d.model == door).origin, (-234, 0, 0), atol=0.1)
    assert door not in {d.model for d in link.entity_draws(follow.sample(follow.start_time + 20.0))}  # not in PVS


def test_the_renderer_draws_a_mover_where_its_entity_is(follow, ctx, q3_fs) -> None:
    session = DemoSession(follow, q3_fs, ctx)
    target = OffscreenTarget(ctx, (160, 120))
    camera = Camera((-184.0, 1416.0, 80.0), (89.0, 90.0, 0.0))         # over the slab's closed place
    door = link.brush_slot(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = session.scene(follow.start_time + 15.0, camera)
        pictures = []
        for models in (frame.models, (), tuple(dataclasses.replace(d, origin=np.zeros(3, np.float32))
                                               if d.model == door else d for d in frame.models)):
            session.draw(dataclasses.replace(frame, models=models), target)
            pictures.append(target.read_rgb().astype(int))
    opened, none, closed = pictures
    assert np.array_equal(opened, none)                                  # slid 234 units away into the wall
    assert np.abs(closed - none).sum(axis=2).astype(bool).mean() > 0.5    # closed, it covers the view
    target.release()
    session.release()
