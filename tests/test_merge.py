"""Several client demos of one match as one (issue #33 item 2, ``--merge``).

The corpus's one real pair of client demos of one match is the QuakeWorld lqdm2 match (the ``.qwd`` of LQ_Ranger
and the server's ``.mvd`` of both players, quakeworld/SOURCES.md): merged, LQ_Warden's view is the MVD's exact one
with its stats, lined up without a server clock by where both demos see the players.  The two CPMA demos
``cpma_duel.dm_68`` / ``ratelpajuo.dm_68`` are *not* one match (other servers, players, kills: see the tests), nor
are the two OpenArena demos (two sessions, ``g_timestamp``): both pairs are refused though they share a map and
server times.  Quake III's server-clock line-up is checked on two overlapping cuts of the CPMA duel."""

from __future__ import annotations

import numpy as np
import pytest

from assets_loader.demos import load_demo, sample
from assets_loader.demos.merge import (MAX_APART, MergeError, load_merged, merge_timelines, players_apart,
                                       server_clock)
from assets_loader.demos.writers.quake3 import cut_quake3
from assets_loader.errors import FormatError
from viewer.cli import main
from tests.conftest import DATA, Q2_DUEL
from tests.conftest import LQDM2_MVD as MVD
from tests.conftest import LQDM2_QWD as QWD
from tests.conftest import OA_FOLLOW as Q3_FOLLOW
from tests.conftest import OA_PLAYER as Q3_PLAYER

CPMA = DATA / "public" / "quake3" / "cpma_duel.dm_68"
RATEL = DATA / "public" / "quake3" / "ratelpajuo.dm_68"
BAD = DATA / "bad-input"


@pytest.fixture(scope="module")
def cpma():
    return load_demo(CPMA)


@pytest.fixture(scope="module")
def qw_merged():
    return merge_timelines(load_demo(QWD), [load_demo(MVD)])


@pytest.fixture(scope="module")
def cpma_cuts(tmp_path_factory):
    """Two cuts of the CPMA duel, snapshots 1000..3000 and 2000..4000 (server times 1 s apart), and a third,
    8000..9000, that overlaps neither."""
    data = CPMA.read_bytes()
    folder = tmp_path_factory.mktemp("cuts")
    out = []
    for first, last in ((1000, 3000), (2000, 4000), (8000, 9000)):
        path = folder / f"cut_{first}.dm_68"
        path.write_bytes(cut_quake3(data, str(CPMA), first, last))
        out.append(load_demo(path))
    return out


# --- the QuakeWorld match: both players' exact views -----------------------------------------------------------

def test_qw_pair_lines_up_and_adds_the_other_players_exact_view(qw_merged):
    mvd = load_demo(MVD)
    (merged,) = qw_merged.meta["merged"]
    assert merged["slots"] == (1,)                               # LQ_Warden: the .qwd had no stats for them
    assert 160.0 < merged["shift"] < 162.5                       # the .qwd's clock starts 161 s into the MVD's
    pl = qw_merged.players
    assert pl.has_stats.tolist() == [True, True]
    assert qw_merged.pov_slots == (0, 1)
    qwd = load_demo(QWD)
    for kind in ("print", "obituary", "chat"):       # Warden's own prints ("no weapon") stay out of Ranger's demo
        assert len(qw_merged.events_of_kind(kind)) == len(qwd.events_of_kind(kind))
    shift = merged["shift"]
    lo, hi = max(qw_merged.start_time, mvd.start_time + shift), min(qw_merged.end_time, mvd.end_time + shift)
    recorder = []
    for t in np.linspace(lo + 1.0, hi - 1.0, 25):
        mine, theirs = sample(qw_merged, float(t), pov=1), sample(mvd, float(t) - shift, pov=1)
        assert np.abs(mine.view_origin - theirs.view_origin).max() < 1.0
        d = (mine.view_angles - theirs.view_angles + 180.0) % 360.0 - 180.0
        assert np.abs(d).max() < 2.0
        assert mine.stats == theirs.stats                        # Warden's HUD numbers
        # the recorder's own view stays the .qwd's (the client's predicted one), where the MVD has the recorder
        own = sample(qw_merged, float(t))
        recorder.append(np.linalg.norm(own.view_origin - sample(mvd, float(t) - shift, pov=0).view_origin))
    assert float(np.median(recorder)) < 12.0


def test_qw_times_line_up_the_players_within_a_unit(qw_merged):
    mvd = load_demo(MVD)
    shift = qw_merged.meta["merged"][0]["shift"]
    apart, count = players_apart(load_demo(QWD), mvd, shift)
    assert count > 1000 and apart < 1.0
    assert players_apart(load_demo(QWD), mvd, shift + 0.5)[0] > 5.0     # half a second off: they are not


