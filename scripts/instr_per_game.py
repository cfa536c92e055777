"""Instructions per simulated game: the engine's cost, independent of the machine.

Run under callgrind by ``scripts/instr_per_game.sh`` (which see); by itself it only plays:
  python scripts/instr_per_game.py AGENT GAMES [legacy]
plays a warm-up game, then about GAMES games of AGENT against itself over every ordered
pairing of the core set's starter decks (fewer than two a pairing: two on each of the first
GAMES / 2 pairings) through the match runner (``rules.lab.match.run_games``, per-card figures
included, logging off), and prints "GAMES ACTIONS". "legacy" plays every
optional skill unasked (ruleset option always_use_optional_skills): the games the engine
played before optional skills were a decision (R6.1), so figures stay comparable with older
builds.
"""

import itertools
import os
import sys

sys.path.insert(0, os.getcwd())  # run from the project root

from rules.decks.cardset import CORE_SET, load_card_set  # noqa: E402
from rules.lab.match import run_games  # noqa: E402

agent, games = sys.argv[1], int(sys.argv[2])
legacy = len(sys.argv) > 3 and sys.argv[3] == "legacy"
kw = {}
if legacy:
    from rules.engine.cards import Ruleset

    kw["ruleset"] = Ruleset(always_use_optional_skills=True)
cs = load_card_set(CORE_SET)
names = list(cs.decks)
pairs = list(itertools.permutations(names, 2))
run_games(cs.cards, cs.deck(names[0]), cs.deck(names[1]), seed=1, start=0, stop=2,
          agent_a=agent, agent_b=agent, **kw)
if games < 2 * len(pairs):     # a planning agent: two games on each of the first pairings
    pairs = pairs[:max(1, games // 2)]
per = max(2, games // len(pairs))
actions = 0
for i, (a, b) in enumerate(pairs):
    stats, _ = run_games(cs.cards, cs.deck(a), cs.deck(b), seed=100 + i, start=0, stop=per,
                         agent_a=agent, agent_b=agent, **kw)
    actions += stats.actions
print(per * len(pairs), actions)
