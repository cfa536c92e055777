"""A new keyword is three files: its registry entry (both names and its rule, in
``rules/engine/keywords.py``), its handler, its test (docs/adding-terms.md). This test registers a
toy keyword the way that entry does — before the site is imported — and runs the page checks of
``toy_keyword_pages.py`` in a pytest process of its own, so no module can have read the registry
before the keyword was in it (a module that copies or zips the registry at import fails here)."""

from __future__ import annotations

import os
import subprocess
import sys

PAGES = "tests/cards/toy_keyword_pages.py"


def test_a_keyword_registered_before_the_site_is_imported_is_named_on_every_page(
        repo_root, tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
           "PYTHONPATH": str(repo_root)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.toy_keyword", PAGES, "-p", "no:randomly",
         "-p", "no:cacheprovider", "-o", "addopts=--import-mode=importlib -p no:locust"],
        cwd=repo_root, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "8 passed" in run.stdout
