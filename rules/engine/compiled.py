"""Which engine modules run compiled, and whether any compiled module is out of date.

``pip install -e .`` compiles the modules of ``ENGINE_SOURCES`` to C with mypyc (setup.py reads
the list from this file, which therefore imports nothing but the standard library). A compiled
module sits beside its source as ``name.cpython-*.so`` and is what Python imports; after a
source is edited, the stale compiled module would still be the one that runs, so the test suite
and the benchmark check ``stale_modules()`` first.
"""

from __future__ import annotations

import importlib
from pathlib import Path

ENGINE_SOURCES = (
    "rules/engine/advantage.py",
    "rules/engine/cards.py",
    "rules/engine/core.py",
    "rules/engine/legal.py",
    "rules/engine/effect_terms.py",
    "rules/engine/effects.py",
    "rules/engine/combat.py",
    "rules/engine/turns.py",
    "rules/engine/game.py",
    "rules/engine/filters.py",
    "rules/engine/state.py",
    "rules/engine/view.py",
    "rules/agents.py",
    "rules/greedy.py",
)
ENGINE_MODULES = tuple(path[:-3].replace("/", ".") for path in ENGINE_SOURCES)
REPO_ROOT = Path(__file__).resolve().parents[2]


def _binaries(source: Path) -> list[Path]:
    return sorted(source.parent.glob(f"{source.stem}.*.so")) + \
        sorted(source.parent.glob(f"{source.stem}.*.pyd"))


def compiled_modules() -> list[str]:
    """The engine modules that are imported from compiled code in this process."""
    out = []
    for name in ENGINE_MODULES:
        module = importlib.import_module(name)
        if not str(getattr(module, "__file__", "")).endswith(".py"):
            out.append(name)
    return out


def stale_modules(root: Path = REPO_ROOT) -> list[str]:
    """Sources edited after their compiled module was built (reinstall to recompile)."""
    out = []
    for path in ENGINE_SOURCES:
        source = root / path
        binaries = _binaries(source)
        if binaries and source.stat().st_mtime > max(b.stat().st_mtime for b in binaries):
            out.append(path)
    return out


STALE_MESSAGE = ("the compiled engine is older than its sources ({modules}): run "
                 "`pip install -e .` (./test.sh and ./run.sh do) to recompile, or delete the "
                 ".so files beside them to run the plain Python engine")


def describe() -> str:
    """One line for the install scripts: how the engine runs here."""
    compiled = compiled_modules()
    if len(compiled) == len(ENGINE_MODULES):
        return f"compiled with mypyc ({len(compiled)} modules)"
    if not compiled:
        return ("plain Python (not compiled: CARDLAB_PURE_PYTHON set, or no C compiler; "
                "about five times slower)")
    return f"partly compiled ({len(compiled)} of {len(ENGINE_MODULES)} modules)"


if __name__ == "__main__":
    print(describe())
