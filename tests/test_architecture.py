"""The floors of the house: imports flow config → decks → cards → rules, never back up.

`rules` is a pure Python library (no Django, no Celery, none of the project's apps), and the
catalogue (`cards`) never reaches up into `decks`. Both are proved twice: by importing for real in
a clean interpreter, and by reading the source with `ast` (which also sees imports inside
functions that an import-time check would miss).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_RULES = ("django", "rest_framework", "celery", "kombu", "cards", "decks", "config")
FORBIDDEN_IN_CARDS = ("decks", "config")

IMPORT_ALL_RULES = """
import importlib, json, pkgutil, sys
import rules
names = ["rules"]
for info in pkgutil.walk_packages(rules.__path__, prefix="rules."):
    importlib.import_module(info.name)
    names.append(info.name)
print(json.dumps({"imported": names, "loaded": sorted(sys.modules)}))
"""


def _top_level_imports(path: Path) -> set[str]:
    """Every module name imported anywhere in a file (absolute imports; relative ones stay inside
    the package and cannot cross a floor)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def _violations(package: str, forbidden: tuple[str, ...], root: Path = REPO_ROOT) -> list[str]:
    found = []
    for path in sorted((root / package).rglob("*.py")):
        for name in sorted(_top_level_imports(path)):
            if name.split(".")[0] in forbidden:
                found.append(f"{path.relative_to(root).as_posix()} imports {name}")
    return found


def _is_forbidden(module: str, forbidden: tuple[str, ...]) -> bool:
    return module.split(".")[0] in forbidden


def test_importing_the_whole_engine_loads_no_web_or_worker_code():
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL_RULES],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert "rules" in report["imported"]
    leaked = [m for m in report["loaded"] if _is_forbidden(m, FORBIDDEN_IN_RULES)]
    assert leaked == [], f"importing rules loaded {leaked}"


def test_rules_source_imports_no_web_worker_or_app_module():
    assert _violations("rules", FORBIDDEN_IN_RULES) == []


def test_cards_source_never_imports_decks_or_config():
    assert _violations("cards", FORBIDDEN_IN_CARDS) == []


@pytest.mark.parametrize("package", ["cards", "decks"])
def test_apps_exist_as_packages(package):
    assert (REPO_ROOT / package / "__init__.py").is_file()


def test_the_static_check_sees_a_forbidden_import(tmp_path):
    """The checker itself works: a file importing decks inside a function is caught."""
    bad = tmp_path / "cards" / "bad.py"
    bad.parent.mkdir()
    bad.write_text("from . import models\n\ndef f():\n    from decks.models import Deck\n")
    found = _violations("cards", FORBIDDEN_IN_CARDS, root=tmp_path)
    assert found == ["cards/bad.py imports decks.models"]
