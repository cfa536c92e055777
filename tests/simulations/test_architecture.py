"""The simulations app sits on its own floor: config → simulations → decks → cards → rules.
Nothing below it imports it (so decks, cards and the engine work without it), and it never
reaches up into config (it finds the Celery app through its tasks)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def imports_of(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((REPO_ROOT / package).rglob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[path.relative_to(REPO_ROOT).as_posix()] = names
    return found


@pytest.mark.parametrize("package", ["rules", "cards", "decks", "work"])
def test_nothing_below_imports_simulations(package):
    offenders = [path for path, names in imports_of(package).items() if "simulations" in names]
    assert offenders == []


def test_simulations_never_imports_config():
    offenders = [path for path, names in imports_of("simulations").items() if "config" in names]
    assert offenders == []
