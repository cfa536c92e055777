"""The engine README's worked example is a program: it must run as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "rules" / "engine" / "README.md"


def test_worked_example_runs():
    """Rule: R4.8, R2.3.3 — the README example: a shield cancels the advantage."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the engine README has no python example"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})
