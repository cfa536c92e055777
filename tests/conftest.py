"""Shared test fixtures. pytest-django configures Django from pyproject.toml."""

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def repo_root() -> Path:
    """The project's root folder (where manage.py lives)."""
    return REPO_ROOT
