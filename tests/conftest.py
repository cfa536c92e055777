"""Shared test fixtures. pytest-django configures Django from pyproject.toml."""

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    # A compiled engine module older than its source would test yesterday's engine.
    from rules.engine.compiled import STALE_MESSAGE, stale_modules

    stale = stale_modules()
    if stale:
        pytest.exit(STALE_MESSAGE.format(modules=", ".join(stale)), returncode=2)


@pytest.fixture
def repo_root() -> Path:
    """The project's root folder (where manage.py lives)."""
    return REPO_ROOT
