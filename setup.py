"""Build hook: compiles the game engine's hot path to C with mypyc, when it can.

`pip install -e .`, or `python -m rules.compiled --build` (which ./run.sh and ./test.sh
run, and which compiles only when a source changed since the last build), turns the modules
listed in ENGINE into C extension modules placed beside their sources; Python then imports the
compiled ones, which play the same games about five times as fast. The sources stay the
reference: the compiled engine is tested to play exactly the games the plain Python one does
(tests/rules/test_compiled.py), and while a build is older than its sources the sources run
(rules/loader.py).

Compiling is a speed-up, never a requirement: on a machine without a working C compiler (or
Python's headers) the build says so and the install goes on with the plain Python engine. Set
CARDLAB_PURE_PYTHON=1 to skip compiling on purpose; the scripts set CARDLAB_BUILD_ENGINE=0 for
their `pip install` and build the engine in their own step, only when it is out of date.
"""

import os
import runpy
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The modules a simulated game spends its time in (listed in rules/loader.py, which
# imports only the standard library).
HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = list(runpy.run_path(os.path.join(HERE, "rules", "loader.py"))
              ["ENGINE_SOURCES"])

# mypyc type-checks what it compiles. The engine is typed where it matters for speed (its
# classes and their attributes); ability data stays plain dicts, whose lookups mypy cannot
# narrow, so these checks are left to the tests.
MYPY_OPTIONS = [
    "--config-file", os.devnull,
    "--python-version", "3.11",
    "--ignore-missing-imports",
    "--follow-imports", "silent",            # modules that stay Python are not checked here
    "--disable-error-code", "annotation-unchecked",
    "--disable-error-code", "union-attr",
    "--disable-error-code", "index",
    "--disable-error-code", "misc",
    "--disable-error-code", "arg-type",
    "--disable-error-code", "var-annotated",
    "--disable-error-code", "assignment",
    "--disable-error-code", "return-value",
    "--disable-error-code", "call-overload",
    "--disable-error-code", "operator",
]


def extensions() -> list:
    if os.environ.get("CARDLAB_PURE_PYTHON", "") not in ("", "0") \
            or os.environ.get("CARDLAB_BUILD_ENGINE") == "0":
        return []
    from mypyc.build import mypycify

    # The library the compiled modules share lives inside the package (not at the top level,
    # where only a process started in the project's folder would find it).
    return mypycify([*MYPY_OPTIONS, *ENGINE], opt_level="3", verbose=False,
                    group_name="rules.native")


class OptionalBuildExt(build_ext):
    """Builds the compiled engine, or none of it: after a failed compile no compiled module is
    left beside the sources (one without its shared library could not be imported, an older
    one would be stale) and the install carries on with the plain Python engine."""

    def build_extensions(self) -> None:
        try:
            super().build_extensions()
        except Exception as exc:  # any compiler or linker failure: fall back, say why
            for ext in self.extensions:
                for path in (self.get_ext_fullpath(ext.name),
                             os.path.join(HERE, self.get_ext_filename(ext.name))):
                    if os.path.exists(path):
                        os.remove(path)
            self.extensions = []     # nothing to copy beside the sources or to install
            print(f"cardlab: the engine was not compiled ({exc}); it runs as plain Python, "
                  "about five times slower", file=sys.stderr)


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
