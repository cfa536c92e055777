"""How the engine is loaded: compiled, or from its sources. Decided once, by ``rules/__init__``,
before any engine module is imported (``select_engine``); standard library only (setup.py reads
``ENGINE_SOURCES`` from this file).

- compiled, when every compiled module is newer than its source (the build is fresh);
- plain Python from the sources, for *all* engine modules, when any source was edited after the
  build (the build is stale: compiled modules call each other directly, so half of a stale build
  cannot be mixed with edited sources), or when ``CARDLAB_ENGINE=python`` asks for it;
- plain Python when nothing was compiled (no C compiler, ``CARDLAB_PURE_PYTHON=1``).

``rules.compiled`` reports which it is and builds the compiled engine on request.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import logging
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

# The modules a simulated game spends its time in (card_figures: the per-card figures the match
# runner adds up after every game; determinize and rollout: a planning agent's inner loop).
# Card loading, validation, rules text, snapshots and the agents' registry run once per game or
# less and stay plain Python.
ENGINE_SOURCES = (
    "rules/engine/advantage.py",
    "rules/engine/cards.py",
    "rules/engine/core.py",
    "rules/engine/values.py",
    "rules/engine/targets.py",
    "rules/engine/moves.py",
    "rules/engine/legal.py",
    "rules/engine/effect_handlers.py",
    "rules/engine/effects.py",
    "rules/engine/combat.py",
    "rules/engine/turns.py",
    "rules/engine/game.py",
    "rules/engine/filters.py",
    "rules/engine/state.py",
    "rules/engine/view.py",
    "rules/engine/determinize.py",
    "rules/ai/random_agent.py",
    "rules/ai/greedy.py",
    "rules/ai/rollout.py",
    "rules/lab/card_figures.py",
)
ENGINE_MODULES = tuple(path[:-3].replace("/", ".") for path in ENGINE_SOURCES)
REPO_ROOT = Path(__file__).resolve().parents[1]
ENGINE_ENV = "CARDLAB_ENGINE"          # "python": run the sources even beside a fresh build
STALE_MESSAGE = ("the compiled engine is older than its sources ({modules}): running the plain "
                 "Python engine; `python -m rules.compiled --build` (./test.sh and "
                 "./run.sh run it) recompiles")
log = logging.getLogger("rules.engine")


def _binaries(source: Path) -> list[Path]:
    return sorted(source.parent.glob(f"{source.stem}.*.so")) + \
        sorted(source.parent.glob(f"{source.stem}.*.pyd"))


def stale_modules(root: Path = REPO_ROOT) -> list[str]:
    """Sources edited after their compiled module was built."""
    out = []
    for path in ENGINE_SOURCES:
        source = root / path
        binaries = _binaries(source)
        if binaries and source.stat().st_mtime > max(b.stat().st_mtime for b in binaries):
            out.append(path)
    return out


def mark_built(root: Path = REPO_ROOT) -> None:
    """Date every compiled module now, after a build: setuptools copies a module whose C code
    did not change (mypyc's small per-module shims; the code is in one shared library) with its
    first build's date, which would make it look older than the sources just compiled."""
    for path in ENGINE_SOURCES:
        for binary in _binaries(root / path):
            os.utime(binary)


def missing_modules(root: Path = REPO_ROOT) -> list[str]:
    """Sources with no compiled module beside them."""
    return [path for path in ENGINE_SOURCES if not _binaries(root / path)]


def orphan_modules(root: Path = REPO_ROOT) -> tuple[str, ...]:
    """Modules under ``rules/`` with a compiled module left beside their source by an older
    build although they are no longer compiled (dropped from ``ENGINE_SOURCES``): Python would
    import that old compiled code instead of the source."""
    out = []
    for binary in sorted((root / "rules").rglob("*.so")) + sorted((root / "rules").rglob("*.pyd")):
        source = binary.with_name(binary.name.split(".", 1)[0] + ".py")
        name = ".".join(source.relative_to(root).with_suffix("").parts)
        if source.exists() and name not in ENGINE_MODULES:
            out.append(name)
    return tuple(out)


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the given modules as their ``.py`` sources, ahead of any compiled module."""

    def __init__(self, root: Path, modules: tuple[str, ...]):
        self.root = root
        self.modules = frozenset(modules)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(
            fullname, self.root / (fullname.replace(".", "/") + ".py"))


def select_engine(root: Path = REPO_ROOT) -> str:
    """Decide, before any engine module is imported, whether the compiled build or the sources
    run; returns "compiled" or "python". Modules left compiled by an older build but no longer
    compiled always run from their sources."""
    for finder in sys.meta_path:
        if isinstance(finder, _SourceFinder):          # decided already in this process
            return "python" if ENGINE_MODULES[0] in finder.modules else "compiled"
    wanted = os.environ.get(ENGINE_ENV, "")
    stale = stale_modules(root)
    orphans = orphan_modules(root)
    if wanted != "python" and not stale:
        if orphans:
            sys.meta_path.insert(0, _SourceFinder(root, orphans))
        return "compiled"
    if stale and wanted != "python":
        log.warning(STALE_MESSAGE.format(modules=", ".join(stale)))
    sys.meta_path.insert(0, _SourceFinder(root, ENGINE_MODULES + orphans))
    return "python"
