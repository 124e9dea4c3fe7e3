"""Issue 30 class 5: no writer follows a symbolic link it did not create (settings, camera paths, screenshots,
PNG frames, videos all go through ``viewer.file_writes``)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from viewer.camera_path import CameraKey, CameraPath, load_path, save_path
from viewer.export import ExportError, write_png
from viewer.file_writes import open_new, replace_file

PIXELS = np.zeros((4, 4, 3), np.uint8)


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "victim"
    path.write_text("keep me", encoding="utf-8")
    return path


def test_replace_file_never_opens_a_planted_temporary_name(tmp_path: Path, victim: Path) -> None:
    target = tmp_path / "x.json"
    (tmp_path / "x.json.tmp").symlink_to(victim)
    replace_file(target, b"new")
    assert target.read_bytes() == b"new" and victim.read_text(encoding="utf-8") == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["victim", "x.json", "x.json.tmp"]  # no temporary left


def test_replace_file_replaces_a_link_at_the_target_and_keeps_a_files_mode(tmp_path: Path, victim: Path) -> None:
    link = tmp_path / "linked.toml"
    link.symlink_to(victim)
    replace_file(link, b"new")
    assert not link.is_symlink() and link.read_bytes() == b"new" and victim.read_text(encoding="utf-8") == "keep me"
    assert (link.stat().st_mode & 0o777) == 0o644                    # not the link's 0o777
    os.chmod(link, 0o600)
    replace_file(link, b"newer")
    assert (link.stat().st_mode & 0o777) == 0o600


def test_a_camera_path_is_saved_past_a_planted_link(tmp_path: Path, victim: Path) -> None:
    target = tmp_path / "demo.camera.json"
    (tmp_path / "demo.camera.json.tmp").symlink_to(victim)
    path = CameraPath((CameraKey(1.0, (0.0, 0.0, 0.0), (0.0, 90.0, 0.0)),))
    save_path(path, target)
    assert load_path(target) == path and victim.read_text(encoding="utf-8") == "keep me"


def test_open_new_refuses_any_existing_name_and_with_force_replaces_a_link(tmp_path: Path, victim: Path) -> None:
    link = tmp_path / "shot.png"
    link.symlink_to(victim)
    with pytest.raises(FileExistsError):
        open_new(link)
    dangling = tmp_path / "dangling.png"
    dangling.symlink_to(tmp_path / "would-be-created")
    with pytest.raises(FileExistsError):
        open_new(dangling)
    assert not (tmp_path / "would-be-created").exists()
    with open_new(link, force=True) as f:
        f.write(b"png")
    assert not link.is_symlink() and link.read_bytes() == b"png" and victim.read_text(encoding="utf-8") == "keep me"


def test_open_new_on_a_fifo_without_a_reader_fails_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    with pytest.raises(OSError):
        open_new(fifo, force=True)


def test_write_png_never_writes_through_a_link(tmp_path: Path, victim: Path) -> None:
    link = tmp_path / "out.png"
    link.symlink_to(victim)
    with pytest.raises(ExportError, match="already exists"):
        write_png(link, PIXELS)
    write_png(link, PIXELS, force=True)
    assert victim.read_text(encoding="utf-8") == "keep me" and link.read_bytes().startswith(b"\x89PNG")
