"""Which engine modules run compiled here, and building the compiled engine on request.

``python -m rules.compiled`` prints how the engine runs in this checkout;
``python -m rules.compiled --build`` first compiles the modules of ``ENGINE_SOURCES`` to C
with mypyc (in place, beside their sources) if any source changed since the last build or none
was built — ./run.sh and ./test.sh run it, so users and CI get the compiled engine, while a
developer who edits an engine module runs its tests at once on the sources
(``rules.loader`` falls back to them while the build is stale). The compiled engine is
tested to play exactly the games of its sources (tests/rules/test_compiled.py).
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

from rules.loader import (  # noqa: F401  (re-exported for the scripts and tests)
    ENGINE_ENV,
    ENGINE_MODULES,
    ENGINE_SOURCES,
    REPO_ROOT,
    STALE_MESSAGE,
    mark_built,
    missing_modules,
    stale_modules,
)


def compiled_modules() -> list[str]:
    """The engine modules that are imported from compiled code in this process."""
    out = []
    for name in ENGINE_MODULES:
        module = importlib.import_module(name)
        if not str(getattr(module, "__file__", "")).endswith(".py"):
            out.append(name)
    return out


def describe() -> str:
    """One line for the install scripts: how the engine runs here."""
    compiled = compiled_modules()
    if len(compiled) == len(ENGINE_MODULES):
        return f"compiled with mypyc ({len(compiled)} modules)"
    if os.environ.get(ENGINE_ENV) == "python":
        return f"plain Python ({ENGINE_ENV}=python; about five times slower)"
    stale = stale_modules()
    if stale:
        return f"plain Python (the compiled build is older than {', '.join(stale)})"
    if not compiled:
        return ("plain Python (not compiled: CARDLAB_PURE_PYTHON set, or no C compiler; "
                "about five times slower)")
    return f"partly compiled ({len(compiled)} of {len(ENGINE_MODULES)} modules)"


def build(root: Path = REPO_ROOT) -> bool:
    """Compile the engine in place if a source changed since the last build, or nothing was
    built yet; returns whether it compiled. Nothing happens when CARDLAB_PURE_PYTHON=1 or
    CARDLAB_ENGINE=python, or when the build is fresh."""
    if os.environ.get("CARDLAB_PURE_PYTHON", "") not in ("", "0") \
            or os.environ.get(ENGINE_ENV) == "python":
        return False
    if not stale_modules(root) and not missing_modules(root):
        return False
    print("cardlab: compiling the engine with mypyc (a few minutes)", file=sys.stderr,
          flush=True)
    env = {**os.environ, "CARDLAB_BUILD_ENGINE": "1"}
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                          cwd=root, env=env, check=False, capture_output=True, text=True)
    # The compilers' chatter stays out of the scripts' output; setup.py's own verdict (and,
    # should setup.py itself fail, everything it said) does not.
    lines = done.stderr.splitlines() if done.returncode else \
        [line for line in done.stderr.splitlines() if line.startswith("cardlab:")]
    for line in lines:
        print(line, file=sys.stderr)
    if done.returncode == 0:
        mark_built(root)
    return True


def main(argv: list[str]) -> None:
    if "--build" in argv:
        # Build in a child process, then describe in a fresh one: this process already chose
        # how to load the engine when ``rules`` was imported.
        build()
        subprocess.run([sys.executable, "-m", "rules.compiled"], check=False)
        return
    print(describe())


if __name__ == "__main__":
    main(sys.argv[1:])
