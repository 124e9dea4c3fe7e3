"""Reading paths in bounded memory: regular files only, a size limit per kind (argument or environment), PAK
directories capped and read in chunks (assets_loader.source, assets_loader.pak)."""

from __future__ import annotations

import os

import pytest

from assets_loader.bsp import load_bsp
from assets_loader.demos import load_demo
from assets_loader.errors import NotAFileError, TooLargeError
from assets_loader.pak import load_pak
from assets_loader.pk3 import load_pk3
from assets_loader.source import (
    SIZE_LIMITS,
    LimitSettingError,
    check_file,
    kind_of,
    parse_size,
    read_source,
)
from tests.builders.pak import build_pak


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "stream.dem"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("load", [load_demo, load_bsp, load_pak, load_pk3, read_source])
def test_a_fifo_without_writer_is_refused_before_opening(load, fifo):
    with pytest.raises(NotAFileError, match=r"stream\.dem: a FIFO \(named pipe\); expected a regular"):
        load(fifo)  # opening it would block for ever


def test_dev_zero_is_refused_before_reading():
    with pytest.raises(NotAFileError, match="/dev/zero: a character device; expected a regular demo file"):
        load_demo("/dev/zero")


def test_a_directory_stays_an_os_error(tmp_path):
    with pytest.raises(IsADirectoryError):
        read_source(tmp_path)


def test_kinds_from_names():
    assert [kind_of(n) for n in ("a.DEM", "x.dem.gz", "b.mvd", "c.dm_68", "maps/e1m1.bsp", "pak0.PAK", "z.pk3",
                                 "progs/player.mdl")] == ["demo", "demo", "demo", "demo", "map", "pak", "pk3", "asset"]


def test_a_sparse_file_over_the_limit_is_refused_from_its_size(tmp_path):
    path = tmp_path / "huge.dem"
    path.write_bytes(b"-1\n")
    os.truncate(path, SIZE_LIMITS["demo"] + 1)  # sparse: no disk space used
    limit = SIZE_LIMITS["demo"]
    with pytest.raises(TooLargeError, match=f"a file of {limit + 1} bytes; expected a demo file of "
                                            f"at most {limit} bytes \\(raise it with QDV_MAX_DEMO_SIZE\\)"):
        load_demo(path)


def test_the_limit_comes_from_the_argument_or_the_environment(tmp_path, monkeypatch):
    path = tmp_path / "x.bsp"
    path.write_bytes(bytes(100))
    with pytest.raises(TooLargeError, match="at most 99 bytes$"):
        read_source(path, max_size=99)
    assert read_source(path, max_size=100)[0] == bytes(100)
    monkeypatch.setenv("QDV_MAX_MAP_SIZE", "99")
    with pytest.raises(TooLargeError, match="at most 99 bytes"):
        load_bsp(path)
    monkeypatch.setenv("QDV_MAX_MAP_SIZE", "1K")
    assert check_file(path, "map") == 100


def test_sizes_parse_with_binary_units(monkeypatch):
    assert [parse_size(t) for t in ("12", "1K", "600M", "2G", "3 MiB")] == [12, 1024, 600 << 20, 2 << 30, 3 << 20]
    monkeypatch.setenv("QDV_MAX_DEMO_SIZE", "lots")
    with pytest.raises(LimitSettingError, match="QDV_MAX_DEMO_SIZE: 'lots': expected a size"):
        check_file(__file__, "demo")


def test_a_file_that_reads_longer_than_its_size_is_cut_at_the_limit(tmp_path):
    # /proc files report size 0 but have content: the read itself is bounded too.
    status = "/proc/self/status"
    assert os.stat(status).st_size == 0
    with pytest.raises(TooLargeError, match="a file holding more; expected an asset file of at most 10 bytes"):
        read_source(status, max_size=10)


def test_pak_directory_over_the_entry_cap_is_refused_before_reading_it(tmp_path):
    path = tmp_path / "huge.pak"
    path.write_bytes(b"PACK" + (12).to_bytes(4, "little") + (0x7FFFFFC0).to_bytes(4, "little"))
    os.truncate(path, 2147483596)  # the README's 2 GB sparse PAK: 33.5M zero entries
    with pytest.raises(TooLargeError, match="a directory of 33554431 entries; expected a directory of at most"):
        load_pak(path)


def test_pak_directory_read_in_chunks_keeps_every_entry(tmp_path):
    files = {f"f{i:05d}.txt": i.to_bytes(4, "little") for i in range(10000)}  # more than one 4096-entry chunk
    path = tmp_path / "many.pak"
    path.write_bytes(build_pak(files))
    pak = load_pak(path)
    assert len(pak.entries) == 10000 and pak.read("f09999.txt") == (9999).to_bytes(4, "little")
    with pytest.raises(TooLargeError, match="at most 9999 entries"):
        type(pak)(path, max_entries=9999)
    with pytest.raises(TooLargeError, match="expected a pak file of at most 100 bytes$"):
        load_pak(path, max_size=100)


def test_an_archive_member_is_read_within_the_limit_of_its_kind(tmp_path):
    path = tmp_path / "pak1.pak"
    big = (SIZE_LIMITS["map"] + 1)
    directory = b"maps/big.bsp".ljust(56, b"\0") + (12).to_bytes(4, "little") + big.to_bytes(4, "little")
    with open(path, "wb") as f:
        f.write(b"PACK" + (12 + big).to_bytes(4, "little") + len(directory).to_bytes(4, "little"))
        f.seek(12 + big)
        f.write(directory)  # a sparse 256 MB member: no disk space used
    pak = load_pak(path)
    with pytest.raises(TooLargeError, match=f"pak1.pak: member 'maps/big.bsp' of {big} bytes; expected a map file"):
        pak.read("maps/big.bsp")
