"""The architecture and static checks run with the tests: the import-linter layering contracts of
``pyproject.toml`` (docs/DESIGN.md, "Layers"), ruff on the whole tree, and mypy on the loaders and the renderer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

CHECKS = {
    "import-linter": [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                      "sys.exit(lint_imports_command())"],
    "ruff": [sys.executable, "-m", "ruff", "check", "."],
    "mypy": [sys.executable, "-m", "mypy", "assets_loader", "viewer", "shaders"],
}


@pytest.mark.parametrize("name", list(CHECKS))
def test_static_check_passes(name: str) -> None:
    done = subprocess.run(CHECKS[name], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{name} failed:\n{done.stdout[-6000:]}\n{done.stderr[-2000:]}"