def test_the_qwd_view_of_the_other_player_is_within_a_few_units_of_their_exact_view(qw_merged):
    qwd = load_demo(QWD)
    d, turn = [], []
    for t in np.linspace(qwd.start_time + 2.0, qwd.end_time - 2.0, 60):
        seen, exact = sample(qwd, float(t), pov=1), sample(qw_merged, float(t), pov=1)
        d.append(np.linalg.norm(seen.view_origin - exact.view_origin))
        turn.append(np.abs((seen.view_angles - exact.view_angles + 180.0) % 360.0 - 180.0)[:2].max())
    assert float(np.median(d)) < 12.0 and float(np.median(turn)) < 3.0


def test_the_mvd_merged_with_the_qwd_gains_no_slot_and_no_duplicate_event():
    mvd, qwd = load_demo(MVD), load_demo(QWD)
    merged = merge_timelines(mvd, [qwd])
    assert merged.meta["merged"][0]["slots"] == ()               # the MVD has every player's stats already
    for kind in ("obituary", "chat"):
        assert len(merged.events_of_kind(kind)) == len(mvd.events_of_kind(kind))


def test_merged_timeline_shares_the_base_columns():
    qwd = load_demo(QWD)
    merged = merge_timelines(qwd, [load_demo(MVD)])
    assert merged.times is qwd.times and merged.segments is qwd.segments
    assert merged.frame_entities(100).origin.tolist() == qwd.frame_entities(100).origin.tolist()
    assert merged.nbytes - qwd.nbytes < 0.1 * qwd.nbytes          # only the player table is new


# --- Quake III: server time, and pairs that are not one match ---------------------------------------------------

@pytest.fixture(scope="module")
def cpma_seats():
    """The CPMA duel (recorded by client 1) and the same match from client 2's seat (constructed:
    :mod:`tests.builders.q3_seat`)."""
    from assets_loader.demos.quake3.parse import parse_demo
    from assets_loader.demos.quake3.timeline import timeline_from_demo

    from .builders.q3_seat import other_seat

    demo = parse_demo(CPMA.read_bytes(), str(CPMA))
    return timeline_from_demo(demo), timeline_from_demo(other_seat(demo, 2))


