"""How the engine is loaded: the compiled build while it is fresh, the sources otherwise.

An engine module edited after the last build runs at once as plain Python (every engine module
then comes from its source: a stale build is never run, nor mixed with edited sources), and the
scripts' build step compiles only when a source changed. The compiled build plays the very games
of the sources (tests/rules/test_compiled.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from rules.compiled import ENGINE_SOURCES, REPO_ROOT, build, compiled_modules

REPORT = r"""
import json
from rules.decks.cardset import TEST_SET, load_card_set
from rules.compiled import compiled_modules, describe
from rules.lab.match import run_match
card_set = load_card_set(TEST_SET)
stats = run_match(card_set.cards, card_set.deck("Dawn Test"), card_set.deck("Dusk Test"),
                  games=4, seed=3, agent_a="greedy")
print(json.dumps({"compiled": compiled_modules(), "describe": describe(),
                  "counts": stats.counts()}))
"""


def _report(cwd, **env) -> dict:
    done = subprocess.run([sys.executable, "-c", REPORT], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _copy_with_build(tmp_path):
    shutil.copytree(REPO_ROOT / "rules", tmp_path / "rules",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_cardlab_engine_python_runs_every_engine_module_from_its_source():
    report = _report(REPO_ROOT, CARDLAB_ENGINE="python")
    assert report["compiled"] == []
    assert report["describe"].startswith("plain Python")


def test_an_engine_module_edited_after_the_build_runs_the_whole_engine_from_source(tmp_path):
    if not compiled_modules():
        pytest.skip("the engine runs from its sources here (not compiled, or the build is stale)")
    root = _copy_with_build(tmp_path)
    fresh = _report(root, CARDLAB_ENGINE="")
    assert len(fresh["compiled"]) == len(ENGINE_SOURCES)
    edited = root / "rules" / "engine" / "combat.py"
    later = time.time() + 3600                          # edited after any build
    os.utime(edited, (later, later))
    stale = _report(root, CARDLAB_ENGINE="")
    assert stale["compiled"] == []
    assert "older than rules/engine/combat.py" in stale["describe"]
    assert stale["counts"] == fresh["counts"]          # the same games, from the sources


def test_a_module_compiled_by_an_older_build_but_no_longer_compiled_runs_its_source(tmp_path):
    shutil.copytree(REPO_ROOT / "rules", tmp_path / "rules",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    # An older build compiled rules/ai/agents.py; what is left of it must never be imported.
    (tmp_path / "rules" / "agents.cpython-311-x86_64-linux-gnu.so").write_bytes(b"not code")
    report = _report(tmp_path, CARDLAB_ENGINE="")
    assert report["counts"]["games"] == 4


def _fake_build(root, *, binary_age: float, source_age: float):
    for path in ENGINE_SOURCES:
        source = root / path
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("# an engine module\n")
        binary = source.with_name(f"{source.stem}.cpython-311-x86_64-linux-gnu.so")
        binary.write_bytes(b"")
        os.utime(source, (source_age, source_age))
        os.utime(binary, (binary_age, binary_age))


def test_the_build_step_compiles_nothing_while_the_build_is_fresh(tmp_path, monkeypatch):
    monkeypatch.delenv("CARDLAB_ENGINE", raising=False)
    monkeypatch.delenv("CARDLAB_PURE_PYTHON", raising=False)
    _fake_build(tmp_path, binary_age=2_000, source_age=1_000)
    assert build(tmp_path) is False


def test_the_build_step_compiles_nothing_when_the_sources_are_asked_for(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_ENGINE", "python")
    _fake_build(tmp_path, binary_age=1_000, source_age=2_000)      # stale, yet left alone
    assert build(tmp_path) is False
