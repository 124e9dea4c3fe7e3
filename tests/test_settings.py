"""Remembered window settings: TOML in the config folder, flags over the file, unreadable files left alone."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from viewer.settings import Settings, SettingsError, load_settings, parse_settings, save_settings, settings_path

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
])
def test_bad_values_name_the_file_and_the_key(tmp_path, text: str, key: str) -> None:
    with pytest.raises(SettingsError, match=f"settings.toml: {key}: expected"):
        parse_settings(text, tmp_path / "settings.toml")


def test_unknown_keys_are_ignored(tmp_path) -> None:
    assert parse_settings("future_key = 3\nfov = 100", tmp_path / "s.toml") == Settings(fov=100.0)


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
    assert Path(saved["last_dir"]).name == "lqdm2"
    done = _play(tmp_path, "--fov", "80")                      # the size comes from the file, the fov from the flag
    assert done.returncode == 0, done.stderr
    saved = tomllib.loads((tmp_path / "settings.toml").read_text(encoding="utf-8"))
    assert (saved["width"], saved["height"], saved["fov"]) == (640, 360, 80.0)
    done = _play(tmp_path, "--reset-settings")
    saved = tomllib.loads((tmp_path / "settings.toml").read_text(encoding="utf-8"))
    assert (saved["width"], saved["height"], saved["fov"]) == (1280, 720, 90.0)