def test_merged_cpma_duel_has_both_players_exact_views(cpma_seats):
    a, b = cpma_seats
    merged = merge_timelines(a, [b])
    assert merged.meta["merged"][0]["slots"] == (2,) and merged.meta["merged"][0]["shift"] == 0.0
    assert merged.pov_slots == (1, 2) and merged.players.has_stats[[1, 2]].tolist() == [True, True]
    assert merged.nbytes - a.nbytes < 0.01 * a.nbytes            # A's columns shared, a player table added
    shown = b.players.row_frame[b.players.slot_start[2]:b.players.slot_start[3]]
    for frame in shown[:: len(shown) // 40]:
        t = float(b.times[frame])                                # the same server time in both (one gamestate)
        assert server_clock(b)[frame] == server_clock(a)[frame]
        theirs, mine = sample(b, t), sample(merged, t, pov=2)
        assert np.abs(mine.view_origin - theirs.view_origin).max() < 0.01
        assert np.abs(mine.view_angles - theirs.view_angles).max() < 0.01
        assert mine.stats == theirs.stats and mine.view_entity == theirs.view_entity == 2
        assert np.array_equal(sample(merged, t).view_origin, sample(a, t).view_origin)   # A's recorder unchanged
    # the other way round: client 1's seat added to client 2's demo
    back = merge_timelines(b, [a])
    assert back.meta["merged"][0]["slots"] == (1,)
    t = float(a.times[5000])
    assert np.abs(sample(back, t, pov=1).view_origin - sample(a, t).view_origin).max() < 0.01
    # the server's obituaries are in both demos: each is there once
    assert len(merged.events_of_kind("obituary")) == len(a.events_of_kind("obituary"))


def test_an_obituary_the_base_missed_comes_from_the_other_seat_once(cpma_seats):
    a, b = cpma_seats
    deaths = a.events_of_kind("obituary")
    lost = deaths[len(deaths) // 2]
    missing = a.replaced(players=a.players, events=[e for e in a.events if e is not lost], meta=a.meta)
    merged = merge_timelines(missing, [b])
    back = [e for e in merged.events_of_kind("obituary") if e.text == lost.text and abs(e.time - lost.time) < 0.5]
    assert len(back) == 1 and back[0].frame == lost.frame and abs(back[0].time - lost.time) < 1e-6
    assert len(merged.events_of_kind("obituary")) == len(deaths)


def test_cpma_pair_is_two_matches_and_is_refused(cpma):
    ratel = load_demo(RATEL)
    with pytest.raises(MergeError) as err:
        merge_timelines(cpma, [ratel])
    text = str(err.value)
    assert "cpma_duel.dm_68" in text and "ratelpajuo.dm_68" in text and "sv_hostname" in text
    # the server times overlap (911..1526 s and 1007..1621 s), yet the players are nowhere near each other
    a, b = server_clock(cpma), server_clock(ratel)
    assert max(a.min(), b.min()) < min(a.max(), b.max())
    apart, count = players_apart(cpma, ratel)
    assert count > 1000 and apart > 10 * MAX_APART
    names = {p.name for p in cpma.final_scoreboard()} & {p.name for p in ratel.final_scoreboard()}
    assert names <= {""}


def test_openarena_pair_is_two_sessions_and_is_refused():
    with pytest.raises(MergeError, match="g_timestamp"):
        merge_timelines(load_demo(Q3_FOLLOW), [load_demo(Q3_PLAYER)])


def test_other_map_and_other_game_are_refused(cpma):
    with pytest.raises(MergeError, match=r"not the same map \(cpm3a vs oa_dm1\)"):
        merge_timelines(cpma, [load_demo(Q3_FOLLOW)])
    with pytest.raises(MergeError, match="quake3 demo .* quake2 demo"):
        merge_timelines(cpma, [load_demo(Q2_DUEL)])


def test_cuts_of_one_demo_line_up_by_server_time(cpma_cuts):
    a, b, _far = cpma_cuts
    merged = merge_timelines(a, [b])
    assert merged.meta["merged"][0]["shift"] == 0.0
    apart, count = players_apart(a, b)
    assert apart == 0.0 and count > 1000
    # the same server time gives the same entities in the same places
    clock_a, clock_b = server_clock(a), server_clock(b)
    for s in clock_b[::400]:
        if not clock_a[0] <= s <= clock_a[-1]:
            continue
        fa, fb = int(np.searchsorted(clock_a, s)), int(np.searchsorted(clock_b, s))
        ea, eb = a.frame_entities(fa), b.frame_entities(fb)
        common, ia, ib = np.intersect1d(ea.number, eb.number, return_indices=True)
        assert len(common) > 5
        assert np.abs(ea.origin[ia] - eb.origin[ib]).max() < 1.0
    # the recorder's obituaries of the overlap are one event each
    deaths = [(round(e.time, 1), e.text) for e in merged.events_of_kind("obituary")]
    assert len(deaths) == len(set(deaths))
    assert len(deaths) >= len(a.events_of_kind("obituary"))


def test_no_overlap_is_refused(cpma_cuts):
    a, _b, far = cpma_cuts
    with pytest.raises(MergeError, match="server times do not overlap"):
        merge_timelines(a, [far])


# --- bad input ------------------------------------------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:.*demo is truncated")
def test_a_truncated_or_foreign_file_gives_a_clear_error(tmp_path, capsys):
    stub = tmp_path / "stub.dm_68"
    stub.write_bytes(RATEL.read_bytes()[:100])
    with pytest.raises(FormatError, match="stub.dm_68"):
        load_merged(str(CPMA), [str(stub)])
    assert main(["info", str(CPMA), "--merge", str(stub)]) == 1
    assert main(["info", str(CPMA), "--merge", str(BAD / "q2_statusbar_bigint.dm2")]) == 2
    assert main(["info", str(CPMA), "--merge", str(RATEL)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if "warning" not in line]
    assert len(lines) == 3 and all(line.startswith("qdv info: ") for line in lines)


def test_info_lists_what_was_merged(capsys):
    assert main(["info", str(QWD), "--merge", str(MVD)]) == 0
    out = capsys.readouterr().out
    assert "merged " in out and "exact views of slots 1" in out


def test_screenshot_through_the_merged_players_eyes_matches_their_own_demo(tmp_path):
    """``qdv screenshot QWD --merge MVD --pov LQ_Warden`` is the MVD's picture of LQ_Warden (HUD numbers included);
    the .qwd alone can only show Warden's entity-derived view (no status bar numbers, Warden out of sight)."""
    from PIL import Image

    shift = merge_timelines(load_demo(QWD), [load_demo(MVD)]).meta["merged"][0]["shift"]
    at = 40.0
    at_mvd = at + load_demo(QWD).start_time - (load_demo(MVD).start_time + shift)
    shots = {}
    for name, demo, extra, when in (("merged", QWD, ["--merge", str(MVD)], at), ("mvd", MVD, [], at_mvd),
                                    ("qwd", QWD, [], at)):
        out = tmp_path / f"{name}.png"
        assert main(["screenshot", str(demo), *extra, "--pov", "LQ_Warden", "--time", f"{when:.4f}",
                     "--size", "320x200", "--out", str(out)]) == 0
        shots[name] = np.asarray(Image.open(out).convert("RGB"), np.float64)
    bar = slice(200 - 24, 200)                                   # the status bar's numbers
    assert np.abs(shots["merged"][bar] - shots["mvd"][bar]).mean() < 1.0
    assert np.abs(shots["merged"] - shots["mvd"]).mean() < 2.0
    assert np.abs(shots["merged"][bar] - shots["qwd"][bar]).mean() > 20.0


def test_netquake_lines_up_by_server_time(tmp_path):
    """NetQuake cuts of one demo keep ``svc_time``: the overlapping pair merges with the clocks as they are (the
    recorder's own view is exact already: nothing to add), the separate pair is refused."""
    from assets_loader.demos.writers.quake import cut_dem

    path = DATA / "quake1" / "lq1" / "demo1.dem"
    data = path.read_bytes()
    n = load_demo(path).num_frames
    pieces = []
    for first, last in ((n // 10, n // 2), (n // 3, 2 * n // 3), (3 * n // 4, n - 2)):
        piece = tmp_path / f"{first}.dem"
        piece.write_bytes(cut_dem(data, str(path), first, last))
        pieces.append(load_demo(piece))
    merged = merge_timelines(pieces[0], [pieces[1]])
    assert merged.meta["merged"][0] == {"path": pieces[1].path, "slots": (), "shift": 0.0}
    with pytest.raises(MergeError, match="server times do not overlap"):
        merge_timelines(pieces[0], [pieces[2]])


def test_quake2_same_frame_numbers_but_elsewhere_is_refused(tmp_path):
    """A Quake II cut numbers its frames from 1 again, so its server clock is not the original's: the frames of
    the same number show the players elsewhere and the merge is refused; the demo with itself lines up."""
    from assets_loader.demos.writers.quake2 import cut_dm2

    whole = load_demo(Q2_DUEL)
    assert merge_timelines(whole, [load_demo(Q2_DUEL)]).meta["merged"][0]["slots"] == ()
    piece = tmp_path / "piece.dm2"
    piece.write_bytes(cut_dm2(Q2_DUEL.read_bytes(), str(Q2_DUEL), whole.num_frames // 10, whole.num_frames // 2))
    with pytest.raises(MergeError, match="units apart at the same server time"):
        merge_timelines(whole, [load_demo(piece)])


def test_a_recorders_exact_rows_give_back_its_own_eye():
    """Where the players come from entities (Quake II), the recorder's exact samples are its own view: the eye
    rebuilt from them (origin + view height, as ``sample`` does for a pov) is the demo's view origin."""
    from assets_loader.demos.merge import _exact_rows
    from assets_loader.demos.schema import view_height

    q2 = load_demo(Q2_DUEL)
    (rows,) = _exact_rows(q2)
    assert rows.slot == q2.players.recorder and len(rows.frames) > 0.9 * q2.num_frames
    names = q2.schema.stat_names
    vh = rows.stats[:, names.index("viewheight")] if "viewheight" in names else np.zeros(len(rows.frames))
    eye = rows.origin.astype(np.float64)
    eye[:, 2] += [view_height(0, int(v), q2.schema.view_height) for v in vh]
    assert np.abs(eye - q2.view_origin[rows.frames]).max() < 0.01
    assert np.abs(rows.angles - q2.view_angles[rows.frames]).max() < 0.01


@pytest.mark.parametrize("bad", ["mvd_frames_100000.mvd", "gzbomb_1G.dem.gz"])
def test_merging_a_hostile_file_is_one_line_in_bounded_time_and_memory(bad):
    """``qdv info QWD --merge BAD`` in a child under a 3 GB address-space cap: one line, no traceback, a few
    seconds and a few hundred MB at most."""
    import sys

    from .fuzz.measure import run_measured

    run = run_measured([sys.executable, "-m", "viewer.cli", "info", str(QWD), "--merge", str(BAD / bad)],
                       timeout=60.0, max_address_mb=3 << 10)
    assert run.returncode in (1, 2), run.summary()
    assert "Traceback" not in run.stderr
    assert [line for line in run.stderr.splitlines() if "warning" not in line][0].startswith("qdv info: ")
    assert run.cpu_seconds < 20.0 and run.peak_mb < 400, run.summary()


def test_merging_the_same_demo_twice_adds_nothing_more():
    qwd, mvd = load_demo(QWD), load_demo(MVD)
    merged = merge_timelines(qwd, [mvd, load_demo(MVD)])
    assert [m["slots"] for m in merged.meta["merged"]] == [(1,), ()]
    once = merge_timelines(qwd, [mvd])
    for kind in ("obituary", "chat", "print"):
        assert len(merged.events_of_kind(kind)) == len(once.events_of_kind(kind))
    assert merged.players.row_frame.tolist() == once.players.row_frame.tolist()
