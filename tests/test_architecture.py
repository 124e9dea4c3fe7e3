"""The architecture and static checks run with the tests: the import-linter contracts of ``pyproject.toml``
(docs/DESIGN.md, "Layers"), ruff on the whole tree, and mypy on the loaders, the viewer and the shader sources; and
that every module of the viewer has its place in the layers (a new one must be given a layer)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

CHECKS = {
    "import-linter": [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                      "sys.exit(lint_imports_command())"],
    "ruff": [sys.executable, "-m", "ruff", "check", "."],
    "mypy": [sys.executable, "-m", "mypy", "assets_loader", "viewer", "shaders"],
}


#: The checks started when the session's tests were collected (:func:`start_checks`), by name.
STARTED: dict[str, subprocess.Popen] = {}


def start_checks(names: set[str]) -> None:
    """Start the checks ``names`` in child processes now (``conftest.pytest_collection_finish``): mypy's half a
    minute then runs on the second core beside the other tests, and its test only waits for the result."""
    for name in sorted(names - STARTED.keys()):
        STARTED[name] = subprocess.Popen(CHECKS[name], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         text=True)


def stop_checks() -> None:
    """End the started checks no test waited for (a run stopped early)."""
    for proc in STARTED.values():
        proc.kill()
        proc.communicate()
    STARTED.clear()


@pytest.mark.parametrize("name", list(CHECKS))
def test_static_check_passes(name: str) -> None:
    start_checks({name})
    proc = STARTED.pop(name)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, f"{name} failed:\n{out[-6000:]}\n{err[-2000:]}"


def test_every_viewer_module_has_a_layer() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c["layers"] for c in config if c["type"] == "layers")
    placed = {name.strip() for layer in layers for name in layer.split(":")}
    viewer = REPO / "viewer"
    modules = {f"viewer.{p.stem}" for p in viewer.glob("*.py") if p.stem != "__init__"}
    modules |= {f"viewer.{p.parent.name}" for p in viewer.glob("*/__init__.py")}
    assert modules - placed == set()


#: The GL state that passes set through :func:`viewer.render.gl_state.use_state` (clears may set the depth mask).
RAW_STATE = re.compile(r"ctx\.(enable|disable)\(|"
                       r"\.(blend_func|front_face|cull_face|depth_func|polygon_offset)\s*=(?!=)")


def test_every_pass_sets_its_gl_state_through_one_helper() -> None:
    """A state written beside ``use_state`` would leak into the next pass unseen (and stale its memory)."""
    raw = [f"{path.relative_to(REPO)}:{n}" for path in (REPO / "viewer").rglob("*.py") if path.name != "gl_state.py"
           for n, line in enumerate(path.read_text().splitlines(), 1) if RAW_STATE.search(line)]
    assert raw == []
