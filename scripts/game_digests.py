"""Digests of seeded games of the planning agents, to show that a change played the same games:
run it from the root of two checkouts (say, a worktree of the commit before the change, built,
and this one) and compare what they print.

  python scripts/game_digests.py [N]

plays, on the core set and the test set, 4N lean–greedy, 2N greedy–lean, N lean–lean,
N lean–planner, 2N planner–greedy and N/2 planner–planner games over the ordered pairings of
their starter decks (every other game logged), and prints per configuration the winners and a
SHA-256 of each game's result, turns, actions, per-card figures and whole log, then one digest
of them all (the CPU seconds it took go to stderr).
"""

import hashlib
import itertools
import json
import os
import sys
import time

sys.path.insert(0, os.getcwd())  # run from the project root

from rules.ai.agents import make_agent  # noqa: E402
from rules.compiled import compiled_modules  # noqa: E402
from rules.decks.cardset import CORE_SET, TEST_SET, load_card_set  # noqa: E402
from rules.lab.match import game_seed, play_game  # noqa: E402

n = int(sys.argv[1]) if len(sys.argv) > 1 else 12
print("compiled modules:", len(compiled_modules()), file=sys.stderr)
whole = hashlib.sha256()
games = 0
t0 = time.process_time()
for path in (CORE_SET, TEST_SET):
    cs = load_card_set(path)
    names = sorted(cs.decks)
    pairs = list(itertools.permutations(names, 2))
    for agents, count in ((("lean", "greedy"), 4 * n), (("greedy", "lean"), 2 * n),
                          (("lean", "lean"), n), (("lean", "planner"), n),
                          (("planner", "greedy"), 2 * n), (("planner", "planner"), n // 2 or 1)):
        h = hashlib.sha256()
        a, b = make_agent(agents[0]), make_agent(agents[1])
        wins = []
        for i in range(count):
            da, db = pairs[i % len(pairs)]
            logged = i % 2 == 0
            r = play_game(cs.cards, cs.deck(da), cs.deck(db), seed=game_seed(11, i),
                          a_first=i % 3 != 0, agent_a=a, agent_b=b, log=logged)
            assert r.error is None, r.error
            rec = [r.winner, r.turns, r.actions, repr(r.usage),
                   json.dumps(r.log, sort_keys=True) if r.log else ""]
            h.update(json.dumps(rec).encode())
            wins.append(r.winner or "-")
            games += 1
        print(path.name, "-".join(agents), count, "".join(wins), h.hexdigest()[:16])
        whole.update(h.digest())
print("all", games, whole.hexdigest())
print(f"cpu {time.process_time() - t0:.1f}s", file=sys.stderr)
