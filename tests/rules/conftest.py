"""The engine's rule tests are plain pytest (no Django). Their shared helpers live in
``helpers.py`` beside this file and are imported as ``tests.rules.helpers``: make sure the
repository root is importable even when pytest runs as a script, not ``python -m pytest``."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
