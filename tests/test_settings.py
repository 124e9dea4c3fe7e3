"""Remembered window settings: TOML in the config folder, flags over the file, unreadable files left alone."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from viewer.cli import sample_demo
from viewer.settings import Settings, load_settings, parse_settings, save_settings, settings_path

REPO = Path(__file__).resolve().parents[1]


def test_missing_file_gives_defaults_and_a_round_trip_keeps_every_value(tmp_path) -> None:
    path = tmp_path / "qdv" / "settings.toml"
    file = load_settings(path)
    assert file.settings == Settings() and file.writable and not file.problem
    changed = Settings(width=800, height=600, fov=110.0, volume=0.25, show_hud=False, show_bar=False,
                       last_dir="/demos", mouse_sensitivity=1.5, invert_mouse=True)
    save_settings(file, changed)
    assert load_settings(path).settings == changed


def test_config_dir_comes_from_the_environment(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("QDV_CONFIG_DIR", str(tmp_path))
    assert settings_path() == tmp_path / "settings.toml"


@pytest.mark.parametrize(("text", "key"), [
    ("fov = 500", "fov"), ("width = 'big'", "width"), ("show_hud = 1", "show_hud"), ("volume = nan", "volume"),
    ("width = 1" + "0" * 4000, "width"),
])
def test_bad_values_name_the_file_and_the_key_and_keep_the_default(tmp_path, text: str, key: str) -> None:
    settings, problems = parse_settings(text, tmp_path / "settings.toml")
    assert settings == Settings()
    assert len(problems) == 1 and problems[0].startswith(f"{tmp_path / 'settings.toml'}: {key}: expected")


def test_unknown_keys_are_ignored(tmp_path) -> None:
    assert parse_settings("future_key = 3\nfov = 100", tmp_path / "s.toml") == (Settings(fov=100.0), [])


def test_a_value_saved_out_of_range_is_reported_and_the_file_saved_again(tmp_path) -> None:
    """Issue 30 class 4: a value that failed the old ranges no longer stops the file from being saved forever."""
    path = tmp_path / "settings.toml"
    path.write_text("width = 100\nheight = 100\nfov = 175\nvolume = 9\n", encoding="utf-8")
    file = load_settings(path)
    assert file.writable and file.settings == Settings(width=100, height=100, fov=175.0)
    assert "volume: expected a number within 0..1, found 9" in file.problem
    save_settings(file, replace(file.settings, width=20000, height=5))     # a window dragged past every range
    saved = tomllib.loads(path.read_text(encoding="utf-8"))
    assert (saved["width"], saved["height"], saved["fov"], saved["volume"]) == (8192, 16, 175.0, 0.7)


@pytest.mark.parametrize("text", ["a = " + "[" * 100_000, "a = " + "{x=" * 5000, "fov = 1" + "0" * 5000,
                                  "\xff\xfe", "fov = 90\x00"])
def test_a_hostile_file_is_one_problem_and_left_alone(tmp_path, text: str) -> None:
    path = tmp_path / "settings.toml"
    path.write_bytes(text.encode("latin-1"))
    file = load_settings(path)
    assert file.settings == Settings() and not file.writable and str(path) in file.problem
    save_settings(file, Settings(fov=120.0))
    assert path.read_bytes() == text.encode("latin-1")


def test_a_fifo_or_a_device_is_refused_without_reading(tmp_path) -> None:
    os.mkfifo(tmp_path / "settings.toml")
    file = load_settings(tmp_path / "settings.toml")
    assert not file.writable and "a FIFO (named pipe); expected a regular settings file" in file.problem
    (tmp_path / "zero").mkdir()
    (tmp_path / "zero" / "settings.toml").symlink_to("/dev/zero")
    file = load_settings(tmp_path / "zero" / "settings.toml")
    assert not file.writable and "a character device" in file.problem


def test_saving_never_follows_a_link_planted_at_the_temporary_name(tmp_path) -> None:
    """Issue 30 class 5: the old saver wrote ``settings.toml.tmp`` through whatever link was there."""
    victim = tmp_path / "victim"
    victim.write_text("keep me", encoding="utf-8")
    path = tmp_path / "settings.toml"
    for planted in ("settings.toml.tmp", "settings.tmp"):
        (tmp_path / planted).symlink_to(victim)
    save_settings(load_settings(path), Settings(fov=100.0))
    assert victim.read_text(encoding="utf-8") == "keep me"
    assert load_settings(path).settings == Settings(fov=100.0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.tmp", "settings.toml", "settings.toml.tmp",
                                                           "victim"]


def test_an_unreadable_file_is_reported_and_never_written_over(tmp_path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("fov = = 3\n", encoding="utf-8")
    file = load_settings(path)
    assert file.settings == Settings() and not file.writable
    assert str(path) in file.problem and "left as it is" in file.problem
    save_settings(file, Settings(fov=120.0))
    assert path.read_text(encoding="utf-8") == "fov = = 3\n"


def test_reset_starts_from_the_defaults_and_writes_them(tmp_path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("fov = 120\n", encoding="utf-8")
    file = load_settings(path, reset=True)
    assert file.settings == Settings() and file.writable


def _play(config: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, QDV_CONFIG_DIR=str(config))
    env.pop("DISPLAY", None)
    return subprocess.run([sys.executable, "-m", "viewer.cli", "play", "--headless", "--frames", "2", *args],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=120)


def test_the_window_remembers_size_and_fov_and_flags_override(tmp_path) -> None:
    done = _play(tmp_path, "--size", "640x360", "--fov", "100")
    assert done.returncode == 0, done.stderr
    saved = tomllib.loads((tmp_path / "settings.toml").read_text(encoding="utf-8"))
    assert (saved["width"], saved["height"], saved["fov"]) == (640, 360, 100.0)
    assert Path(saved["last_dir"]).resolve() == Path(sample_demo()).parent.resolve()   # the default sample's folder
    done = _play(tmp_path, "--fov", "80")                      # the size comes from the file, the fov from the flag
    assert done.returncode == 0, done.stderr
    saved = tomllib.loads((tmp_path / "settings.toml").read_text(encoding="utf-8"))
    assert (saved["width"], saved["height"], saved["fov"]) == (640, 360, 80.0)
    done = _play(tmp_path, "--reset-settings")
    saved = tomllib.loads((tmp_path / "settings.toml").read_text(encoding="utf-8"))
    assert (saved["width"], saved["height"], saved["fov"]) == (1280, 720, 90.0)
