"""Copy-forward demos (issue 30, class 1): one full entity set, then tiny frames delta-coded from the previous one
that name no entity, so each frame holds every entity for a few bytes of file (``CL_ParsePacketEntities`` copies
the old set forward).  Built with the test writers for Quake II (``.dm2``), QuakeWorld (``.qwd``) and Quake III
(``.dm_68``): ``tests/fuzz/bad_inputs.py`` stages large ones for the bounded child runs, the fuzz families start
from small ones.
"""

from __future__ import annotations

from assets_loader.demos.quake2 import protocol as Q2
from assets_loader.demos.quake3.protocol import tables_for
from tests.builders.dm2 import DM2Messages, dm2
from tests.builders.dm68 import SVC_EOF, Q3Message, demo_file
from tests.builders.qw import QWDWriter, QWMessages, qwd_signon

__all__ = ["dm2_copy_forward", "qwd_copy_forward", "dm68_copy_forward"]


def dm2_copy_forward(frames: int, entities: int = 1023) -> bytes:
    """Quake II: frame 1 sends ``entities`` entities (numbers 1…, at most 1023), every later frame deltas from the
    one before with an empty ``svc_packetentities``."""
    m = DM2Messages()
    signon = [m.serverdata(), m.configstring(Q2.CS_MODELS + 1, "maps/test.bsp"),
              m.configstring(Q2.CS_MODELS + 2, "models/items/armor/tris.md2")]
    full = [m.entity(n, model=2, origin=(n, 0, 0)) for n in range(1, entities + 1)]
    blocks = [signon, [m.frame(1, -1), m.playerinfo(origin=(0, 0, 24)), m.packetentities(full)]]
    blocks += [[m.frame(n, n - 1), m.playerinfo(), m.packetentities(())] for n in range(2, frames + 1)]
    return dm2(*blocks)


def qwd_copy_forward(frames: int, entities: int = 300) -> bytes:
    """QuakeWorld ``.qwd``: one packet with ``entities`` entities (numbers 64…, at most 300 a packet), then one
    ``svc_deltapacketentities`` naming none per packet, each from the packet before."""
    m = QWMessages()
    w = QWDWriter()
    qwd_signon(m, w)
    w.packet(1.5, m.playerinfo_qwd(0, (0, 0, 24)),
             m.packetentities([m.entity(64 + n, model=3, origin=(n, 0, 0)) for n in range(entities)]))
    for k in range(1, frames):
        w.packet(1.5 + 0.01 * k, m.packetentities([], delta_from=w.seq))
    w.packet(1.5 + 0.01 * frames, m.disconnect())
    return w.build()


def dm68_copy_forward(snapshots: int, entities: int = 1023) -> bytes:
    """Quake III: a gamestate, one snapshot with ``entities`` entities (numbers 0…, at most 1022), then snapshots
    delta-coded from the previous message that name none (the end number 1023 alone: every entity is kept)."""
    tables = tables_for(68)
    assert tables is not None
    es, ps = tables.entity, tables.player
    m = Q3Message()
    m.long(0)
    m.gamestate(es, configstrings={0: "\\mapname\\test"}, baselines={})
    m.byte(SVC_EOF)
    blocks = [(1, m.data())]
    player = {"origin[0]": 8.0}
    full = {n: {"eType": 2, "modelindex": 1, "pos.trBase[0]": float(n)} for n in range(min(entities, 1022))}
    for k in range(snapshots):
        m = Q3Message()
        m.long(0)
        m.snapshot(es, ps, server_time=1000 + 50 * k, delta=1 if k else 0, old_player=player if k else {},
                   player=player, old_entities={}, entities={} if k else full, baselines={})
        m.byte(SVC_EOF)
        blocks.append((2 + k, m.data()))
    return demo_file(blocks)
