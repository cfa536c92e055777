"""The compiled engine (mypyc, see setup.py) plays exactly the games of its Python source.

The same script plays the same games twice in fresh interpreters: once on the installed
package (compiled modules beside the sources) and once on a copy of the sources alone. Results,
per-card usage and whole event logs must be identical. Skipped when the engine was installed
without compiling (CARDLAB_PURE_PYTHON=1): the rest of the suite then tests the Python source.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from rules.compiled import ENGINE_MODULES, REPO_ROOT, compiled_modules

PLAY = r"""
import hashlib, json
from rules.ai.agents import make_agent
from rules.decks.cardset import CORE_SET, TEST_SET, load_card_set
from rules.compiled import compiled_modules
from rules.lab.match import game_seed, play_game

out = {"compiled": compiled_modules(), "games": []}
for path in (CORE_SET, TEST_SET):
    card_set = load_card_set(path)
    decks = list(card_set.decks.values())
    for agents, count in ((("random", "random"), 24), (("greedy", "random"), 12),
                          (("greedy", "greedy"), 12), (("search", "greedy"), 1)):
        a, b = make_agent(agents[0]), make_agent(agents[1])
        for index in range(count):
            r = play_game(card_set.cards, decks[index % len(decks)],
                          decks[(index + 1) % len(decks)], seed=game_seed(7, index),
                          a_first=index % 2 == 0, agent_a=a, agent_b=b, log=index < 4)
            log = json.dumps(r.log, sort_keys=True) if r.log else ""
            out["games"].append([path.name, agents, r.winner, r.turns, r.actions, r.error,
                                 repr(r.usage), hashlib.sha256(log.encode()).hexdigest()])
print(json.dumps(out))
"""


def _play(cwd) -> dict:
    done = subprocess.run([sys.executable, "-c", PLAY], cwd=cwd, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_compiled_engine_plays_the_same_games_as_its_python_source(tmp_path):
    if not compiled_modules():
        pytest.skip("the engine is not compiled here (installed with CARDLAB_PURE_PYTHON=1)")
    shutil.copytree(REPO_ROOT / "rules", tmp_path / "rules",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    compiled, source = _play(REPO_ROOT), _play(tmp_path)
    assert compiled["compiled"] == list(ENGINE_MODULES)
    assert source["compiled"] == []
    assert len(compiled["games"]) == 98
    assert all(game[5] is None for game in compiled["games"])      # no engine errors
    assert compiled["games"] == source["games"]


def test_a_source_edited_after_compiling_is_reported_stale(tmp_path):
    import os

    from rules.compiled import stale_modules

    engine = tmp_path / "rules" / "engine"
    engine.mkdir(parents=True)
    source, binary = engine / "game.py", engine / "game.cpython-311-x86_64-linux-gnu.so"
    source.write_text("# the engine\n")
    binary.write_bytes(b"")
    os.utime(source, (1_000, 1_000))
    os.utime(binary, (2_000, 2_000))
    assert stale_modules(tmp_path) == []             # built after the last edit
    os.utime(source, (3_000, 3_000))
    assert stale_modules(tmp_path) == ["rules/engine/game.py"]


def _declared(path: str, class_name: str) -> list[str]:
    """The attributes a class of the engine declares: annotations, or its __slots__ tuple (read
    from the source, since compiled classes do not expose either)."""
    import ast

    tree = ast.parse((REPO_ROOT / path).read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    names = [n.target.id for n in cls.body if isinstance(n, ast.AnnAssign)]
    for node in cls.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "__slots__":
            names = list(ast.literal_eval(node.value))
    return names


def _assigned(path: str, class_name: str, method: str) -> list[str]:
    """The attributes a method of an engine class assigns on ``self`` (read from the source)."""
    import ast

    tree = ast.parse((REPO_ROOT / path).read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    func = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == method)
    names = []
    for node in ast.walk(func):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        names += [t.attr for t in targets if isinstance(t, ast.Attribute)
                  and isinstance(t.value, ast.Name) and t.value.id == "self"]
    return names


def test_game_copy_knows_every_declared_attribute():
    """Game.copy() copies every attribute of the state, each declared once in
    GameState._init_state: compiled, by the names mypyc lists for the native class (it has no
    __dict__); as plain Python, by the instance's __dict__. Both are exactly those."""
    from rules.decks.cardset import TEST_SET, load_card_set
    from rules.engine.core import state_attributes
    from rules.engine.game import Game

    test_set = load_card_set(TEST_SET)
    game = Game(test_set.cards, list(test_set.decks.values())[:2], seed=3)
    declared = _assigned("rules/engine/core.py", "GameState", "_init_state")
    assert sorted(state_attributes(game)) == sorted(declared)
    clone = game.copy()
    assert sorted(state_attributes(clone)) == sorted(declared)
    for name in declared:         # each set on the copy (compiled, an unset one cannot be read)
        getattr(clone, name)
    assert clone.snapshot() == game.snapshot()


def test_minion_and_player_copies_carry_every_field():
    """Minion.copy() and Player.copy() name their fields one by one: each field, changed from
    its default, comes through, and mutable ones are copied rather than shared."""
    from rules.decks.cardset import TEST_SET, load_card_set
    from rules.engine.state import Minion, Player

    test_set = load_card_set(TEST_SET)
    card = next(c for c in test_set.cards.values() if c.kind == "minion")
    hero = next(c for c in test_set.cards.values() if c.kind == "hero")
    minion, player = Minion(1, card), Player(0, hero, 5)
    changed = {bool: lambda v: not v, int: lambda v: v + 7,
               frozenset: lambda v: frozenset({"shield", "react"}), list: lambda v: [card]}
    for obj, name in [(minion, n) for n in _declared("rules/engine/state.py", "Minion")] + \
                     [(player, n) for n in _declared("rules/engine/state.py", "Player")]:
        value = getattr(obj, name)
        if name == "minions":
            setattr(obj, name, [minion, None, None, None, None])
        elif type(value) in changed:
            setattr(obj, name, changed[type(value)](value))
    for original, clone, fields in ((minion, minion.copy(), "Minion"),
                                    (player, player.copy(), "Player")):
        for name in _declared("rules/engine/state.py", fields):
            before, after = getattr(original, name), getattr(clone, name)
            if name == "minions":
                assert [m and m.uid for m in after] == [m and m.uid for m in before]
                assert after[0] is not before[0]
            else:
                assert after == before, name
                if isinstance(before, (set, list)):
                    assert after is not before, name


def test_a_build_dates_every_compiled_module_even_those_setuptools_left_alone(tmp_path):
    """The engine compiles as one group: a module's own library is a stub that setuptools
    leaves with its old date when only the group's shared code changed. After a build every
    module is dated anew, so an edited module is not reported stale forever."""
    import os

    from rules.loader import mark_built, stale_modules

    engine = tmp_path / "rules" / "engine"
    engine.mkdir(parents=True)
    source, binary = engine / "game.py", engine / "game.cpython-311-x86_64-linux-gnu.so"
    source.write_text("# the engine\n")
    binary.write_bytes(b"")
    os.utime(binary, (1_000, 1_000))                # the stub, untouched by the build
    os.utime(source, (2_000, 2_000))                # edited since
    assert stale_modules(tmp_path) == ["rules/engine/game.py"]
    mark_built(tmp_path)
    assert stale_modules(tmp_path) == []
