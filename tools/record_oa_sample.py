#!/usr/bin/env python3
"""Record the ``oa`` sample's demo (``viewer/sample/oa/baseoa/demos/qdv_oa_ffa.dm_71``) with the real engine.

How the committed demo was made: Debian's ioquake3 + OpenArena (``apt-get install ioquake3 openarena``), a
dedicated server on ``oa_dm1`` with five skill-4 bots in a free-for-all, and a spectator client that follows Sarge,
starts ``record`` 15 s later, follows Kyonshi after 55 s and stops after 110 s.  Both engines read their commands
from stdin (``ttycon 0``) and listen on 127.0.0.1 only; the client draws into an X display (Xvfb, software GL) at
320x240 without sound (the demo holds the sound events, not the sounds).  Bots move on their own, so a new run
records another match: the demo is committed, and ``tools/make_sample.py oa`` builds the pk3 from it.

Usage::

    Xvfb :73 -screen 0 1024x768x24 -nolisten tcp &
    DISPLAY=:73 python tools/record_oa_sample.py HOMEDIR      # the demo lands in HOMEDIR/baseoa/demos/
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ENGINE = Path("/usr/lib/ioquake3")
PROTOCOL = "71"       # OpenArena's number for Quake III's protocol 68 (Debian's openarena wrapper sets it)
BOTS = ("Sarge", "Grunt", "Major", "Angelyss", "Kyonshi")


def common(home: Path) -> list[str]:
    cvars = {"com_basegame": "baseoa", "fs_basepath": "/usr/lib/openarena", "fs_homepath": str(home),
             "com_legacyprotocol": PROTOCOL, "com_protocol": PROTOCOL, "cl_motd": "0", "net_enabled": "1",
             "net_ip": "127.0.0.1", "net_ip6": "::1", "ttycon": "0", "r_fullscreen": "0", "s_initsound": "0",
             "in_nograb": "1", "com_introplayed": "1"}
    return [arg for name, value in cvars.items() for arg in ("+set", name, value)]


def console(process: subprocess.Popen, command: str) -> None:
    assert process.stdin is not None
    process.stdin.write(command + "\n")
    process.stdin.flush()
    print(time.strftime("%X"), command, flush=True)


def main(home: Path) -> int:
    server_cvars = {"net_port": "27973", "dedicated": "1", "sv_pure": "0", "g_gametype": "0", "fraglimit": "0",
                    "timelimit": "0", "g_doWarmup": "0", "bot_enable": "1", "sv_fps": "20",
                    "sv_hostname": "qdv-sample", "sv_master1": "", "sv_master2": "", "sv_master3": ""}
    client_cvars = {"net_port": "27974", "r_mode": "-1", "r_customwidth": "320", "r_customheight": "240",
                    "cl_renderer": "opengl1", "name": "DemoCam", "rate": "25000", "snaps": "20"}
    home.mkdir(parents=True, exist_ok=True)
    server = subprocess.Popen(
        [str(ENGINE / "ioq3ded"), *common(home), *(a for k, v in server_cvars.items() for a in ("+set", k, v))],
        stdin=subprocess.PIPE, stdout=open(home / "server.log", "w"), stderr=subprocess.STDOUT, text=True)
    time.sleep(3)
    console(server, "map oa_dm1")
    time.sleep(6)
    for bot in BOTS:
        console(server, f"addbot {bot} 4")
        time.sleep(1)
    client = subprocess.Popen(
        [str(ENGINE / "ioquake3"), *common(home), *(a for k, v in client_cvars.items() for a in ("+set", k, v))],
        stdin=subprocess.PIPE, stdout=open(home / "client.log", "w"), stderr=subprocess.STDOUT, text=True)
    for wait, command in ((5, "connect 127.0.0.1:27973"), (10, "team spectator"), (3, "follow Sarge"),
                          (15, "record qdv_oa_ffa"), (55, "follow Kyonshi"), (55, "stoprecord"), (2, "quit")):
        time.sleep(wait)
        console(client, command)
    console(server, "quit")
    for process in (client, server):
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
