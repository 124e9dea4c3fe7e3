"""Highlight clips rendered in parallel (issue 34 item 5, "in parallel like the index"): ``qdv render --highlights
--workers 2`` renders the hits ``qdv find --json`` gives on real demos of three games, each clip a job of a process
pool; a clip that fails is reported and the others are written; ``--concat`` joins the clips in the order of the
results. :func:`render_clips` keeps its outcomes in order, and a clip that kills its process fails alone."""

from __future__ import annotations

import json
import os
from pathlib import Path

import av
import numpy as np

from viewer.cli import main
from viewer.library.clip_pool import ClipOutcome, render_clips
from viewer.library.highlights import Clip

from .conftest import QUAKE2, QUAKE3, QUAKEWORLD

DEMOS = [QUAKEWORLD / "lq_lqdm2_mvd.mvd", QUAKE2 / "demos" / "libq2-testduel.dm2",
         QUAKE3 / "demos" / "oa_dm1_follow_p68.dm_68"]
LEAD_IN, LEAD_OUT, FPS = 1.0, 0.5, 10


def _frames(video: Path) -> list[np.ndarray]:
    with av.open(str(video)) as f:
        return [frame.to_ndarray(format="rgb24") for frame in f.decode(video=0)]


def test_two_workers_render_real_hits_one_failing_clip_reported(tmp_path, capsys):
    assert main(["find", "--db", str(tmp_path / "lib.sqlite"), "--workers", "2", *map(str, DEMOS),
                 "--kind", "obituary", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    chosen = {}
    for h in hits:      # per demo its first death with the whole lead-in and lead-out inside the demo
        if LEAD_IN <= h["time"] <= h["demo_duration"] - LEAD_OUT:
            chosen.setdefault(h["path"], h)
    assert sorted(chosen) == sorted(str(d) for d in DEMOS)
    broken = tmp_path / "broken.dm2"
    broken.write_bytes(b"not a demo at all" * 4)
    first, *others = (chosen[str(d)] for d in DEMOS)
    results = tmp_path / "hits.json"
    results.write_text(json.dumps([first, {**first, "path": str(broken), "demo_duration": 0}, *others]))
    out, reel = tmp_path / "clips", tmp_path / "reel.mp4"
    assert main(["render", "--highlights", str(results), "--out", str(out), "--size", "64x48", "--fps", str(FPS),
                 "--lead-in", str(LEAD_IN), "--lead-out", str(LEAD_OUT), "--workers", "2",
                 "--concat", str(reel)]) == 1
    said = capsys.readouterr()
    failed = [line for line in said.err.splitlines() if line.startswith("qdv render: 002_broken_")]
    assert len(failed) == 1 and str(broken) in failed[0]
    clips = sorted(out.glob("*.mp4"))
    assert [c.name[:4] for c in clips] == ["001_", "003_", "004_"]
    assert [c.name.split("_")[1] for c in clips] == ["lq", "libq2-testduel", "oa"]
    assert all(f"wrote {c}" in said.out for c in clips) and f"wrote {reel}: 3 clips joined" in said.out
    frames = [_frames(c) for c in clips]
    assert [len(f) for f in frames] == [round((LEAD_IN + LEAD_OUT) * FPS)] * 3
    joined = _frames(reel)
    assert len(joined) == sum(len(f) for f in frames)
    assert all(np.array_equal(a, b) for a, b in zip(joined, [x for f in frames for x in f], strict=True))


def _fake_job(clip: Clip) -> ClipOutcome:
    """A job of the pool that writes nothing: clip ``b`` kills its process, clip ``c`` raises."""
    if clip.demo == "b":
        os._exit(3)
    if clip.demo == "c":
        raise RuntimeError("no renderer here")
    return ClipOutcome(clip, True, f"wrote {clip.out} in {os.getpid()}")


def test_a_clip_that_kills_its_process_or_raises_fails_alone(tmp_path):
    clips = [Clip(name, 0.0, 1.0, tmp_path / f"{name}.mp4") for name in "abcde"]
    seen = []
    outcomes = render_clips(_fake_job, clips, 2, seen.append)
    assert [o.clip for o in outcomes] == clips and sorted(o.clip.demo for o in seen) == list("abcde")
    assert [o.written for o in outcomes] == [True, False, False, True, True]
    assert outcomes[1].message == "its rendering process ended abruptly"
    assert outcomes[2].message == "no renderer here"
    assert all(str(os.getpid()) not in o.message for o in outcomes if o.written)    # each in a pool process
